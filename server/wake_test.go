package server

import (
	"testing"
	"time"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/server/store"
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

// TestWakeAfter checks the wake time stored with each event: the engine's
// move at once when the engine is to move, else the running clock's flag,
// and none once the game is over or nothing runs.
func TestWakeAfter(t *testing.T) {
	srv := newTestServer(t, "", nil).Server
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		rec   store.Game
		moves []string
		kind  string // the event after the moves: "ply" (the last move), "offer" or "end"
		want  time.Duration
		none  bool
	}{
		{"human, no clock", store.Game{Opponent: "human"}, []string{"e4"}, "ply", 0, true},
		{"engine to move", store.Game{Opponent: "engine", EngineSeat: 1}, []string{"e4"}, "ply", 0, false},
		{"engine to move, offer", store.Game{Opponent: "engine", EngineSeat: 1}, []string{"e4"}, "offer", 0, false},
		{"person to move against the engine", store.Game{Opponent: "engine", EngineSeat: 1}, []string{"e4", "e5"}, "ply", 0, true},
		{"first ply starts no clock", store.Game{Opponent: "human", Initial: time.Minute}, []string{"e4"}, "ply", 0, true},
		{"clock runs", store.Game{Opponent: "human", Initial: time.Minute}, []string{"e4", "e5"}, "ply", time.Minute, false},
		{"correspondence", store.Game{Opponent: "human", Days: 2}, []string{"e4"}, "ply", 48 * time.Hour, false},
		{"end", store.Game{Opponent: "human", Initial: time.Minute}, []string{"e4", "e5"}, "end", 0, true},
		{"mate", store.Game{Opponent: "human", Initial: time.Minute}, scholar, "ply", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.rec
			rec.ID, rec.Variant, rec.Result = "w", "chess", "*"
			lg, err := newLiveGame(srv, &rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			var r *plyResult
			for _, m := range tc.moves {
				mv, err := notation.ParseMove(lg.g.Position(), m)
				if err != nil {
					t.Fatal(err)
				}
				pr, err := lg.playOnRecord(mv, 0, at)
				if err != nil {
					t.Fatal(err)
				}
				lg.applyPly(pr)
				r = &pr
			}
			e := eventJSON{Kind: tc.kind, At: at}
			if tc.kind != "ply" {
				r = nil
			}
			got := lg.wakeAfter(e, r)
			switch {
			case tc.none && !got.IsZero():
				t.Errorf("wakes at %v, want never", got)
			case !tc.none && !got.Equal(at.Add(tc.want)):
				t.Errorf("wakes at %v, want %v", got, at.Add(tc.want))
			}
		})
	}
}
