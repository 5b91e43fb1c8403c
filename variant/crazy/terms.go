package crazy

import (
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// The terms of Eval as weights of the evaluation (eval.Terms), so that they
// can be learned: the passengers (in percent of their value), a risen
// Bishop on the board (what it is worth less than the full Bishop the core
// counts), a Queen next to its own King, and the right to deny.
var termNames = []string{"crazy.passenger", "crazy.risen", "crazy.queenbyking", "crazy.holder"}

// TermNames names the terms of Eval (eval.Terms).
func (z *crazy) TermNames() []string { return termNames }

// TermDefaults returns the weights that make the terms Eval (eval.Terms).
func (z *crazy) TermDefaults() []float64 {
	b := z.values[z.bishop]
	return []float64{passengerShare, -float64(b - b*risenShare/100), -queenByKing, holderBonus}
}

// TermFeatures returns the terms of p from White's point of view, in the
// order of TermNames (eval.Terms): the passengers' values in hundreds of
// centipawns, and the counts of risen Bishops on the board, of Queens
// next to their King and of the holder of the right, White's counted
// positive and Black's negative.
func (z *crazy) TermFeatures(p *rules.Position) [eval.MaxTerms]float64 {
	var f [eval.MaxTerms]float64
	s := view(p)
	f[2] = float64(z.queensByKings(s))
	for b := range 64 {
		h := int(s.height[b])
		if h == 0 {
			continue
		}
		if base := s.cells[b][0]; base.Type() == z.bishop && Risen(base) {
			f[1] += float64(sign(base.Color()))
		}
		for i := 1; i < h; i++ {
			pc := s.cells[b][i]
			if pc.Type() == z.king {
				continue
			}
			f[0] += float64(sign(pc.Color())*z.value(pc)) / 100
		}
	}
	f[3] = float64(sign(s.v.holder))
	return f
}
