package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// TestSampleWeights: the positions SearchView samples from a view carry
// the view's evaluation weights, also when the view was moved to a copy
// of its variant with other weights (a match's weights=none or
// weights=FILE); the determinizer alone builds them on the variant of the
// game's view, with the game's weights.
func TestSampleWeights(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	if len(v.Spec().Weights) == 0 {
		t.Fatal("the moderated variant carries no weights: the test needs the learned ones")
	}
	view := v.Start().View(rules.White).Position
	handSet, err := view.On(view.Variant().WithWeights(map[string]float64{}))
	if err != nil {
		t.Fatal(err)
	}
	other, err := view.On(view.Variant().WithWeights(map[string]float64{"csipgs.zorkmid": 7}))
	if err != nil {
		t.Fatal(err)
	}
	for _, belief := range []bool{false, true} {
		for _, tc := range []struct {
			name string
			p    *rules.Position
		}{{"the game's weights", view}, {"hand-set", handSet}, {"a file", other}} {
			a := New(search.New(1), 5)
			a.Belief = belief
			vw := tc.p.View(rules.White)
			if belief {
				a.bel.update(vw)
			}
			det := tc.p.Variant().Ext().(rules.Determinizer)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 3 {
				s, err := a.sample(tc.p, vw, det, rng)
				if err != nil {
					t.Fatalf("%s, belief %v, sample %d: %v", tc.name, belief, i, err)
				}
				if s.Variant() != tc.p.Variant() {
					t.Fatalf("%s, belief %v, sample %d: on a variant with the weights %d names, want the view's (%d names)", tc.name, belief, i, len(s.Variant().Spec().Weights), len(tc.p.Variant().Spec().Weights))
				}
				if s.Turn() != rules.White {
					t.Fatalf("%s: sample %d: %s to move", tc.name, i, s.Turn())
				}
			}
		}
	}
}
