package eval_test

import (
	"math"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestFeaturesDotWeights: the weights times the features, plus the offset,
// is the evaluation up to the rounding of whole centipawns, for the hand-set
// weights and for changed ones.
func TestFeaturesDotWeights(t *testing.T) {
	for name, ps := range playouts(t, 60) {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		changed := eval.Defaults(v)
		for n := range changed {
			changed[n] *= 1.3
		}
		changed["tempo"] = 25
		for _, tt := range []struct {
			what string
			e    *eval.Evaluator
		}{
			{"hand-set", eval.New(v)},
			{"changed", eval.NewWeights(v, changed)},
		} {
			w := tt.e.Weights()
			f := make([]float64, len(w))
			for i, p := range ps {
				off := tt.e.Features(p, f)
				dot := off
				for j := range w {
					dot += w[j] * f[j]
				}
				got := float64(tt.e.Evaluate(p))
				if p.Turn() == rules.Black {
					got = -got
				}
				// The tables hold whole centipawns: each piece's entry
				// and each passed pawn's bonus lose less than one, the
				// final divisions less than one each.
				pieces := len(p.Pieces(rules.White)) + len(p.Pieces(rules.Black))
				if math.Abs(got-dot) > float64(2*pieces+3) {
					t.Errorf("%s %s position %d: evaluation %v, weights times features %v", name, tt.what, i, got, dot)
				}
			}
		}
	}
}

// TestNewWeightsChangesEvaluation: a named weight reaches the evaluation.
func TestNewWeightsChangesEvaluation(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/3NK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	base := eval.New(v).Evaluate(p)
	n := eval.Defaults(v)["N.value.mg"]
	for _, tt := range []struct {
		w    map[string]float64
		diff int
	}{
		{map[string]float64{"tempo": 30}, 20},
		{map[string]float64{"N.value.mg": n + 100, "N.value.eg": n + 100}, 100},
		{map[string]float64{"no.such.weight": 5}, 0},
	} {
		if got := eval.NewWeights(v, tt.w).Evaluate(p) - base; got != tt.diff {
			t.Errorf("%v: evaluation moved by %d, want %d", tt.w, got, tt.diff)
		}
	}
	if err := eval.CheckWeights(v, map[string]float64{"no.such.weight": 5}); err == nil {
		t.Error("an unknown weight passed the check")
	}
	if err := eval.CheckWeights(v, map[string]float64{"tempo": math.NaN()}); err == nil {
		t.Error("NaN passed the check")
	}
	if err := eval.CheckWeights(v, eval.Defaults(v)); err != nil {
		t.Error(err)
	}
}

// TestBuiltinWeightsKnown: every weight a built-in variant carries is one
// of the evaluation's.
func TestBuiltinWeightsKnown(t *testing.T) {
	for _, v := range catalog.MustDefault().Variants() {
		if err := eval.CheckWeights(v, v.Spec().Weights); err != nil {
			t.Error(err)
		}
	}
}
