package match

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/search"
)

// fakeUCIArg, as the test binary's first argument, makes it the built-in
// UCI engine that also writes every command it receives to commands.log in
// its working directory and a line to its standard error. With the
// argument "exit" after it, it only complains on standard error and exits.
const fakeUCIArg = "fake-uci-engine"

func fakeUCI(args []string) int {
	dir, _ := os.Getwd()
	fmt.Fprintf(os.Stderr, "fake uci: started in %s\n", dir)
	if len(args) > 0 && args[0] == "exit" {
		fmt.Fprintln(os.Stderr, "fake uci: no network file")
		return 1
	}
	log, err := os.Create("commands.log")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer log.Close()
	if err := uci.Run(context.Background(), io.TeeReader(os.Stdin, log), os.Stdout, catalog.MustDefault(), search.New(1)); err != nil {
		return 1
	}
	return 0
}

// selfCommand returns the command, quoted for a spec, that runs the test
// binary with args (fakeUCIArg or xboardEngineArg first).
func selfCommand(t *testing.T, args ...string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return quote(strings.Join(append([]string{exe}, args...), " "))
}

// TestUCIEngineCommand plays a match against an engine given as a command
// with arguments, a working directory, an option value with a comma, its
// own UCI_Variant and a standard-error log, with no random plies; the
// commands the engine received are checked line by line.
func TestUCIEngineCommand(t *testing.T) {
	dir := t.TempDir()
	errLog := filepath.Join(t.TempDir(), "engine.err")
	spec := fmt.Sprintf(`uci:%s:dir=%s,stderr=%s,Note="a,b",UCI_Variant=GreatShatranj`,
		selfCommand(t, fakeUCIArg), dir, errLog)
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := ParseSpec("engine:depth=1")
	v, _ := catalog.MustDefault().Get("greatshatranj")
	var out bytes.Buffer
	st, err := Run(context.Background(), Config{
		Variant: v, Games: 1, Players: [2]Spec{sp, e}, TC: TimeControl{MoveTime: 20 * time.Millisecond},
		MaxPlies: 4, PGN: &out,
	})
	if err != nil || st.Games() != 1 || len(st.Errors) > 0 {
		t.Fatalf("%v %v", st, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "commands.log"))
	if err != nil {
		t.Fatalf("no command log in the working directory: %v", err)
	}
	start := v.Start().FEN()
	want := []string{
		"uci",
		"setoption name Note value a,b",
		"setoption name UCI_Variant value GreatShatranj",
		"ucinewgame",
		"isready",
		"position fen " + start,
		"go movetime 20",
	}
	got := strings.Split(string(data), "\n")
	for i, w := range want {
		if i >= len(got) || got[i] != w {
			t.Fatalf("command %d: got %q, want %q\nall commands:\n%s", i+1, got[min(i, len(got)-1)], w, data)
		}
	}
	if n := strings.Count(string(data), "UCI_Variant"); n != 1 {
		t.Errorf("UCI_Variant sent %d times; the spec's alone should be sent", n)
	}
	if e, err := os.ReadFile(errLog); err != nil || !strings.Contains(string(e), "fake uci: started in "+dir) {
		t.Errorf("standard error log %q, %v", e, err)
	}
	for _, pg := range checkPGN(t, catalog.MustDefault(), out.String(), st) {
		term, _ := pg.Tag("Termination")
		tc, _ := pg.Tag("TimeControl")
		if term != "adjudication" || finalComment(pg) != "the match's limit of 4 plies" || tc != "1/0.02" {
			t.Errorf("Termination %q {%s}, TimeControl %q; want adjudication {the match's limit of 4 plies}, 1/0.02", term, finalComment(pg), tc)
		}
	}
	if strings.Contains(out.String(), "[FEN ") {
		t.Errorf("with no random plies the game has a FEN tag:\n%s", out.String())
	}
}

// TestUCIEngineStderr: an engine that exits at once fails the match with
// the last lines of its standard error in the message.
func TestUCIEngineStderr(t *testing.T) {
	sp, err := ParseSpec("uci:" + selfCommand(t, fakeUCIArg, "exit"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sp.New()
	if err == nil || !strings.Contains(err.Error(), "no uciok") || !strings.Contains(err.Error(), "fake uci: no network file") {
		t.Errorf("error %v; want no uciok with the engine's standard error", err)
	}
}

// TestUCIEngineChess960: a Chess960 match tells a UCI engine so with
// UCI_Chess960 (UCI_Variant is not sent), from the pair's drawn start.
func TestUCIEngineChess960(t *testing.T) {
	dir := t.TempDir()
	sp, err := ParseSpec("uci:" + selfCommand(t, fakeUCIArg) + ":dir=" + dir)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := ParseSpec("engine:depth=1")
	v, _ := catalog.MustDefault().Get("chess960")
	var out bytes.Buffer
	st, err := Run(context.Background(), Config{
		Variant: v, Games: 1, Players: [2]Spec{sp, e}, TC: TimeControl{MoveTime: 20 * time.Millisecond},
		MaxPlies: 6, PGN: &out, Seed: 5,
	})
	if err != nil || st.Games() != 1 || len(st.Errors) > 0 {
		t.Fatalf("%v %v", st, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "commands.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := string(data)
	if !strings.Contains(cmds, "setoption name UCI_Chess960 value true\n") || strings.Contains(cmds, "UCI_Variant") {
		t.Errorf("commands:\n%s", cmds)
	}
	games := checkPGN(t, catalog.MustDefault(), out.String(), st)
	if vt, _ := games[0].Tag("Variant"); vt != "Chess960" {
		t.Errorf("Variant tag %q, want Chess960", vt)
	}
}
