package notation_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
)

// FuzzReadGame reads arbitrary PGN text with the full registry (Vazir
// included). It must never panic; a game that reads is written back as
// R-PGN and reads back to the same plies and final position, and its plain
// export is written.
func FuzzReadGame(f *testing.F) {
	for _, tc := range specExamples {
		f.Add(vazirRecord(tc.tags, tc.rfen, tc.moves))
	}
	f.Add(vazirRecord("[MPT \"2\"]\n[SameTargetOnly \"1\"]\n", "3r43k0/8/8/8/8/8/8/n92R0K03 w - - 0 1 t1@d8", "1. Rxd8+~ *"))
	f.Add(vazirRecord("", "k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0", "1. Kxg1 *"))
	for i, opts := range vazirConfigs {
		f.Add(notation.WriteGame(randomVazirGame(f, vazir(f, opts), uint64(i), 40)).String())
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "opera.pgn")); err == nil {
		f.Add(string(data))
	}
	f.Add("[Variant \"chatrang\"]\n\n1. e4,e5 Nf6 *\n")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := pgn.Parse(text)
		if err != nil {
			return
		}
		for _, pg := range games {
			g, err := notation.ReadGame(full, pg)
			if err != nil {
				if !errors.Is(err, notation.ErrPGN) {
					t.Fatalf("error %v does not wrap ErrPGN", err)
				}
				continue
			}
			out := notation.WriteGame(g).String()
			_ = notation.WritePlainGame(g).String()
			back, err := pgn.Parse(out)
			if err != nil || len(back) != 1 {
				t.Fatalf("written game does not parse (%v):\n%s", err, out)
			}
			g2, err := notation.ReadGame(full, back[0])
			if err != nil {
				t.Fatalf("written game does not read back: %v\n%s", err, out)
			}
			if !slices.EqualFunc(g.Plies, g2.Plies, func(a, b game.Ply) bool { return a.Move == b.Move && a.Outcome == b.Outcome }) ||
				g.Position().FEN() != g2.Position().FEN() {
				t.Fatalf("written game reads back otherwise:\n%s", out)
			}
		}
	})
}
