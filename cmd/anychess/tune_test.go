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
	// -fixed keeps the weights it names at their start: the file lacks them.
	out.Reset()
	errb.Reset()
	if st := run(append(args, "-fixed", "tempo,.square.,N."), nil, &out, &errb); st != 0 {
		t.Fatalf("-fixed: exit %d: %s", st, errb.String())
	}
	written, err := os.ReadFile(variant.WeightsFile(file))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		part string
		want bool
	}{{"tempo", false}, {"square", false}, {"[N]", false}, {"[B]", true}, {"value.mg", true}} {
		if got := strings.Contains(string(written), tt.part); got != tt.want {
			t.Errorf("-fixed: the weights file holds %q: %v, want %v\n%s", tt.part, got, tt.want, written)
		}
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
