package csipgs_test

import (
	"testing"

	"github.com/anychess/anychess/variant/csipgs"
)

// TestCopyFindsHooks checks that a copy of a csipgs variant carrying a
// face (rules.Variant.WithFace, as the catalog assembles it) is still
// known as csipgs by the functions given a variant.
func TestCopyFindsHooks(t *testing.T) {
	for _, o := range []csipgs.Options{csipgs.DefaultOptions(), {Moderated: true}} {
		v, err := csipgs.New(o)
		if err != nil {
			t.Fatal(err)
		}
		c := v.WithFace(csipgs.Face{})
		if !csipgs.IsCsipgs(c) {
			t.Errorf("moderated %v: the copy is not csipgs", o.Moderated)
		}
		if got, want := csipgs.Moderated(c), o.Moderated; got != want {
			t.Errorf("Moderated(copy) = %v, want %v", got, want)
		}
		if len(csipgs.GeneratedDesigns(c)) == 0 {
			t.Errorf("moderated %v: no generated designs for the copy", o.Moderated)
		}
	}
}
