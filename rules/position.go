package rules

import (
	"fmt"

	"github.com/anychess/anychess/geom"
)

// MaxPieces is the most pieces one side may have on the board.
const MaxPieces = 255

// Position is a game position with its history: the board, the side to move,
// castling and en-passant rights, move counters, reserves, money, turn-state
// counters and variant State, plus an undo stack so that Make and Unmake
// are exact inverses. The zero Position is not usable; get one from
// Variant.Start or Variant.ParseFEN.
//
// A Position is not safe for concurrent use; Clone it for another goroutine.
type Position struct {
	v     *Variant
	board [geom.Cells]Piece

	// piece lists: list[c][:n[c]] are the squares of c's pieces; index[s]
	// is the place of square s in its list.
	list  [2][MaxPieces]geom.Square
	n     [2]int
	index [geom.Cells]uint8
	count [2][MaxTypes + 1]int16
	king  [2]geom.Square // the royal square when a side has exactly one royal

	turn       Color
	phase      uint8 // variant turn phase (several decisions in a row)
	counter    uint8 // variant turn counter (for example tries used)
	castle     uint8 // rights: bit 0 white kingside, 1 white queenside, 2 black kingside, 3 black queenside
	castleRook [4]geom.Square
	castleMask [geom.Cells]uint8 // rights lost when a piece leaves or enters a square
	ep         geom.Square       // en-passant target, only when a legal capture exists
	epVictim   geom.Square       // the pawn an en-passant capture removes
	halfmove   int               // plies since the last capture or pawn move
	ply        int               // plies since the game's first position (from the FEN's move number)
	startPly   int               // ply of the position the game started from (read from FEN or set up)

	pocket [2][MaxTypes + 1]uint8 // reserves
	money  [2]int32
	state  State

	hash uint64 // Zobrist key of board, turn, castling and en passant
	hist []undo
	// spare is a move buffer for the methods that list moves only to look
	// at them (Playable, HasLegalMove); nil while one of them uses it.
	spare []Move

	// scratch for legal move generation
	mark  [geom.Cells]uint32
	stamp uint32
}

// undo is what Unmake needs to reverse one Make.
type undo struct {
	move     Move
	outcome  uint8
	captured Piece
	capIndex uint8
	promoted Piece  // the piece before promotion
	hash     uint64 // Hash() before the move
	zhash    uint64 // the incremental key before the move
	halfmove int32
	ply      int32
	ep       geom.Square
	epVictim geom.Square
	castle   uint8
	turn     Color
	phase    uint8
	counter  uint8
	money    [2]int32
}

// Variant returns the position's variant.
func (p *Position) Variant() *Variant { return p.v }

// At returns the content of square s: a piece, Empty, or Wall for holes and
// squares off the board.
func (p *Position) At(s geom.Square) Piece {
	if int(s) >= len(p.board) {
		return Wall
	}
	return p.board[s]
}

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// Phase returns the variant turn phase (0 for standard variants).
func (p *Position) Phase() uint8 { return p.phase }

// Counter returns the variant turn counter (0 for standard variants).
func (p *Position) Counter() uint8 { return p.counter }

// SetTurnState sets the side to move, phase and counter. Hooks use it for
// turns with several decisions; Unmake restores the previous values.
func (p *Position) SetTurnState(c Color, phase, counter uint8) {
	if c != p.turn {
		p.hash ^= p.v.z.side
	}
	p.hash ^= turnStateKey(p.phase, p.counter) ^ turnStateKey(phase, counter)
	p.turn, p.phase, p.counter = c, phase, counter
}

// Castling returns the castling rights as a bit set: bit 0 white kingside,
// 1 white queenside, 2 black kingside, 3 black queenside.
func (p *Position) Castling() uint8 { return p.castle }

// CastlingRook returns the rook square of castling right i (0..3), or
// NoSquare.
func (p *Position) CastlingRook(i int) geom.Square {
	if p.castle&(1<<i) == 0 {
		return geom.NoSquare
	}
	return p.castleRook[i]
}

// EnPassant returns the en-passant target square, or NoSquare. It is set
// only when the side to move has a legal en-passant capture.
func (p *Position) EnPassant() geom.Square { return p.ep }

// Halfmove returns the plies since the last capture or pawn move.
func (p *Position) Halfmove() int { return p.halfmove }

// Fullmove returns the move number, as in FEN.
func (p *Position) Fullmove() int { return p.ply/2 + 1 }

// Ply returns the number of plies since the start of the game.
func (p *Position) Ply() int { return p.ply }

// Played returns the plies played in this game: since the position it
// started from, the one read from FEN or set up, whatever move number that
// position had. A move cap (EndSpec.MoveCap) counts these. FEN does not
// carry the count: a position read from FEN starts a game, and a game
// record replays its plies from its start.
func (p *Position) Played() int { return p.ply - p.startPly }

// Pocket returns how many pieces of type t colour c has in reserve.
func (p *Position) Pocket(c Color, t Type) int { return int(p.pocket[c][t]) }

// SetPocket sets the reserve count of colour c and type t.
func (p *Position) SetPocket(c Color, t Type, n int) {
	p.hash ^= pocketKey(int(c), int(t), p.pocket[c][t]) ^ pocketKey(int(c), int(t), uint8(n))
	p.pocket[c][t] = uint8(n)
}

// Money returns the treasury of colour c.
func (p *Position) Money(c Color) int { return int(p.money[c]) }

// SetMoney sets the treasury of colour c. Unmake restores it.
func (p *Position) SetMoney(c Color, n int) {
	p.hash ^= moneyKey(int(c), p.money[c]) ^ moneyKey(int(c), int32(n))
	p.money[c] = int32(n)
}

// State returns the variant state, or nil.
func (p *Position) State() State { return p.state }

// SetState replaces the variant state.
func (p *Position) SetState(s State) { p.state = s }

// Count returns the number of pieces of colour c and type t on the board.
func (p *Position) Count(c Color, t Type) int { return int(p.count[c][t]) }

// Pieces returns the squares of c's pieces, in no particular order. The
// slice is valid until the position changes.
func (p *Position) Pieces(c Color) []geom.Square { return p.list[c][:p.n[c]] }

// Hash returns the position key: board, side to move, castling and
// en-passant rights, reserves, money, turn state and variant state. Equal
// positions have equal keys.
func (p *Position) Hash() uint64 {
	if p.state != nil {
		return p.hash ^ p.state.Hash()
	}
	return p.hash
}

// Clone returns a deep copy of p, history included.
func (p *Position) Clone() *Position {
	q := new(Position)
	*q = *p
	q.hist = append([]undo(nil), p.hist...)
	q.spare = nil
	if p.state != nil {
		q.state = p.state.Clone()
	}
	return q
}

// On returns a copy of p, history included, as a position of v, which
// must have p's rules (Variant.SameRules: p's variant or a copy of it by
// WithFace or WithWeights), so that an engine sees p with v's weights.
func (p *Position) On(v *Variant) (*Position, error) {
	if v == nil {
		return nil, fmt.Errorf("%w: a position of %s on no variant", ErrSpec, p.v.Name())
	}
	if !p.v.SameRules(v) {
		return nil, fmt.Errorf("%w: a position of %s cannot be one of %s: the variants are compiled apart", ErrSpec, p.v.Name(), v.Name())
	}
	q := p.Clone()
	q.v = v
	return q, nil
}

// newPosition returns an empty position of v: walls everywhere off the board.
func (v *Variant) newPosition() *Position {
	p := &Position{v: v}
	for i := range p.board {
		p.board[i] = Wall
	}
	for _, s := range v.board.Squares() {
		p.board[s] = Empty
	}
	p.hist = make([]undo, 0, 64)
	return p
}

// The primitives below change board, piece lists and counts; the caller
// keeps the hash.

// put places pc on the empty square s.
func (p *Position) put(s geom.Square, pc Piece) {
	c := pc.Color()
	i := p.n[c]
	p.list[c][i] = s
	p.index[s] = uint8(i)
	p.n[c]++
	p.board[s] = pc
	p.count[c][pc.Type()]++
	if p.v.royalMask&(1<<pc.Type()) != 0 {
		p.king[c] = s
	}
}

// remove takes the piece off s and returns its place in the list.
func (p *Position) remove(s geom.Square) uint8 {
	pc := p.board[s]
	c := pc.Color()
	i := p.index[s]
	last := p.n[c] - 1
	ls := p.list[c][last]
	p.list[c][i] = ls
	p.index[ls] = i
	p.n[c] = last
	p.board[s] = Empty
	p.count[c][pc.Type()]--
	return i
}

// restore puts pc back on s at place i of its list, reversing remove.
func (p *Position) restore(s geom.Square, pc Piece, i uint8) {
	c := pc.Color()
	last := p.n[c]
	if int(i) != int(last) { // the piece that took place i goes back to the end
		ms := p.list[c][i]
		p.list[c][last] = ms
		p.index[ms] = uint8(last)
	}
	p.list[c][i] = s
	p.index[s] = i
	p.n[c]++
	p.board[s] = pc
	p.count[c][pc.Type()]++
	if p.v.royalMask&(1<<pc.Type()) != 0 {
		p.king[c] = s
	}
}

// relocate moves the piece on from to the empty square to.
func (p *Position) relocate(from, to geom.Square) {
	pc := p.board[from]
	c := pc.Color()
	i := p.index[from]
	p.list[c][i] = to
	p.index[to] = i
	p.board[to] = pc
	p.board[from] = Empty
	if p.v.royalMask&(1<<pc.Type()) != 0 {
		p.king[c] = to
	}
}

// replace changes the piece on s (same colour) to pc.
func (p *Position) replace(s geom.Square, pc Piece) {
	old := p.board[s]
	c := old.Color()
	p.count[c][old.Type()]--
	p.count[c][pc.Type()]++
	p.board[s] = pc
}

// royalCount returns the number of royal pieces colour c has on the board.
func (p *Position) royalCount(c Color) int {
	n := 0
	for _, t := range p.v.royalTypes {
		n += int(p.count[c][t])
	}
	return n
}

// Bare reports whether side c has a bare king: royal pieces alone on the
// board and nothing in hand, so that it can no longer mate. A player whose
// time runs out against a bare king draws. A variant whose royalty or
// material lies in its own rules answers through its BareJudge; without
// one, a variant without royal pieces has no bare king.
func (p *Position) Bare(c Color) bool {
	if h := p.v.h.bare; h != nil {
		return h.Bare(p, c)
	}
	if p.v.royalMask == 0 || p.n[c] == 0 || p.n[c] != p.royalCount(c) {
		return false
	}
	for t := 1; t <= p.v.NumTypes(); t++ {
		if p.Pocket(c, Type(t)) > 0 {
			return false
		}
	}
	return true
}

// Put places a piece on an empty square. Hooks use it for effects the core
// does not know (Unmake does not undo it; AfterUnmake must). It reports
// false if s is not an empty square or the side has MaxPieces pieces.
func (p *Position) Put(s geom.Square, pc Piece) bool {
	if p.At(s) != Empty || !pc.IsPiece() || int(pc.Type()) > p.v.NumTypes() || pc.Type() == 0 || p.n[pc.Color()] >= MaxPieces {
		return false
	}
	p.put(s, pc)
	p.hash ^= p.v.z.pieceKey(pc, s)
	return true
}

// Remove takes the piece off s (see Put).
func (p *Position) Remove(s geom.Square) bool {
	pc := p.At(s)
	if !pc.IsPiece() {
		return false
	}
	p.remove(s)
	p.hash ^= p.v.z.pieceKey(pc, s)
	return true
}

// LastMove returns the last move made on p (by Make or MakeOutcome) and
// its outcome; ok is false when no move has been made on p since it was
// set up (a position read from FEN has no history).
func (p *Position) LastMove() (m Move, outcome int, ok bool) {
	if len(p.hist) == 0 {
		return NoMove, 0, false
	}
	u := &p.hist[len(p.hist)-1]
	return u.move, int(u.outcome), true
}

// LastCaptured returns the piece the last move made on p took (Empty if it
// took none, or if no move has been made on p): hooks that follow the
// material, such as makruk's counting, read it in AfterMake.
func (p *Position) LastCaptured() Piece {
	if len(p.hist) == 0 {
		return Empty
	}
	return p.hist[len(p.hist)-1].captured
}
