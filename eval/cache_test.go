package eval_test

import (
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestCacheScores: on positions of every built-in variant from seeded
// random play, Evaluate gives the score the evaluation without the cache
// gives, in two rounds (the first stores the scores, the second finds
// them); an evaluator keeps no cache where the variant evaluates too
// (rules.Engine), and chess's keeps one.
func TestCacheScores(t *testing.T) {
	ps := playouts(t, 60)
	for _, v := range catalog.MustDefault().Variants() {
		e := eval.New(v)
		if _, hook := v.Ext().(rules.Engine); hook && e.Cached() {
			t.Errorf("%s: a cache, with the variant's own evaluation", v.Name())
		}
		if v.Name() == "chess" && !e.Cached() {
			t.Errorf("chess: no cache")
		}
		for round := range 2 {
			for i, p := range ps[v.Name()] {
				if got, want := e.Evaluate(p), e.EvaluateUncached(p); got != want {
					t.Errorf("%s round %d position %d: %d, without the cache %d", v.Name(), round, i, got, want)
				}
			}
		}
	}
}
