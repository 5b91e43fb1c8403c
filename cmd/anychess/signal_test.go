package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// serveChild is the environment variable that makes the test binary run
// "anychess serve" with the data folder it names, as a subprocess of
// TestServeSIGTERM.
const serveChild = "ANYCHESS_TEST_SERVE_CHILD"

// TestServeSIGTERM: on SIGTERM the server says that it stops, closes its
// listener and its games with their moves stored, says that it stopped,
// and exits with status 0; the games are there when it starts again.
func TestServeSIGTERM(t *testing.T) {
	if dir := os.Getenv(serveChild); dir != "" {
		os.Exit(runServe([]string{"-addr", "127.0.0.1:0", "-data", dir}, nil, os.Stdout, os.Stderr))
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeSIGTERM$")
	cmd.Env = append(os.Environ(), serveChild+"="+dir)
	var errs strings.Builder
	cmd.Stderr = &errs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve closed its output; stderr: %s", errs.String())
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatalf("no line from serve in 30s; stderr: %s", errs.String())
		}
		return ""
	}
	first := next()
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("serve printed %q", first)
	}
	url := strings.TrimSuffix(strings.Fields(first[i:])[0], "/")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g, err := loadtest.CreateGame(ctx, url, map[string]any{"variant": "chess", "opponent": "human"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadtest.Join(ctx, url, g["id"], g["token"], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Send(ctx, map[string]any{"t": "move", "id": 1, "move": "e4"}); err != nil {
		t.Fatal(err)
	}
	if f, _, err := c.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "ack" || f.T == "error" }); err != nil || f.T != "ack" {
		t.Fatalf("the move: %+v %v", f, err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var said []string
	for l := range lines {
		said = append(said, l)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve exited with %v; stderr: %s", err, errs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not exit 20s after SIGTERM; it said %q", said)
	}
	text := strings.Join(said, "\n")
	if !strings.Contains(text, "stopping") || !strings.Contains(text, "stopped") {
		t.Errorf("serve said %q after SIGTERM, want that it is stopping and that it stopped", text)
	}
	// The connection was closed by the server.
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	if _, _, err := c.ReadUntil(rctx, func(*loadtest.Frame) bool { return false }); err == nil || rctx.Err() != nil {
		t.Errorf("the game's connection is still open (%v)", err)
	}
	// The move is stored.
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, evs, err := st.Load(ctx, g["id"])
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Kind != "ply" {
		t.Errorf("stored events %+v, want the one ply", evs)
	}
}
