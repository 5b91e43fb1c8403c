package server

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/server/loadtest"
)

// playEngineGame plays a few moves of an engine game (the engine White),
// answering with the first legal move, and returns the engine's plies.
func playEngineGame(t *testing.T, ts *testServer, req map[string]any, moves int) int {
	t.Helper()
	g := create(t, ts, req)
	c := join(t, ts, g["id"], g["token"], 0)
	after := int64(0)
	for range moves {
		st := c.waitState(func(f *loadtest.Frame) bool {
			return f.V >= after && (f.Turn == "black" && len(f.Legal) > 0 || f.Status.Result != "*")
		})
		if st.Status.Result != "*" {
			break
		}
		after = c.mustMove(st.Legal[0])
	}
	// The engine's answer to the last move.
	c.waitState(func(f *loadtest.Frame) bool { return f.V > after || f.Status.Result != "*" })
	_, es := c.events()
	engine := 0
	for _, e := range es {
		if e.Kind == "ply" && e.Seat == "white" {
			engine++
		}
	}
	return engine
}

// TestEngineBus: with workers on the bus, engine games take their moves
// from them, except hidden-information games, which search here; with the
// worker gone, the server searches itself and the game goes on.
func TestEngineBus(t *testing.T) {
	url := natstest.Start(t)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	wnc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	w := &enginebus.Worker{Registry: reg, Engines: 1, HashMB: 1, Logf: t.Logf}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Serve(ctx, wnc) }()
	stopWorker := func() {
		wnc.Close()
		cancel()
		<-done
	}
	defer func() {
		if ctx.Err() == nil {
			stopWorker()
		}
	}()
	ts := newTestServer(t, "", func(c *Config) { c.EngineBus = &enginebus.Client{NC: nc} })

	open := map[string]any{"variant": "chess", "opponent": "engine", "level": 2, "color": "black"}
	if n := playEngineGame(t, ts, open, 4); n < 4 {
		t.Fatalf("the engine played %d plies", n)
	}
	// Every engine move came from the worker, or from here when it was
	// between searches; at least the first (it was idle) from the worker.
	served := w.Served()
	if served < 1 {
		t.Fatalf("the worker served %d searches", served)
	}
	hidden := map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "1"}, "opponent": "engine", "level": 1, "color": "black"}
	if n := playEngineGame(t, ts, hidden, 2); n < 2 {
		t.Fatalf("hidden game: the engine played %d turns", n)
	}
	if w.Served() != served {
		t.Errorf("a hidden game's search went to the worker (%d searches, %d before)", w.Served(), served)
	}
	stopWorker()
	if n := playEngineGame(t, ts, open, 3); n < 3 {
		t.Errorf("without a worker the engine played %d plies", n)
	}
}
