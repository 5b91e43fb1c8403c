package eval_test

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/handset.txt from the current evaluation")

// playouts returns positions of every built-in variant reached by seeded
// random play: up to n plies from the start, each position a clone.
func playouts(t testing.TB, n int) map[string][]*rules.Position {
	t.Helper()
	out := map[string][]*rules.Position{}
	for _, v := range catalog.MustDefault().Variants() {
		rng := rand.New(rand.NewPCG(7, uint64(len(v.Name()))))
		buf := make([]rules.Move, 0, rules.MaxMoves)
		for game := 0; game < 4; game++ {
			p := v.Start()
			for ply := 0; ply < n && !p.Status().Over(); ply++ {
				ms := p.LegalMoves(buf[:0])
				if len(ms) == 0 {
					break
				}
				m := ms[rng.IntN(len(ms))]
				p.MakeOutcome(m, rng.IntN(len(p.Outcomes(m))))
				out[v.Name()] = append(out[v.Name()], p.Clone())
			}
		}
	}
	return out
}

// TestDefaultWeightsMatchHandSet: without learned weights, the evaluation
// gives exactly the scores of the hand-set evaluation it replaced, on
// positions of every built-in variant from seeded random play.
func TestDefaultWeightsMatchHandSet(t *testing.T) {
	got := map[string][]int{}
	for name, ps := range playouts(t, 60) {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		e := eval.NewWeights(v, nil)
		for _, p := range ps {
			got[name] = append(got[name], e.Evaluate(p))
		}
	}
	const file = "testdata/handset.txt"
	if *update {
		var b strings.Builder
		for _, v := range catalog.MustDefault().Variants() {
			fmt.Fprintf(&b, "%s", v.Name())
			for _, s := range got[v.Name()] {
				fmt.Fprintf(&b, " %d", s)
			}
			b.WriteString("\n")
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		name := fields[0]
		want := fields[1:]
		if len(want) != len(got[name]) {
			t.Fatalf("%s: %d positions, want %d", name, len(got[name]), len(want))
		}
		for i, w := range want {
			n, err := strconv.Atoi(w)
			if err != nil {
				t.Fatal(err)
			}
			if got[name][i] != n {
				t.Errorf("%s position %d (%s): %d, want %d", name, i, name, got[name][i], n)
			}
		}
		seen++
	}
	if seen != len(got) {
		t.Errorf("%d variants in %s, %d built in", seen, file, len(got))
	}
}
