package catalog_test

import (
	"testing"

	"github.com/anychess/anychess/catalog"
)

// TestDefault checks that every variant is registered and that each one's
// start position reads back from its own FEN.
func TestDefault(t *testing.T) {
	reg := catalog.MustDefault()
	for _, name := range []string{"chess", "greatshatranj", "chatrang", "vazir"} {
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
