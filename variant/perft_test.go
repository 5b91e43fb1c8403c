package variant_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/anychess/anychess/internal/corpus"
	"github.com/anychess/anychess/rules"
)

// perftBudget is the largest node count checked in -short mode.
const perftBudget = 100_000

func TestPerftReference(t *testing.T) {
	reg := builtins(t)
	for _, tc := range []struct{ file, variant string }{
		{"chess.epd", "chess"},
		{"greatshatranj.epd", "greatshatranj"},
		{"chatrang.epd", "chatrang"},
	} {
		v, err := reg.Get(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := corpus.Perft(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Fatalf("%s: no positions", tc.file)
		}
		t.Run(tc.variant, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				p, err := v.ParseFEN(c.FEN)
				if err != nil {
					t.Errorf("%s:%d: %v", tc.file, c.Line, err)
					continue
				}
				for d := 1; d <= 6; d++ {
					want, ok := c.Counts[d]
					if !ok {
						continue
					}
					if testing.Short() && want > perftBudget && d > 1 {
						continue
					}
					if got := rules.Perft(p, d); got != want {
						t.Errorf("%s:%d: %s perft(%d) = %d, want %d", tc.file, c.Line, c.FEN, d, got, want)
					}
				}
			}
		})
	}
}

// TestPerftFileCopy keeps the copied reference data in step with the shared
// originals when they are present beside the repository.
func TestPerftFileCopy(t *testing.T) {
	for _, name := range []string{"chess.epd", "greatshatranj.epd", "chatrang.epd"} {
		shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "perft", name))
		if err != nil {
			continue // a clone without the shared folder
		}
		local, err := corpus.Raw(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(shared) != string(local) {
			t.Errorf("internal/corpus/testdata/perft/%s differs from ../shared/perft/%s; copy it again", name, name)
		}
	}
}
