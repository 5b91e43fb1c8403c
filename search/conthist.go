package search

import (
	"github.com/anychess/anychess/rules"
)

// maxContContexts bounds the contexts (piece × square) of the continuation
// history, whose table has the square of that many entries (5 MB at
// most; Great Shatranj has 1600 contexts); a variant with more (many
// piece types on a large board) goes without it.
const maxContContexts = 1600

// contHist is the continuation history: how well a quiet move (piece and
// target) did after a given earlier move (piece and target), one and two
// decisions back, whichever side made them. It also keeps the counter
// move, the quiet move that last refuted each move, and the capture
// history: how well each capture (moving type, target, captured type) did.
// An engine keeps it from one search of a game to the next.
type contHist struct {
	v       *rules.Variant
	files   int
	nSq     int // squares of the board's rectangle
	n       int // contexts: pieces (colour and type) × squares
	score   []int16
	counter []rules.Move
	capture []int16 // by moving type, captured type and target
}

// newContHist returns the continuation history for v, or nil if v has
// too many contexts.
func newContHist(v *rules.Variant) *contHist {
	b := v.Board()
	n := 2 * (v.NumTypes() + 1) * b.Files * b.Ranks
	if n > maxContContexts {
		return nil
	}
	nt := v.NumTypes() + 1
	return &contHist{v: v, files: b.Files, nSq: b.Files * b.Ranks, n: n,
		score: make([]int16, n*n), counter: make([]rules.Move, n),
		capture: make([]int16, nt*nt*b.Files*b.Ranks)}
}

// captureIndex returns the index in the capture history of the capture
// (or promotion) m in p, by the moving type, the captured type (0 for en
// passant and a promotion without capture) and the target; -1 for a move
// without a piece that moves to its target (drops, special moves).
func (c *contHist) captureIndex(p *rules.Position, m rules.Move) int32 {
	switch m.Kind() {
	case rules.Normal, rules.Promotion, rules.EnPassant:
	default:
		return -1
	}
	mover := p.At(m.From())
	if !mover.IsPiece() {
		return -1
	}
	victim := rules.Type(0) // en passant, or a capture off the target
	if q := p.At(m.To()); q.IsPiece() {
		victim = q.Type()
	}
	nt := c.v.NumTypes() + 1
	to := m.To()
	return int32((int(mover.Type())*nt+int(victim))*c.nSq + to.Rank()*c.files + to.File())
}

// captureScore returns the capture history of the capture m of the side
// to move, not yet made (0 without one).
func (s *searcher) captureScore(m rules.Move) int {
	if s.cont == nil {
		return 0
	}
	if i := s.cont.captureIndex(s.p, m); i >= 0 {
		return int(s.cont.capture[i])
	}
	return 0
}

// updateCaptures rewards the capture with index best in the capture
// history (if best >= 0) and penalizes the other captures searched at ply
// before the cutoff, the first n of s.caps[ply].
func (s *searcher) updateCaptures(ply, n int, best int32, depth int) {
	if s.cont == nil {
		return
	}
	bonus := histBonus(depth)
	for _, i := range s.caps[ply][:n] {
		if i < 0 {
			continue
		}
		b := -bonus
		if i == best {
			b = bonus
		}
		v := int32(s.cont.capture[i])
		gravity(&v, b)
		s.cont.capture[i] = int16(v)
	}
}

// context returns the index of the piece pc arriving on the target of m
// (-1 for moves that have none: drops, special moves, null moves).
func (c *contHist) context(pc rules.Piece, m rules.Move) int32 {
	if m.Kind() != rules.Normal && m.Kind() != rules.Castle || !pc.IsPiece() {
		return -1
	}
	to := m.To()
	sq := to.Rank()*c.files + to.File()
	return int32((int(pc.Color())*(c.v.NumTypes()+1)+int(pc.Type()))*c.nSq + sq)
}

// at returns the score of the move with context cur after the move with
// context prev, or nil if either has none.
func (c *contHist) at(prev, cur int32) *int16 {
	if prev < 0 || cur < 0 {
		return nil
	}
	return &c.score[int(prev)*c.n+int(cur)]
}

// contextOf returns the continuation context of m for the side to move of
// s's position, before m is made.
func (s *searcher) contextOf(m rules.Move) int32 {
	if s.cont == nil {
		return -1
	}
	return s.cont.context(s.p.At(m.From()), m)
}

// contScore returns the sum of the continuation scores of the move with
// context cur at ply (after the moves one and two decisions back).
func (s *searcher) contScore(ply int, cur int32) int {
	if s.cont == nil || cur < 0 {
		return 0
	}
	c := s.cont
	sum := 0
	// Unrolled for the two plies back: written as a loop it is inlined
	// into its callers and costs more instructions in all.
	if ply >= 1 {
		if prev := s.cctx[ply-1]; prev >= 0 {
			sum += int(c.score[int(prev)*c.n+int(cur)])
		}
	}
	if ply >= 2 {
		if prev := s.cctx[ply-2]; prev >= 0 {
			sum += int(c.score[int(prev)*c.n+int(cur)])
		}
	}
	return sum
}

// updateCont adds bonus (a malus if negative) to the continuation scores of
// the move with context cur at ply.
func (s *searcher) updateCont(ply int, cur int32, bonus int) {
	if s.cont == nil || cur < 0 {
		return
	}
	for k := 1; k <= 2 && ply-k >= 0; k++ {
		if h := s.cont.at(s.cctx[ply-k], cur); h != nil {
			v := int32(*h)
			gravity(&v, bonus)
			*h = int16(v)
		}
	}
}

// counterMove returns the quiet move that last refuted the move made at
// ply-1, or NoMove.
func (s *searcher) counterMove(ply int) rules.Move {
	if s.cont == nil || ply == 0 || s.cctx[ply-1] < 0 {
		return rules.NoMove
	}
	return s.cont.counter[s.cctx[ply-1]]
}

// setCounter records m as the refutation of the move made at ply-1.
func (s *searcher) setCounter(ply int, m rules.Move) {
	if s.cont == nil || ply == 0 || s.cctx[ply-1] < 0 {
		return
	}
	s.cont.counter[s.cctx[ply-1]] = m
}
