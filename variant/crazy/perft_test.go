package crazy

import (
	"bufio"
	"flag"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// long enables the slow checks: go test ./variant/crazy -long.
var long = flag.Bool("long", false, "run the slow checks: naive perft to depth 3, perft depth 4, long random games")

// golden is one line of testdata/perft.epd.
type golden struct {
	fen    string
	counts []uint64 // counts[d-1] is perft d
}

func readGolden(t *testing.T) []golden {
	t.Helper()
	f, err := os.Open("testdata/perft.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		g := golden{fen: strings.TrimSpace(parts[0])}
		for i, part := range parts[1:] {
			f := strings.Fields(part)
			n, err := strconv.ParseUint(f[1], 10, 64)
			if len(f) != 2 || f[0] != "D"+strconv.Itoa(i+1) || err != nil {
				t.Fatalf("bad golden line %q", line)
			}
			g.counts = append(g.counts, n)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPerftGolden counts the golden positions to depth 3 (4 with -long).
func TestPerftGolden(t *testing.T) {
	v := newVariant(t, nil)
	for _, g := range readGolden(t) {
		for d, want := range g.counts {
			// Normal runs count to 3 plies from the start, 2 elsewhere.
			if !*long && (d+1 > 3 || d+1 > 2 && g.counts[0] != 21) || testing.Short() && d+1 > 2 {
				continue
			}
			if got := rules.Perft(parse(t, v, g.fen), d+1); got != want {
				t.Errorf("%s: perft %d = %d, want %d", g.fen, d+1, got, want)
			}
		}
	}
}

// TestPerftNaive checks the golden counts with the naive implementation:
// the moves of each position move by move, and with -long every count to
// depth 3.
func TestPerftNaive(t *testing.T) {
	for _, g := range readGolden(t) {
		crossCheck(t, DefaultOptions(), g.fen, 1)
		if !*long {
			continue
		}
		for d, want := range g.counts[:min(3, len(g.counts))] {
			if got := nFromFEN(t, DefaultOptions(), g.fen).perft(d + 1); got != want {
				t.Errorf("%s: naive perft %d = %d, golden %d", g.fen, d+1, got, want)
			}
		}
	}
}

// crossCheck compares the package's moves and perft with the naive
// implementation's, move by move.
func crossCheck(t *testing.T, o Options, fen string, depth int) {
	t.Helper()
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	p := parse(t, v, fen)
	n := nFromFEN(t, o, fen)
	got, want := realDivide(p, depth), n.divide(depth)
	if maps.Equal(got, want) {
		return
	}
	keys := slices.Sorted(maps.Keys(got))
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s depth %d: %s: package %d, naive %d", fen, depth, k, got[k], want[k])
		}
	}
}

// TestCrossVectors compares the package with the naive implementation on
// the positions of the worked examples and a few more, move by move, under
// three option sets; to depth 2 for some of them under the default options
// (one ply deeper each with -long).
func TestCrossVectors(t *testing.T) {
	sets := []func(*Options){
		nil,
		func(o *Options) {
			o.KnightPath, o.StackExit, o.KingStep1Immunity, o.Denial = PathMao, TopOnly, NoImmunity, Soft
			o.AllRoundHitsPassengers, o.AllRoundRequiresVictim = true, false
		},
		func(o *Options) {
			o.SelfDestruct, o.CastleLandingMayBeAttacked, o.OffTurnPromotion = IllegalMove, false, OwnerChoosesNextTurn
		},
	}
	for _, edit := range sets {
		o := DefaultOptions()
		if edit != nil {
			edit(&o)
		}
		for _, c := range []struct {
			fen   string
			depth int // under the default options
		}{
			{"8/7k/8/3(rrp)4/8/8/7K/3(RP)4 w - - 0 1 b - 0", 1},
			{"7k/8/8/4(rrrrp)3/4N3/8/8/7K w - - 0 1 b - 0", 1},
			{"7k/8/b7/8/8/(RP)7/8/7K w - - 0 1 b - 0", 1},
			{"7K/8/8/4(rk)3/8/2B5/8/8 b - - 0 1 w - 0", 1},
			{"k7/8/3pbp2/4q3/5N2/8/1B6/7K w - - 0 1 b - 0", 1},
			{"k7/8/5p2/4n3/3K4/8/8/8 w - - 0 1 b - 0", 2},
			{"4k3/8/8/8/8/8/8/4K2R w K - 0 1 b - 0", 1},
			{"7k/8/8/8/8/4p3/2P5/7K w - - 0 1 b - 0", 2},
			{"8/8/8/8/7K/4(rk)3/2PPP3/8 w - - 0 1 b - 0", 1},
			{"4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1 b - 0", 1},
			{"r6k/8/8/8/8/8/8/(RP)6K b - - 0 1 w - 0", 1},
			{"7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0", 2},
			{"k7/8/8/8/4b3/3K4/8/8 w - - 0 1 b - 0", 1},
			{"(RP)r6/8/6k1/8/8/8/8/7K b - - 0 1 w - 0", 1},
			{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 b - 0", 1},
		} {
			d := c.depth
			if edit != nil {
				d = 1
			}
			if *long {
				d++
			}
			crossCheck(t, o, c.fen, d)
		}
	}
}

// TestCrossRandomGames plays seeded random games and compares, in every
// position, the package's legal moves with the naive implementation's.
func TestCrossRandomGames(t *testing.T) {
	starts := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0",
		"4k3/1p1q1p2/2(RNb)1(rB)3/3Q4/2pP1N2/1(Rp)6/P3P1P1/4K3 b - - 0 1 w - 0",
		"2k5/1pp1(rpn)3/2b1q3/8/3BN3/2(RQP)5/1KP5/8 w - - 0 1 b - 0",
	}
	games, plies := 1, 6
	if *long {
		games, plies = 6, 60
	}
	for si, start := range starts {
		for g := range games {
			rng := rand.New(rand.NewPCG(uint64(si), uint64(g)))
			v := newVariant(t, nil)
			p := parse(t, v, start)
			for ply := 0; ply < plies && !p.Status().Over(); ply++ {
				fen := p.FEN()
				got := legal(parse(t, v, fen))
				want := nLegalTexts(nFromFEN(t, DefaultOptions(), fen))
				if !slices.Equal(got, want) {
					t.Fatalf("%s:\npackage %v\n  naive %v", fen, got, want)
				}
				ms := p.LegalMoves(nil)
				p.Make(ms[rng.IntN(len(ms))])
			}
		}
	}
}

func nLegalTexts(n *nPos) []string {
	var out []string
	for _, m := range n.legal() {
		out = append(out, m.text)
	}
	slices.Sort(out)
	return out
}

// BenchmarkPerft3 counts the start position to depth 3.
func BenchmarkPerft3(b *testing.B) {
	v := newVariant(b, nil)
	p := v.Start()
	for b.Loop() {
		if n := rules.Perft(p, 3); n != 12016 {
			b.Fatalf("perft(3) = %d", n)
		}
	}
}
