package variant_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/anychess/anychess/variant"
)

func TestWeightsRoundTrip(t *testing.T) {
	w := map[string]float64{
		"tempo": 11, "N.value.mg": 312.5, "N.value.eg": -0.125, "pawn.passed.advance.eg": 1e-7,
		"pawn.passed.mg": 3, "Z.table.mg": 1.0 / 3,
	}
	data := variant.FormatWeights("greatshatranj", w, "learned from 10 games")
	name, got, err := variant.ParseWeights(data, "w.toml")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if name != "greatshatranj" || !reflect.DeepEqual(got, w) {
		t.Errorf("got %q %v, want %v\n%s", name, got, w, data)
	}
}

func TestParseWeightsErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"tempo = ", "w.toml"},
		{`tempo = "ten"`, "tempo is a string"},
		{"tempo = nan", "not a finite number"},
		{"tempo = inf", "not a finite number"},
		{"tempo = true", "tempo is a bool"},
		{"[N]\nvalue = [1, 2]", "N.value is a []interface {}"},
		{"variant = 3", "want the variant's name"},
		{"[variant]\nx = 3", "want the variant's name"},
		{"[pieces]\nvariant = 3", ""}, // a weight named pieces.variant, for the evaluation to judge
	} {
		_, _, err := variant.ParseWeights([]byte(tt.text), "w.toml")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.text, err)
		case tt.want != "" && (err == nil || !errors.Is(err, variant.ErrWeights) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: error %v, want one with %q", tt.text, err, tt.want)
		}
	}
}

// TestLoadWeightsBeside: a user's variant file takes the weights file
// beside it; a broken one or one for another variant is an error.
func TestLoadWeightsBeside(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mini.toml")
	src := "name = \"mini\"\nbase = \"chess\"\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		weights string
		want    map[string]float64
		err     string
	}{
		{"", nil, ""},
		{"variant = \"mini\"\ntempo = 7\n[N]\nvalue.mg = 300\n", map[string]float64{"tempo": 7, "N.value.mg": 300}, ""},
		{"variant = \"chess\"\ntempo = 7\n", nil, "not \"mini\""},
		{"tempo = [", nil, "mini.weights.toml"},
	} {
		wf := variant.WeightsFile(file)
		os.Remove(wf)
		if tt.weights != "" {
			if err := os.WriteFile(wf, []byte(tt.weights), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		v, err := builtins(t).Load(file)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one with %q", tt.weights, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.weights, err)
		}
		if got := v.Spec().Weights; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: weights %v, want %v", tt.weights, got, tt.want)
		}
	}
}

func FuzzParseWeights(f *testing.F) {
	f.Add([]byte("variant = \"chess\"\ntempo = 10\n[N]\nvalue.mg = 325.5\n"))
	f.Add([]byte("[pawn.passed]\nmg = -1e3\n"))
	f.Add([]byte("a.b.c = 1\n\"x y\" = 2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		name, w, err := variant.ParseWeights(data, "fuzz.toml")
		if err != nil {
			return
		}
		for k, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%s = %v accepted", k, x)
			}
		}
		// What is read is written back and read the same.
		n2, w2, err := variant.ParseWeights(variant.FormatWeights(name, w), "again.toml")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, variant.FormatWeights(name, w))
		}
		if n2 != name || !reflect.DeepEqual(w2, w) {
			t.Fatalf("read back %q %v, want %q %v", n2, w2, name, w)
		}
	})
}

// TestBuiltinWeightsEmbedded: a built-in variant with a weights file carries
// its weights; one without carries none.
func TestBuiltinWeightsEmbedded(t *testing.T) {
	reg := builtins(t)
	for _, tt := range []struct {
		name string
		has  bool
	}{{"greatshatranj", true}, {"chess", true}, {"shatranj", false}} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(v.Spec().Weights) > 0; got != tt.has {
			t.Errorf("%s carries weights: %v, want %v", tt.name, got, tt.has)
		}
	}
}
