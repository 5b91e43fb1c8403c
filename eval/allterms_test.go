package eval_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
)

// TestAllTermsGolden: with every weight set to a small number that is not
// 0, so that every term is computed (the mobility, the safe mobility and
// checks, the attack on the king, the threats, the pawn and king terms,
// the pairs and the file riders), and again with the checks' weights 0,
// the evaluation gives the scores in testdata/allterms.txt on positions of
// every built-in variant from seeded random play: a change made for speed
// must leave them as they are. The weights are not the variant's file, so
// that a refit of the file changes nothing here.
func TestAllTermsGolden(t *testing.T) {
	var b strings.Builder
	ps := playouts(t, 60)
	for _, v := range catalog.MustDefault().Variants() {
		for _, checks := range []bool{true, false} {
			w := map[string]float64{}
			for i, n := range eval.Names(v) {
				w[n] = float64(i%5 + 1)
				if !checks && strings.Contains(n, ".check.") {
					w[n] = 0
				}
			}
			e := eval.NewWeights(v, w)
			fmt.Fprintf(&b, "%s checks=%v", v.Name(), checks)
			for _, p := range ps[v.Name()] {
				fmt.Fprintf(&b, " %d", e.Evaluate(p))
			}
			b.WriteString("\n")
		}
	}
	const file = "testdata/allterms.txt"
	if *update {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	if len(got) != len(wantLines) {
		t.Fatalf("%d lines, want %d", len(got), len(wantLines))
	}
	for i := range got {
		if got[i] != wantLines[i] {
			t.Errorf("line %d:\n got %.200s\nwant %.200s", i+1, got[i], wantLines[i])
		}
	}
}
