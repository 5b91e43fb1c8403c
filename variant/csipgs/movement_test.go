package csipgs

import (
	"maps"
	"testing"

	"github.com/anychess/anychess/eval"
)

// TestMovementTerms counts the movement terms of three small positions by
// hand (White's counts less Black's), one of them with the colours of
// another reversed.
func TestMovementTerms(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	z, ok := hooksOfVariant(v)
	if !ok {
		t.Fatal("no csipgs hooks")
	}
	rook := float64(Value(v, "R")) / 100
	tests := []struct {
		name string
		fen  string
		// mobility, attack, check, defence, room, hanging
		want [6]float64
	}{
		// The rook on a7: 7 squares on its rank, a8 and 6 down the file;
		// it attacks d7, e7 and f7 next to Black's royal, which keeps d8
		// and f8; White's royal has its 5 squares.
		{"rook on the seventh", "4k3/R7/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table,
			[6]float64{14, 3, 0, 0, 5 - 2, 0}},
		// The rook on e4 checks (7 squares on its rank, e5 to e7, the
		// capture on e8, e3 and e2): it attacks e7 next to Black's royal
		// and defends e2 next to its own, and the knight on d6 attacks it
		// undefended (b5, b7, c4, c8, the capture on e4, f5, f7; f7 next
		// to its royal); Black's royal keeps d8, f8, d7 and f7.
		{"rook checks, knight attacks it", "4k3/8/3n4/8/4R3/8/8/4K3 b 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table,
			[6]float64{13 - 7, 1, 1, 0, 5 - 4, rook}}, // defence 1 - 1
		// Colours reversed: the same counts, Black's.
		{"colours reversed", "4k3/8/8/4r3/8/3N4/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table,
			[6]float64{-(13 - 7), -1, -1, 0, -(5 - 4), -rook}},
	}
	for _, tc := range tests {
		p := mustFEN(t, v, tc.fen)
		f := z.TermFeatures(p)
		if got := [6]float64(f[tMobility : tHanging+1]); got != tc.want {
			t.Errorf("%s: mobility, attack, check, defence, room, hanging = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMovementTermsDefault: the movement terms are 0 by default, so the
// hand-set evaluation is Eval, and each weighs in once set.
func TestMovementTermsDefault(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	d := eval.Defaults(v)
	for _, n := range termNames[tMobility:] {
		if x, ok := d[n]; !ok || x != 0 {
			t.Errorf("%s's default is %v (%v), want 0", n, x, ok)
		}
	}
	p := mustFEN(t, v, "4k3/R7/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 "+table)
	base := eval.NewWeights(v, map[string]float64{}).Evaluate(p)
	// 14 squares of mobility at 2 centipawns each.
	if got := eval.NewWeights(v, map[string]float64{"csipgs.mobility": 2}).Evaluate(p) - base; got < 27 || got > 29 {
		t.Errorf("csipgs.mobility 2 moves the evaluation by %d, want 28", got)
	}
}

// TestMovementAllocs: the learned evaluation, movement terms included,
// does not allocate.
func TestMovementAllocs(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, midgame)
	w2 := maps.Clone(v.Spec().Weights)
	if w2 == nil {
		w2 = map[string]float64{}
	}
	for _, n := range termNames[tMobility:] {
		w2[n] = 1
	}
	e := eval.NewWeights(v, w2)
	e.Evaluate(p)
	if n := testing.AllocsPerRun(100, func() { e.Evaluate(p) }); n > 0 {
		t.Errorf("%v allocations per evaluation", n)
	}
}

// BenchmarkTermFeatures times the features of a middle game, the
// movement terms' walk of every piece's legs included.
func BenchmarkTermFeatures(b *testing.B) {
	v := newVariant(b, DefaultOptions())
	z, _ := hooksOfVariant(v)
	p := mustFEN(b, v, midgame)
	for b.Loop() {
		z.TermFeatures(p)
	}
}
