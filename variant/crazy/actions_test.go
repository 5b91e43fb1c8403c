package crazy_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/variant/crazy"
)

// TestActions checks that a denial, the all-round capture and a disguise
// are actions with readable labels, and that a piece's move from one
// square to another is none.
func TestActions(t *testing.T) {
	base, err := crazy.New(crazy.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	v := base.WithFace(crazy.Face{})
	for _, tc := range []struct {
		name, fen string
		moves     []string          // played first
		want      map[string]string // move text: label
		group     map[string]string // move text: group
		none      []string          // moves that are no action
	}{
		{"the start", "", nil,
			map[string]string{"Qd1*": "capture all around (Qd1*)"}, nil, []string{"e2-e4", "Ng1-f3"}},
		{"after e2-e4", "", []string{"e2-e4"},
			map[string]string{"DENY": "deny the last move"}, map[string]string{"DENY": "denial"}, []string{"e7-e5"}},
		{"a disguise", "7k/8/8/8/8/4N3/4P3/4K3 w - - 0 1 b - 0", nil,
			map[string]string{"De3:e2": "disguise: the pawn on e2 swaps places with the piece on e3 (De3:e2)"}, nil, []string{"Ne3-g4"}},
	} {
		p := v.Start()
		if tc.fen != "" {
			var err error
			if p, err = v.ParseFEN(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range tc.moves {
			m, err := notation.ParseMove(p, s)
			if err != nil {
				t.Fatal(err)
			}
			p.Make(m)
		}
		as := face.Actions(v, p, p.LegalMoves(nil))
		var texts []string
		for _, a := range as {
			texts = append(texts, a.Move)
		}
		for move, label := range tc.want {
			i := slices.IndexFunc(as, func(a face.Action) bool { return a.Move == move })
			if i < 0 {
				t.Errorf("%s: no action %s among %s", tc.name, move, strings.Join(texts, " "))
				continue
			}
			if as[i].Label != label || as[i].Group != tc.group[move] {
				t.Errorf("%s: %s is %q in group %q, want %q in %q", tc.name, move, as[i].Label, as[i].Group, label, tc.group[move])
			}
		}
		for _, move := range tc.none {
			if _, err := notation.ParseMove(p, move); err != nil {
				t.Errorf("%s: %s is not legal: %v", tc.name, move, err)
			}
			if slices.Contains(texts, move) {
				t.Errorf("%s: the board move %s is an action", tc.name, move)
			}
		}
	}
}
