package csipgs_test

import (
	"slices"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/variant/csipgs"
)

// TestActions checks csipgs's actions: purchases in the shop with the
// design and the price, transfers from the reserve with piece and square,
// keeping the designs in the design group, no piece move among them; and
// that the move PutDesign writes is a legal design change.
func TestActions(t *testing.T) {
	base, err := csipgs.New(csipgs.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	v := base.WithFace(csipgs.Face{})
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/4K3 w 5/5 N/- PRNBKQ/PRNBKQ 0 1 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}")
	if err != nil {
		t.Fatal(err)
	}
	find := func(as []face.Action, move string) (face.Action, bool) {
		i := slices.IndexFunc(as, func(a face.Action) bool { return a.Move == move })
		if i < 0 {
			return face.Action{}, false
		}
		return as[i], true
	}
	action := face.Actions(v, p, p.LegalMoves(nil))
	for _, want := range []face.Action{
		{Move: "+N", Label: "buy N (N) — 3 zorkmids", Group: "shop"},
		{Move: "+P", Label: "buy P (fmWfcF) — 2 zorkmids", Group: "shop"},
		{Move: "N@d2", Label: "put N from the reserve on d2", Group: "reserve", Piece: "N", To: "d2"},
	} {
		if got, ok := find(action, want.Move); !ok || got != want {
			t.Errorf("action %s = %+v, want %+v", want.Move, got, want)
		}
	}
	if _, ok := find(action, "e1e2"); ok {
		t.Errorf("the king's move e1e2 is an action: %+v", action)
	}
	if _, ok := find(action, "+Q"); ok {
		t.Errorf("a queen costs more than the 5 zorkmids to spend, yet +Q is offered: %+v", action)
	}
	m, err := notation.ParseMove(p, "+N")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	design := face.Actions(v, p, p.LegalMoves(nil))
	if got, ok := find(design, "&-"); !ok || got.Label != "keep the designs" || got.Group != "design" {
		t.Errorf("keeping the designs: %+v in %+v", got, design)
	}
	for _, a := range design {
		if a.Group != "design" {
			t.Errorf("in the design phase, the action %+v is not in the design group", a)
		}
	}
	for _, tc := range []struct {
		slot, design string
		ok           bool
	}{
		{"Q", "FfR", true},
		{"N", "WF", true},
		{"q", "FfR", false},
		{"QR", "FfR", false},
		{"", "FfR", false},
		{"Q", "", false},
	} {
		text, err := csipgs.Face{}.PutDesign(tc.slot, tc.design)
		if (err == nil) != tc.ok {
			t.Errorf("PutDesign(%q, %q) = %q, %v; want ok %v", tc.slot, tc.design, text, err, tc.ok)
			continue
		}
		if !tc.ok {
			continue
		}
		if _, err := notation.ParseMove(p, text); err != nil {
			t.Errorf("PutDesign(%q, %q) = %q: %v", tc.slot, tc.design, text, err)
		}
	}
}
