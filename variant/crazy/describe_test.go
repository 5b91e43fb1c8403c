package crazy

import (
	"slices"
	"testing"
)

// TestDescribePly checks the words of Crazy Chess's own moves: a
// disguise names the disguised piece and the pawns it swaps places with
// in turn, a denial what it undid, and a quiet move says nothing.
func TestDescribePly(t *testing.T) {
	for _, tt := range []struct {
		name, fen string
		moves     []string
		want      []string
	}{
		{"disguise", "7k/8/8/8/8/4N3/3PP3/4K3 w - - 0 1 b - 0", []string{"De3:e2"},
			[]string{"N e3 swaps places with P e2"}},
		{"chain disguise", "7k/8/8/8/8/4N3/3PP3/4K3 w - - 0 1 b - 0", []string{"De3:e2,d2"},
			[]string{"N e3 swaps places with P e2, then P d2"}},
		{"disguise of a passenger", "7k/8/8/8/8/4(RN)3/4P3/4K3 w - - 0 1 b - 0", []string{"De3/1:e2"},
			[]string{"N e3/1 swaps places with P e2"}},
		{"denial", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0", []string{"e2-e4", "DENY"},
			[]string{"undid e2-e4; white moves again"}},
		{"quiet move", "7k/8/8/8/8/4N3/3PP3/4K3 w - - 0 1 b - 0", []string{"Ne3-f5"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := parse(t, newVariant(t, nil), tt.fen)
			play(t, p, tt.moves...)
			if got := (Face{}).DescribePly(p); !slices.Equal(got, tt.want) {
				t.Errorf("DescribePly after %v = %q, want %q", tt.moves, got, tt.want)
			}
		})
	}
}
