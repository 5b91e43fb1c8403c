package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
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

// recorder counts, for one server, the games created on it and the
// WebSockets opened to each game.
type recorder struct {
	h       http.Handler
	mu      sync.Mutex
	created []string
	ws      map[string]int
}

// bodyWriter keeps a copy of what a handler writes.
type bodyWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *bodyWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if id, ok := strings.CutPrefix(req.URL.Path, "/ws/"); ok {
		r.mu.Lock()
		r.ws[id]++
		r.mu.Unlock()
		r.h.ServeHTTP(w, req) // the WebSocket needs the writer as it is
		return
	}
	if req.Method != http.MethodPost || req.URL.Path != "/api/games" {
		r.h.ServeHTTP(w, req)
		return
	}
	bw := &bodyWriter{ResponseWriter: w}
	r.h.ServeHTTP(bw, req)
	var g struct{ ID string }
	if json.Unmarshal(bw.body.Bytes(), &g) == nil && g.ID != "" {
		r.mu.Lock()
		r.created = append(r.created, g.ID)
		r.mu.Unlock()
	}
}

// TestLoadTargets runs the load generator against two servers on one
// store: the games are created on each in turn, and their players connect
// to the server that created them or, with Forward, to the other one once
// a spectator's hello has loaded the game where it was created.
func TestLoadTargets(t *testing.T) {
	const games = 12
	for _, forward := range []bool{false, true} {
		t.Run(fmt.Sprintf("forward=%v", forward), func(t *testing.T) {
			st := openStore(t, filepath.Join(t.TempDir(), "games.db"))
			defer st.Close()
			var recs [2]*recorder
			var urls []string
			for i := range recs {
				s, err := New(Config{Store: st, EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				recs[i] = &recorder{h: s.Handler(), ws: map[string]int{}}
				hs := httptest.NewServer(recs[i])
				defer hs.Close()
				defer hs.CloseClientConnections()
				urls = append(urls, hs.URL)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			rep, err := loadtest.Run(ctx, loadtest.Config{URL: strings.Join(urls, ","), Forward: forward,
				Games: games, Plies: 6, Think: time.Millisecond, Timeout: time.Minute}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", rep)
			if rep.Finished != games || rep.Failed != 0 || rep.Moves < games*3 || len(rep.Targets) != 2 {
				t.Fatalf("report:\n%s", rep)
			}
			for i, r := range recs {
				other := recs[1-i]
				if len(r.created) != games/2 || rep.Targets[i].Created != games/2 {
					t.Errorf("server %d: created %d, reported %d; want %d each", i, len(r.created), rep.Targets[i].Created, games/2)
				}
				players := 0
				for _, n := range r.ws {
					players += n
				}
				if forward {
					players -= len(r.created) // the spectators that loaded the games
				}
				if rep.Targets[i].Players != players {
					t.Errorf("server %d: reported %d players, %d WebSockets opened", i, rep.Targets[i].Players, players)
				}
				for _, id := range r.created {
					// Without Forward both players connect where the game
					// was made; with it, a spectator loads the game there
					// and both players connect to the other server.
					wantHere, wantThere := 2, 0
					if forward {
						wantHere, wantThere = 1, 2
					}
					if r.ws[id] != wantHere || other.ws[id] != wantThere {
						t.Errorf("game %s created on server %d (forward %v): %d WebSockets there, %d on the other; want %d and %d",
							id, i, forward, r.ws[id], other.ws[id], wantHere, wantThere)
					}
				}
			}
		})
	}
}

// TestLoadEngine runs the engine load against a server in the test: two
// level-1 engine games at once, whose replies are counted and timed.
func TestLoadEngine(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := loadtest.RunEngine(ctx, loadtest.EngineConfig{URL: ts.URL, Games: 2, Level: 1, Duration: 2 * time.Second}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if len(rep.Replies) < 2 || rep.Played < 2 || len(rep.Errors) != 0 || rep.RepliesPerSecond() <= 0 {
		t.Errorf("report:\n%s", rep)
	}
	for _, d := range rep.Replies {
		if d <= 0 {
			t.Fatalf("a reply's wait %s", d)
		}
	}
}
