package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/tune"
)

// fakeTeacherArg, as the test binary's first argument, makes it a
// scripted UCI engine (fakeTeacher) in the mode of the next argument.
const fakeTeacherArg = "fake-uci-teacher"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == fakeTeacherArg {
		os.Exit(fakeTeacher(os.Args[2], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeScore is the fake engine's score of a FEN for the side to move:
// 100 for each piece of that side more than the other's.
func fakeScore(fen string) int {
	board, rest, _ := strings.Cut(fen, " ")
	n := 0
	for _, r := range board {
		switch {
		case r >= 'A' && r <= 'Z':
			n += 100
		case r >= 'a' && r <= 'z':
			n -= 100
		}
	}
	if strings.HasPrefix(rest, "b") {
		n = -n
	}
	return n
}

// fakeTeacher is a UCI engine that answers "go" with fakeScore, last an
// upper bound that must not count (a search stopped in its aspiration
// window), in the mode "good"; with fakeScore and fakeMove's move in
// "play"; with a score that is no number in
// "garbage"; with no score at all in "noscore"; and that exits at its
// first "go" in "die".
func fakeTeacher(mode string, in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	fen := ""
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\n", a...) }
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "uci":
			say("id name %s", cmp.Or(os.Getenv(fakeTeacherIDEnv), "Fake Teacher"))
			say("option name Hash type spin default 16 min 1 max 33554432")
			say("uciok")
		case line == "isready":
			say("readyok")
		case strings.HasPrefix(line, "position fen "):
			fen = strings.TrimPrefix(line, "position fen ")
		case strings.HasPrefix(line, "go "):
			switch mode {
			case "die":
				return 3
			case "garbage":
				say("info depth 1 score cp banana pv e2e4")
			case "noscore":
				say("info depth 1 nodes 10")
			case "play":
				say("info depth 1 score cp %d nodes 20", fakeScore(fen))
				say("bestmove %s", fakeMove(fen))
				continue
			default:
				say("info string go %s", strings.TrimPrefix(line, "go "))
				say("info depth 1 seldepth 1 multipv 1 score cp %d wdl 500 0 500 nodes 20 pv e2e4", fakeScore(fen))
				say("info depth 2 seldepth 2 multipv 1 score cp %d upperbound nodes 40 pv e2e4", fakeScore(fen)-999)
			}
			say("bestmove e2e4")
		case line == "quit":
			return 0
		}
	}
	return 0
}

// fakeMove is the fake engine's move in a chess FEN: the first legal
// move by its text.
func fakeMove(fen string) string {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		return "0000"
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		return "0000"
	}
	var texts []string
	for _, m := range p.LegalMoves(nil) {
		texts = append(texts, notation.Coord(p, m))
	}
	slices.Sort(texts)
	if len(texts) == 0 {
		return "0000"
	}
	return texts[0]
}

// fakeTeacherIDEnv, if set, is the fake teacher's name for itself in
// place of "Fake Teacher": the same command, another version.
const fakeTeacherIDEnv = "ANYCHESS_FAKE_TEACHER_ID"

// teacherCommand returns -label-engine's value that runs the test binary
// as the fake teacher in mode.
func teacherCommand(t *testing.T, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe + " " + fakeTeacherArg + " " + mode
}

// TestTuneLabelEngine: -label-engine scores a small sample of chess with
// an external UCI engine: each position's score is the engine's last
// exact score, stored for White; the labels file names the engine, a run
// with another engine refuses it, and the fit blends the scores in.
func TestTuneLabelEngine(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile(filepath.Join("testdata", "teacher.sample"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chess.sample"), sample, 0o644); err != nil {
		t.Fatal(err)
	}
	engine := teacherCommand(t, "good")
	args := []string{"tune", "-variant", "chess", "-games", "0", "-data", dir, "-iters", "5", "-workers", "2",
		"-label-engine", engine, "-label-nodes", "321", "-lambda", "0", "-out", filepath.Join(dir, "out.toml")}
	var out, errb bytes.Buffer
	if st := run(args, nil, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	for _, want := range []string{"K of the teacher's scores", "held-out loss", "wrote "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	s, err := tune.ReadSample(filepath.Join(dir, "chess.sample"), "")
	if err != nil {
		t.Fatal(err)
	}
	labels, err := tune.ReadLabels(filepath.Join(dir, "chess.labels"), "")
	if err != nil {
		t.Fatal(err)
	}
	byGame := map[int]int{}
	for _, p := range s.Positions {
		k := byGame[p.Game]
		byGame[p.Game]++
		sc := labels[p.Game]
		if k >= len(sc) {
			t.Fatalf("game %d: %d scores", p.Game, len(sc))
		}
		want := fakeScore(p.FEN)
		if strings.Contains(p.FEN, " b ") {
			want = -want
		}
		if sc[k] != float64(want) {
			t.Errorf("game %d, %s: score %v, want %d for White", p.Game, p.FEN, sc[k], want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "chess.labels"))
	header, _, _ := strings.Cut(string(data), "\n")
	if !strings.Contains(header, "nodes 321") || !strings.Contains(header, "teacher uci:") || !strings.Contains(header, fakeTeacherArg+" good (Fake Teacher)") {
		t.Errorf("header %q does not name the engine and its nodes", header)
	}
	// Another engine's labels are refused, and so are another search's.
	for _, a := range [][]string{
		{"-label-engine", teacherCommand(t, "other"), "-label-nodes", "321"},
		{"-label-engine", engine, "-label-nodes", "322"},
		{"-label-nodes", "321"},
	} {
		args := append([]string{"tune", "-variant", "chess", "-games", "0", "-data", dir, "-iters", "5", "-lambda", "0",
			"-out", filepath.Join(dir, "out2.toml")}, a...)
		out.Reset()
		errb.Reset()
		if st := run(args, nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), "other settings") {
			t.Errorf("%v: exit %d, the labels of another teacher accepted: %s", a, st, errb.String())
		}
	}
	// So are those of another version run by the same command.
	t.Setenv(fakeTeacherIDEnv, "Fake Teacher 2")
	out.Reset()
	errb.Reset()
	if st := run(args, nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), "other settings") {
		t.Errorf("exit %d, the labels of another version of the teacher accepted: %s", st, errb.String())
	}
}

// TestTuneLabelEngineErrors: an engine that is missing, dies, sends a
// score that is no number or none, does not play the variant, or a
// -label-engine without -label-nodes, each gives a clear error.
func TestTuneLabelEngineErrors(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join("testdata", "teacher.sample"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, variant, engine, nodes, want string
	}{
		{"missing", "chess", "/nonexistent/engine", "100", "/nonexistent/engine"},
		{"dies", "chess", teacherCommand(t, "die"), "100", "exited"},
		{"garbage", "chess", teacherCommand(t, "garbage"), "100", `score "banana" is not a number`},
		{"no score", "chess", teacherCommand(t, "noscore"), "100", "no score"},
		{"variant", "greatshatranj", teacherCommand(t, "good"), "100", "does not play greatshatranj"},
		{"no nodes", "chess", teacherCommand(t, "good"), "0", "-label-engine needs -label-nodes"},
		{"bad spec", "chess", `"unclosed`, "100", "-label-engine"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.variant+".sample"), sample, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"tune", "-variant", tt.variant, "-games", "0", "-data", dir, "-iters", "5", "-workers", "1",
				"-label-engine", tt.engine, "-label-nodes", tt.nodes, "-out", filepath.Join(dir, "out.toml")}
			var out, errb bytes.Buffer
			st := run(args, nil, &out, &errb)
			if st == 0 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, want an error with %q:\n%s", st, tt.want, errb.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "out.toml")); err == nil {
				t.Error("weights written after the engine failed")
			}
		})
	}
}

// TestParseUCIScore: scores, bounds, mates, lines without a score and
// bad scores; the last exact score of a search counts, a bound only if
// there is none.
func TestParseUCIScore(t *testing.T) {
	for _, tt := range []struct {
		line           string
		cp, mate       int
		bound, ok, err bool
	}{
		{line: "info depth 7 seldepth 6 multipv 1 score cp 12 wdl 14 982 4 nodes 967 pv d1f3", cp: 12, ok: true},
		{line: "info depth 8 score cp -38 wdl 1 947 52 upperbound nodes 5002 pv d1f3", cp: -38, bound: true, ok: true},
		{line: "info depth 9 score cp 40 lowerbound", cp: 40, bound: true, ok: true},
		{line: "info depth 12 score mate 3 pv a1a8", mate: 3, ok: true},
		{line: "info depth 12 score mate -2", mate: -2, ok: true},
		{line: "info depth 0 score mate 0", mate: -1, ok: true},
		{line: "info depth 5 multipv 2 score cp 3", ok: false},
		{line: "info string score cp 5", ok: false},
		{line: "info depth 5 nodes 100 pv e2e4", ok: false},
		{line: "bestmove e2e4", ok: false},
		{line: "", ok: false},
		{line: "info depth 5 pv e2e4 score cp 1", ok: false},
		{line: "info depth 5 score cp x", err: true},
		{line: "info depth 5 score cp", err: true},
		{line: "info depth 5 score mate 1.5", err: true},
		{line: "info depth 5 score pawns 3", err: true},
		{line: "info depth 5 score cp 999999", err: true},
	} {
		cp, mate, bound, ok, err := parseUCIScore(tt.line)
		if (err != nil) != tt.err || ok != tt.ok || (ok && (cp != tt.cp || mate != tt.mate || bound != tt.bound)) {
			t.Errorf("%q: %d %d %v %v %v, want %d %d %v %v error %v", tt.line, cp, mate, bound, ok, err, tt.cp, tt.mate, tt.bound, tt.ok, tt.err)
		}
	}
	for _, tt := range []struct {
		infos    []string
		cp, mate int
		err      bool
	}{
		{infos: []string{"info depth 7 score cp 12", "info depth 8 score cp -38 upperbound"}, cp: 12},
		{infos: []string{"info depth 7 score cp 12", "info depth 8 score mate 4"}, mate: 4},
		{infos: []string{"info depth 1 score cp 5 lowerbound", "info depth 1 score cp 9 upperbound"}, cp: 9},
		{infos: []string{"info depth 1 nodes 5"}, err: true},
		{infos: nil, err: true},
		{infos: []string{"info depth 7 score cp 12", "info depth 8 score cp ?"}, err: true},
	} {
		cp, mate, err := lastUCIScore(tt.infos)
		if (err != nil) != tt.err || (!tt.err && (cp != tt.cp || mate != tt.mate)) {
			t.Errorf("%q: %d %d %v, want %d %d error %v", tt.infos, cp, mate, err, tt.cp, tt.mate, tt.err)
		}
	}
}

// FuzzParseUCIScore: any line reads without a panic, and a score it
// reads is in range with a mate that is not 0.
func FuzzParseUCIScore(f *testing.F) {
	for _, s := range []string{"info depth 7 score cp 12 pv e2e4", "info score mate -3 lowerbound", "info score cp",
		"info multipv 2 score cp 1", "info string x", "info score mate 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cp, mate, _, ok, err := parseUCIScore(line)
		if err != nil && ok {
			t.Fatalf("%q: ok with an error %v", line, err)
		}
		if !ok {
			return
		}
		if cp < -100000 || cp > 100000 || mate < -10000 || mate > 10000 || (cp != 0 && mate != 0) {
			t.Fatalf("%q: cp %d mate %d", line, cp, mate)
		}
		if !strings.Contains(line, "score") {
			t.Fatalf("%q: a score read from a line without one", line)
		}
	})
}
