package catalog_test

import (
	"reflect"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/variant"
)

// TestGoVariantsTakeTheirWeights: a variant built in Go carries the
// learned weights found for it (data/weights/NAME.toml, here a lookup of
// the test's), as a variant of a file does, in the registry's variant and
// in one made for a game's options; Vazir carries its own, not chess's.
func TestGoVariantsTakeTheirWeights(t *testing.T) {
	learned := map[string]map[string]float64{
		"vazir":      {"tempo": 7, "rank.1": 11},
		"crazychess": {"tempo": 9, "crazy.passenger": 0.8},
		"csipgs":     {"tempo": 3},
	}
	defer func(f func(string) (map[string]float64, error)) { variant.WeightsOf = f }(variant.WeightsOf)
	variant.WeightsOf = func(name string) (map[string]float64, error) { return learned[name], nil }
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range learned {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Spec().Weights; !reflect.DeepEqual(got, want) {
			t.Errorf("%s carries %v, want %v", name, got, want)
		}
		tags := map[string]string{}
		for _, o := range v.Options() {
			tags[o.Name] = o.Value
		}
		w, err := v.Configure(tags)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := w.Spec().Weights; !reflect.DeepEqual(got, want) {
			t.Errorf("%s with its options %v carries %v, want %v", name, tags, got, want)
		}
	}
}

// TestDefault checks that every variant is registered and that each one's
// start position reads back from its own FEN.
func TestDefault(t *testing.T) {
	reg := catalog.MustDefault()
	for _, name := range []string{"chess", "greatshatranj", "chatrang", "chess960", "vazir", "crazychess", "csipgs"} {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParseFEN(v.StartFEN())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Hash() != v.Start().Hash() {
			t.Errorf("%s: start FEN %q reads back with another hash", name, v.StartFEN())
		}
	}
}

// TestOptions checks per-game options and seeded set-ups through the
// variant's generic methods.
func TestOptions(t *testing.T) {
	reg := catalog.MustDefault()
	chess, _ := reg.Get("chess")
	if c, err := chess.Configure(map[string]string{"MPT": "2"}); err != nil || c != chess || chess.Options() != nil {
		t.Errorf("chess configured: %v, %v, options %v", c, err, chess.Options())
	}
	if chess.Seeded() || chess.Chance() {
		t.Error("chess is seeded or has chance")
	}
	vz, _ := reg.Get("vazir")
	if !vz.Seeded() || !vz.Chance() || !vz.Spec().Ranked {
		t.Error("vazir is not seeded, has no chance or no ranks")
	}
	v2, err := vz.Configure(map[string]string{"MPT": "2", "Event": "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	opts := map[string]string{}
	for _, o := range v2.Options() {
		opts[o.Name] = o.Value
	}
	if opts["MPT"] != "2" || opts["RankInit"] != "RandomMirrored" {
		t.Errorf("options after MPT=2: %v", opts)
	}
	if _, err := vz.Configure(map[string]string{"MPT": "x"}); err == nil {
		t.Error("MPT=x accepted")
	}
	a, err1 := v2.Setup(game.NewRoller(9))
	b, err2 := v2.Setup(game.NewRoller(9))
	c, err3 := v2.Setup(game.NewRoller(10))
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if a.FEN() != b.FEN() || a.FEN() == c.FEN() {
		t.Errorf("set-ups: %s, %s, %s", a.FEN(), b.FEN(), c.FEN())
	}
	if a.PlainFEN() != chess.StartFEN() {
		t.Errorf("plain FEN of a Vazir start: %s", a.PlainFEN())
	}
}

// TestCsipgs checks that csipgs Chess is registered with its alias and
// its options, and that its first turn has the five king moves of X1
// and, after one, the design phase.
func TestCsipgs(t *testing.T) {
	reg := catalog.MustDefault()
	tests := []struct {
		name string
		want string
	}{
		{"csipgs", "csipgs"},
		{"csipgs-chess", "csipgs"},
	}
	for _, tc := range tests {
		v, err := reg.Get(tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v.Name() != tc.want {
			t.Errorf("%s: name %q, want %q", tc.name, v.Name(), tc.want)
		}
	}
	v, _ := reg.Get("csipgs")
	p := v.Start()
	if n := len(p.LegalMoves(nil)); n != 5 {
		t.Errorf("start: %d legal actions, want 5 (X1)", n)
	}
	if v.Options() == nil {
		t.Error("csipgs has no option tags")
	}
	m, err := v.Configure(map[string]string{"Moderated": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if m == v {
		t.Error("Moderated=1 gave the same variant")
	}
}
