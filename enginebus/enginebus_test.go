package enginebus

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

func registry(t *testing.T) *variant.Registry {
	t.Helper()
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// startWorker runs a worker on its own connection until the test ends or
// stop is called; taken, if set, is called as it takes a request.
func startWorker(t *testing.T, url string, taken func()) (w *Worker, stop func()) {
	t.Helper()
	nc := connect(t, url)
	w = &Worker{Registry: registry(t), Engines: 1, HashMB: 1, Logf: t.Logf, taken: taken}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Serve(ctx, nc) }()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			nc.Close() // first: a dying worker answers nothing
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return w, stop
}

// gameOf plays SAN moves from a variant's start.
func gameOf(t *testing.T, name string, opts map[string]string, sans ...string) *game.Game {
	t.Helper()
	v, err := registry(t).Get(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) > 0 {
		if v, err = v.Configure(opts); err != nil {
			t.Fatal(err)
		}
	}
	g := game.New(v, nil)
	for _, s := range sans {
		m, err := notation.ParseMove(g.Position(), s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// waitListening waits until a request finds a worker (the worker's
// subscription reached the server).
func waitListening(t *testing.T, nc *nats.Conn) {
	t.Helper()
	for range 200 {
		_, err := nc.Request(Subject, []byte("{}"), time.Second)
		if !errors.Is(err, nats.ErrNoResponders) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no worker listens")
}

// TestThink: a worker replays the game and answers with a legal move of
// its position; with no worker, the client hears so at once.
func TestThink(t *testing.T) {
	url := natstest.Start(t)
	nc := connect(t, url)
	c := &Client{NC: nc}
	g := gameOf(t, "chess", nil, "e4", "e5", "Nf3")
	req := NewRequest("chess", nil, g, search.Limits{Depth: 3, MoveTime: 5 * time.Second}, 1)
	if _, err := c.Think(context.Background(), g.Position(), req); !errors.Is(err, ErrNoWorker) {
		t.Fatalf("with no worker: %v, want ErrNoWorker", err)
	}
	w, _ := startWorker(t, url, nil)
	waitListening(t, nc)
	m, err := c.Think(context.Background(), g.Position(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Position().Playable(m) || g.Position().Turn() != rules.Black {
		t.Errorf("the worker's move %v is not Black's in %s", m, g.Position().FEN())
	}
	// The worker searched the same position the node would have: the same
	// move as a local search of the same depth.
	local := search.New(1).Search(context.Background(), g.Position().Clone(), search.Limits{Depth: 3}, nil)
	if local.Best != m {
		t.Errorf("worker %v, local search %v", m, local.Best)
	}
	if w.Served() < 1 {
		t.Errorf("served %d", w.Served())
	}
	// A variant the workers' registry does not have travels with its
	// definition.
	def, err := os.ReadFile("../cmd/anychess/testdata/minichess.toml")
	if err != nil {
		t.Fatal(err)
	}
	gv, err := registry(t).Compile(def, "minichess.toml")
	if err != nil {
		t.Fatal(err)
	}
	gg := game.New(gv, nil)
	greq := NewRequest("gardner", nil, gg, search.Limits{Depth: 2, MoveTime: 5 * time.Second}, 1)
	greq.Definition = string(def)
	if m, err := c.Think(context.Background(), gg.Position(), greq); err != nil || !gg.Position().Playable(m) {
		t.Errorf("gardner by its definition: %v %v", m, err)
	}
	// A game from a set-up start with chance (Vazir: outcomes in the plies).
	vg := gameOf(t, "vazir", nil, "e4")
	vreq := NewRequest("vazir", nil, vg, search.Limits{Depth: 2, MoveTime: 5 * time.Second}, 7)
	if m, err := c.Think(context.Background(), vg.Position(), vreq); err != nil || !vg.Position().Playable(m) {
		t.Errorf("vazir: %v %v", m, err)
	}
}

// TestRefusals: a worker refuses what it must not search, with the reason.
func TestRefusals(t *testing.T) {
	url := natstest.Start(t)
	nc := connect(t, url)
	startWorker(t, url, nil)
	waitListening(t, nc)
	c := &Client{NC: nc}
	g := gameOf(t, "chess", nil, "e4")
	ok := NewRequest("chess", nil, g, search.Limits{Depth: 1, MoveTime: time.Second}, 1)
	tests := []struct {
		name string
		edit func(r *Request)
		want string
	}{
		{"unknown variant", func(r *Request) { r.Variant = "nosuch" }, "unknown variant"},
		{"unknown option", func(r *Request) { r.Options = map[string]string{"X": "1"} }, "X"},
		{"illegal ply", func(r *Request) { r.Plies = append(r.Plies, r.Plies[0]) }, "ply 2"},
		{"bad start", func(r *Request) { r.Start = "8/8 w" }, "FEN"},
		{"no time", func(r *Request) { r.MoveTimeMS = 0 }, "move time"},
		{"too long", func(r *Request) { r.MoveTimeMS = 3600000 }, "move time"},
		{"too deep", func(r *Request) { r.Depth = 1000 }, "depth"},
		{"too many plies", func(r *Request) { r.Plies = make([]Ply, MaxPlies+1) }, "plies"},
		{"a definition of another variant", func(r *Request) { r.Definition = "name = \"other\"\nbase = \"chess\"\n" }, `not "chess"`},
		{"a broken definition", func(r *Request) { r.Definition = "name = " }, "bad variant file"},
		{"a definition beyond the limits", func(r *Request) { r.Definition = strings.Repeat("#", 100<<10) }, "limits"},
		{"hidden pieces", func(r *Request) {
			r.Variant, r.Options, r.Plies = "csipgs", map[string]string{"Moderated": "1"}, nil
		}, "hides pieces"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			r.Plies = append([]Ply(nil), ok.Plies...)
			tc.edit(&r)
			_, err := c.Think(context.Background(), g.Position(), r)
			if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want a refusal saying %q", err, tc.want)
			}
		})
	}
}

// TestBusyWorker: a worker whose engines all search is offered nothing,
// so a node hears at once that no worker listens (and searches itself).
func TestBusyWorker(t *testing.T) {
	url := natstest.Start(t)
	nc := connect(t, url)
	taken := make(chan struct{}, 4)
	startWorker(t, url, func() { taken <- struct{}{} })
	waitListening(t, nc)
	<-taken // the probe of waitListening
	c := &Client{NC: nc}
	g := gameOf(t, "chess", nil)
	long := NewRequest("chess", nil, g, search.Limits{MoveTime: 1500 * time.Millisecond}, 1)
	done := make(chan error, 1)
	go func() {
		_, err := c.Think(context.Background(), g.Position(), long)
		done <- err
	}()
	<-taken
	short := NewRequest("chess", nil, g, search.Limits{Depth: 1, MoveTime: time.Second}, 1)
	if _, err := c.Think(context.Background(), g.Position(), short); !errors.Is(err, ErrNoWorker) {
		t.Errorf("while the only engine searches: %v, want ErrNoWorker", err)
	}
	if err := <-done; err != nil {
		t.Errorf("the long search: %v", err)
	}
}

// TestWorkerDies: a request whose worker dies mid-search is answered by
// another worker on the next try.
func TestWorkerDies(t *testing.T) {
	url := natstest.Start(t)
	nc := connect(t, url)
	taken := make(chan struct{}, 4)
	_, stopA := startWorker(t, url, func() { taken <- struct{}{} })
	waitListening(t, nc)
	<-taken // the probe
	c := &Client{NC: nc}
	g := gameOf(t, "chess", nil, "d4")
	req := NewRequest("chess", nil, g, search.Limits{MoveTime: 500 * time.Millisecond}, 1)
	res := make(chan error, 1)
	go func() {
		m, err := c.Think(context.Background(), g.Position(), req)
		if err == nil && !g.Position().Playable(m) {
			err = errors.New("an unplayable move")
		}
		res <- err
	}()
	<-taken
	stopA() // A dies with the request
	b, _ := startWorker(t, url, nil)
	if err := <-res; err != nil {
		t.Fatalf("after the first worker died: %v", err)
	}
	if b.Served() != 1 {
		t.Errorf("the second worker served %d", b.Served())
	}
}
