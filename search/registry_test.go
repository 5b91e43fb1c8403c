package search

import (
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
	"github.com/anychess/anychess/variant/crazy"
	"github.com/anychess/anychess/variant/csipgs"
	"github.com/anychess/anychess/variant/vazir"
)

// testRegistry returns the data variants with Vazir, Crazy Chess and
// csipgs Chess built from their packages: the catalog sits above the
// search (it attaches csipgs's player, which searches), so the search's
// own tests cannot take their variants from it.
func testRegistry(t testing.TB) *variant.Registry {
	t.Helper()
	reg := vtest.Builtins()
	vz, err := vazir.New(vazir.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cc, err := crazy.New(crazy.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cs, err := csipgs.New(csipgs.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []*rules.Variant{vz, cc, cs} {
		if err := reg.Register(v, nil); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}
