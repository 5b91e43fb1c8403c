package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// sharedStore is the store of one node of a test cluster: the nodes share
// one store, which the cluster closes once.
type sharedStore struct{ store.Store }

func (sharedStore) Close() error { return nil }

// testNode is a node of a test cluster with its NATS connection.
type testNode struct {
	*testServer
	nc *nats.Conn
}

// newLobbyCluster starts n servers on one store (SQLite in a temp dir)
// and one NATS server, each a node of the cluster.
func newLobbyCluster(t *testing.T, n int, mod func(*Config)) []*testNode {
	t.Helper()
	url := natstest.Start(t)
	path := filepath.Join(t.TempDir(), "games.db")
	st := openStore(t, path)
	t.Cleanup(func() { st.Close() })
	var out []*testNode
	for i := range n {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		cfg := Config{Store: st, EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf,
			Cluster: &ClusterConfig{NATS: nc, Node: string(rune('a' + i))}}
		if mod != nil {
			mod(&cfg)
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		hs := httptestServer(s)
		ts := &testServer{Server: s, URL: hs.URL, http: hs, store: sharedStore{st}, path: path}
		t.Cleanup(ts.stop)
		out = append(out, &testNode{testServer: ts, nc: nc})
	}
	return out
}

// listed reports whether the seeks GET /api/seeks answers on b's server
// hold id.
func listed(b *browser, id string) bool {
	var list []SeekInfo
	b.do("GET", "/api/seeks", nil, &list)
	for _, sk := range list {
		if sk.ID == id {
			return true
		}
	}
	return false
}

// TestClusterSeekAccepted: a seek posted on one node is in every node's
// lobby, live and listed; accepted on another node, it makes one game for
// both, and the pairing withdraws both players' other seeks on every
// node.
func TestClusterSeekAccepted(t *testing.T) {
	nodes := newLobbyCluster(t, 2, nil)
	A, B := nodes[0].testServer, nodes[1].testServer
	a, c := newBrowser(t, A), newBrowser(t, A)
	b, d := newBrowser(t, B), newBrowser(t, B)
	la, lc, lb, ld := lobbyOf(t, a), lobbyOf(t, c), lobbyOf(t, b), lobbyOf(t, d)

	st, sk, code := postSeek(a, la, map[string]any{"variant": "chess", "color": "white", "clock": blitz})
	if st != http.StatusCreated {
		t.Fatalf("post on A: %d %s", st, code)
	}
	_, other, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
	_, bs, _ := postSeek(b, lb, map[string]any{"variant": "chess", "days": 3})
	for _, l := range []*loadtest.Lobby{lb, ld} {
		awaitAll(t, l, "seek", sk.ID, other.ID, bs.ID)
	}
	var onB []SeekInfo
	d.do("GET", "/api/seeks", nil, &onB)
	for _, got := range onB {
		if got.ID == sk.ID && (got.Variant != "chess" || got.Color != "white" || got.InitialMS != 180000 || got.Title != sk.Title || !got.Posted.Equal(sk.Posted)) {
			t.Errorf("B's lobby shows %+v, A posted %+v", got, sk)
		}
	}
	await(t, lc, "seek", hasID(bs.ID))
	if !listed(d, sk.ID) || !listed(c, bs.ID) {
		t.Fatalf("the seeks are not listed on the other node")
	}

	st, p, code := accept(b, lb, sk.ID)
	if st != http.StatusCreated || p.Seat != "black" || p.Game == "" || len(p.Token) != 64 {
		t.Fatalf("accept on B: %d %s %+v", st, code, p)
	}
	var own Paired
	jsonInto(t, await(t, la, "paired", nil), &own)
	if own.Game != p.Game || own.Seat != "white" || own.Seek != sk.ID {
		t.Fatalf("the poster on A was told %+v, the accepter on B %+v", own, p)
	}
	for _, l := range []*loadtest.Lobby{lc, ld} {
		awaitAll(t, l, "unseek", sk.ID, other.ID, bs.ID)
	}
	if listed(c, bs.ID) || listed(d, other.ID) || listed(d, sk.ID) {
		t.Errorf("seeks of the paired players are still listed")
	}
	w := join(t, A, p.Game, own.Token, 0)
	bl := join(t, A, p.Game, p.Token, 0)
	if w.seat != "white" || bl.seat != "black" {
		t.Errorf("seats %s and %s", w.seat, bl.seat)
	}
	if st, _, code := accept(d, ld, sk.ID); st != http.StatusNotFound {
		t.Errorf("accepting a taken seek on B: %d %s", st, code)
	}
}

// TestClusterSeekRefusals: what the holding node refuses reaches the
// accepter on another node as it would on the holding node.
func TestClusterSeekRefusals(t *testing.T) {
	nodes := newLobbyCluster(t, 2, nil)
	A, B := nodes[0].testServer, nodes[1].testServer
	a := newBrowser(t, A)
	a.signup("ann", "the right password")
	la := lobbyOf(t, a)
	aOnB := &browser{t: t, ts: B, c: a.c, csrf: a.csrf} // ann's browser, balanced to B
	laB := lobbyOf(t, aOnB)
	b := newBrowser(t, B)
	lb := lobbyOf(t, b)
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "rated": true, "clock": blitz})
	await(t, lb, "seek", hasID(sk.ID))
	await(t, laB, "seek", hasID(sk.ID))
	tests := []struct {
		name   string
		who    *browser
		l      *loadtest.Lobby
		id     string
		status int
		code   string
	}{
		{"unknown seek", b, lb, "nope", http.StatusNotFound, "not_found"},
		{"rated, anonymous", b, lb, sk.ID, http.StatusForbidden, "not_signed_in"},
		{"own seek, another node", aOnB, laB, sk.ID, http.StatusConflict, "own_seek"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if st, _, code := accept(tc.who, tc.l, tc.id); st != tc.status || code != tc.code {
				t.Errorf("accept: %d %s, want %d %s", st, code, tc.status, tc.code)
			}
		})
	}
	if !listed(b, sk.ID) {
		t.Errorf("a refused accept took the seek")
	}
}

// TestClusterSeekWithdrawn: a seek leaves every node's lobby when its
// poster's feed closes (after the grace) and when it is cancelled.
func TestClusterSeekWithdrawn(t *testing.T) {
	tests := []struct {
		name   string
		cancel bool
	}{{"feed closes", false}, {"cancelled", true}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := newLobbyCluster(t, 2, func(c *Config) { c.Lobby.Grace = 20 * time.Millisecond })
			A, B := nodes[0].testServer, nodes[1].testServer
			a, b := newBrowser(t, A), newBrowser(t, B)
			la, lb := lobbyOf(t, a), lobbyOf(t, b)
			_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
			await(t, lb, "seek", hasID(sk.ID))
			if tc.cancel {
				if st := a.do("POST", "/api/seeks/"+sk.ID+"/cancel", map[string]any{"visitor": la.Visitor}, nil).StatusCode; st != http.StatusNoContent {
					t.Fatalf("cancel: %d", st)
				}
			} else {
				la.Close()
			}
			await(t, lb, "unseek", hasID(sk.ID))
			if st, _, code := accept(b, lb, sk.ID); st != http.StatusNotFound {
				t.Errorf("accepting a withdrawn seek on B: %d %s", st, code)
			}
		})
	}
}

// TestClusterNodeGone: the seeks of a node that leaves the cluster, or
// falls silent, leave the other nodes' lobbies.
func TestClusterNodeGone(t *testing.T) {
	tests := []struct {
		name      string
		heartbeat time.Duration
		stop      func(n *testNode)
	}{
		{"closed", time.Hour, func(n *testNode) { n.stop() }},                 // its goodbye
		{"silent", 50 * time.Millisecond, func(n *testNode) { n.nc.Close() }}, // its connection cut: its heartbeats stop
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := newLobbyCluster(t, 2, func(c *Config) { c.Lobby.Heartbeat = tc.heartbeat })
			A, B := nodes[0].testServer, nodes[1].testServer
			a, b := newBrowser(t, A), newBrowser(t, B)
			la, lb := lobbyOf(t, a), lobbyOf(t, b)
			_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
			await(t, lb, "seek", hasID(sk.ID))
			tc.stop(nodes[0])
			await(t, lb, "unseek", hasID(sk.ID))
			if listed(b, sk.ID) {
				t.Errorf("the gone node's seek is still listed")
			}
		})
	}
}

// TestClusterLateNode: a node that joins the cluster late shows the seeks
// posted before it started.
func TestClusterLateNode(t *testing.T) {
	nodes := newLobbyCluster(t, 1, nil)
	A := nodes[0].testServer
	a := newBrowser(t, A)
	la := lobbyOf(t, a)
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
	// A second node on A's store and NATS server.
	nc, err := nats.Connect(nodes[0].nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	s, err := New(Config{Store: A.Server.cfg.Store, EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf,
		Cluster: &ClusterConfig{NATS: nc, Node: "late"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptestServer(s)
	B := &testServer{Server: s, URL: hs.URL, http: hs, store: sharedStore{A.store}}
	t.Cleanup(B.stop)
	b := newBrowser(t, B)
	lb := lobbyOf(t, b)
	for {
		ev, err := lb.Next(ctxT(t))
		if err != nil {
			t.Fatalf("the late node's feed: %v", err)
		}
		var list []SeekInfo
		if ev.Event == "seeks" {
			json.Unmarshal(ev.Data, &list)
		}
		if ev.Event == "seek" && hasID(sk.ID)(ev.Data) || len(list) == 1 && list[0].ID == sk.ID {
			break
		}
	}
	if st, p, code := accept(b, lb, sk.ID); st != http.StatusCreated || p.Game == "" {
		t.Errorf("accept on the late node: %d %s", st, code)
	}
}

// TestClusterQuickPairing: visitors asking for the same quick pairing on
// different nodes are paired, one after the other and at once.
func TestClusterQuickPairing(t *testing.T) {
	nodes := newLobbyCluster(t, 2, nil)
	A, B := nodes[0].testServer, nodes[1].testServer
	body := func(l *loadtest.Lobby) map[string]any {
		return map[string]any{"visitor": l.Visitor, "variant": "chess", "clock": map[string]any{"initial_ms": 300000, "increment_ms": 3000}}
	}
	t.Run("one after the other", func(t *testing.T) {
		a, b := newBrowser(t, A), newBrowser(t, B)
		la, lb := lobbyOf(t, a), lobbyOf(t, b)
		var qa, qb QuickAnswer
		if st := a.do("POST", "/api/seeks/quick", body(la), &qa).StatusCode; st != http.StatusAccepted || qa.Seek == nil {
			t.Fatalf("first, on A: %d %+v", st, qa)
		}
		await(t, lb, "seek", hasID(qa.Seek.ID))
		if st := b.do("POST", "/api/seeks/quick", body(lb), &qb).StatusCode; st != http.StatusCreated || qb.Paired == nil {
			t.Fatalf("second, on B: %d %+v", st, qb)
		}
		var own Paired
		jsonInto(t, await(t, la, "paired", nil), &own)
		if own.Game != qb.Paired.Game || own.Seat == qb.Paired.Seat {
			t.Errorf("poster %+v, accepter %+v", own, qb.Paired)
		}
	})
	t.Run("at once", func(t *testing.T) {
		a, b := newBrowser(t, A), newBrowser(t, B)
		la, lb := lobbyOf(t, a), lobbyOf(t, b)
		// Both ask before either node has heard of the other's seek: each
		// posts one, and the cluster pairs them.
		var qa, qb QuickAnswer
		releaseA, releaseB := holdBus(A), holdBus(B)
		if st := a.do("POST", "/api/seeks/quick", body(la), &qa).StatusCode; st != http.StatusAccepted {
			t.Fatalf("on A: %d %+v", st, qa)
		}
		if st := b.do("POST", "/api/seeks/quick", body(lb), &qb).StatusCode; st != http.StatusAccepted {
			t.Fatalf("on B: %d %+v", st, qb)
		}
		releaseA()
		releaseB()
		var pa, pb Paired
		jsonInto(t, await(t, la, "paired", nil), &pa)
		jsonInto(t, await(t, lb, "paired", nil), &pb)
		if pa.Game == "" || pa.Game != pb.Game || pa.Seat == pb.Seat {
			t.Errorf("told %+v on A and %+v on B", pa, pb)
		}
	})
}

// TestClusterSeekLimit: the lobby's bound on seeks counts the seeks of
// every node.
func TestClusterSeekLimit(t *testing.T) {
	nodes := newLobbyCluster(t, 2, func(c *Config) { c.Lobby.MaxSeeks = 2 })
	A, B := nodes[0].testServer, nodes[1].testServer
	a, b := newBrowser(t, A), newBrowser(t, B)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	for range 2 {
		_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess"})
		await(t, lb, "seek", hasID(sk.ID))
	}
	if st, _, code := postSeek(b, lb, map[string]any{"variant": "chess"}); st != http.StatusTooManyRequests || code != "too_many_seeks" {
		t.Errorf("a third seek in the cluster, on B: %d %s", st, code)
	}
}

// TestClusterSavedVariant: a variant saved through one node makes games
// on another at once: told over NATS, or read from the store when the
// node was not told.
func TestClusterSavedVariant(t *testing.T) {
	tests := []struct {
		name string
		save func(t *testing.T, A *testServer)
	}{
		{"saved on A", func(t *testing.T, A *testServer) {
			if st, _, body := saveVariant(t, A, miniText("mini", "N")); st != http.StatusCreated {
				t.Fatalf("save on A: %d %s", st, body)
			}
		}},
		{"in the store only", func(t *testing.T, A *testServer) {
			ds := A.store.(sharedStore).Store.(store.Definitions)
			text := []byte(miniText("mini", "N"))
			if err := ds.SaveVariant(ctxT(t), store.SavedVariant{Name: "mini", Text: text, Saved: time.Now().UTC()}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := newLobbyCluster(t, 2, nil)
			A, B := nodes[0].testServer, nodes[1].testServer
			tc.save(t, A)
			g := create(t, B, map[string]any{"variant": "mini"})
			if g["id"] == "" {
				t.Fatalf("create on B: %v", g)
			}
			rec, _, err := B.store.Load(ctxT(t), g["id"])
			if err != nil || rec.Variant != "mini" {
				t.Fatalf("the game on B: %+v %v", rec, err)
			}
			var vs []VariantInfo
			b := newBrowser(t, B)
			b.do("GET", "/api/variants", nil, &vs)
			found := false
			for _, v := range vs {
				found = found || v.Name == "mini"
			}
			if !found {
				t.Errorf("B does not list the saved variant")
			}
		})
	}
}

// TestClusterSavedVariantReplaced: a saved variant replaced on one node is
// replaced on the others for new games.
func TestClusterSavedVariantReplaced(t *testing.T) {
	nodes := newLobbyCluster(t, 2, nil)
	A, B := nodes[0].testServer, nodes[1].testServer
	if st, _, body := saveVariant(t, A, miniText("mini", "N")); st != http.StatusCreated {
		t.Fatalf("save on A: %d %s", st, body)
	}
	create(t, B, map[string]any{"variant": "mini"})
	st, v2, body := saveVariant(t, A, miniText("mini", "D"))
	if st != http.StatusCreated || !v2.Replaced {
		t.Fatalf("replace on A: %d %s", st, body)
	}
	// B serves the new file once it has heard of it.
	ctx := ctxT(t)
	for {
		if _, text := getText(t, B.URL+"/api/variants/mini/file"); text == miniText("mini", "D") {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("B does not have the variant saved again")
		case <-time.After(10 * time.Millisecond):
		}
	}
	g := create(t, B, map[string]any{"variant": "mini"})
	rec, _, err := B.store.Load(ctxT(t), g["id"])
	if err != nil || rec.Definition != v2.Definition {
		t.Fatalf("B made a game of %+v (%v), not of %s", rec, err, v2.Definition)
	}
}

// httptestServer serves s's handler on a loopback port.
func httptestServer(s *Server) *httptest.Server { return httptest.NewServer(s.Handler()) }

// holdBus keeps what n publishes on its lobby's bus until release, as if
// the other nodes were slow to hear of it.
func holdBus(n *testServer) (release func()) {
	type msg struct {
		subject string
		data    []byte
	}
	var held []msg
	l := n.lobby
	l.mu.Lock()
	b := l.bus
	b.pub = func(subject string, data []byte) error {
		held = append(held, msg{subject, data})
		return nil
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		b.pub = b.nc.Publish
		for _, m := range held {
			b.nc.Publish(m.subject, m.data)
		}
	}
}

// awaitAll reads l's events until it has had one of kind event for each
// of ids, in any order.
func awaitAll(t *testing.T, l *loadtest.Lobby, event string, ids ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	await(t, l, event, func(d json.RawMessage) bool {
		var v struct{ ID string }
		json.Unmarshal(d, &v)
		delete(want, v.ID)
		return len(want) == 0
	})
}

// TestClusterLostEvent: a node that misses an event of another node's
// stream finds out from the numbers and takes a snapshot.
func TestClusterLostEvent(t *testing.T) {
	tests := []struct {
		name string
		lose string // the kind of event lost
	}{{"seek lost", `"kind":"seek"`}, {"unseek lost", `"kind":"unseek"`}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := newLobbyCluster(t, 2, func(c *Config) { c.Lobby.Heartbeat = 50 * time.Millisecond })
			A, B := nodes[0].testServer, nodes[1].testServer
			a, b := newBrowser(t, A), newBrowser(t, B)
			la, lb := lobbyOf(t, a), lobbyOf(t, b)
			_, first, _ := postSeek(a, la, map[string]any{"variant": "chess", "days": 3})
			await(t, lb, "seek", hasID(first.ID))
			l := A.lobby
			l.mu.Lock()
			bus := l.bus
			bus.pub = func(subject string, data []byte) error {
				if strings.Contains(string(data), tc.lose) {
					bus.pub = bus.nc.Publish // lose this one only
					return nil
				}
				return bus.nc.Publish(subject, data)
			}
			l.mu.Unlock()
			if tc.lose == `"kind":"seek"` {
				_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
				await(t, lb, "seek", hasID(sk.ID))
				return
			}
			if st := a.do("POST", "/api/seeks/"+first.ID+"/cancel", map[string]any{"visitor": la.Visitor}, nil).StatusCode; st != http.StatusNoContent {
				t.Fatalf("cancel: %d", st)
			}
			await(t, lb, "unseek", hasID(first.ID))
		})
	}
}

// TestClusterVisitorElsewhere: a visitor's requests reach the node of its
// feed through any node (a balancer sends each request where it likes).
func TestClusterVisitorElsewhere(t *testing.T) {
	nodes := newLobbyCluster(t, 2, nil)
	A, B := nodes[0].testServer, nodes[1].testServer
	a, b := newBrowser(t, A), newBrowser(t, B)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	aOnB := &browser{t: t, ts: B, c: a.c} // a's browser, its requests balanced to B
	bOnA := &browser{t: t, ts: A, c: b.c}

	st, sk, code := postSeek(aOnB, la, map[string]any{"variant": "chess", "clock": blitz})
	if st != http.StatusCreated {
		t.Fatalf("post through B for A's visitor: %d %s", st, code)
	}
	await(t, lb, "seek", hasID(sk.ID))
	if st, _, code := accept(aOnB, la, sk.ID); st != http.StatusConflict || code != "own_seek" {
		t.Errorf("its own seek through B: %d %s", st, code)
	}
	if st := aOnB.do("POST", "/api/seeks/"+sk.ID+"/cancel", map[string]any{"visitor": la.Visitor}, nil).StatusCode; st != http.StatusNoContent {
		t.Fatalf("cancel through B: %d", st)
	}
	await(t, lb, "unseek", hasID(sk.ID))

	var q QuickAnswer
	quick := map[string]any{"visitor": la.Visitor, "variant": "chess", "clock": map[string]any{"initial_ms": 600000, "increment_ms": 0}}
	if st := aOnB.do("POST", "/api/seeks/quick", quick, &q).StatusCode; st != http.StatusAccepted || q.Seek == nil {
		t.Fatalf("quick pairing through B: %d %+v", st, q)
	}
	await(t, lb, "seek", hasID(q.Seek.ID))
	st, p, code := accept(bOnA, lb, q.Seek.ID) // B's visitor through A, A's seek
	if st != http.StatusCreated || p.Game == "" {
		t.Fatalf("accept through A for B's visitor: %d %s", st, code)
	}
	var own Paired
	jsonInto(t, await(t, la, "paired", nil), &own)
	if own.Game != p.Game || own.Seat == p.Seat {
		t.Errorf("poster %+v, accepter %+v", own, p)
	}
	if st, _, code := postSeek(aOnB, &loadtest.Lobby{Visitor: "gone.0123"}, map[string]any{"variant": "chess"}); st != http.StatusConflict || code != "no_lobby" {
		t.Errorf("a visitor of a node that is not there: %d %s", st, code)
	}
}

// stallingStore is a store whose game creation waits for a word from the
// test and then fails.
type stallingStore struct {
	store.Store
	called  chan struct{}
	release chan struct{}
}

func (s stallingStore) Create(ctx context.Context, g *store.Game) error {
	s.called <- struct{}{}
	<-s.release
	return errors.New("the disk is full")
}

// TestSeekGoneWithItsGame: a seek whose game could not be made, and whose
// poster left meanwhile, leaves every lobby (it is not offered again).
func TestSeekGoneWithItsGame(t *testing.T) {
	st := stallingStore{called: make(chan struct{}, 1), release: make(chan struct{})}
	ts := newTestServer(t, "", func(c *Config) {
		st.Store = c.Store
		c.Store = st
		c.Lobby.Grace = time.Millisecond
	})
	a, b, c := newBrowser(t, ts), newBrowser(t, ts), newBrowser(t, ts)
	la, lb, lc := lobbyOf(t, a), lobbyOf(t, b), lobbyOf(t, c)
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess"})
	await(t, lc, "seek", hasID(sk.ID))
	answer := make(chan int, 1)
	go func() {
		st, _, _ := accept(b, lb, sk.ID)
		answer <- st
	}()
	<-st.called // the seek is taken, its game not made yet
	la.Close()
	for gone := false; !gone; { // the poster's grace passes
		ts.lobby.mu.Lock()
		gone = ts.lobby.visitors[la.Visitor] == nil
		ts.lobby.mu.Unlock()
		runtime.Gosched()
	}
	close(st.release)
	if got := <-answer; got != http.StatusInternalServerError {
		t.Errorf("accept: %d, want 500", got)
	}
	await(t, lc, "unseek", hasID(sk.ID))
	if listed(c, sk.ID) {
		t.Errorf("the seek is still listed")
	}
}

// TestClusterAcceptOnGoneNode: accepting the seek of a node that is gone
// (before its heartbeats are missed) answers not found and drops the
// node's seeks.
func TestClusterAcceptOnGoneNode(t *testing.T) {
	nodes := newLobbyCluster(t, 2, func(c *Config) { c.Lobby.Heartbeat = time.Hour })
	A, B := nodes[0].testServer, nodes[1].testServer
	a, b := newBrowser(t, A), newBrowser(t, B)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
	await(t, lb, "seek", hasID(sk.ID))
	nodes[0].nc.Close() // A is cut off without a goodbye
	// Until the NATS server knows A is gone:
	for {
		_, err := nodes[1].nc.Request(subjLobbyAccept+"a", []byte("{}"), 5*time.Second)
		if errors.Is(err, nats.ErrNoResponders) {
			break
		}
	}
	if st, _, code := accept(b, lb, sk.ID); st != http.StatusNotFound || code != "not_found" {
		t.Errorf("accepting the gone node's seek: %d %s", st, code)
	}
	await(t, lb, "unseek", hasID(sk.ID))
}
