package search_test

import (
	"context"
	"testing"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// TestShallowSearchMates: the shallowest searches (the lowest levels play
// depth 1 and 2) mate a lone king with king and rook, or king and queen,
// within the 50-move rule, playing both sides. Before the lone royal's
// room was weighed (eval's mopup.box) depth 2 drew every one of these by
// the 50-move rule, and before quiescence saw stalemate depth 1
// stalemated the lone king with the queen.
func TestShallowSearchMates(t *testing.T) {
	fens := []string{
		"8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
		"8/8/3k4/8/8/2K5/8/7R w - - 0 1",
		"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		"8/8/8/8/3k4/8/8/K6R w - - 0 1",
		"8/2k5/8/8/5K2/8/8/7R w - - 0 1",
		"8/8/8/3k4/8/8/1R6/6K1 w - - 0 1",
		"8/8/5k2/8/8/8/R7/K7 w - - 0 1",
		"8/8/8/8/8/3k4/8/R5K1 w - - 0 1",
		"8/8/8/4k3/8/8/8/Q3K3 w - - 0 1",
		"8/8/3k4/8/8/2K5/8/7Q w - - 0 1",
		"8/8/8/8/3k4/8/8/K6Q w - - 0 1",
		"8/2k5/8/8/5K2/8/8/7Q w - - 0 1",
		"8/8/5k2/8/8/8/Q7/K7 w - - 0 1",
		"8/8/8/8/8/3k4/8/Q5K1 w - - 0 1",
	}
	for _, depth := range []int{1, 2} {
		for _, fen := range fens {
			p := pos(t, "chess", fen)
			engines := [2]*search.Engine{search.New(1), search.New(1)}
			var st rules.Status
			plies := 0
			for ; plies < 100; plies++ {
				if st = p.Status(); st.Over() {
					break
				}
				res := engines[p.Turn()].Search(context.Background(), p, search.Limits{Depth: depth}, nil)
				if res.Best == rules.NoMove {
					t.Fatalf("depth %d, %s: no move after %d plies", depth, fen, plies)
				}
				p.Make(res.Best)
			}
			if st.Result != rules.Win(rules.White) || st.Reason != rules.ReasonCheckmate {
				t.Errorf("depth %d, %s: %v after %d plies, want white to mate", depth, fen, st, plies)
			}
		}
	}
}
