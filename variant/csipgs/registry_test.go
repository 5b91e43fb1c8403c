package csipgs

import (
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

// TestFindsItsRules checks that the functions given a *rules.Variant find
// the game's csipgs through the variant's rules object: in the variants
// New builds, in those Configure builds from them, in copies that carry a
// Face, and in the variants of a player's view; and not in other variants,
// not even one declared from csipgs's Spec without its rules object.
func TestFindsItsRules(t *testing.T) {
	open, err := New(Options{MaxTurns: 100})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := New(Options{MaxTurns: 100, Moderated: true})
	if err != nil {
		t.Fatal(err)
	}
	configured, err := open.Configure(map[string]string{"Moderated": "1", "MaxTurns": "40"})
	if err != nil {
		t.Fatal(err)
	}
	p := mod.Start()
	view := p.View(p.Turn()).Position.Variant()
	chess, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	bare := open.Spec()
	bare.Ext = nil
	specOnly, err := rules.Compile(bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name              string
		v                 *rules.Variant
		csipgs, moderated bool
		maxTurns          int
	}{
		{"open", open, true, false, 100},
		{"moderated", mod, true, true, 100},
		{"configured", configured, true, true, 40},
		{"with a face", configured.WithFace("face"), true, true, 40},
		{"a view's", view, true, true, 100},
		{"chess", chess, false, false, 0},
		{"the Spec alone", specOnly, false, false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsCsipgs(tt.v); got != tt.csipgs {
				t.Errorf("IsCsipgs = %v, want %v", got, tt.csipgs)
			}
			if got := Moderated(tt.v); got != tt.moderated {
				t.Errorf("Moderated = %v, want %v", got, tt.moderated)
			}
			z, ok := hooksOfVariant(tt.v)
			if ok != tt.csipgs || ok && z.o.MaxTurns != tt.maxTurns {
				t.Errorf("hooksOfVariant = %v, %v; want MaxTurns %d", z != nil, ok, tt.maxTurns)
			}
			if got := Value(tt.v, "N") > 0; got != tt.csipgs {
				t.Errorf("Value(N) > 0 = %v, want %v", got, tt.csipgs)
			}
		})
	}
}
