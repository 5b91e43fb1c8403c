package server

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

// TestLoadSmall runs the load generator against a server in the test: a
// few dozen scripted games at once, every one finished, every move acked.
func TestLoadSmall(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := loadtest.Run(ctx, loadtest.Config{URL: ts.URL, Games: 40, Plies: 16, Think: 5 * time.Millisecond, Timeout: time.Minute}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if rep.Finished != 40 || rep.Failed != 0 || rep.Moves < 40*8 || rep.P99 <= 0 || rep.Held < 1 {
		t.Errorf("report:\n%s", rep)
	}
}

// BenchmarkMove measures one ply from the move frame to the ack through
// the hub, the store (SQLite) and the WebSocket, with two seats connected.
func BenchmarkMove(b *testing.B) {
	ts := newBenchServer(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		g, err := loadtest.CreateGame(ctx, ts.URL, map[string]any{"variant": "chess"})
		if err != nil {
			b.Fatal(err)
		}
		w, err := loadtest.Join(ctx, ts.URL, g["id"], g["token"], 0)
		if err != nil {
			b.Fatal(err)
		}
		w.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "state" })
		b.StartTimer()
		w.Send(ctx, map[string]any{"t": "move", "id": 1, "move": "e2e4"})
		if f, _, err := w.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "ack" || f.T == "error" }); err != nil || f.T != "ack" {
			b.Fatalf("%+v %v", f, err)
		}
		b.StopTimer()
		w.CloseNow()
		b.StartTimer()
	}
}
