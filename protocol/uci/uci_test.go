package uci_test

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/internal/transcript"
	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// TestTranscripts plays the command files in testdata/*.txt (see package
// internal/transcript for the format; {{minelo}} and {{maxelo}} are the
// Elo of the weakest and the strongest level, {{eloN}} and {{depthN}} level
// N's Elo, margin and depth).
func TestTranscripts(t *testing.T) {
	vars := map[string]string{"minelo": strconv.Itoa(level.MinElo()), "maxelo": strconv.Itoa(level.MaxElo())}
	for _, l := range level.All() {
		vars["elo"+strconv.Itoa(l.N)] = strconv.Itoa(l.Elo)
		vars["depth"+strconv.Itoa(l.N)] = strconv.Itoa(l.Depth)
		vars["margin"+strconv.Itoa(l.N)] = strconv.Itoa(l.Margin)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			transcript.RunVars(t, f, vars, func(in io.Reader, out io.Writer) error {
				return uci.Run(context.Background(), in, out, catalog.MustDefault(), search.New(16))
			})
		})
	}
}

// TestCsipgsWholeTurn checks that in csipgs Chess the built-in engine plays
// the design phase as the whole-turn player does (csipgs.ChooseDesign, by
// value for money) and the action phase by a search of the actions.
func TestCsipgsWholeTurn(t *testing.T) {
	reg := catalog.MustDefault()
	v, err := reg.Get("csipgs")
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	m, err := notation.ParseMove(p, "e1e2")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	if !csipgs.DesignPhase(p) {
		t.Fatal("no design phase after the first action")
	}
	want, err := csipgs.ChooseDesign(p)
	if err != nil {
		t.Fatal(err)
	}
	cmds := "setoption name UCI_Variant value csipgs\n" +
		"position startpos moves e1e2\ngo depth 8\n" +
		"position startpos\ngo depth 2\n" +
		"isready\n"
	in, w := io.Pipe()
	out := &syncWriter{}
	done := make(chan error, 1)
	go func() { done <- uci.Run(context.Background(), in, out, reg, search.New(16)) }()
	if _, err := io.WriteString(w, cmds); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "readyok") {
		if time.Now().After(deadline) {
			t.Fatalf("no readyok; output so far:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var best []string
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "bestmove" {
			best = append(best, f[1])
		}
	}
	if len(best) != 2 {
		t.Fatalf("bestmove lines %q, want 2", best)
	}
	if got := best[0]; got != notation.Coord(p, want) {
		t.Errorf("design phase: bestmove %s, want the whole-turn choice %s", got, notation.Coord(p, want))
	}
	if strings.HasPrefix(best[1], "&") {
		t.Errorf("action phase: bestmove %s is a design change", best[1])
	}
}

// syncWriter is a strings.Builder that the test reads while the session
// writes.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestThreadsOption checks that the Threads option sets the engine's
// threads, up to the machine's CPUs.
func TestThreadsOption(t *testing.T) {
	tests := []struct {
		set  string
		want int
	}{
		{"2", min(2, search.CPUs())},
		{"1024", search.CPUs()},
		{"1", 1},
		{"0", 3}, // refused: as it was
	}
	for _, tc := range tests {
		e := search.New(1)
		e.SetThreads(3)
		var out strings.Builder
		in := strings.NewReader("setoption name Threads value " + tc.set + "\nisready\n")
		if err := uci.Run(context.Background(), in, &out, catalog.MustDefault(), e); err != nil {
			t.Fatal(err)
		}
		if got := e.Threads(); got != tc.want {
			t.Errorf("Threads %s: the engine has %d threads, want %d\n%s", tc.set, got, tc.want, out.String())
		}
	}
}
