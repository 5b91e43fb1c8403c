package variant_test

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestMakrukCountingEnd: a count that passes its limit draws, after
// checkmate and stalemate, as Fairy-Stockfish judges it.
func TestMakrukCountingEnd(t *testing.T) {
	v := specVariant(t, "makruk")
	for _, c := range []struct {
		name, fen, move, after string
		result                 rules.Result
		reason                 rules.Reason
	}{
		{"the count reaches its limit", "8/8/4k3/8/3K4/8/3R4/8 w - 32 31 30", "d2d1",
			"8/8/4k3/8/3K4/8/8/3R4 b - 32 32 30", rules.Ongoing, rules.ReasonNone},
		{"the count passes its limit", "8/8/4k3/8/3K4/8/3R4/8 w - 32 32 30", "d2d1",
			"8/8/4k3/8/3K4/8/8/3R4 b - 32 33 30", rules.Draw, rules.ReasonVariant},
		{"mate on the last count stands", "k7/8/1K6/8/8/8/8/7R w - 32 32 40", "h1h8",
			"k6R/8/1K6/8/8/8/8/8 b - 32 33 40", rules.WhiteWins, rules.ReasonCheckmate},
		{"a bare king's count starts at the pieces on the board", "8/8/6k1/3n4/3K4/8/3R4/8 w - - 0 30", "d4d5",
			"8/8/6k1/3K4/8/8/3R4/8 b - 32 6 30", rules.Ongoing, rules.ReasonNone},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, v, c.fen)
			if got := p.FEN(); got != c.fen {
				t.Fatalf("FEN reads back as %s", got)
			}
			if st := p.Status(); st.Over() {
				t.Fatalf("over before the move: %v", st)
			}
			play(t, p, c.move)
			if got := p.FEN(); got != c.after {
				t.Errorf("after %s: FEN %s, want %s", c.move, got, c.after)
			}
			st := p.Status()
			if st.Result != c.result || st.Reason != c.reason {
				t.Errorf("after %s: status %v (%s), want %v (%s)", c.move, st, st.Reason, c.result, c.reason)
			}
			p.Unmake()
			if got := p.FEN(); got != c.fen {
				t.Errorf("after Unmake: FEN %s, want %s", got, c.fen)
			}
		})
	}
}
