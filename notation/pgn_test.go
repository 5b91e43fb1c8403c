package notation_test

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

var update = flag.Bool("update", false, "update golden files")

func readOne(t *testing.T, text string) *game.Game {
	t.Helper()
	games, err := pgn.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%d games", len(games))
	}
	g, err := notation.ReadGame(reg, games[0])
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestReadOpera(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "opera.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	g := readOne(t, string(data))
	if len(g.Plies) != 33 {
		t.Errorf("%d plies, want 33", len(g.Plies))
	}
	if got, want := g.Position().FEN(), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"; got != want {
		t.Errorf("final FEN %s, want %s", got, want)
	}
	if st := g.Position().Status(); st.Result != rules.WhiteWins || st.Reason != rules.ReasonCheckmate {
		t.Errorf("final status %v", st)
	}
	if c := g.Plies[5].Comments; len(c) != 1 || c[0] != "This is a weak move already." {
		t.Errorf("comment of 3...Bg4 = %q", c)
	}
	if n := g.Plies[30].NAGs; len(n) != 1 || n[0] != 1 {
		t.Errorf("NAGs of 16.Qb8+ = %v", n)
	}
	// Written back, the game is the golden file, and reads back the same.
	out := notation.WriteGame(g).String()
	golden := filepath.Join("testdata", "opera.golden.pgn")
	if *update {
		os.WriteFile(golden, []byte(out), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("WriteGame:\n%s\nwant:\n%s", out, want)
	}
	g2 := readOne(t, out)
	if len(g2.Plies) != len(g.Plies) || g2.Position().FEN() != g.Position().FEN() {
		t.Error("the written game does not read back the same")
	}
}

// randomGame plays a seeded random game of up to n plies from start.
func randomGame(v *rules.Variant, start *rules.Position, seed uint64, n int) *game.Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := game.New(v, start)
	for range n {
		if g.Position().Status().Over() {
			break
		}
		ms := g.Position().LegalMoves(nil)
		if err := g.Play(ms[rng.IntN(len(ms))], 0); err != nil {
			panic(err)
		}
	}
	return g
}

func TestRoundTripGames(t *testing.T) {
	for _, tc := range []struct{ variant, fen string }{
		{"chess", ""},
		{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40"},
		{"greatshatranj", ""},
		{"chatrang", ""},
		{"chatrang", "1r1k2nr/p1p3pp/1p3pB1/2p1p3/2P5/4Q1bP/bP1PPPPN/RN3K1R w - - 0 1"},
	} {
		v := mustVariant(t, tc.variant)
		start := v.Start()
		if tc.fen != "" {
			start = mustFEN(t, v, tc.fen)
		}
		for seed := range uint64(20) {
			g := randomGame(v, start, seed, 300)
			text := notation.WriteGame(g).String()
			g2 := readOne(t, text)
			if g2.Variant != v || len(g2.Plies) != len(g.Plies) {
				t.Fatalf("%s seed %d: read back %s with %d plies, want %d\n%s", tc.variant, seed, g2.Variant.Name(), len(g2.Plies), len(g.Plies), text)
			}
			for i := range g.Plies {
				if g.Plies[i].Move != g2.Plies[i].Move {
					t.Fatalf("%s seed %d: ply %d differs", tc.variant, seed, i)
				}
			}
			if g.Status() != g2.Status() {
				t.Errorf("%s seed %d: status %v, read back %v", tc.variant, seed, g.Status(), g2.Status())
			}
		}
	}
}

func TestReadGameErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"[Variant \"nosuch\"]\n\n1. e4 *\n", "unknown variant"},
		{"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n", "FEN tag"},
		{"1. e4 e5 2. Ke3 *\n", "move 2 (Ke3)"},
		{"1. e4 e5 2. Nf3 Nc6 3. Bx5 *\n", "move 3 (Bx5)"},
	} {
		games, err := pgn.Parse(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		_, err = notation.ReadGame(reg, games[0])
		if !errors.Is(err, notation.ErrPGN) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one about %q", tt.text, err, tt.want)
		}
	}
	// Variant tags other programs write.
	for tag, want := range map[string]string{
		"Standard": "chess", "From Position": "chess", "Great Shatranj": "greatshatranj",
		"great-shatranj": "greatshatranj", "CHATRANG": "chatrang", "Chatrang (Ludii 6)": "chatrang",
	} {
		games, _ := pgn.Parse("[Variant \"" + tag + "\"]\n\n*\n")
		g, err := notation.ReadGame(reg, games[0])
		if err != nil || g.Variant.Name() != want {
			t.Errorf("Variant %q: %v", tag, err)
		}
	}
}

// pgnExtractUCI runs Debian's pgn-extract, which ./test.sh installs, on the
// PGN text with the extra arguments, and returns the moves of each game as
// it replays them, in UCI coordinates in lower case (pgn-extract writes a
// promotion letter in upper case, b8Q). Moves it rejects fail the test.
func pgnExtractUCI(t *testing.T, text []byte, extra ...string) []string {
	t.Helper()
	var tool string
	for _, p := range []string{"pgn-extract", "/usr/games/pgn-extract"} {
		if path, err := exec.LookPath(p); err == nil {
			tool = path
			break
		}
	}
	if tool == "" {
		t.Fatal("pgn-extract is missing: install the Debian package pgn-extract (./test.sh does)")
	}
	in := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(in, text, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(extra, "-Wuci", "--nocomments", "--nonags", "--novars", "-w", "100000", in)
	cmd := exec.Command(tool, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, stderr.String())
	}
	for _, bad := range []string{"Unknown move", "Illegal", "illegal", "Null move"} {
		if strings.Contains(stderr.String(), bad) {
			t.Fatalf("pgn-extract rejected moves:\n%s", stderr.String())
		}
	}
	games, err := pgn.Parse(string(out))
	if err != nil {
		t.Fatalf("pgn-extract output: %v", err)
	}
	var moves []string
	for _, pg := range games {
		var got []string
		for _, m := range pg.Moves {
			got = append(got, m.Text)
		}
		moves = append(moves, strings.ToLower(strings.Join(got, " ")))
	}
	return moves
}

// compareGames reports the games in which pgn-extract read other moves
// than we wrote.
func compareGames(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("pgn-extract returned %d games, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("game %d: pgn-extract read\n%s\nwe wrote\n%s", i, got[i], want[i])
		}
	}
}

// TestPGNExtractReadsOurGames checks that an ordinary PGN tool reads the
// chess games anychess writes: pgn-extract replays our SAN and prints each
// game in UCI coordinates, which must be our moves exactly.
func TestPGNExtractReadsOurGames(t *testing.T) {
	v := mustVariant(t, "chess")
	var all bytes.Buffer
	var want []string
	for seed := range uint64(40) {
		start := v.Start()
		if seed%4 == 1 {
			start = mustFEN(t, v, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
		}
		if seed%4 == 2 {
			start = mustFEN(t, v, "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1")
		}
		g := randomGame(v, start, seed, 400)
		g.SetTag("Event", "anychess test")
		var coords []string
		g.Replay(func(p *rules.Position, i int) { coords = append(coords, notation.Coord(p, g.Plies[i].Move)) })
		want = append(want, strings.Join(coords, " "))
		if err := pgn.Write(&all, notation.WriteGame(g)); err != nil {
			t.Fatal(err)
		}
	}
	compareGames(t, pgnExtractUCI(t, all.Bytes()), want)
}
