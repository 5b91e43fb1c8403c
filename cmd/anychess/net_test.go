package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
)

// TestNetCommand: anychess net plays a small sample with two processes of
// an external UCI engine, each position with the engine's score, and writes a network
// that fits chess.
func TestNetCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"net", "-variant", "chess", "-engine", teacherCommand(t, "play"), "-games", "4", "-random", "2", "-workers", "2",
		"-seed", "5", "-data", dir, "-hidden", "4", "-epochs", "2", "-valid", "20", "-q"}
	var out, errb bytes.Buffer
	if st := run(args, nil, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	for _, want := range []string{"held-out loss of the evaluation alone", "epoch 2:", "held-out loss with the network", "wrote "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	sample, err := os.ReadFile(filepath.Join(dir, "chess.netsample"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(sample), "# game "); n != 4 {
		t.Errorf("%d games in the sample, want 4", n)
	}
	positions := 0
	for _, l := range strings.Split(strings.TrimSpace(string(sample)), "\n") {
		fen, score, ok := strings.Cut(l, ";")
		if !ok {
			continue
		}
		positions++
		if want := fakeScore(fen); score != strconv.Itoa(want) {
			t.Errorf("%s: score %s, want the engine's %d", fen, score, want)
		}
	}
	if positions <= 20 {
		t.Fatalf("%d positions", positions)
	}
	f, err := os.Open(filepath.Join(dir, "chess.net"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := eval.ReadNetwork(f)
	if err != nil {
		t.Fatal(err)
	}
	chess, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n.WriteTo(&buf)
	if err := eval.CheckNetwork(chess, buf.Bytes()); err != nil || n.Hidden != 4 {
		t.Errorf("the network (%d hidden units) does not fit chess: %v", n.Hidden, err)
	}
}

// TestNetErrors: the net command's bad flags and missing teacher.
func TestNetErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no engine", []string{"net", "-data", dir, "-games", "3"}, "-engine is needed"},
		{"no sample", []string{"net", "-data", dir, "-games", "0"}, "chess.netsample"},
		{"hidden", []string{"net", "-data", dir, "-hidden", "0"}, "-hidden must be 1 to"},
		{"workers", []string{"net", "-data", dir, "-workers", "0"}, "-workers must be 1 to 64"},
		{"depth", []string{"net", "-data", dir, "-depth", "0"}, "bad flags"},
		{"rate NaN", []string{"net", "-data", dir, "-rate", "NaN"}, "bad flags"},
		{"clip", []string{"net", "-data", dir, "-clip", "1000"}, "bad flags"},
		{"teacher dies", []string{"net", "-data", dir, "-games", "2", "-engine", teacherCommand(t, "die")}, "bestmove"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if st := run(tc.args, nil, &out, &errb); st == 0 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q, want an error with %q", st, errb.String(), tc.want)
			}
		})
	}
}
