package variant_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// epdCase is one line of a perft file: a position and its node counts.
type epdCase struct {
	line   int
	fen    string
	counts map[int]uint64
}

// readEPD reads reference perft data: "FEN ;D1 n ;D2 n ...", '#' comments.
func readEPD(t testing.TB, name string) []epdCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "perft", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []epdCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		c := epdCase{line: n, fen: strings.TrimSpace(parts[0]), counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			var d int
			var cnt uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "D%d %d", &d, &cnt); err != nil {
				t.Fatalf("%s:%d: bad field %q", name, n, p)
			}
			c.counts[d] = cnt
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// perftBudget is the largest node count checked in -short mode.
const perftBudget = 100_000

func TestPerftReference(t *testing.T) {
	reg := variant.MustDefault()
	for _, tc := range []struct{ file, variant string }{
		{"chess.epd", "chess"},
		{"greatshatranj.epd", "greatshatranj"},
		{"chatrang.epd", "chatrang"},
	} {
		v, err := reg.Get(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		cases := readEPD(t, tc.file)
		if len(cases) == 0 {
			t.Fatalf("%s: no positions", tc.file)
		}
		t.Run(tc.variant, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				p, err := v.ParseFEN(c.fen)
				if err != nil {
					t.Errorf("%s:%d: %v", tc.file, c.line, err)
					continue
				}
				for d := 1; d <= 6; d++ {
					want, ok := c.counts[d]
					if !ok {
						continue
					}
					if testing.Short() && want > perftBudget && d > 1 {
						continue
					}
					if got := rules.Perft(p, d); got != want {
						t.Errorf("%s:%d: %s perft(%d) = %d, want %d", tc.file, c.line, c.fen, d, got, want)
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
		local, err := os.ReadFile(filepath.Join("testdata", "perft", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(shared) != string(local) {
			t.Errorf("testdata/perft/%s differs from ../shared/perft/%s; copy it again", name, name)
		}
	}
}
