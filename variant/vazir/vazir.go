// Package vazir implements Vazir, chess with ranked pieces and capture
// attempts decided by chance, as hooks on the built-in chess variant.
//
// The rules are those of the project's rules specification, vazir.md
// (rule IDs VZ-1..VZ-22, test vectors V1..V13). In short:
//
//   - every piece carries a rank 0..9, stored as the piece attribute
//     (rules.Piece.Attr), hashed by the core (VZ-2);
//   - every capture is an attempt that succeeds with the exact probability
//     (a+1)/(a+d+1) (VZ-4, VZ-5), certain when d = 0 or under the 100% rule
//     (VZ-6, VZ-14); Position.Outcomes lists "hit" then "miss", and
//     MakeOutcome(m, 1) is a failed try that leaves the board alone (VZ-8);
//   - a turn allows MPT failed tries (VZ-10): the try count is the core's
//     turn counter, and the VZ-15b extra king move is the turn phase
//     PhaseExtra; a turn that ends in check with no escape is lost (VZ-15a);
//   - a promoted piece gets the rank max(r-round(w/2), 0) (VZ-18..VZ-21).
//
// Positions are read and written as RFEN (section 1.9) by ParseRFEN and
// RFEN. Initial ranks are set by InitRanks from an injected Roller; the
// package has no global random source and no global mutable state.
package vazir

import (
	"fmt"
	"math"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// MaxRank is the highest rank (VZ-2).
const MaxRank = 9

// PhaseExtra is the turn phase of the VZ-15b extra king move. In phase 0
// the turn counter is the number of failed tries of the current turn; a
// position in phase 0 whose counter has reached MPT with the side to move in
// check is lost by that side (VZ-15a).
const PhaseExtra uint8 = 1

// The outcome labels of a capture attempt.
const (
	Hit  = "hit"
	Miss = "miss"
)

// state is the Vazir variant state: the square of the failed target under
// SameTargetOnly. (The en-passant right survives failed tries in the core,
// VZ-8.) It keeps its own undo stack, since the core leaves State to the
// hooks.
type state struct {
	cur   stateVals
	stack []stateVals
}

type stateVals struct {
	target geom.Square // SameTargetOnly: the victim square of the failed tries; hashed
	// promoX is the square of the piece that the promotion rank change
	// moved in the piece list, so that AfterUnmake can put it back.
	promoX geom.Square
}

// Clone returns a deep copy.
func (s *state) Clone() rules.State {
	return &state{cur: s.cur, stack: append([]stateVals(nil), s.stack...)}
}

// Hash mixes the target; the empty state hashes to 0, like a position
// without state.
func (s *state) Hash() uint64 {
	if s.cur.target != geom.NoSquare {
		return mix(0x7a1 + uint64(s.cur.target))
	}
	return 0
}

// String returns the extra text of the RFEN turn-state field: "@sq" for a
// SameTargetOnly target, or "".
func (s *state) String() string {
	if s.cur.target != geom.NoSquare {
		return "@" + s.cur.target.String()
	}
	return ""
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// stateOf returns the position's Vazir state, creating an empty one.
func stateOf(p *rules.Position) *state {
	if s, ok := p.State().(*state); ok {
		return s
	}
	s := &state{}
	p.SetState(s)
	return s
}

// vazir is the variant's own rules object (rules.Spec.Ext): its methods
// are the Vazir rules, over the options it holds.
type vazir struct {
	o Options
}

// New returns the Vazir variant with the given options, built on the
// built-in chess variant. Its start position has every rank 0; give ranks
// with InitRanks or read a ranked position with ParseRFEN.
func New(opts Options) (*rules.Variant, error) {
	o, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	s, err := variant.ChessSpec()
	if err != nil {
		return nil, fmt.Errorf("vazir: %w", err)
	}
	s.Name, s.Aliases, s.Title = "vazir", nil, "Vazir"
	s.Description = "Chess with ranked pieces: every capture is an attempt that succeeds with " +
		"probability (a+1)/(a+d+1); a player has a limited number of tries per turn."
	s.Ranked = true
	// Chess's learned evaluation weights were learned without ranks and
	// chance: Vazir takes its own (data/weights/vazir.toml), or else the
	// hand-set evaluation; chess's network, which corrects chess's
	// weights, is not Vazir's.
	if s.Weights, err = variant.WeightsOf(s.Name); err != nil {
		return nil, fmt.Errorf("vazir: %w", err)
	}
	s.Network = nil
	z := &vazir{o: o}
	s.Ext = z

	v, err := rules.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("vazir: %w", err)
	}
	return v, nil
}

// Options returns the game's options as R-PGN tags.
func (z *vazir) Options() []rules.Option {
	return rules.OptionsOf(z.o.Tags())
}

// AllOptions returns the game's options: its records write them all.
func (z *vazir) AllOptions() []rules.Option { return z.Options() }

// FEN writes a position in RFEN (rules.FENText).
func (z *vazir) FEN(p *rules.Position) string { return RFEN(p) }

// ParseFEN reads a position of v in RFEN (rules.FENText).
func (z *vazir) ParseFEN(v *rules.Variant, s string) (*rules.Position, error) { return ParseRFEN(v, s) }

// Configure returns Vazir with z's options changed by the option tags
// among tags.
func (z *vazir) Configure(tags map[string]string) (*rules.Variant, error) {
	o := z.o
	for k, v := range tags {
		if _, err := o.SetTag(k, v); err != nil {
			return nil, err
		}
	}
	return New(o)
}

// Setup draws the initial ranks as the RankInit option says (VZ-3).
func (z *vazir) Setup(v *rules.Variant, r rules.Roller) (*rules.Position, error) {
	return StartPosition(v, z.o.RankInit, r)
}

// Probability returns the exact success probability of a capture by a piece
// of rank a of a piece of rank d (VZ-4): (a+1)/(a+d+1). The fraction is not
// reduced, so the denominator is the size of the VZ-5 die. Ranks are
// expected in 0..MaxRank.
func Probability(a, d int) (num, den uint32) {
	return uint32(a + 1), uint32(a + d + 1)
}

// PromotionRank returns the rank of a piece promoted from a pawn of rank r
// to the piece with the given upper-case letter (VZ-18..VZ-20).
func PromotionRank(r int, letter byte, rounding Rounding) int {
	var w float64
	switch letter {
	case 'Q':
		w = 9
	case 'R':
		w = 5
	case 'B', 'N':
		w = 3
	default:
		return r
	}
	var half float64
	if rounding == HalfEven {
		half = math.RoundToEven(w / 2)
	} else {
		half = math.Round(w / 2)
	}
	return max(r-int(half), 0)
}

// victim returns the square of the piece m would capture, or NoSquare.
func victim(p *rules.Position, m rules.Move) geom.Square {
	switch m.Kind() {
	case rules.EnPassant:
		return m.Aux()
	case rules.Normal, rules.Promotion:
		if p.At(m.To()).IsPiece() {
			return m.To()
		}
	}
	return geom.NoSquare
}

// kingSquare returns the square of c's king.
func kingSquare(p *rules.Position, c rules.Color) geom.Square {
	v := p.Variant()
	for _, s := range p.Pieces(c) {
		if v.Royal(p.At(s).Type()) {
			return s
		}
	}
	return geom.NoSquare
}

// checkers returns the squares of the pieces giving check to the side to move.
func checkers(p *rules.Position) []geom.Square {
	us := p.Turn()
	k := kingSquare(p, us)
	if k == geom.NoSquare {
		return nil
	}
	return p.Attackers(nil, k, us.Other(), p.At(k).Type())
}

// fideMoves returns the legal moves of the position as at the start of a
// turn (phase 0, no tries), without the restrictions of failed tries.
func fideMoves(p *rules.Position) []rules.Move {
	us, ph, ct := p.Turn(), p.Phase(), p.Counter()
	if ph == 0 && ct == 0 {
		return p.LegalMoves(nil)
	}
	p.SetTurnState(us, 0, 0)
	ms := p.LegalMoves(nil)
	p.SetTurnState(us, ph, ct)
	return ms
}

// Generate restricts moves after failed tries (VZ-11) and in the extra
// move (VZ-15b).
func (z *vazir) Generate(p *rules.Position, moves []rules.Move) []rules.Move {
	ph, ct := p.Phase(), p.Counter()
	if ph == 0 && ct == 0 {
		return moves
	}
	st := stateOf(p)
	keep := moves[:0]
	for _, m := range moves {
		if z.allowed(p, m, st) {
			keep = append(keep, m)
		}
	}
	return keep
}

// allowed reports whether a pseudo-legal m may be played in the current
// turn state.
func (z *vazir) allowed(p *rules.Position, m rules.Move, st *state) bool {
	if p.Phase() == PhaseExtra {
		if z.o.ExtraMoveScope == AnyEvasion {
			return true
		}
		return m.Kind() != rules.Castle && m.Kind() != rules.Drop && m.Kind() != rules.Special &&
			p.Variant().Royal(p.At(m.From()).Type())
	}
	vs := victim(p, m)
	if vs == geom.NoSquare {
		return z.o.QuietAfterFail
	}
	if z.o.SameTargetOnly && st.cur.target != geom.NoSquare {
		return vs == st.cur.target
	}
	return true
}

// certain reports whether the capture m succeeds surely by VZ-14 or by the
// VZ-15b extra-move rule.
func (z *vazir) certain(p *rules.Position, m rules.Move) bool {
	v := p.Variant()
	isKing := v.Royal(p.At(m.From()).Type())
	if p.Phase() == PhaseExtra && z.o.ExtraMoveCapturesCertain && (isKing || z.o.ExtraMoveScope == AnyEvasion) {
		return true
	}
	if !isKing || !p.InCheck() {
		return false
	}
	chk := checkers(p)
	isChecker := func(s geom.Square) bool {
		for _, c := range chk {
			if c == s {
				return true
			}
		}
		return false
	}
	if !isChecker(victim(p, m)) {
		return false
	}
	k := m.From()
	n := 0
	for _, mv := range fideMoves(p) {
		kingMove := mv.From() == k && mv.Kind() != rules.Drop
		if !kingMove && z.o.HundredPercentScope == KingMovesOnly {
			continue
		}
		if !kingMove || !isChecker(victim(p, mv)) {
			return false
		}
		n++
	}
	return n > 0
}

// Outcomes gives a capture its two outcomes, hit and miss, as exact
// fractions (VZ-4, VZ-5), or one certain outcome when P = 1 (VZ-6).
func (z *vazir) Outcomes(p *rules.Position, m rules.Move) []rules.Outcome {
	vs := victim(p, m)
	if vs == geom.NoSquare {
		return nil
	}
	a, d := int(p.At(m.From()).Attr()), int(p.At(vs).Attr())
	if d == 0 || z.certain(p, m) {
		return nil
	}
	num, den := Probability(a, d)
	return []rules.Outcome{{Num: num, Den: den, Label: Hit}, {Num: den - num, Den: den, Label: Miss, Mark: FailMark}}
}

// AfterMake applies the Vazir effects of a move: the promotion rank on a
// success, the try counter and the end of the turn on a failure.
func (z *vazir) AfterMake(p *rules.Position, m rules.Move, outcome int) {
	st := stateOf(p)
	st.stack = append(st.stack, st.cur)
	if outcome == 0 {
		// The core passed the turn; a new turn starts with no tries.
		p.SetTurnState(p.Turn(), 0, 0)
		st.cur = stateVals{}
		if m.Kind() == rules.Promotion {
			s := m.To()
			pc := p.At(s)
			r := PromotionRank(int(pc.Attr()), p.Variant().Letter(pc.Type()), z.o.PromotionRounding)
			if r != int(pc.Attr()) {
				ps := p.Pieces(pc.Color())
				last := ps[len(ps)-1]
				p.Remove(s)
				p.Put(s, pc.WithAttr(uint16(r)))
				if last != s {
					st.cur.promoX = last
				}
			}
		}
		return
	}
	// A failed try (VZ-8): board and turn are unchanged.
	us := p.Turn()
	if p.Phase() == PhaseExtra {
		// Only without ExtraMoveCapturesCertain: the escape failed and
		// the king stays in check with no move left (VZ-15a reading).
		p.SetTurnState(us, 0, uint8(z.o.MPT))
		return
	}
	if z.o.SameTargetOnly && st.cur.target == geom.NoSquare {
		st.cur.target = victim(p, m)
	}
	tries := int(p.Counter()) + 1
	if tries < z.o.MPT {
		p.SetTurnState(us, 0, uint8(tries))
		return
	}
	// The tries are used up (VZ-10, VZ-15).
	if !p.InCheck() {
		st.cur = stateVals{}
		p.SetTurnState(us.Other(), 0, 0) // the core counts the turn (VZ-12)
		return
	}
	st.cur.target = geom.NoSquare
	p.ClearEnPassant() // the extra move is an escape, not a capture try
	if z.hasEscape(p) {
		p.SetTurnState(us, PhaseExtra, uint8(z.o.MPT)) // VZ-15b
	} else {
		p.SetTurnState(us, 0, uint8(z.o.MPT)) // VZ-15a: lost, reported by End
	}
}

// hasEscape reports whether the side to move, in check, has a legal move
// that is not a capture of a checking piece: a king move, or with
// AnyEvasion any move (VZ-15).
func (z *vazir) hasEscape(p *rules.Position) bool {
	chk := checkers(p)
	k := kingSquare(p, p.Turn())
	for _, m := range fideMoves(p) {
		if z.o.ExtraMoveScope == KingOnly && m.From() != k {
			continue
		}
		vs := victim(p, m)
		captured := false
		for _, c := range chk {
			captured = captured || c == vs
		}
		if !captured {
			return true
		}
	}
	return false
}

// AfterUnmake restores the state. The core restores board, turn, phase and
// counter, including the pawn of a promotion with its rank; the hook puts
// back the piece-list order that the rank change (Remove and Put) altered,
// so that move generation after Unmake is exactly as before Make.
func (z *vazir) AfterUnmake(p *rules.Position, m rules.Move, outcome int) {
	st := stateOf(p)
	if outcome == 0 && m.Kind() == rules.Promotion && st.cur.promoX != geom.NoSquare {
		x := st.cur.promoX
		pc := p.At(x)
		p.Remove(x) // the promoted piece, last in the list, takes x's place
		p.Put(x, pc)
	}
	if n := len(st.stack); n > 0 {
		st.cur = st.stack[n-1]
		st.stack = st.stack[:n-1]
	}
}

// End reports the VZ-15a loss: the tries of the turn are used up and the
// side to move is still in check without an extra move.
func (z *vazir) End(p *rules.Position) (rules.Status, bool) {
	if p.Phase() == 0 && int(p.Counter()) >= z.o.MPT && p.InCheck() {
		us := p.Turn()
		return rules.Status{
			Result: rules.Win(us.Other()),
			Reason: rules.ReasonCheckmate,
			Detail: fmt.Sprintf("%s used all %d tries and is still in check without an escape (VZ-15a)", us, z.o.MPT),
		}, true
	}
	return rules.Status{}, false
}
