package csipgs

import (
	"math"
	"strings"
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestLearnedWeights: csipgs carries its embedded weights, open and
// moderated and in the variants of a player's views: chess's terms of
// position and csipgs's own terms scaled by a third, with the push toward
// the enemy royal eight times that, and no piece values of the placeholder
// types, whose count csipgs.core still cancels.
func TestLearnedWeights(t *testing.T) {
	open := newVariant(t, DefaultOptions())
	hidden := newVariant(t, Options{Moderated: true})
	p := hidden.Start()
	views := []*rules.Variant{p.View(rules.White).Position.Variant(), p.View(rules.Black).Position.Variant()}
	defaults := eval.Defaults(open)
	for _, v := range append([]*rules.Variant{open, hidden}, views...) {
		w := v.Spec().Weights
		if err := eval.CheckWeights(v, w); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"N.mobility.mg", "B.square.eg.d4", "tempo", "csipgs.push"} {
			if _, ok := w[n]; !ok {
				t.Errorf("%s's weights lack %s", v.Name(), n)
			}
		}
		for n, x := range w {
			if strings.Contains(n, ".value.") || (n == "csipgs.core" && x != defaults[n]) {
				t.Errorf("%s's weights set %s = %v", v.Name(), n, x)
			}
		}
		tests := []struct {
			name   string
			factor float64 // of the hand-set weight
		}{
			{"csipgs.piece", 1.0 / 3}, {"csipgs.royal", 1.0 / 3}, {"csipgs.reserve", 1.0 / 3},
			{"csipgs.stuck", 1.0 / 3}, {"csipgs.zorkmid", 1.0 / 3}, {"csipgs.mopup", 1.0 / 3},
			{"csipgs.push", 8.0 / 3},
		}
		for _, tc := range tests {
			if got, want := w[tc.name], defaults[tc.name]*tc.factor; math.Abs(got-want) > 0.01 {
				t.Errorf("%s: %s = %v, want %.2f", v.Name(), tc.name, got, want)
			}
		}
	}
	// The learned evaluation is in use: a rook up is worth a third of
	// what the hand-set evaluation says, give or take the terms of
	// position.
	q := mustFEN(t, open, "4k3/8/8/8/8/8/8/R3K3 w 0/0 P/P PRNBKQ/PRNBKQ 0 1 "+table)
	learned, hand := eval.New(open).Evaluate(q), eval.NewWeights(open, nil).Evaluate(q)
	if learned < hand/3-60 || learned > hand/3+60 {
		t.Errorf("a rook up: %d with the learned weights, want about a third of the hand-set %d", learned, hand)
	}
}
