package face_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// labelFace describes every move of the variant's own kind as the action
// "rest" in the group "lanterns", and no other move.
type labelFace struct{}

func (labelFace) Action(_ *rules.Position, m rules.Move) (face.Action, bool) {
	if m.Kind() != rules.Special {
		return face.Action{}, false
	}
	return face.Action{Label: "rest", Group: "lanterns"}, true
}

// TestActionsDefault checks the actions of variants without an Actioner
// (a move of the variant's own kind is a button labelled with its text, a
// drop a piece from the reserve, a move from one square to another no
// action) and that a face's Actioner describes them when it has one.
func TestActionsDefault(t *testing.T) {
	lanterns := lanternChess(t)
	cs, err := catalog.MustDefault().Get("csipgs")
	if err != nil {
		t.Fatal(err)
	}
	plainCS := cs.WithFace(nil)
	shop, err := plainCS.ParseFEN("4k3/8/8/8/8/8/8/4K3 w 5/5 N/- PRNBKQ/PRNBKQ 0 1 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		v        *rules.Variant
		p        *rules.Position
		n        int           // how many actions
		want     []face.Action // among them
		notMoves []string      // moves that are no action
	}{
		{"chess", chess(t), chess(t).Start(), 0, nil, []string{"e2e4", "g1f3"}},
		{"lanterns without a face", lanterns.WithFace(nil), lanterns.Start(), 1,
			[]face.Action{{Move: "REST", Label: "REST"}}, []string{"e2e4"}},
		{"lanterns with an Actioner", lanterns.WithFace(labelFace{}), lanterns.Start(), 1,
			[]face.Action{{Move: "REST", Label: "rest", Group: "lanterns"}}, nil},
		{"csipgs without a face", plainCS, shop, -1, []face.Action{
			{Move: "N@d2", Label: "N@d2", Piece: "N", To: "d2"},
			{Move: "+N", Label: "+N"},
		}, []string{"e1e2"}},
	} {
		got := face.Actions(tc.v, tc.p, tc.p.LegalMoves(nil))
		if tc.n >= 0 && len(got) != tc.n {
			t.Errorf("%s: %d actions %v, want %d", tc.name, len(got), got, tc.n)
		}
		for _, w := range tc.want {
			if !slices.ContainsFunc(got, func(a face.Action) bool { return reflect.DeepEqual(a, w) }) {
				t.Errorf("%s: no action %+v in %+v", tc.name, w, got)
			}
		}
		for _, m := range tc.notMoves {
			if slices.ContainsFunc(got, func(a face.Action) bool { return a.Move == m }) {
				t.Errorf("%s: the board move %s is an action", tc.name, m)
			}
		}
	}
}
