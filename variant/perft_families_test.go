package variant_test

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// familyPerft is one line of variant/testdata/perft/VARIANT.epd: a position
// in Fairy-Stockfish's FEN and its perft counts by depth.
type familyPerft struct {
	line   int
	fen    string
	counts []uint64 // counts[d-1] is perft(d)
}

// readFamilyPerft reads testdata/perft/NAME.epd ("FEN ;D1 n ;D2 n ...";
// blank lines and lines starting with # skipped).
func readFamilyPerft(t *testing.T, name string) []familyPerft {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "perft", name+".epd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []familyPerft
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		c := familyPerft{line: n, fen: strings.TrimSpace(parts[0])}
		for i, part := range parts[1:] {
			fs := strings.Fields(part)
			if len(fs) != 2 || fs[0] != "D"+strconv.Itoa(i+1) {
				t.Fatalf("%s.epd:%d: %q is not D%d n", name, n, part, i+1)
			}
			k, err := strconv.ParseUint(fs[1], 10, 64)
			if err != nil {
				t.Fatalf("%s.epd:%d: %v", name, n, err)
			}
			c.counts = append(c.counts, k)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s.epd: no positions", name)
	}
	return out
}

// long runs the deeper perft counts of the family files.
var long = flag.Bool("long", false, "check every depth of the family perft files")

// familyBudget is the largest count checked by the test; deeper counts
// in the files are checked with -long.
const familyBudget = 400_000

// TestPerftFamilies compares perft of the classic families with
// Fairy-Stockfish's counts on positions from random games and set-ups,
// and checks that each position's FEN reads and writes back exactly as
// Fairy-Stockfish wrote it.
func TestPerftFamilies(t *testing.T) {
	reg := builtins(t)
	for _, name := range []string{"shatranj", "courier", "capablanca", "makruk", "grand", "crazyhouse", "xiangqi", "shogi"} {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		cases := readFamilyPerft(t, name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				p, err := v.ParseFEN(c.fen)
				if err != nil {
					t.Errorf("%s.epd:%d: %v", name, c.line, err)
					continue
				}
				if got := p.FEN(); got != c.fen {
					t.Errorf("%s.epd:%d: FEN reads back as\n%s, want\n%s", name, c.line, got, c.fen)
				}
				for d, want := range c.counts {
					if want > familyBudget && !*long && d > 0 {
						break
					}
					if got := rules.Perft(p, d+1); got != want {
						t.Errorf("%s.epd:%d: %s perft(%d) = %d, want %d", name, c.line, c.fen, d+1, got, want)
						break
					}
				}
			}
		})
	}
}

// TestFamilyWalks plays the random walks of testdata/perft/NAME-walks.txt
// ("FEN ;moves m1 m2 ... ;fen FEN-AFTER", from Fairy-Stockfish) and
// compares the FEN after the moves with Fairy-Stockfish's: the fields it
// adds (makruk's count, pockets, promoted pieces) follow the game as
// Fairy-Stockfish follows it.
func TestFamilyWalks(t *testing.T) {
	reg := builtins(t)
	for _, name := range []string{"makruk", "crazyhouse", "shogi"} {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join("testdata", "perft", name+"-walks.txt"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			parts := strings.Split(line, ";")
			if len(parts) != 3 || !strings.HasPrefix(parts[1], "moves ") || !strings.HasPrefix(parts[2], "fen ") {
				t.Fatalf("%s-walks.txt:%d: want FEN ;moves ... ;fen FEN", name, i+1)
			}
			p := mustFEN(t, v, strings.TrimSpace(parts[0]))
			for _, mv := range strings.Fields(strings.TrimPrefix(parts[1], "moves ")) {
				m, ok := findMove(p, mv)
				if !ok {
					t.Fatalf("%s-walks.txt:%d: %s is not legal in %s", name, i+1, mv, p.FEN())
				}
				p.Make(m)
			}
			if got, want := p.FEN(), strings.TrimSpace(strings.TrimPrefix(parts[2], "fen ")); got != want {
				t.Errorf("%s-walks.txt:%d: FEN after the moves\n%s, want\n%s", name, i+1, got, want)
			}
			n++
		}
		if n == 0 {
			t.Errorf("%s-walks.txt: no walks", name)
		}
	}
}
