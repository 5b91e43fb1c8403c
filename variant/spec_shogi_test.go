package variant_test

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestShogiEnds: a checkmate by a pawn drop loses for the dropper, as
// Fairy-Stockfish judges it; a checkmate by another drop or move wins.
func TestShogiEnds(t *testing.T) {
	v := specVariant(t, "shogi")
	for _, c := range []struct {
		name, fen, move string
		result          rules.Result
	}{
		{"a pawn drop mates", "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1", "P@e8", rules.BlackWins},
		{"a gold drop mates", "3lkl3/9/4G4/9/9/9/9/9/4K4[G] w - - 0 1", "G@e8", rules.WhiteWins},
		{"a pawn drop checks", "3lk4/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1", "P@e8", rules.Ongoing},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, v, c.fen)
			play(t, p, c.move)
			if st := p.Status(); st.Result != c.result {
				t.Errorf("after %s: %v, want %v", c.move, st, c.result)
			}
		})
	}
}
