package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// mateInOne is a chess position where White mates with Rd8#.
const mateInOne = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"

// playSession runs anychess play with args on the input lines and returns
// its standard output, standard error and exit status.
func playSession(t *testing.T, args []string, input string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	st := runPlay(args, strings.NewReader(input), &out, &errb)
	return out.String(), errb.String(), st
}

// wantAll fails the test for each of want that text lacks.
func wantAll(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q:\n%s", w, text)
		}
	}
}

// after returns the part of text after the last occurrence of marker.
func after(text, marker string) string {
	if i := strings.LastIndex(text, marker); i >= 0 {
		return text[i+len(marker):]
	}
	return ""
}

func TestPlayMateInOne(t *testing.T) {
	out, errs, st := playSession(t, []string{"-fen", mateInOne, "-depth", "1"}, "Rd8#\nquit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"you are white, the engine plays black (depth 1)",
		"1. white> Rd8#\nyou play 1. Rd8# (d1d8)\n",
		" 8  .  .  . [R] .  .  k  .  8\n",
		" 1  .  .  . [.] .  .  K  .  1\n",
		"last move: 1. Rd8# (d1d8)\n",
		"result: 1-0 (black is checkmated and loses)\n",
		"game over: 1-0 (black is checkmated and loses), you win\n",
		`type "new" for a new game, "save FILE" to save this one`,
		"game over> quit\ngoodbye\n")
	if strings.Contains(out, "engine (black) plays") {
		t.Errorf("the engine moved after being mated:\n%s", out)
	}
}

func TestPlayBadMoves(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"
	in := "Ke3\nxyz\nfoo bar\nd5\nfen\nNd2\n"
	out, _, st := playSession(t, []string{"-fen", fen, "-depth", "1"}, in)
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	wantAll(t, out,
		`illegal move "Ke3"; type moves for the legal moves`,
		`"xyz" is neither a move nor a command; type help for the commands`,
		`unknown command "foo bar"`,
		`illegal move "d5"`,
		"1. white> fen\n"+fen+"\n",
		"you play 1. Nd2 (b1d2)")
	out, _, _ = playSession(t, []string{"-fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "-depth", "1"}, "Nd2\nfen\n")
	wantAll(t, out, `ambiguous move "Nd2": add the origin file or rank`, "\n4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\n")
}

func TestPlayBadMoveLeavesGame(t *testing.T) {
	out, _, _ := playSession(t, []string{"-depth", "1"}, "e5\nKe2\nfen\n")
	wantAll(t, out, `illegal move "e5"`, `illegal move "Ke2"`,
		"1. white> fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
}

func TestPlayCommands(t *testing.T) {
	in := "help\ne4\nfen\nmoves\nhint\nflip\nundo\nfen\nundo\nboard\nquit\n"
	out, errs, st := playSession(t, []string{"-depth", "1"}, in)
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"save FILE      write the game to FILE as PGN",
		"you play 1. e4 (e2e4)\nengine (black) plays 1... ",
		"[score ", "depth 1, ",
		"white to move (you)\n",
		"hint: 2. ",
		// flip: the board from Black's side, file h first.
		"2. white> flip\n    h  g  f  e  d  c  b  a\n 1  R  N  B  K  Q  B  N  R  1\n",
		"took back your move and the engine's reply\n",
		"1. white> fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
		"1. white> undo\nnothing to undo\n",
		"goodbye\n")
	// moves: the legal moves after e4 and the reply, in SAN.
	moves := after(out, "2. white> moves\n")
	if !strings.Contains(moves, " legal moves:\n") || !strings.Contains(moves, "Nf3") || !strings.Contains(moves, "Ke2") {
		t.Errorf("moves output:\n%s", moves)
	}
	// The board after undo stays flipped.
	if b := after(out, "took back your move and the engine's reply\n"); !strings.HasPrefix(b, "    h  g  f") {
		t.Errorf("board after undo not flipped:\n%s", b)
	}
}

func TestPlayBlack(t *testing.T) {
	out, errs, st := playSession(t, []string{"-fen", mateInOne, "-depth", "2", "-color", "black"}, "undo\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"you are black, the engine plays white (depth 2)",
		// The board from Black's side before and after the engine's move.
		"    h  g  f  e  d  c  b  a\n 1  .  K  .  .  R  .  .  .  1\n",
		"white to move (engine)\n",
		"engine (white) plays 1. Rd8# (d1d8)  [white mates in 1, depth ",
		" 8  .  k  .  . [R] .  .  .  8\n",
		"game over: 1-0 (black is checkmated and loses), the engine wins\n",
		"game over> undo\nnothing to undo\n",
		"end of input: goodbye\n")
}

func TestPlayBlackMoves(t *testing.T) {
	// From the start with -color black the engine opens, and the human's
	// prompt shows Black's move number.
	out, _, st := playSession(t, []string{"-depth", "1", "-color", "b"}, "e5\n")
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	wantAll(t, out, "engine (white) plays 1. ", "1... black> e5\nyou play 1... e5 (e7e5)\nengine (white) plays 2. ")
}

func TestPlayGreatShatranj(t *testing.T) {
	out, errs, st := playSession(t, []string{"greatshatranj", "-depth", "1"}, "j2j3\nmoves\nquit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"Great Shatranj (10x8), you are white",
		"    a  b  c  d  e  f  g  h  i  j\n 8  w  n  e  g  k  m  h  e  n  w  8\n",
		"you play 1. j3 (j2j3)\n",
		" 1  W  N  E  G  K  M  H  E  N  W  1\n",
		"last move: 1... ")
	// The pawn stays on j3 after the engine's reply.
	if !strings.Contains(out, "  P  3\n") {
		t.Errorf("no pawn on j3:\n%s", out)
	}
}

func TestPlayVariantForms(t *testing.T) {
	for _, args := range [][]string{
		{"great", "-depth", "1"},
		{"-depth", "1", "greatshatranj"},
		{"-variant", "greatshatranj", "-depth", "1"},
		{"-variant", "great", "great", "-depth", "1"},
	} {
		out, errs, st := playSession(t, args, "")
		if st != 0 || !strings.Contains(out, "Great Shatranj (10x8)") {
			t.Errorf("%q: status %d, stderr %q, output:\n%s", args, st, errs, out)
		}
	}
}

func TestPlayChatrang(t *testing.T) {
	in := "Kxe2\nundo\nKd2\nquit\n"
	out, errs, st := playSession(t, []string{"chatrang", "-fen", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "-depth", "1"}, in)
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"Chatrang",
		"white to move (you), in check\n",
		" 2  .  .  .  . [K] .  .  .  2\n",
		"game over: 1-0 (black has a bare king and loses), you win\n",
		"game over> undo\ntook back your move\n",
		`illegal move "Kd2"`)
}

func TestPlayBigBoard(t *testing.T) {
	out, errs, st := playSession(t, []string{"-file", "testdata/play_big.toml", "-depth", "1"}, "Nj3\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"Play test board (12x12)",
		"    a  b  c  d  e  f  g  h  i  j  k  l\n12  r  .  .  .  .  k  .  .  .  .  .  r  12\n",
		" 7  .  .  .  .  .  #  .  .  .  .  .  .  7\n",
		"you play 1. Nj3 (k1j3)\n",
		" 3  .  .  .  .  .  .  .  .  .  N  .  .  3\n")
}

func TestPlaySave(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "game.pgn")
	out, errs, st := playSession(t, []string{"-depth", "1"}, "e4\nd4\nsave "+file+"\nsave\nsave "+filepath.Join(dir, "no", "such", "x.pgn")+"\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out, "saved the game to "+file+"\n", "save: give a file name\n", "save: open ")
	g := readPGN(t, file, 1)[0]
	if len(g.Plies) != 4 {
		t.Errorf("%d plies saved, want 4", len(g.Plies))
	}
	for name, want := range map[string]string{"Event": "anychess play", "White": "human", "Black": "anychess (depth 1)", "Result": "*"} {
		if v, _ := g.Tag(name); v != want {
			t.Errorf("tag %s = %q, want %q", name, v, want)
		}
	}
}

func TestPlayAutoSave(t *testing.T) {
	file := filepath.Join(t.TempDir(), "session.pgn")
	// Two games: a mate, then a new game with one move pair left unfinished
	// by the end of input. -pgn writes both.
	out, errs, st := playSession(t, []string{"-fen", mateInOne, "-depth", "1", "-pgn", file}, "Rd8\nnew\nRe1\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q\n%s", st, errs, out)
	}
	games := readPGN(t, file, 2)
	if r := games[0].Status(); r.Result != rules.WhiteWins {
		t.Errorf("game 1: %s", r)
	}
	if v, _ := games[0].Tag("Termination"); v != "normal" {
		t.Errorf("game 1 Termination %q", v)
	}
	if n := len(games[0].Plies); n == 0 || !slices.Equal(games[0].Plies[n-1].Comments, []string{"black is checkmated and loses"}) {
		t.Errorf("game 1 does not say how it ended after its last move: %+v", games[0].Plies)
	}
	if fen := games[1].Start().FEN(); fen != mateInOne {
		t.Errorf("game 2 starts at %s", fen)
	}
	if len(games[1].Plies) != 2 {
		t.Errorf("game 2 has %d plies, want 2", len(games[1].Plies))
	}
	if _, ok := games[1].Tag("Termination"); ok {
		t.Error("unfinished game has a Termination tag")
	}
}

func TestPlayAutoSaveFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "no", "such", "x.pgn")
	_, errs, st := playSession(t, []string{"-fen", mateInOne, "-depth", "1", "-pgn", file}, "Re1\n")
	if st != 1 || !strings.Contains(errs, "saving to -pgn file") {
		t.Errorf("status %d, stderr %q", st, errs)
	}
}

// readPGN reads the games of a PGN file and checks how many there are.
func readPGN(t *testing.T, file string, n int) []*game.Game {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pgs, err := pgn.Parse(string(data))
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(pgs) != n {
		t.Fatalf("%d games in %s, want %d:\n%s", len(pgs), file, n, data)
	}
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	var gs []*game.Game
	for _, pg := range pgs {
		g, err := notation.ReadGame(reg, pg)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		gs = append(gs, g)
	}
	return gs
}

func TestPlayResignAndNew(t *testing.T) {
	out, _, st := playSession(t, []string{"-depth", "1"}, "resign\ne4\nresign\nnew\nfen\n")
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	wantAll(t, out,
		"game over: 0-1 (white resigns), the engine wins\n",
		"game over> e4\nthe game is over: 0-1 (white resigns); type new",
		"game over> resign\nthe game is over\n",
		"new game: you are white\n",
		"1. white> fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
}

func TestPlayGo(t *testing.T) {
	// go: the engine takes over the side to move and the human the other.
	out, _, st := playSession(t, []string{"-fen", mateInOne, "-depth", "2"}, "go\n")
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	wantAll(t, out, "you are black now; the engine plays white\n", "engine (white) plays 1. Rd8#", "the engine wins")
}

func TestPlayStrength(t *testing.T) {
	in := "level\nlevel 3\nlevel 9\nlevel x\ntime 2s\ntime 1.5\ntime -1s\ntime soon\ndepth 0\ndepth x\ntime 0\n"
	out, _, st := playSession(t, []string{"-level", "2", "-fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, in)
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	// Levels 2 and 3 search 2 and 3 plies; the third says its Elo.
	if level.At(2).Depth != 2 || level.At(3).Depth != 3 || level.At(3).Elo == 0 {
		t.Fatalf("levels 2 and 3 are %v and %v", level.At(2), level.At(3))
	}
	wantAll(t, out,
		"the engine plays black (depth 2)",
		"level\nthe engine plays at depth 2\n",
		fmt.Sprintf("level 3 (depth 3, Elo about %d ± %d): the engine plays at depth 3\n", level.At(3).Elo, level.At(3).Margin),
		`level "9": want a number from 1 to 8`,
		`level "x": want a number from 1 to 8`,
		"the engine plays at depth 3, at most 2s per move\n",
		"the engine plays at depth 3, at most 1.5s per move\n",
		`time "-1s": want a duration`,
		`time "soon": want a duration`,
		"depth 0\nthe engine plays at 1.5s per move\n",
		`depth "x": want a number of plies`,
		"time 0\nthe engine plays at 1s per move\n")
	// K v K is a draw at once: the game ends without a move.
	wantAll(t, out, "game over: 1/2-1/2 (neither side can checkmate), a draw\n")
}

func TestPlayEOF(t *testing.T) {
	out, errs, st := playSession(t, nil, "")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out, "you are white, the engine plays black (1s per move)", "1. white> \nend of input: goodbye\n")
	// A last line without a newline is still read.
	out, _, _ = playSession(t, []string{"-depth", "1"}, "fen")
	wantAll(t, out, "1. white> fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n1. white> \nend of input")
}

func TestPlayLongLine(t *testing.T) {
	out, _, st := playSession(t, []string{"-depth", "1"}, strings.Repeat("x", maxLine+10))
	if st != 1 || !strings.Contains(out, "error reading input") {
		t.Errorf("status %d, output tail %q", st, out[max(0, len(out)-200):])
	}
}

func TestPlayFlags(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		err    string
	}{
		{[]string{"-h"}, 0, "Usage: anychess play [flags] [VARIANT]"},
		{[]string{"-color", "red"}, 2, `-color: "red": want white or black`},
		{[]string{"-level", "9"}, 2, "-level: level 9: want 1 to 8"},
		{[]string{"-level", "8", "-time", "3s"}, 0, ""},
		{[]string{"-level", "3", "-depth", "2"}, 2, "give -level or -depth, not both"},
		{[]string{"-depth", "-1"}, 2, "must not be negative"},
		{[]string{"chess", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-variant", "chess", "chatrang"}, 2, "disagree"},
		{[]string{"nosuch"}, 1, `unknown variant "nosuch"`},
		{[]string{"-fen", "8/8 w"}, 1, "bad FEN"},
		{[]string{"-nosuch"}, 2, "flag provided but not defined"},
		{[]string{"chess", "-nosuch"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		_, errs, st := playSession(t, tt.args, "quit\n")
		if st != tt.status || !strings.Contains(errs, tt.err) {
			t.Errorf("%q: status %d (want %d), stderr %q (want %q)", tt.args, st, tt.status, errs, tt.err)
		}
	}
}

func TestDrawBoardMarks(t *testing.T) {
	v := must[*rules.Variant](t)(catalog.MustDefault().Get("chess"))
	p := v.Start()
	m, err := notation.ParseMove(p, "Nf3")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	var s geom.Set
	s.Add(m.From())
	s.Add(m.To())
	want := "" +
		"    a  b  c  d  e  f  g  h\n" +
		" 8  r  n  b  q  k  b  n  r  8\n" +
		" 7  p  p  p  p  p  p  p  p  7\n" +
		" 6  .  .  .  .  .  .  .  .  6\n" +
		" 5  .  .  .  .  .  .  .  .  5\n" +
		" 4  .  .  .  .  .  .  .  .  4\n" +
		" 3  .  .  .  .  . [N] .  .  3\n" +
		" 2  P  P  P  P  P  P  P  P  2\n" +
		" 1  R  N  B  Q  K  B [.] R  1\n" +
		"    a  b  c  d  e  f  g  h\n"
	if got := drawBoard(p, rules.White, &s, nil); got != want {
		t.Errorf("white's view:\n%s\nwant:\n%s", got, want)
	}
	wantBlack := "" +
		"    h  g  f  e  d  c  b  a\n" +
		" 1  R [.] B  K  Q  B  N  R  1\n"
	if got := drawBoard(p, rules.Black, &s, nil); !strings.HasPrefix(got, wantBlack) {
		t.Errorf("black's view:\n%s\nwant it to begin:\n%s", got, wantBlack)
	}
}

// TestPlayVazir checks that play shows the ranks and, before a capture,
// its chance; seed 5 makes White's first try fail.
func TestPlayVazir(t *testing.T) {
	out, errs, st := playSession(t, []string{"vazir", "-fen", vazirFEN, "-depth", "1", "-seed", "5"}, "moves\nRxd5\nquit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"Chance decides some moves; seed 5",
		" 5  .   .   .   r5  .   .   .   .   5\n",
		" 1  .   .   .   R5  .   .   .   K0  1\n",
		"Rxd5(6/11)",
		"you try 1. Rxd5 (d1d5): rank 5 against rank 5, success 6/11 (55%)\n",
		"  -> failure; white moves again (1 tries used)\n")
}

// TestPlayCrazyChess: stacks and risen bishops are drawn and listed, the
// human is offered a denial when one is legal, and "deny" makes it
// (KnightDenial=Replayable, so that the engine's first move is deniable
// whatever piece it moves; which move that is depends on the weights).
func TestPlayCrazyChess(t *testing.T) {
	out, errs, st := playSession(t, []string{"crazy", "-color", "black", "-depth", "1", "-opt", "KnightDenial=Replayable"}, "deny\nquit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		"Crazy Chess (8x8), you are black",
		"denial right: black; denials so far: 0\n",
		"black may deny the last move (DENY): it is undone, and its player moves again\n",
		"you play 1... DENY\n  then: undid ",
		"; white moves again\n",
		"denial right: white; denials so far: 1\nblack's next move cannot be denied\n")
	// After the denial the human may not deny again.
	if strings.Count(out, "may deny") != 1 {
		t.Errorf("denial offered %d times, want once:\n%s", strings.Count(out, "may deny"), out)
	}

	// A rook carrying a knight and a pawn on a1, a risen bishop on d4.
	fen := "4k3/8/8/8/3b*4/8/8/(RNP)3K3 w - - 0 1 b - 0"
	out, errs, st = playSession(t, []string{"crazy", "-fen", fen, "-depth", "1"}, "quit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	wantAll(t, out,
		" 4  .   .   .   b*  .   .   .   .   4\n",
		" 1  R2  .   .   .   K   .   .   .   1\n",
		"squares: a1 R N P (bottom to top); d4 a risen bishop, gone after its owner's next turn\n",
		"*: a risen bishop, gone after its owner's next turn\n")
}

// TestCrazyRemovals: the pieces a capture chain removed are named, in the
// variant's words (face.DescribePly) that the server sends too. The
// white rook on a1 takes the black rook on a8 that carries a pawn; the
// pawn falls and takes the white rook, and, alone on its own first row,
// captures itself at the end of the turn (C12 mirrored).
func TestCrazyRemovals(t *testing.T) {
	v, err := catalog.MustDefault().Get("crazy")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("(rp)3k3/8/8/8/8/8/8/R3K3 w - - 0 1 w - 0")
	if err != nil {
		t.Fatal(err)
	}
	if got := face.DescribePly(v, p); got != nil {
		t.Errorf("before any move: %q, want nothing", got)
	}
	m, err := notation.ParseMove(p, "Ra1xa8")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	if got, want := strings.Join(face.DescribePly(v, p), ", "), "r a8, R a8, p a8 self-capture"; got != want {
		t.Errorf("after Ra1xa8: %q, want %q", got, want)
	}
}

// TestPlayTermination: a saved game that is over has a standard
// Termination and says how it ended in a comment after the last move; an
// unfinished game has neither.
func TestPlayTermination(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		input   string
		term    string // "": no Termination tag
		comment string // the comment after the last move
	}{
		{"checkmate", []string{"-fen", mateInOne}, "Rd8\n", "normal", "black is checkmated and loses"},
		{"resignation", nil, "e4\nresign\n", "normal", "white resigns"},
		{"unfinished", nil, "e4\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "game.pgn")
			out, errs, st := playSession(t, append([]string{"-depth", "1", "-pgn", file}, tc.args...), tc.input)
			if st != 0 || errs != "" {
				t.Fatalf("status %d, stderr %q\n%s", st, errs, out)
			}
			readPGN(t, file, 1) // the game replays
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			pgs, err := pgn.Parse(string(data))
			if err != nil || len(pgs) != 1 {
				t.Fatalf("%v, %d games", err, len(pgs))
			}
			pg := pgs[0]
			term, ok := pg.Tag("Termination")
			if term != tc.term || ok != (tc.term != "") {
				t.Errorf("Termination %q (present %v), want %q", term, ok, tc.term)
			}
			var comments []string
			if n := len(pg.Moves); n > 0 {
				comments = pg.Moves[n-1].Comments
			}
			if tc.comment == "" && len(comments) > 0 || tc.comment != "" && (len(comments) != 1 || comments[0] != tc.comment) {
				t.Errorf("closing comments %q, want %q\n%s", comments, tc.comment, data)
			}
		})
	}
}

// TestPlayEngineFailsTermination: a game the engine could not go on with
// is saved as abandoned, with the reason after the last move.
func TestPlayEngineFailsTermination(t *testing.T) {
	v := must[*rules.Variant](t)(catalog.MustDefault().Get("chess"))
	var out strings.Builder
	s := &session{out: &out, v: v, human: rules.White, view: rules.White, eng: search.New(1), depth: 1}
	if err := s.newGame(); err != nil {
		t.Fatal(err)
	}
	s.humanMove("e4")
	s.engineFails(rules.Black, "no move")
	pg := s.record()
	if term, _ := pg.Tag("Termination"); term != "abandoned" {
		t.Errorf("Termination %q, want abandoned", term)
	}
	if n := len(pg.Moves); n != 1 || !slices.Equal(pg.Moves[0].Comments, []string{"the engine (black) could not move"}) {
		t.Errorf("moves %+v, want e4 with the reason after it\n%s", pg.Moves, out.String())
	}
}
