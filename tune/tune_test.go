package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestFitRecoversKnownWeights: results drawn from the logistic curve of a
// known linear evaluation, with a seeded generator, give back its weights.
func TestFitRecoversKnownWeights(t *testing.T) {
	truth := []float64{120, -45, 75, 30, 0}
	steps := []float64{2, 2, 2, 2, 0}
	rng := rand.New(rand.NewPCG(1, 2))
	d := &Data{Names: []string{"a", "b", "c", "d", "fixed"}, Init: []float64{50, 0, 0, 0, 0}}
	f := make([]float64, len(truth))
	for range 15000 {
		for j := range 4 {
			f[j] = math.Round(rng.NormFloat64() * 2)
		}
		f[3] = float64(rng.IntN(2)*6 - 3) // a tempo-like ±3
		f[4] = rng.NormFloat64()          // a feature whose weight stays fixed
		off := rng.NormFloat64() * 20     // a part no weight scales
		s := off
		for j := range truth {
			s += truth[j] * f[j]
		}
		r := 0.0
		if u := rng.Float64(); u < sigmoid(s, 1) {
			r = 1
		}
		d.Add(f, off, r)
	}
	res, err := Fit(d, FitConfig{Iterations: 600, Steps: steps, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range truth {
		if got := res.Weights[j]; math.Abs(got-want) > 0.08*math.Abs(want)+4 {
			t.Errorf("%s = %.1f, want %.1f", d.Names[j], got, want)
		}
	}
	if res.Loss >= res.Before {
		t.Errorf("loss %v after, %v before", res.Loss, res.Before)
	}
	// With the true weights, the fitted scale is near the true one.
	if k := d.FitK(truth); k < 0.85 || k > 1.15 {
		t.Errorf("K = %v, want near 1", k)
	}
}

// TestFitRecoversPieceValues: on positions of chess from random play,
// results drawn from an evaluation with other piece values give those
// values back (the middle-game ones: random play keeps most pieces on the
// board).
func TestFitRecoversPieceValues(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	names := eval.Names(v)
	truth := eval.Defaults(v)
	truth["N.value.mg"], truth["R.value.mg"] = 250, 600
	te := eval.NewWeights(v, truth)
	tw := te.Weights()
	base := eval.NewWeights(v, nil) // the hand-set weights, which truth changes
	d := &Data{Names: names, Init: base.Weights()}
	steps := make([]float64, len(names))
	for j, n := range names {
		if n == "N.value.mg" || n == "R.value.mg" {
			steps[j] = 2
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]rules.Move, 0, rules.MaxMoves)
	f := make([]float64, len(names))
	for d.Len() < 8000 {
		p := v.Start()
		for ply := 0; ply < 120 && !p.Status().Over(); ply++ {
			ms := p.LegalMoves(buf[:0])
			p.Make(ms[rng.IntN(len(ms))])
			if ply < 20 || ply%3 != 0 {
				continue
			}
			off := base.Features(p, f)
			s := off
			for j := range tw {
				s += tw[j] * f[j]
			}
			r := 0.0
			if rng.Float64() < sigmoid(s, 1) {
				r = 1
			}
			d.Add(f, off, r)
		}
	}
	res, err := Fit(d, FitConfig{Iterations: 400, Steps: steps, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	for j, n := range names {
		if steps[j] == 0 {
			continue
		}
		if got, want := res.Weights[j], truth[n]; math.Abs(got-want) > 40 {
			t.Errorf("%s = %.1f, want %.1f (started at %.1f)", n, got, want, d.Init[j])
		}
	}
}

// TestFitRecoversSquareTables: on positions of chess with pieces put at
// random, results given by the logistic curve of an evaluation with known
// per-square tables of the knight give those tables back, square by
// square, from tables of 0.
func TestFitRecoversSquareTables(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	names := eval.Names(v)
	base := eval.NewWeights(v, nil) // the hand-set weights: every table 0
	truth := map[string]float64{}
	for j, x := range base.Weights() {
		truth[names[j]] = x
	}
	steps := make([]float64, len(names))
	for j, n := range names {
		sq, ok := strings.CutPrefix(n, "N.square.")
		if !ok {
			continue
		}
		// A different value on every square and phase, -45 to 45.
		ph, at, _ := strings.Cut(sq, ".")
		x := float64(int(at[0]-'a')*13 + int(at[1]-'1')*7 - 45)
		if ph == "eg" {
			x = -x
		}
		truth[n] = x
		steps[j] = 2
	}
	if fitted := len(slices.DeleteFunc(slices.Clone(steps), func(x float64) bool { return x == 0 })); fitted != 64 {
		t.Fatalf("%d per-square weights of the knight, want 64 (32 squares by 2 phases)", fitted)
	}
	tw := eval.NewWeights(v, truth).Weights()
	d := &Data{Names: names, Init: base.Weights()}
	for j, n := range names {
		if steps[j] != 0 && d.Init[j] != 0 {
			t.Fatalf("%s starts at %v, want 0", n, d.Init[j])
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	f := make([]float64, len(names))
	for d.Len() < 5000 {
		p, err := v.ParseFEN(randomPosition(rng))
		if err != nil {
			continue
		}
		off := base.Features(p, f)
		s := off
		for j := range tw {
			s += tw[j] * f[j]
		}
		// The result is the expected score itself: a data set without
		// noise, which the true weights fit exactly.
		d.Add(f, off, sigmoid(s, 0.5))
	}
	res, err := Fit(d, FitConfig{Iterations: 500, Steps: steps, K: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Loss > res.Before/100 {
		t.Errorf("loss %v after, %v before", res.Loss, res.Before)
	}
	for j, n := range names {
		if steps[j] == 0 {
			continue
		}
		if got, want := res.Weights[j], truth[n]; math.Abs(got-want) > 3 {
			t.Errorf("%s = %.1f, want %.1f", n, got, want)
		}
	}
}

// randomPosition returns the FEN of a chess position with the kings and
// a random number of each other piece of each side on random squares
// (pawns off the first and last ranks), either side to move.
func randomPosition(rng *rand.Rand) string {
	var board [64]byte
	put := func(c byte, lo, hi int) {
		for {
			if s := lo + rng.IntN(hi-lo); board[s] == 0 {
				board[s] = c
				return
			}
		}
	}
	put('K', 0, 64)
	put('k', 0, 64)
	for _, pc := range []struct {
		c   byte
		max int
	}{{'N', 2}, {'B', 2}, {'R', 2}, {'Q', 1}, {'P', 8}} {
		for _, c := range []byte{pc.c, pc.c + 'a' - 'A'} {
			for range rng.IntN(pc.max + 1) {
				if pc.c == 'P' {
					put(c, 8, 56)
				} else {
					put(c, 0, 64)
				}
			}
		}
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			c := board[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w - - 0 1", " b - - 0 1"}[rng.IntN(2)])
	return b.String()
}

// TestResume: a sample interrupted after some games and resumed is the
// sample of one uninterrupted run with the same seed.
func TestResume(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Games: 5, Nodes: 150, Seed: 9, MaxPlies: 50, Workers: 2}
	dir := t.TempDir()
	whole, err := Generate(context.Background(), v, c, filepath.Join(dir, "whole.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) == 0 {
		t.Fatal("no positions")
	}
	cut := filepath.Join(dir, "cut.txt")
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Generate(ctx, v, c, cut, func(p Progress) {
		if p.Games >= 2 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("an interrupted run reported no error")
	}
	s, err := ReadSample(cut, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Games) < 2 || len(s.Games) >= c.Games {
		t.Fatalf("%d games before the interruption", len(s.Games))
	}
	// A write cut short leaves half a game behind.
	f, err := os.OpenFile(cut, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("p 4 1-0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\np 4 1-")
	f.Close()
	resumed, err := Generate(context.Background(), v, c, cut, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed, whole) {
		t.Errorf("resumed sample of %d positions differs from the whole one of %d", len(resumed), len(whole))
	}
	// Other settings do not resume the file.
	c.Nodes++
	if _, err := Generate(context.Background(), v, c, cut, nil); err == nil {
		t.Error("a sample resumed with other settings")
	}
}

// TestDefaultStepsFixPlaceholders: the weights of a piece type whose
// hand-set value is a placeholder's (below 10 centipawns: a hook values
// the piece) stay fixed; the variant's own terms and real pieces' values
// are fitted.
func TestDefaultStepsFixPlaceholders(t *testing.T) {
	for _, tt := range []struct {
		variant string
		fixed   []string
		fitted  []string
	}{
		{"csipgs", []string{"A.value.mg", "A.table.eg", "K.advance.mg"}, []string{"csipgs.zorkmid", "csipgs.piece", "tempo"}},
		{"crazychess", []string{"mopup.edge"}, []string{"N.value.mg", "B.table.mg", "crazy.passenger"}},
		{"vazir", nil, []string{"N.value.mg", "rank.5"}},
	} {
		v, err := catalog.MustDefault().Get(tt.variant)
		if err != nil {
			t.Fatal(err)
		}
		names := eval.Names(v)
		steps := DefaultSteps(v, names)
		step := map[string]float64{}
		for i, n := range names {
			step[n] = steps[i]
		}
		for _, n := range tt.fixed {
			if s, ok := step[n]; !ok || s != 0 {
				t.Errorf("%s: %s has step %v (known %v), want fixed", tt.variant, n, s, ok)
			}
		}
		for _, n := range tt.fitted {
			if s, ok := step[n]; !ok || s <= 0 {
				t.Errorf("%s: %s has step %v (known %v), want fitted", tt.variant, n, s, ok)
			}
		}
	}
}

// TestFitStopsOnValidation: with validation positions the fit returns the
// weights where their loss was lowest. Where the results are noise, a fit
// without them learns that noise and does worse on other games than its
// start; with them it does not. Where the results follow the evaluation,
// it still learns.
func TestFitStopsOnValidation(t *testing.T) {
	truth := []float64{90, -60, 40}
	sample := func(seed uint64, n int, signal bool) *Data {
		rng := rand.New(rand.NewPCG(seed, 7))
		d := &Data{Names: []string{"a", "b", "c"}, Init: []float64{0, 0, 0}}
		f := make([]float64, len(truth))
		for range n {
			s := 0.0
			for j := range f {
				f[j] = math.Round(rng.NormFloat64() * 2)
				s += truth[j] * f[j]
			}
			p := 0.5
			if signal {
				p = sigmoid(s, 1)
			}
			r := 0.0
			if rng.Float64() < p {
				r = 1
			}
			d.Add(f, 0, r)
		}
		return d
	}
	steps := []float64{2, 2, 2}
	for _, tt := range []struct {
		name   string
		signal bool
	}{{"noise", false}, {"signal", true}} {
		train, valid := sample(1, 300, tt.signal), sample(2, 3000, tt.signal)
		plain, err := Fit(train, FitConfig{Iterations: 300, Steps: steps, K: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Fit(train, FitConfig{Iterations: 300, Steps: steps, K: 1, Valid: valid})
		if err != nil {
			t.Fatal(err)
		}
		before := valid.Loss(train.Init, 1)
		if res.ValidBefore != before {
			t.Errorf("%s: validation loss before %v, want %v", tt.name, res.ValidBefore, before)
		}
		if got := valid.Loss(res.Weights, 1); got != res.ValidAfter || got > before {
			t.Errorf("%s: validation loss of the weights returned %v (reported %v), before %v", tt.name, got, res.ValidAfter, before)
		}
		after := valid.Loss(plain.Weights, 1)
		switch {
		case !tt.signal && after <= before:
			t.Errorf("%s: the fit without validation did not learn the noise (%v -> %v): the test shows nothing", tt.name, before, after)
		case !tt.signal && res.Iteration > 20:
			t.Errorf("%s: stopped at iteration %d, want near the start", tt.name, res.Iteration)
		case tt.signal && (res.Iteration == 0 || before-res.ValidAfter < 0.5*(before-after)):
			t.Errorf("%s: with validation stopped at %d, loss %v -> %v; without %v", tt.name, res.Iteration, before, res.ValidAfter, after)
		}
	}
}

// TestWritten: the file of a fit holds the weights it fitted and every
// other weight off the hand-set one (a learned start kept fixed), a
// per-square table whole, and no other.
func TestWritten(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	names := eval.Names(v)
	start := eval.Defaults(v)
	start["tempo"] = 3.5          // a learned start, kept fixed
	start["N.square.mg.d4"] = -12 // the same
	e := eval.NewWeights(v, start)
	w := e.Weights()
	steps := make([]float64, len(names))
	for j, n := range names {
		if n == "R.value.mg" {
			steps[j] = 1
			w[j] = 512.345
		}
	}
	got := Written(v, names, w, steps)
	want := map[string]float64{"tempo": 3.5, "R.value.mg": 512.35}
	for _, n := range names {
		if strings.HasPrefix(n, "N.square.mg.") { // the table of d4, whole
			want[n] = 0
		}
	}
	want["N.square.mg.d4"] = -12
	if !reflect.DeepEqual(got, want) {
		t.Errorf("written %v, want %v", got, want)
	}
}
