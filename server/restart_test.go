package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// childEnv makes the test binary run as a server ("serve -addr A -data D",
// as the anychess command takes them) instead of running tests, so the
// restart test can start and kill a real server process.
const childEnv = "ANYCHESS_SERVER_CHILD"

func init() {
	if os.Getenv(childEnv) != "1" {
		return
	}
	os.Exit(serveChild(os.Args[1:]))
}

func serveChild(args []string) int {
	for len(args) > 0 && args[0] != "serve" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "child: no serve command")
		return 2
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "")
	data := fs.String("data", "", "")
	db := fs.String("db", "", "")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	url := *db
	if url == "" {
		url = "sqlite:" + filepath.Join(*data, "games.db")
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	srv, err := New(Config{Store: st, EngineWorkers: 1, EngineHashMB: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := srv.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("anychess serve: open http://%s/\n", ln.Addr())
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	<-ctx.Done()
	hs.Close()
	srv.Close()
	return 0
}

func startChild(t *testing.T, dir string, extra []string) *loadtest.Sub {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.Setenv(childEnv, "1")
	defer os.Unsetenv(childEnv)
	sub, err := loadtest.StartServer(context.Background(), exe, dir, os.Stderr, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// acked is what one game's players saw acknowledged: version to move.
type acked struct {
	mu    sync.Mutex
	moves map[int64]string
}

// TestRestart starts the server as a process, plays many games at once,
// kills it with SIGKILL in the middle of play, starts it again on the same
// data and checks that every acknowledged move is there and play goes on.
func TestRestart(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testRestart(t, nil) })
	if url := os.Getenv("ANYCHESS_TEST_PG"); url != "" {
		t.Run("postgres", func(t *testing.T) {
			u, err := store.PostgresSchema(context.Background(), url, "anychess_restart_test", true)
			if err != nil {
				t.Fatal(err)
			}
			testRestart(t, []string{"-db", u})
		})
	}
}

func testRestart(t *testing.T, extra []string) {
	dir := t.TempDir()
	sub := startChild(t, dir, extra)
	defer func() { sub.Kill() }()
	const games = 24
	variants := []string{"chess", "greatshatranj", "chatrang", "vazir", "crazychess", "csipgs"}
	ctx, cancel := context.WithCancel(context.Background())
	type gameInfo struct {
		id     string
		tokens [2]string
		acks   acked
	}
	gs := make([]*gameInfo, games)
	for i := range gs {
		g, err := loadtest.CreateGame(ctx, sub.URL, map[string]any{"variant": variants[i%len(variants)]})
		if err != nil {
			t.Fatal(err)
		}
		gs[i] = &gameInfo{id: g["id"], tokens: [2]string{g["token"], loadtest.InviteToken(g["invite"])}, acks: acked{moves: map[int64]string{}}}
	}
	// Each seat plays random legal moves as fast as the server answers.
	var wg sync.WaitGroup
	for _, g := range gs {
		for s := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := loadtest.Join(ctx, sub.URL, g.id, g.tokens[s], 0)
				if err != nil {
					return
				}
				defer c.CloseNow()
				rng := rand.New(rand.NewPCG(uint64(s), 7))
				sent := map[int64]string{}
				var seat string
				id := int64(0)
				for {
					f, err := c.Read(ctx)
					if err != nil {
						return
					}
					switch f.T {
					case "welcome":
						seat = f.Seat
					case "ack":
						if m, ok := sent[f.ID]; ok {
							g.acks.mu.Lock()
							g.acks.moves[f.V] = m
							g.acks.mu.Unlock()
						}
					case "state":
						if f.Turn == seat && len(f.Legal) > 0 && f.Status.Result == "*" {
							id++
							m := f.Legal[rng.IntN(len(f.Legal))]
							sent[id] = m
							if c.Send(ctx, map[string]any{"t": "move", "id": id, "move": m}) != nil {
								return
							}
						}
					}
				}
			}()
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if err := sub.Kill(); err != nil {
		t.Fatal(err)
	}
	cancel()
	wg.Wait()
	count := 0
	for _, g := range gs {
		count += len(g.acks.moves)
	}
	t.Logf("%d moves acknowledged in %d games before SIGKILL", count, games)
	if count < games {
		t.Fatalf("only %d moves acknowledged", count)
	}

	sub = startChild(t, dir, extra)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel2()
	for _, g := range gs {
		c, err := loadtest.Join(ctx2, sub.URL, g.id, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		st, frames, err := c.ReadUntil(ctx2, func(f *loadtest.Frame) bool { return f.T == "state" })
		if err != nil {
			t.Fatalf("game %s: %v", g.id, err)
		}
		c.CloseNow()
		got := map[int64]string{}
		for _, f := range frames {
			if f.T == "event" {
				e, _ := f.Event()
				if e.Kind == "ply" {
					got[f.V] = e.Move
				}
			}
		}
		for v, m := range g.acks.moves {
			if got[v] != m {
				t.Errorf("game %s: acknowledged version %d %s, after restart %q", g.id, v, m, got[v])
			}
		}
		if st.V < int64(len(g.acks.moves)) {
			t.Errorf("game %s: version %d after restart, %d moves acknowledged", g.id, st.V, len(g.acks.moves))
		}
		if st.Status.Result != "*" {
			continue
		}
		// Play goes on: the side to move moves.
		seat := 0
		if st.Turn == "black" {
			seat = 1
		}
		p, err := loadtest.Join(ctx2, sub.URL, g.id, g.tokens[seat], st.V)
		if err != nil {
			t.Fatal(err)
		}
		ps, _, err := p.ReadUntil(ctx2, func(f *loadtest.Frame) bool { return f.T == "state" })
		if err != nil || len(ps.Legal) == 0 {
			t.Fatalf("game %s: state %+v %v", g.id, ps, err)
		}
		p.Send(ctx2, map[string]any{"t": "move", "id": 1, "move": ps.Legal[0]})
		a, _, err := p.ReadUntil(ctx2, func(f *loadtest.Frame) bool { return f.T == "ack" || f.T == "error" })
		if err != nil || a.T != "ack" || a.V != st.V+1 {
			t.Errorf("game %s: move after restart: %+v %v", g.id, a, err)
		}
		p.CloseNow()
	}
	if err := sub.Stop(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Log(err)
	}
}
