package variant_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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

// TestWeightsSquareTables: a table by square is read rank by rank, the
// highest rank first, and written back the same way.
func TestWeightsSquareTables(t *testing.T) {
	text := "variant = \"chess\"\n[N]\nvalue.mg = 300\nsquare.mg = [\n  [1, 2.5],\n  [-3, 4], # rank 2\n  [5, 6],\n]\n"
	_, w, err := variant.ParseWeights([]byte(text), "w.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"N.value.mg":     300,
		"N.square.mg.a3": 1, "N.square.mg.b3": 2.5,
		"N.square.mg.a2": -3, "N.square.mg.b2": 4,
		"N.square.mg.a1": 5, "N.square.mg.b1": 6,
	}
	if !reflect.DeepEqual(w, want) {
		t.Fatalf("read %v, want %v", w, want)
	}
	data := variant.FormatWeights("chess", w)
	if !strings.Contains(string(data), "square.mg = [\n  [1.0, 2.5], # 3\n  [-3.0, 4.0], # 2\n  [5.0, 6.0], # 1\n]") {
		t.Errorf("not written as an array of ranks:\n%s", data)
	}
	if _, got, err := variant.ParseWeights(data, "again.toml"); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v, %v", got, err)
	}
	// Squares that do not make a whole table stay single weights.
	part := map[string]float64{"N.square.mg.a1": 1, "N.square.mg.b2": 2}
	data = variant.FormatWeights("chess", part)
	if strings.Contains(string(data), "[[") || strings.Contains(string(data), "= [") {
		t.Errorf("a part of a table written as an array:\n%s", data)
	}
	if _, got, err := variant.ParseWeights(data, "again.toml"); err != nil || !reflect.DeepEqual(got, part) {
		t.Errorf("read back %v, %v", got, err)
	}
}

func TestParseWeightsErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"tempo = ", "w.toml"},
		{`tempo = "ten"`, "tempo is a string"},
		{"tempo = nan", "not a finite number"},
		{"tempo = inf", "not a finite number"},
		{"tempo = true", "tempo is a bool"},
		{"[N]\nvalue = [1, 2]", "N.value: rank 2 is a int64, want an array of numbers by file"},
		{"[N]\nsquare.mg = []", "N.square.mg has 0 ranks"},
		{"[N]\nsquare.mg = [[1, 2], [3]]", "N.square.mg: rank 1 has 1 numbers, want 2"},
		{"[N]\nsquare.mg = [[], []]", "N.square.mg: rank 2 has 0 numbers"},
		{"[N]\nsquare.mg = [[1, \"x\"]]", "N.square.mg.b1 is a string"},
		{"[N]\nsquare.mg = [[1, [2]]]", "N.square.mg.b1 is a []interface {}"},
		{"[N]\nsquare.mg = [[1, nan]]", "N.square.mg.b1 = NaN is not a finite number"},
		{"[N]\nsquare.mg = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]]", "want 17 as the highest rank has (1 to 16)"},
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
		{"variant = \"mini\"\n[N]\nsquare.mg = [[1, 2, 3, 4]]\n", nil, "N.square.mg: 4 squares reaching 1 ranks and 4 files, want 8 ranks of 4 files"},
		{"variant = \"mini\"\n[N]\nsquare.eg = " + table(8, 8) + "\n", nil, "N.square.eg: 64 squares reaching 8 ranks and 8 files, want 8 ranks of 4"},
		{"variant = \"mini\"\n[N]\nsquare.eg = " + table(8, 4) + "\n", squareWeights("N.square.eg", 8, 4), ""},
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

// table returns a TOML table by square of the given size, the square
// with rank r and file f (from 0) holding 10*r+f.
func table(ranks, files int) string {
	var b strings.Builder
	b.WriteString("[")
	for r := ranks - 1; r >= 0; r-- {
		b.WriteString("[")
		for f := range files {
			if f > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(10*r + f))
		}
		b.WriteString("],")
	}
	b.WriteString("]")
	return b.String()
}

// squareWeights returns the weights that table(ranks, files) at key gives.
func squareWeights(key string, ranks, files int) map[string]float64 {
	w := map[string]float64{}
	for r := range ranks {
		for f := range files {
			w[key+"."+string(rune('a'+f))+strconv.Itoa(r+1)] = float64(10*r + f)
		}
	}
	return w
}

func FuzzParseWeights(f *testing.F) {
	f.Add([]byte("variant = \"chess\"\ntempo = 10\n[N]\nvalue.mg = 325.5\n"))
	f.Add([]byte("[pawn.passed]\nmg = -1e3\n"))
	f.Add([]byte("a.b.c = 1\n\"x y\" = 2"))
	f.Add([]byte("[N]\nsquare.mg = [[1, 2], [3, 4.5]]\nsquare.eg = [[-1e2]]\nvalue.mg = 3\n"))
	f.Add([]byte("x = [[1, 2], [3]]\ny.a1 = 2\n"))
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
