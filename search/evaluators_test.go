package search

import "testing"

// TestEvaluatorsBounded: an engine asked for the evaluators of many
// variants (each analysis request's definition or options is a variant of
// its own) keeps at most maxEvaluators, and gives one variant the same
// evaluator while it keeps it.
func TestEvaluatorsBounded(t *testing.T) {
	chess, err := testRegistry(t).Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	e := New(1)
	for i := range 3 * maxEvaluators {
		v := chess.WithFace(i)
		if ev := e.Evaluator(v); ev != e.Evaluator(v) {
			t.Fatalf("variant %d: a second evaluator", i)
		}
		if n := len(e.evals); n > maxEvaluators {
			t.Fatalf("after %d variants: %d evaluators kept, want at most %d", i+1, n, maxEvaluators)
		}
	}
}
