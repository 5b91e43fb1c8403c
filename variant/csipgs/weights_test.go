package csipgs

import (
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestLearnedWeights: csipgs carries its embedded weights, open and
// moderated and in the variants of a player's views: chess's terms of
// position and csipgs's own terms near a third of the hand-set weights
// (fitted to the engine's own scores from the file that scaled them by a
// third), the push toward the enemy royal about eight times that, the
// design phase against the side in it, the movement terms with the
// signs of a gain (mobility, attacks on the enemy royal's squares) and of
// a loss (a hanging piece), and no piece values of the placeholder types.
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
		for n := range w {
			if strings.Contains(n, ".value.") {
				t.Errorf("%s's weights set %s = %v", v.Name(), n, w[n])
			}
		}
		tests := []struct {
			name     string
			min, max float64 // of the hand-set weight
		}{
			{"csipgs.piece", 0.3, 0.37}, {"csipgs.royal", 0.3, 0.37}, {"csipgs.reserve", 0.3, 0.4},
			{"csipgs.stuck", 0.3, 0.37}, {"csipgs.zorkmid", 0.3, 0.37},
			{"csipgs.push", 2.5, 3.5},
		}
		for _, tc := range tests {
			if got, d := w[tc.name], defaults[tc.name]; got < d*tc.min || got > d*tc.max {
				t.Errorf("%s: %s = %v, want %.2f to %.2f", v.Name(), tc.name, got, d*tc.min, d*tc.max)
			}
		}
		if x := w["csipgs.design"]; x > -50 {
			t.Errorf("%s: csipgs.design = %v, want the side in the design phase 50 or more behind", v.Name(), x)
		}
		if w["csipgs.mobility"] <= 0 || w["csipgs.attack"] <= 0 || w["csipgs.hanging"] >= 0 {
			t.Errorf("%s: csipgs.mobility %v, attack %v, hanging %v: want a gain, a gain, a loss", v.Name(),
				w["csipgs.mobility"], w["csipgs.attack"], w["csipgs.hanging"])
		}
	}
	// The learned evaluation is in use: a rook up is worth a third of
	// what the hand-set evaluation says, give or take the terms of
	// position (the tempo cancels: the same position without the rook).
	q := mustFEN(t, open, "4k3/8/8/8/8/8/8/R3K3 w 0/0 P/P PRNBKQ/PRNBKQ 0 1 "+table)
	q0 := mustFEN(t, open, "4k3/8/8/8/8/8/8/4K3 w 0/0 P/P PRNBKQ/PRNBKQ 0 1 "+table)
	le, he := eval.New(open), eval.NewWeights(open, nil)
	learned, hand := le.Evaluate(q)-le.Evaluate(q0), he.Evaluate(q)-he.Evaluate(q0)
	if learned < hand/3-60 || learned > hand/3+60 {
		t.Errorf("a rook up: %d with the learned weights, want about a third of the hand-set %d", learned, hand)
	}
}

// TestDesignTerm: csipgs.design counts 1 for the side in the design
// phase (it has moved; the other side moves next), 0 at the start of a
// turn, and is 0 by default, so that the hand-set evaluation is Eval.
func TestDesignTerm(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	const rest = " 2/1 N/- PANPKQ/PRCBDQ 1 11 {A=W,B=B,C=D,D=royal-F,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	if got := eval.Defaults(v)["csipgs.design"]; got != 0 {
		t.Errorf("csipgs.design's default is %v, want 0", got)
	}
	names := eval.Names(v)
	idx := slices.Index(names, "csipgs.design")
	if idx < 0 {
		t.Fatal("no csipgs.design weight")
	}
	withTerm := eval.NewWeights(v, map[string]float64{"csipgs.design": -50})
	without := eval.NewWeights(v, map[string]float64{})
	f := make([]float64, len(names))
	for _, tc := range []struct {
		side    string
		feature float64
	}{{"w", 0}, {"b", 0}, {"w&", 1}, {"b&", -1}} {
		p := mustFEN(t, v, "8/8/6k1/7b/4N3/8/6K1/8 "+tc.side+rest)
		withTerm.Features(p, f)
		if got := f[idx]; got != tc.feature {
			t.Errorf("%s: csipgs.design's feature %v, want %v", tc.side, got, tc.feature)
		}
		// From the side to move's point of view, the weight is added in
		// the design phase only (up to the rounding of whole centipawns:
		// Eval's terms are rounded one by one, the weighted sum once).
		want := 0
		if tc.feature != 0 {
			want = -50
		}
		if d := withTerm.Evaluate(p) - without.Evaluate(p); d < want-1 || d > want+1 {
			t.Errorf("%s: csipgs.design -50 moves the evaluation by %d, want %d", tc.side, d, want)
		}
	}
}
