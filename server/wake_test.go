package server

import (
	"testing"
	"time"
)

// TestLazyStart checks the restart of a server with unfinished games:
// Start loads none of them, a game is loaded when a client asks for it,
// and a game whose clock runs out without any client is loaded when it is
// due and ends on time.
func TestLazyStart(t *testing.T) {
	ts := newTestServer(t, "", nil)
	clock := func(ms int) map[string]any {
		return map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": ms, "increment_ms": 0}}
	}
	var long []string
	for range 5 { // clocks running for an hour
		id, w, b, _ := humanGame(t, ts, clock(3600_000))
		w.mustMove("e4")
		b.mustMove("e5")
		long = append(long, id)
	}
	for range 2 { // no clock
		id, _, _, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
		long = append(long, id)
	}
	short, w, b, _ := humanGame(t, ts, clock(3000)) // white's clock runs out a moment after the restart
	w.mustMove("e4")
	b.mustMove("e5")
	path := ts.path
	ts.stop()

	ts = newTestServer(t, path, nil)
	for _, id := range long {
		if ts.loaded(id) != nil {
			t.Errorf("game %s loaded at start", id)
		}
	}
	// Nobody connects to the short game: it ends on time all the same.
	ctx := ctxT(t)
	for {
		g, _, err := ts.store.Load(ctx, short)
		if err != nil {
			t.Fatal(err)
		}
		if g.Finished {
			if g.Result != "0-1" || g.Reason != "time" {
				t.Errorf("short game: %s %s, want 0-1 on time", g.Result, g.Reason)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the short game's clock never ran out")
		case <-time.After(20 * time.Millisecond):
		}
	}
	for _, id := range long {
		if ts.loaded(id) != nil {
			t.Errorf("game %s loaded without a client", id)
		}
	}
	// A client loads a game.
	sc := join(t, ts, long[0], "", 0)
	if st := sc.stateAt(2); st.Turn != "white" {
		t.Errorf("game %s after the restart: %s to move", long[0], st.Turn)
	}
	if ts.loaded(long[0]) == nil {
		t.Errorf("game %s not loaded for its client", long[0])
	}
}
