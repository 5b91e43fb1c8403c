package rules_test

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestMoveCapCountsPlayedPlies: a move cap counts the plies played in the
// game, from the position it started from, not from the FEN's move number,
// and a FEN round trip starts the count again.
func TestMoveCapCountsPlayedPlies(t *testing.T) {
	s := chessSpec(t)
	s.End.MoveCap = 4
	v := compile(t, s)
	shuffle := [][2]string{{"g1", "f3"}, {"g8", "f6"}, {"f3", "g1"}, {"f6", "g8"}}
	for _, c := range []struct {
		name string
		fen  string
	}{
		{"move 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"move 10", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10"},
		{"move 500, black", "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 500"},
	} {
		p, err := v.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		moves := shuffle
		if p.Turn() == rules.Black {
			moves = [][2]string{{"g8", "f6"}, {"f3", "g1"}, {"f6", "g8"}, {"g1", "f3"}}
		}
		for i, mv := range moves {
			if st := p.Status(); st.Over() || p.Played() != i {
				t.Fatalf("%s: after %d plies: %v, played %d", c.name, i, st, p.Played())
			}
			p.Make(find(t, p, mv[0], mv[1]))
		}
		if st := p.Status(); st.Reason != rules.ReasonMoveCap {
			t.Errorf("%s: after 4 plies: %v, want the move cap", c.name, st)
		}
		q, err := v.ParseFEN(p.FEN())
		if err != nil {
			t.Fatal(err)
		}
		if st := q.Status(); st.Over() || q.Played() != 0 {
			t.Errorf("%s: read back from FEN: %v, played %d", c.name, st, q.Played())
		}
		p.Unmake()
		if st := p.Status(); st.Over() || p.Played() != 3 {
			t.Errorf("%s: after an unmake: %v, played %d", c.name, st, p.Played())
		}
	}
}
