package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/variant"
)

// TestTuneUserVariant: tune on a user's variant file writes weights beside
// it that the next load of the file carries; a second run resumes the
// sample instead of playing it again.
func TestTuneUserVariant(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mini.toml")
	if err := os.WriteFile(file, []byte("name = \"mini\"\nbase = \"chess\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "-file", file, "-games", "2", "-nodes", "100", "-data", dir, "-iters", "20", "-workers", "1"}
	var out, errb bytes.Buffer
	if st := run(args, nil, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	for _, want := range []string{"loss before", "loss after", "wrote " + variant.WeightsFile(file)} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "games 2/2") {
		t.Errorf("no progress line: %q", errb.String())
	}
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	v, err := reg.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Spec().Weights) == 0 {
		t.Fatal("the variant file did not take the weights beside it")
	}
	if err := eval.CheckWeights(v, v.Spec().Weights); err != nil {
		t.Error(err)
	}
	if _, ok := v.Spec().Weights["N.square.mg.d4"]; !ok {
		t.Error("the weights file lacks the knight's per-square table")
	}
	sample, err := os.ReadFile(filepath.Join(dir, "mini.sample"))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if st := run(args, nil, &out, &errb); st != 0 {
		t.Fatalf("second run: exit %d: %s", st, errb.String())
	}
	again, err := os.ReadFile(filepath.Join(dir, "mini.sample"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sample, again) {
		t.Error("the second run changed the finished sample")
	}
	// -fixed keeps the weights it names at their start, here the first
	// run's weights (the file beside the variant file): the file written
	// again holds them as they were.
	first, err := os.ReadFile(variant.WeightsFile(file))
	if err != nil {
		t.Fatal(err)
	}
	_, was, err := variant.ParseWeights(first, "first")
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if st := run(append(args, "-fixed", "tempo,.square.,N."), nil, &out, &errb); st != 0 {
		t.Fatalf("-fixed: exit %d: %s", st, errb.String())
	}
	written, err := os.ReadFile(variant.WeightsFile(file))
	if err != nil {
		t.Fatal(err)
	}
	_, now, err := variant.ParseWeights(written, "second")
	if err != nil {
		t.Fatal(err)
	}
	// A weight the file leaves out keeps the evaluation's default: a fixed
	// weight that the first fit left at its default (a feature the two
	// games never showed) is not written again.
	def := eval.Defaults(v)
	kept := 0
	for n, x := range was {
		if strings.Contains(n, "tempo") || strings.Contains(n, ".square.") || strings.HasPrefix(n, "N.") {
			kept++
			y, ok := now[n]
			if !ok {
				y = def[n]
			}
			if y != x {
				t.Errorf("-fixed: %s = %v (in the file: %v), want the start %v", n, y, ok, x)
			}
		}
	}
	if kept == 0 {
		t.Error("the first run wrote none of the weights -fixed names: the test shows nothing")
	}
	if _, ok := now["B.value.mg"]; !ok {
		t.Error("-fixed: the weights file lacks B.value.mg, which was fitted")
	}
	// -init starts from another file: a weight kept fixed keeps its value
	// from there; a name that is no weight of the variant is refused.
	start := filepath.Join(dir, "start.toml")
	if err := os.WriteFile(start, []byte("variant = \"chess\"\ntempo = 33.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if st := run(append(args, "-init", start, "-fixed", "tempo"), nil, &out, &errb); st != 0 {
		t.Fatalf("-init: exit %d: %s", st, errb.String())
	}
	written, err = os.ReadFile(variant.WeightsFile(file))
	if err != nil {
		t.Fatal(err)
	}
	if _, now, err = variant.ParseWeights(written, "third"); err != nil {
		t.Fatal(err)
	}
	if now["tempo"] != 33.5 || !strings.Contains(string(written), "from start.toml") {
		t.Errorf("-init: tempo = %v, want 33.5 from start.toml:\n%s", now["tempo"], written)
	}
	if err := os.WriteFile(start, []byte("Z.value.mg = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if st := run(append(args, "-init", start), nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), "start.toml") || !strings.Contains(errb.String(), "Z.value.mg") {
		t.Errorf("-init with a name that is no weight: exit %d: %s", st, errb.String())
	}
	// A sample fitted as it is (-games 0) is described by its own
	// settings, not by the flags of the command that fits it.
	out.Reset()
	errb.Reset()
	if st := run([]string{"tune", "-file", file, "-games", "0", "-nodes", "777", "-seed", "5", "-data", dir, "-iters", "20"}, nil, &out, &errb); st != 0 {
		t.Fatalf("-games 0: exit %d: %s", st, errb.String())
	}
	if written, err = os.ReadFile(variant.WeightsFile(file)); err != nil {
		t.Fatal(err)
	}
	if text := string(written); strings.Contains(text, "777") || strings.Contains(text, "seed 5") || !strings.Contains(text, "seed 1 nodes 100 ") {
		t.Errorf("-games 0: the file's comment does not describe the sample:\n%s", text)
	}
	// A broken weights file is refused with its name.
	if err := os.WriteFile(variant.WeightsFile(file), []byte("tempo = \"x\""), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if st := run(args, nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), "mini.weights.toml") {
		t.Errorf("exit %d with a broken weights file: %s", st, errb.String())
	}
}

// TestTuneLabels: -label-nodes scores the sample's positions into
// VARIANT.labels beside it and -lambda fits a blend of the results and
// those scores; bad values of either are refused with a clear error.
func TestTuneLabels(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tune", "-variant", "chess", "-games", "2", "-nodes", "100", "-data", dir, "-iters", "20", "-workers", "1"}
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-lambda", "0.5"}, "-label-nodes"},
		{[]string{"-lambda", "1.5", "-label-nodes", "100"}, "-lambda must be in [0, 1]"},
		{[]string{"-lambda", "-1", "-label-nodes", "100"}, "-lambda must be in [0, 1]"},
		{[]string{"-label-nodes", "-5"}, "-label-nodes must not be negative"},
	} {
		var out, errb bytes.Buffer
		if st := run(append(args, tt.flags...), nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d: %s", tt.flags, st, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if st := run(append(args, "-label-nodes", "200", "-lambda", "0.5"), nil, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if !strings.Contains(out.String(), "held-out loss against the blended targets") {
		t.Errorf("output lacks the blended held-out loss:\n%s", out.String())
	}
	labels, err := os.ReadFile(filepath.Join(dir, "chess.labels"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(labels), "\ns "); lines != 2 {
		t.Errorf("the labels file holds %d games, want 2:\n%s", lines, labels)
	}
	written, err := os.ReadFile(filepath.Join(dir, "chess.weights.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "scored at 200 nodes, lambda 0.5") {
		t.Errorf("the weights file's comment does not say how the sample was scored:\n%s", written)
	}
	// Labels of other settings are refused, not mixed in.
	errb.Reset()
	if st := run(append(args, "-games", "0", "-label-nodes", "300", "-lambda", "0.5"), nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), "chess.labels") {
		t.Errorf("labels of 200 nodes taken for 300: exit %d: %s", st, errb.String())
	}
}

// TestTuneView: -opt plays the sample with the variant's option and
// writes it in the sample's header; -view fits the samples of the views
// on the scale of the true positions; a variant that hides nothing is
// refused before any game is played.
func TestTuneView(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.toml")
	args := []string{"tune", "-variant", "csipgs", "-opt", "Moderated=1", "-games", "10", "-nodes", "100",
		"-label-nodes", "100", "-lambda", "0", "-view", "-data", dir, "-out", out, "-iters", "20", "-workers", "1"}
	var stdout, errb bytes.Buffer
	if st := run(args, nil, &stdout, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if !strings.Contains(stdout.String(), "K of the true positions") {
		t.Errorf("output lacks the true positions' K:\n%s", stdout.String())
	}
	w, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(w), "fitted on samples of the side to move's view") {
		t.Errorf("the weights file does not say it was fitted on the views:\n%s", w)
	}
	sample, err := os.ReadFile(filepath.Join(dir, "csipgs.sample"))
	if err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(string(sample), "\n"); !strings.Contains(head, "Moderated=1") {
		t.Errorf("the sample's header lacks the option: %s", head)
	}
	for _, a := range [][]string{
		{"tune", "-variant", "csipgs", "-view", "-games", "2", "-data", t.TempDir()},
		{"tune", "-variant", "chess", "-view", "-games", "2", "-data", t.TempDir()},
	} {
		stdout.Reset()
		errb.Reset()
		if st := run(a, nil, &stdout, &errb); st == 0 || !strings.Contains(errb.String(), "hides nothing") || strings.Contains(errb.String(), "games 2/2") {
			t.Errorf("%v: exit %d: %s", a, st, errb.String())
		}
	}
}

// TestTunePGN: -pgn takes the sample from game records and fits it;
// records it cannot take, and flags that do not apply, are refused.
func TestTunePGN(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "games.pgn")
	var stdout, errb bytes.Buffer
	if st := run([]string{"match", "-variant", "chess", "-p1", "random", "-p2", "random", "-games", "4", "-tc", "100+0", "-seed", "3", "-pgn", records}, nil, &stdout, &errb); st != 0 {
		t.Fatalf("match: exit %d: %s", st, errb.String())
	}
	args := []string{"tune", "-variant", "chess", "-pgn", records, "-every", "2", "-random", "2", "-data", dir, "-iters", "5", "-workers", "1", "-valid=false"}
	stdout.Reset()
	errb.Reset()
	if st := run(args, nil, &stdout, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if !strings.Contains(errb.String(), "of 4 games of "+records) || !strings.Contains(stdout.String(), "wrote ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), errb.String())
	}
	sample, err := os.ReadFile(filepath.Join(dir, "chess.sample"))
	if err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(string(sample), "\n"); !strings.Contains(head, "records games.pgn sha256 ") || !strings.HasSuffix(head, "random 2 every 2") {
		t.Errorf("header %q", head)
	}
	w, err := os.ReadFile(filepath.Join(dir, "chess.weights.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(w), "of 4 recorded games (the records games.pgn, the first 2 plies of each left out, one ply in 2") {
		t.Errorf("the weights file does not name the records:\n%.400s", w)
	}
	bad := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-pgn", records, "-games", "10"}, "-games and -nodes do not apply"},
		{[]string{"-pgn", records, "-every", "0"}, "-every must be at least 1"},
		{[]string{"-pgn", bad("open.pgn", "1. e4 e5 *\n")}, "game 1 has no result"},
		{[]string{"-pgn", bad("other.pgn", "[Variant \"chatrang\"]\n\n1-0\n")}, "a game of chatrang, not chess"},
		{[]string{"-pgn", filepath.Join(dir, "none.pgn")}, "none.pgn"},
	} {
		stdout.Reset()
		errb.Reset()
		a := append([]string{"tune", "-variant", "chess", "-data", t.TempDir(), "-iters", "5"}, tc.args...)
		if st := run(a, nil, &stdout, &errb); st == 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d: %s, want %q", tc.args, st, errb.String(), tc.want)
		}
	}
}
