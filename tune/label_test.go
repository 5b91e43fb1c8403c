package tune

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/anychess/anychess/catalog"
)

// TestFitLearnsFromScores: games of 60 positions each share one result,
// drawn from the curve of a known evaluation of the game's average
// position, so 200 games hold 200 noisy results; each position also
// carries a search's score, the known evaluation plus a little noise. A
// fit of the scores alone (lambda 0) gives back the known weights; a fit
// of the results alone (lambda 1) of the same positions misses them by
// far more.
func TestFitLearnsFromScores(t *testing.T) {
	truth := []float64{120, -45, 75, 30}
	steps := []float64{2, 2, 2, 2}
	rng := rand.New(rand.NewPCG(5, 6))
	d := &Data{Names: []string{"a", "b", "c", "d"}, Init: []float64{50, 0, 0, 0}}
	f := make([]float64, len(truth))
	for range 200 {
		base := make([]float64, len(truth))
		for j := range base {
			base[j] = rng.NormFloat64() * 2
		}
		var scores []float64
		mean := 0.0
		for range 60 {
			s := 0.0
			for j := range f {
				f[j] = math.Round(base[j] + rng.NormFloat64())
				s += truth[j] * f[j]
			}
			mean += s / 60
			d.Add(f, 0, 0)
			scores = append(scores, s+rng.NormFloat64()*20)
		}
		r := 0.0
		if rng.Float64() < sigmoid(mean, 1) {
			r = 1
		}
		for i := d.Len() - 60; i < d.Len(); i++ {
			d.Result[i] = r
		}
		d.Label = append(d.Label, scores...)
	}
	miss := func(lambda float64) float64 {
		t.Helper()
		bd, err := d.Blend(1, lambda)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Fit(bd, FitConfig{Iterations: 600, Steps: steps, K: 1})
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for j, want := range truth {
			worst = max(worst, math.Abs(res.Weights[j]-want)/math.Abs(want))
		}
		return worst
	}
	scores, results := miss(0), miss(1)
	if scores > 0.05 {
		t.Errorf("fitted to the scores, a weight is off by %.0f%% of its value", 100*scores)
	}
	if results < 2*scores {
		t.Errorf("fitted to the results, the worst weight is off by %.0f%%, to the scores %.0f%%: the test shows nothing", 100*results, 100*scores)
	}
	// Half and half lies between.
	if half := miss(0.5); half < scores/2 || half > results {
		t.Errorf("lambda 0.5: off by %.0f%%, scores %.0f%%, results %.0f%%", 100*half, 100*scores, 100*results)
	}
}

// TestBlend: the target is lambda times the result plus 1-lambda times
// the curve of the score; a position without a score, or a lambda out
// of [0, 1], is an error.
func TestBlend(t *testing.T) {
	d := &Data{Names: []string{"a"}, Init: []float64{0}}
	d.Add([]float64{1}, 0, 1)
	d.Add([]float64{1}, 0, 0)
	d.Label = []float64{0, 400}
	for _, tt := range []struct {
		lambda float64
		want   []float64
	}{
		{1, []float64{1, 0}},
		{0, []float64{0.5, 10.0 / 11}},
		{0.25, []float64{0.25 + 0.75*0.5, 0.75 * 10 / 11}},
	} {
		b, err := d.Blend(1, tt.lambda)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tt.want {
			if math.Abs(b.Result[i]-want) > 1e-12 {
				t.Errorf("lambda %v: target %d = %v, want %v", tt.lambda, i, b.Result[i], want)
			}
		}
	}
	if d.Result[0] != 1 || d.Result[1] != 0 {
		t.Errorf("Blend changed the data's results: %v", d.Result)
	}
	for _, lambda := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := d.Blend(1, lambda); err == nil {
			t.Errorf("lambda %v accepted", lambda)
		}
	}
	d.Label[1] = math.NaN()
	if _, err := d.Blend(1, 0.5); err == nil {
		t.Error("a position without a score was blended")
	}
	d.Label = nil
	if _, err := d.Blend(1, 0.5); err == nil {
		t.Error("data without scores was blended")
	}
	if _, err := d.Blend(1, 1); err != nil {
		t.Errorf("lambda 1 needs no scores: %v", err)
	}
}

// TestLabel: each position is scored for White (a side a queen up scores
// well above 0 whichever side is to move); an interrupted labelling,
// resumed after a line cut short, gives the file of one uninterrupted
// run; a labels file made for other settings is refused.
func TestLabel(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	up := "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR " // White a queen up
	down := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR "
	sample := func() Sample {
		return Sample{Header: "# anychess tune sample: test", Games: map[int]bool{0: true, 1: true, 2: true},
			Positions: []Position{
				{Game: 0, FEN: up + "w KQkq - 0 3", Result: 1},
				{Game: 0, FEN: up + "b KQkq - 0 3", Result: 1},
				{Game: 1, FEN: down + "w KQkq - 0 3", Result: 0},
				{Game: 1, FEN: down + "b KQkq - 0 3", Result: 0},
				{Game: 2, FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Result: 0.5},
			}}
	}
	c := LabelConfig{Nodes: 300}
	dir := t.TempDir()
	whole := sample()
	wholePath := filepath.Join(dir, "whole.labels")
	if err := Label(context.Background(), v, c, whole, wholePath, nil); err != nil {
		t.Fatal(err)
	}
	for i, p := range whole.Positions {
		if !p.Scored {
			t.Fatalf("position %d not scored", i)
		}
		switch {
		case p.Game == 0 && p.Score < 500, p.Game == 1 && p.Score > -500, p.Game == 2 && math.Abs(p.Score) > 100:
			t.Errorf("game %d, %s: score %v for White", p.Game, p.FEN, p.Score)
		}
	}
	cut := sample()
	cutPath := filepath.Join(dir, "cut.labels")
	ctx, cancel := context.WithCancel(context.Background())
	err = Label(ctx, v, c, cut, cutPath, func(p LabelProgress) {
		if p.Games >= 1 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("an interrupted labelling reported no error")
	}
	got, err := ReadLabels(cutPath, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 1 || len(got) >= 3 {
		t.Fatalf("%d games scored before the interruption", len(got))
	}
	f, err := os.OpenFile(cutPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("s 2 1\ns 1 2 17")
	f.Close()
	if err := Label(context.Background(), v, c, cut, cutPath, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cut.Positions, whole.Positions) {
		t.Errorf("resumed scores differ:\n%v\n%v", cut.Positions, whole.Positions)
	}
	a, _ := os.ReadFile(wholePath)
	b, _ := os.ReadFile(cutPath)
	wa, _ := ReadLabels(wholePath, "")
	wb, _ := ReadLabels(cutPath, "")
	if len(a) != len(b) || !reflect.DeepEqual(wa, wb) {
		t.Errorf("resumed labels file differs:\n%s\n%s", a, b)
	}
	// Other settings, or another sample, do not resume the file.
	c.Nodes++
	if err := Label(context.Background(), v, c, sample(), cutPath, nil); !errors.Is(err, ErrSample) {
		t.Errorf("labels resumed with other nodes: %v", err)
	}
	c.Nodes--
	// Nor does an engine with other evaluation weights: its scores are
	// another evaluation's.
	w := map[string]float64{}
	for k, x := range v.Spec().Weights {
		w[k] = x
	}
	w["tempo"]++
	if err := Label(context.Background(), v.WithWeights(w), c, sample(), cutPath, nil); !errors.Is(err, ErrSample) {
		t.Errorf("labels resumed with other weights: %v", err)
	}
	other := sample()
	other.Header += " 2"
	if err := Label(context.Background(), v, c, other, cutPath, nil); !errors.Is(err, ErrSample) {
		t.Errorf("labels resumed for another sample: %v", err)
	}
	if err := Label(context.Background(), v, LabelConfig{}, sample(), filepath.Join(dir, "none"), nil); err == nil {
		t.Error("labelling with 0 nodes accepted")
	}
}
