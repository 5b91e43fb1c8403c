package chess960_test

import (
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/internal/corpus"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/chess960"
)

// TestBackRank checks known numbers of Scharnagl's scheme and that the 960
// back ranks are distinct and lawful: bishops on squares of both colours,
// the king between the rooks.
func TestBackRank(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "BBQNNRKR"},
		{1, "BQNBNRKR"},
		{518, "RNBQKBNR"},
		{959, "RKRNNQBB"},
	} {
		if got, err := chess960.BackRank(tc.n); err != nil || got != tc.want {
			t.Errorf("BackRank(%d) = %q, %v; want %q", tc.n, got, err, tc.want)
		}
	}
	seen := map[string]bool{}
	for n := range chess960.Count {
		r, err := chess960.BackRank(n)
		if err != nil {
			t.Fatal(err)
		}
		b1, b2 := strings.IndexByte(r, 'B'), strings.LastIndexByte(r, 'B')
		r1, k, r2 := strings.IndexByte(r, 'R'), strings.IndexByte(r, 'K'), strings.LastIndexByte(r, 'R')
		if b1%2 == b2%2 || !(r1 < k && k < r2) || strings.Count(r, "N") != 2 || strings.Count(r, "Q") != 1 {
			t.Errorf("BackRank(%d) = %q is not a Chess960 start", n, r)
		}
		if seen[r] {
			t.Errorf("BackRank(%d) = %q repeats", n, r)
		}
		seen[r] = true
	}
	for _, n := range []int{-1, 960} {
		if _, err := chess960.BackRank(n); err == nil {
			t.Errorf("BackRank(%d): no error", n)
		}
	}
}

// TestPerft960 plays the Chess960 perft file: start positions and the
// middle-game positions of the standard suite.
func TestPerft960(t *testing.T) {
	v, err := chess960.New()
	if err != nil {
		t.Fatal(err)
	}
	cases, err := corpus.Perft("chess960.epd")
	if err != nil || len(cases) < 20 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
	for _, c := range cases {
		p, err := v.ParseFEN(c.FEN)
		if err != nil {
			t.Errorf("line %d: %v", c.Line, err)
			continue
		}
		for d := 1; d <= 4; d++ {
			want, ok := c.Counts[d]
			if !ok || testing.Short() && d > 3 {
				continue
			}
			if got := rules.Perft(p, d); got != want {
				t.Errorf("line %d: %s perft(%d) = %d, want %d", c.Line, c.FEN, d, got, want)
			}
		}
	}
}

// TestSetup: a game's roller decides the start, the same seed the same
// start, and the start is one of the 960; castling reads and writes
// king-takes-rook.
func TestSetup(t *testing.T) {
	v, err := chess960.New()
	if err != nil {
		t.Fatal(err)
	}
	if !v.Seeded() || v.Title() != chess960.Title {
		t.Fatalf("Seeded %v, Title %q", v.Seeded(), v.Title())
	}
	starts := map[string]bool{}
	for seed := range uint64(20) {
		a, err := v.Setup(game.NewRoller(seed))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := v.Setup(game.NewRoller(seed))
		if a.FEN() != b.FEN() {
			t.Errorf("seed %d: %s, then %s", seed, a.FEN(), b.FEN())
		}
		starts[a.FEN()] = true
	}
	if len(starts) < 10 {
		t.Errorf("20 seeds gave only %d starts", len(starts))
	}
	if v.Start().FEN() != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("fixed start %s", v.Start().FEN())
	}
}

// TestGameRecord plays castling both ways from a Chess960 start and checks
// the record: the Variant tag Chess960, the start in the FEN tag, O-O and
// O-O-O in SAN, king-takes-rook in coordinates, and a record that reads
// back to the same position.
func TestGameRecord(t *testing.T) {
	reg := catalog.MustDefault()
	v, err := reg.Get("Chess960")
	if err != nil {
		t.Fatal(err)
	}
	start, err := v.ParseFEN("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, start)
	var coords, sans []string
	for _, text := range []string{"b1a1", "b8h8", "h1e1", "a8e8"} {
		p := g.Position()
		m, err := notation.ParseCoord(p, text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		coords = append(coords, notation.Coord(p, m))
		sans = append(sans, notation.SAN(p, m))
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(coords, " "); got != "b1a1 b8h8 h1e1 a8e8" {
		t.Errorf("coordinates %q", got)
	}
	if got := strings.Join(sans, " "); got != "O-O-O O-O Rhe1 Rae8" {
		t.Errorf("SAN %q", got)
	}
	pg := notation.WriteGame(g)
	var b strings.Builder
	if err := pgn.Write(&b, pg); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"]`, "1. O-O-O O-O 2. Rhe1 Rae8"} {
		if !strings.Contains(text, want) {
			t.Errorf("record lacks %q:\n%s", want, text)
		}
	}
	games, err := pgn.Parse(text)
	if err != nil || len(games) != 1 {
		t.Fatalf("%v", err)
	}
	back, err := notation.ReadGame(reg, games[0])
	if err != nil {
		t.Fatal(err)
	}
	if back.Variant.Name() != chess960.Name || back.Position().FEN() != g.Position().FEN() {
		t.Errorf("read back %s %s, want %s", back.Variant.Name(), back.Position().FEN(), g.Position().FEN())
	}
}
