package server

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// PieceMoves is one piece type of a variant with where it goes from a
// centre square of an otherwise empty board, as the rules generate it
// (GET /api/variants/{name}/pieces): the rules page draws its diagram
// from this, so no variant's pieces are described twice.
type PieceMoves struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Betza  string `json:"betza"`
	Royal  bool   `json:"royal,omitempty"`
	// From is the centre square the piece stands on, as White.
	From string `json:"from"`
	// Moves are the squares it may move to on the empty board.
	Moves []string `json:"moves"`
	// Captures are the squares where it may capture an enemy piece
	// standing there alone.
	Captures []string `json:"captures"`
}

// PiecesInfo answers GET /api/variants/{name}/pieces.
type PiecesInfo struct {
	Variant string       `json:"variant"`
	Files   int          `json:"files"`
	Ranks   int          `json:"ranks"`
	Pieces  []PieceMoves `json:"pieces"`
}

// handlePieces answers every piece type of a variant with its moves and
// captures from a centre square.
func (s *Server) handlePieces(w http.ResponseWriter, r *http.Request) {
	v, err := s.reg.Get(r.PathValue("name"))
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown_variant", fmt.Errorf("%w: %w", errUnknownVariant, err))
		return
	}
	info, err := variantPieces(v)
	if err != nil {
		s.logf("server: pieces of %s: %v", v.Name(), err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the pieces could not be listed"))
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// variantPieces lists v's piece types with their moves from the centre,
// leaving out the types that go nowhere (the unused slots of a per-game
// type table).
func variantPieces(v *rules.Variant) (*PiecesInfo, error) {
	b := v.Board()
	out := &PiecesInfo{Variant: v.Name(), Files: b.Files, Ranks: b.Ranks, Pieces: []PieceMoves{}}
	for t := 1; t <= v.NumTypes(); t++ {
		pm, err := pieceMoves(v, rules.Type(t))
		if err != nil {
			return nil, err
		}
		if len(pm.Moves) == 0 && len(pm.Captures) == 0 {
			continue // a type that goes nowhere: a slot of a per-game type table left unused
		}
		out.Pieces = append(out.Pieces, pm)
	}
	return out, nil
}

// emptyBoard returns v's start position with every piece taken off the
// board, White to move: the variant's state (a per-game type table, say)
// stays as the start has it.
func emptyBoard(v *rules.Variant) *rules.Position {
	p := v.Start()
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, sq := range slices.Clone(p.Pieces(c)) {
			p.Remove(sq)
		}
	}
	p.SetTurnState(rules.White, 0, 0)
	return p
}

// centre returns the square nearest the middle of b that is on the board
// (the lower-left of the four middle squares of an even board: d4 on 8x8).
func centre(b geom.Board) (geom.Square, error) {
	best, found := geom.Square(0), false
	bestD := 0
	cf, cr := (b.Files-1)/2, (b.Ranks-1)/2
	for _, sq := range b.Squares() {
		d := (sq.File()-cf)*(sq.File()-cf) + (sq.Rank()-cr)*(sq.Rank()-cr)
		if !found || d < bestD {
			best, bestD, found = sq, d, true
		}
	}
	if !found {
		return 0, errors.New("the board has no square")
	}
	return best, nil
}

// pieceMoves generates a white piece of type t's moves from the centre of
// an empty board: its moves with the board empty, and its captures by
// putting a black piece it may capture on each other square in turn.
// Moves of the variant's own kinds that a hook adds are counted where
// they start on the piece's square and end on a square.
func pieceMoves(v *rules.Variant, t rules.Type) (PieceMoves, error) {
	ps := v.PieceSpec(t)
	pm := PieceMoves{Letter: string(ps.Letter), Name: ps.Name, Betza: ps.Betza, Royal: ps.Royal,
		Moves: []string{}, Captures: []string{}}
	b := v.Board()
	from, err := centre(b)
	if err != nil {
		return pm, err
	}
	pm.From = from.String()
	// fresh returns the empty board with the piece on from, and the
	// pieces of others put on their squares; nil if one cannot stand there.
	fresh := func(others map[geom.Square]rules.Piece) *rules.Position {
		p := emptyBoard(v)
		if !p.Put(from, rules.MakePiece(rules.White, t)) {
			return nil
		}
		for sq, pc := range others {
			if !p.Put(sq, pc) {
				return nil
			}
		}
		return p
	}
	p := fresh(nil)
	if p == nil {
		return pm, fmt.Errorf("%s: %s cannot stand on %s", v.Name(), ps.Name, from)
	}
	for _, pt := range face.Describe(v, p).Types {
		if pt.Letter == string(ps.Letter) && pt.Movement != "" {
			pm.Betza = pt.Movement // the movement the game gives the type (a design)
			break
		}
	}
	buf := make([]rules.Move, 0, rules.MaxMoves)
	reach := func(p *rules.Position, to geom.Square) bool {
		buf = p.PseudoLegalMoves(buf[:0])
		for _, m := range buf {
			if m.From() == from && m.Kind() != rules.Drop && m.Kind() != rules.Castle && (to == from || m.To() == to) {
				return true
			}
		}
		return false
	}
	var keep []string
	if !reach(p, from) {
		// The rules may end a game without the royal pieces, and a hook
		// then generate nothing: put them back out of the piece's way.
		q, sqs := withRoyals(v, from, t, fresh, func(q *rules.Position) bool { return reach(q, from) })
		if q != nil {
			p, keep = q, sqs
		}
	}
	seen := map[geom.Square]bool{}
	buf = p.PseudoLegalMoves(buf[:0])
	for _, m := range buf {
		if m.From() == from && m.Kind() != rules.Drop && m.Kind() != rules.Castle && b.Contains(m.To()) && m.To() != from && !seen[m.To()] {
			seen[m.To()] = true
			pm.Moves = append(pm.Moves, m.To().String())
		}
	}
	victim := victimFor(v, t)
	if victim != 0 {
		for _, sq := range b.Squares() {
			if sq == from || p.At(sq) != 0 || !p.Put(sq, rules.MakePiece(rules.Black, victim)) {
				continue
			}
			if reach(p, sq) {
				pm.Captures = append(pm.Captures, sq.String())
			}
			p.Remove(sq)
		}
	}
	pm.Moves, pm.Captures = without(pm.Moves, keep), without(pm.Captures, keep)
	slices.Sort(pm.Moves)
	slices.Sort(pm.Captures)
	return pm, nil
}

// victimFor returns a type that t may capture, a piece that is not royal
// if there is one (a royal victim could make the rules end the game), or
// 0 if t captures nothing.
func victimFor(v *rules.Variant, t rules.Type) rules.Type {
	var royal rules.Type
	for u := 1; u <= v.NumTypes(); u++ {
		if !v.CanCapture(t, rules.Type(u)) {
			continue
		}
		if !v.Royal(rules.Type(u)) {
			return rules.Type(u)
		}
		if royal == 0 {
			royal = rules.Type(u)
		}
	}
	return royal
}

// withRoyals returns the position fresh makes with a piece of each side
// that the rules need for the game to go on (a royal piece, or the piece
// whose loss ends the game where a hook decides that), on squares out of
// line with from: not on its rank, file or diagonals, nor a knight's or a
// camel's leap away, as far from it as the board allows; of the first
// type (royal types first) with which moves says the piece moves. White's
// is not put if t, the piece shown, is of that type. It returns their
// squares too; nil if no type makes the piece move.
func withRoyals(v *rules.Variant, from geom.Square, t rules.Type, fresh func(map[geom.Square]rules.Piece) *rules.Position, moves func(*rules.Position) bool) (*rules.Position, []string) {
	var spots []geom.Square
	for _, sq := range v.Board().Squares() {
		dx, dy := abs(sq.File()-from.File()), abs(sq.Rank()-from.Rank())
		if dx == 0 || dy == 0 || dx == dy || min(dx, dy) == 1 && max(dx, dy) <= 3 {
			continue
		}
		spots = append(spots, sq)
	}
	slices.SortStableFunc(spots, func(a, b geom.Square) int {
		da := abs(a.File()-from.File()) + abs(a.Rank()-from.Rank())
		db := abs(b.File()-from.File()) + abs(b.Rank()-from.Rank())
		return db - da
	})
	if len(spots) < 2 {
		return nil, nil
	}
	var types []rules.Type // royal types first, then the others
	for u := 1; u <= v.NumTypes(); u++ {
		if v.Royal(rules.Type(u)) {
			types = append(types, rules.Type(u))
		}
	}
	for u := 1; u <= v.NumTypes(); u++ {
		if !v.Royal(rules.Type(u)) {
			types = append(types, rules.Type(u))
		}
	}
	for _, u := range types {
		others := map[geom.Square]rules.Piece{spots[0]: rules.MakePiece(rules.Black, u)}
		keep := []string{spots[0].String()}
		if u != t {
			others[spots[1]] = rules.MakePiece(rules.White, u)
			keep = append(keep, spots[1].String())
		}
		if p := fresh(others); p != nil && moves(p) {
			return p, keep
		}
	}
	return nil, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// without returns list without the squares of drop.
func without(list, drop []string) []string {
	return slices.DeleteFunc(list, func(s string) bool { return slices.Contains(drop, s) })
}
