package server

import (
	"testing"

	"github.com/anychess/anychess/catalog"
)

// TestEveryVariantPlays creates a game of every variant in the catalog
// and plays its first legal plies through the server: each ply listed in
// "legal" must be accepted as it is written there.
func TestEveryVariantPlays(t *testing.T) {
	ts := newTestServer(t, "", nil)
	for _, v := range catalog.MustDefault().Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			_, w, b, _ := humanGame(t, ts, map[string]any{"variant": v.Name()})
			cs := map[string]*seatClient{"white": w, "black": b}
			var ver int64
			for n := 0; n < 8; n++ {
				st := w.stateAt(ver)
				if st.Status.Result != "*" {
					return
				}
				c := cs[st.Turn]
				st = c.stateAt(ver)
				if len(st.Legal) == 0 {
					t.Fatalf("%s to move at version %d has no legal moves listed", st.Turn, ver)
				}
				ver = c.mustMove(st.Legal[len(st.Legal)/2])
			}
		})
	}
}

// TestVariantStacks: /api/variants says which variants' positions hold
// stacks, as the variant's face answers (the board editor lets a piece
// join another there).
func TestVariantStacks(t *testing.T) {
	ts := newTestServer(t, "", nil)
	var vs []VariantInfo
	getJSON(t, ts.URL+"/api/variants", &vs)
	if len(vs) == 0 {
		t.Fatal("no variants")
	}
	for _, v := range vs {
		if want := v.Name == "crazychess"; v.Stacks != want {
			t.Errorf("%s: stacks %v, want %v", v.Name, v.Stacks, want)
		}
	}
}
