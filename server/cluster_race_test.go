package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// hookedStore is a store whose calls may be stopped by a test at given
// points: each hook, if set, runs before the call it names.
type hookedStore struct {
	store.Store
	store.Leases

	mu      sync.Mutex
	load    func(id string)
	leaseOf func(id string)
	renew   func()
	appendH func(id string, ev store.Event)
}

func (h *hookedStore) hooks() (load, leaseOf func(string), renew func(), appendH func(string, store.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.load, h.leaseOf, h.renew, h.appendH
}

func (h *hookedStore) Load(ctx context.Context, id string) (*store.Game, []store.Event, error) {
	if f, _, _, _ := h.hooks(); f != nil {
		f(id)
	}
	return h.Store.Load(ctx, id)
}

func (h *hookedStore) Append(ctx context.Context, id string, ev store.Event, end *store.End) error {
	if _, _, _, f := h.hooks(); f != nil {
		f(id, ev)
	}
	return h.Store.Append(ctx, id, ev, end)
}

func (h *hookedStore) LeaseOf(ctx context.Context, id string) (store.Lease, error) {
	if _, f, _, _ := h.hooks(); f != nil {
		f(id)
	}
	return h.Leases.LeaseOf(ctx, id)
}

func (h *hookedStore) Renew(ctx context.Context, node string, d time.Duration) ([]string, error) {
	if _, _, f, _ := h.hooks(); f != nil {
		f()
	}
	return h.Leases.Renew(ctx, node, d)
}

// newHookedNodes starts nodes named by names on one SQLite store and one
// NATS server, each node's store calls going through a hookedStore of its
// own.
func newHookedNodes(t *testing.T, lease time.Duration, names ...string) (store.Store, []*clusterNode, []*hookedStore) {
	t.Helper()
	url := natstest.Start(t)
	st := openStore(t, filepath.Join(t.TempDir(), "games.db"))
	var nodes []*clusterNode
	var hooked []*hookedStore
	for _, name := range names {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		h := &hookedStore{Store: st, Leases: st.(store.Leases)}
		s, err := New(Config{Store: h, EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf,
			Cluster: &ClusterConfig{NATS: nc, Node: name, Lease: lease}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s.Handler())
		nodes = append(nodes, &clusterNode{Server: s, URL: hs.URL, nc: nc, hs: hs})
		hooked = append(hooked, h)
	}
	t.Cleanup(func() {
		for i, n := range nodes {
			hooked[i].mu.Lock()
			hooked[i].load, hooked[i].leaseOf, hooked[i].renew, hooked[i].appendH = nil, nil, nil, nil
			hooked[i].mu.Unlock()
			n.hs.CloseClientConnections()
			n.hs.Close()
			n.Server.Close()
			n.nc.Close()
		}
		st.Close()
	})
	return st, nodes, hooked
}

// TestClusterStrayLeaseWhileLoading: the renewer gives back the leases
// of games not in memory, but not the lease of a game that is being
// loaded when it looks: that lease was just taken for the load.
func TestClusterStrayLeaseWhileLoading(t *testing.T) {
	st, nodes, hooked := newHookedNodes(t, time.Second, "A")
	a, h := nodes[0], hooked[0]
	id, _ := createAt(t, a.URL, map[string]any{"variant": "chess"})
	// A lease of node A for a game not in its memory: a stray one.
	if _, _, err := st.(store.Leases).Acquire(context.Background(), id, "A", time.Hour); err != nil {
		t.Fatal(err)
	}
	inLeaseOf, resumeLeaseOf := make(chan struct{}), make(chan struct{})
	inLoad, resumeLoad := make(chan struct{}), make(chan struct{})
	nextRenew := make(chan struct{}, 1)
	var once sync.Once
	var armed bool
	h.mu.Lock()
	h.leaseOf = func(g string) {
		if g == id {
			once.Do(func() {
				close(inLeaseOf)
				<-resumeLeaseOf
			})
		}
	}
	h.load = func(g string) {
		if g == id {
			close(inLoad)
			<-resumeLoad
		}
	}
	h.renew = func() {
		h.mu.Lock()
		a := armed
		h.mu.Unlock()
		if a {
			select {
			case nextRenew <- struct{}{}:
			default:
			}
		}
	}
	h.mu.Unlock()

	<-inLeaseOf // the renewer found the stray lease and is about to read it
	loaded := make(chan error, 1)
	go func() {
		_, err := a.game(context.Background(), id)
		loaded <- err
	}()
	<-inLoad // a load of the game took the lease again and reads the game
	h.mu.Lock()
	armed = true
	h.mu.Unlock()
	close(resumeLeaseOf)
	<-nextRenew // the renewer's pass over the stray leases is over
	l := leaseOf(t, st, id)
	close(resumeLoad)
	if err := <-loaded; err != nil {
		t.Fatal(err)
	}
	if l.Node != "A" || l.Epoch != 2 {
		t.Fatalf("lease of a game being loaded after the renewer's pass: %+v; want A's epoch 2, kept", l)
	}
}

// TestClusterFrameFloodOneGame: a forwarded connection whose frames
// overflow while its game's owner goroutine waits on a slow store write
// is disconnected without holding up the frames forwarded to the node's
// other games.
func TestClusterFrameFloodOneGame(t *testing.T) {
	_, nodes, hooked := newHookedNodes(t, 2*time.Second, "A", "B")
	a, b, h := nodes[0], nodes[1], hooked[0]
	slow, tokens1 := createAt(t, a.URL, map[string]any{"variant": "chess"})
	other, tokens2 := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w1 := joinURL(t, a.URL, slow, tokens1[0], 0)
	joinURL(t, b.URL, slow, tokens1[1], 0) // black, forwarded by B
	b.cluster.mu.Lock()
	var conn string
	for id := range b.cluster.proxies {
		conn = id
	}
	b.cluster.mu.Unlock()
	w2 := joinURL(t, a.URL, other, tokens2[0], 0)
	b2 := joinURL(t, b.URL, other, tokens2[1], 0)
	w2.stateAt(w2.mustMove("e4"))

	// The slow game's next write hangs until the test ends.
	inAppend, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.mu.Lock()
	h.appendH = func(id string, _ store.Event) {
		if id == slow {
			once.Do(func() { close(inAppend) })
			<-release
		}
	}
	h.mu.Unlock()
	t.Cleanup(func() { close(release) })
	if err := w1.c.Send(ctxT(t), map[string]any{"t": "move", "move": "e4", "id": 1}); err != nil {
		t.Fatal(err)
	}
	<-inAppend

	// Black's frames of the slow game, forwarded by B, wait in its queue
	// until it is full, and then overflow.
	pub, err := nats.Connect(a.nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	n := 0
	frame := func() {
		n++
		data := mustJSON(map[string]any{"t": "draw", "offer": true, "id": n})
		if err := pub.Publish("anychess.node.A.frame", mustJSON(frameMsg{From: "B", Conn: conn, Data: data})); err != nil {
			t.Fatal(err)
		}
		if err := pub.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	a.cluster.mu.Lock()
	r := a.cluster.remotes["B/"+conn]
	a.cluster.mu.Unlock()
	lg := a.loaded(slow)
	if r == nil || lg == nil {
		t.Fatal("black's forwarded connection is not on node A")
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(lg.inbox) < cap(lg.inbox) {
		before := len(lg.inbox)
		frame()
		// Until the frame has reached the game's queue, or the queue
		// is full (the frame then waits in the connection's). NATS
		// delivers after Flush returns, so an empty connection queue
		// does not say the frame has passed: frames published faster
		// than they arrive would overflow the connection's queue before
		// the game's is full, and the connection would be dropped.
		for len(lg.inbox) <= before && len(lg.inbox) < cap(lg.inbox) {
			if time.Now().After(deadline) {
				t.Fatalf("frame %d never reached the game's queue (%d of %d; the connection's holds %d)", n, len(lg.inbox), cap(lg.inbox), len(r.in))
			}
			time.Sleep(time.Millisecond)
		}
	}
	for range cap(r.in) + 2 {
		frame()
	}
	// Black's move in the other game, forwarded by B after the flood.
	if f := b2.move("e5"); f.T != "ack" {
		t.Fatalf("a move of another game forwarded to the node: %s", f.Raw)
	}
}

// TestClusterForwardTimeoutLeaves: a forwarded hello that the game's
// owner does not answer in time (its game held up by a slow store write)
// is given up by the forwarding node, which tells the owner: the owner
// keeps no connection for it once the game goes on, although the
// forwarding node still pings it for other connections.
func TestClusterForwardTimeoutLeaves(t *testing.T) {
	const lease = 600 * time.Millisecond
	_, nodes, hooked := newHookedNodes(t, lease, "A", "B")
	a, b, h := nodes[0], nodes[1], hooked[0]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	// Another game of A's, watched through B: B keeps pinging A.
	other, tokens2 := createAt(t, a.URL, map[string]any{"variant": "chess"})
	joinURL(t, a.URL, other, tokens2[0], 0)
	joinURL(t, b.URL, other, "", 0)

	inAppend, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.mu.Lock()
	h.appendH = func(g string, _ store.Event) {
		if g == id {
			once.Do(func() { close(inAppend) })
			<-release
		}
	}
	h.mu.Unlock()
	var released sync.Once
	unblock := func() { released.Do(func() { close(release) }) }
	t.Cleanup(unblock)
	if err := w.c.Send(ctxT(t), map[string]any{"t": "move", "move": "e4", "id": 1}); err != nil {
		t.Fatal(err)
	}
	<-inAppend

	// Black's hello on B: A answers none of B's forwarded hellos in time.
	refusedHello(t, b.URL, id, tokens[1], "a game whose node does not answer")
	forwarded := func() int { return forwardedFrom(a, "B", id) }
	// B has told A of each hello it gave up (well before A's joins that
	// wait for the game would time out).
	deadline := time.Now().Add(2 * time.Second)
	for forwarded() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := forwarded(); n != 0 {
		t.Errorf("node A holds %d connections for the hellos B gave up", n)
	}
	unblock()
	w.until(func(f *loadtest.Frame) bool { return f.T == "ack" && f.ID == 1 })
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	bl.stateAt(bl.mustMove("e5"))
	if n := forwarded(); n != 1 {
		t.Fatalf("node A holds %d connections to the game forwarded by B; want 1, black's live one", n)
	}
}

// TestClusterSweepRunningClock: a game whose clock runs, on a node that
// stops, is taken over by another node's sweeper within a few leases
// although no client asks for it and its flag is minutes away: the time
// its clock does not count (the resume event's credit) is then the few
// leases it had no node, not the minutes until its flag.
func TestClusterSweepRunningClock(t *testing.T) {
	const lease = 300 * time.Millisecond
	st, nodes := newTestCluster(t, lease, "A", "B")
	a := nodes[0]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": 300000}})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl := joinURL(t, a.URL, id, tokens[1], 0)
	w.mustMove("e4")
	w.stateAt(bl.mustMove("e5")) // white's clock runs
	w.c.CloseNow()
	bl.c.CloseNow()

	a.cluster.close() // A stops renewing and answering
	deadline := time.Now().Add(30 * lease)
	for leaseOf(t, st, id).Node != "B" {
		if time.Now().After(deadline) {
			t.Fatalf("no node took over the game with a running clock within %s: lease %+v", 30*lease, leaseOf(t, st, id))
		}
		time.Sleep(lease / 3)
	}
	// B holds the lease before it has loaded the game and stored its
	// resume event: wait for that event within the same deadline.
	var e eventJSON
	for {
		_, evs, err := st.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		last := evs[len(evs)-1]
		err = json.Unmarshal(last.Data, &e)
		if err == nil && e.Kind == "resume" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("last event after the take-over: %s, %v; want a resume", last.Data, err)
		}
		time.Sleep(lease / 10)
	}
	if e.CreditMS <= 0 || e.CreditMS > (30*lease).Milliseconds() {
		t.Errorf("credit of the take-over: %d ms; want the time the game had no node, at most %d ms", e.CreditMS, (30 * lease).Milliseconds())
	}
}

// TestClusterRenewerNotHeldUp: a game whose lease was lost while its
// owner goroutine is held up (a slow store write, its queue full) is
// unloaded without holding up the renewer: the node's other leases are
// still renewed.
func TestClusterRenewerNotHeldUp(t *testing.T) {
	const lease = 600 * time.Millisecond
	st, nodes, hooked := newHookedNodes(t, lease, "A")
	a, h := nodes[0], hooked[0]
	slow, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w := joinURL(t, a.URL, slow, tokens[0], 0)
	bl := joinURL(t, a.URL, slow, tokens[1], 0)

	inAppend, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	renewed := make(chan struct{}, 1)
	h.mu.Lock()
	h.appendH = func(g string, _ store.Event) {
		if g == slow {
			once.Do(func() { close(inAppend) })
			<-release
		}
	}
	h.renew = func() {
		select {
		case renewed <- struct{}{}:
		default:
		}
	}
	h.mu.Unlock()
	t.Cleanup(func() { close(release) })
	if err := w.c.Send(ctxT(t), map[string]any{"t": "move", "move": "e4", "id": 1}); err != nil {
		t.Fatal(err)
	}
	<-inAppend
	// Both players' frames fill the game's queue (within their rate).
	lg := a.loaded(slow)
	for i := range 39 {
		for _, c := range []*seatClient{w, bl} {
			if err := c.c.Send(ctxT(t), map[string]any{"t": "draw", "offer": true, "id": i + 2}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for len(lg.inbox) < cap(lg.inbox) {
		time.Sleep(time.Millisecond)
	}
	// The game's lease ends (as when another node took it over).
	l := leaseOf(t, st, slow)
	if err := st.(store.Leases).Release(context.Background(), slow, "A", l.Epoch); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		select {
		case <-renewed:
		case <-time.After(10 * lease):
			t.Fatalf("the renewer stopped renewing after the lost game")
		}
	}
}

// TestClusterDrainWaitsForLoad: a drain that starts while a game is being
// loaded (its lease taken before the drain) hands that game over too: its
// lease is released before the drain returns.
func TestClusterDrainWaitsForLoad(t *testing.T) {
	st, nodes, hooked := newHookedNodes(t, 10*time.Second, "A")
	a, h := nodes[0], hooked[0]
	id, _ := createAt(t, a.URL, map[string]any{"variant": "chess"})
	inLoad, resumeLoad := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.mu.Lock()
	h.load = func(g string) {
		if g == id {
			once.Do(func() {
				close(inLoad)
				<-resumeLoad
			})
		}
	}
	h.mu.Unlock()
	loaded := make(chan error, 1)
	go func() {
		_, err := a.game(context.Background(), id)
		loaded <- err
	}()
	<-inLoad // the lease is taken; the game is being read
	drained := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		drained <- a.Drain(ctx)
	}()
	select {
	case err := <-drained:
		close(resumeLoad)
		<-loaded
		t.Fatalf("the drain returned (%v) while a game it leased was being loaded; lease %+v", err, leaseOf(t, st, id))
	case <-time.After(500 * time.Millisecond):
	}
	close(resumeLoad)
	if err := <-loaded; err != nil {
		t.Fatal(err)
	}
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	if l := leaseOf(t, st, id); l.Live() || a.loaded(id) != nil {
		t.Fatalf("after the drain: lease %+v, game in memory %v; want released, unloaded", l, a.loaded(id) != nil)
	}
}

// TestClusterForgetsSilentPeers: a node that pinged once and then went
// silent (as each earlier run of a restarted node does) is forgotten by
// the owner, so that what it keeps per node does not grow without end.
func TestClusterForgetsSilentPeers(t *testing.T) {
	const lease = 300 * time.Millisecond
	_, nodes := newTestCluster(t, lease, "A")
	a := nodes[0]
	ghost, err := nats.Connect(a.nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	defer ghost.Close()
	if _, err := ghost.Request("anychess.node.A.ping", mustJSON(pingMsg{From: "ghost", Conns: []string{"c1"}}), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	seen := func() bool {
		a.cluster.mu.Lock()
		defer a.cluster.mu.Unlock()
		_, ok := a.cluster.peerSeen["ghost"]
		return ok
	}
	if !seen() {
		t.Fatal("the ping was not seen")
	}
	deadline := time.Now().Add(30 * lease)
	for seen() {
		if time.Now().After(deadline) {
			t.Fatalf("node A still keeps a node silent for %s", 30*lease)
		}
		time.Sleep(lease / 3)
	}
}

// TestClusterForwardTimeoutDuringLoad: a forwarded hello that the owner
// answers too late, because it was still loading the game, and that the
// forwarding node gave up (telling the owner before the owner knew the
// connection) leaves no connection at the owner once the load is done.
func TestClusterForwardTimeoutDuringLoad(t *testing.T) {
	const lease = 600 * time.Millisecond
	_, nodes, hooked := newHookedNodes(t, lease, "A", "B")
	a, b, h := nodes[0], nodes[1], hooked[0]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	// Another game of A's, watched through B: B keeps pinging A.
	other, tokens2 := createAt(t, a.URL, map[string]any{"variant": "chess"})
	joinURL(t, a.URL, other, tokens2[0], 0)
	joinURL(t, b.URL, other, "", 0)

	inLoad, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.mu.Lock()
	h.load = func(g string) {
		if g == id {
			once.Do(func() {
				close(inLoad)
				<-release
			})
		}
	}
	h.mu.Unlock()
	var released sync.Once
	unblock := func() { released.Do(func() { close(release) }) }
	t.Cleanup(unblock)
	loaded := make(chan error, 1)
	go func() {
		_, err := a.game(context.Background(), id) // white's hello on A, say
		loaded <- err
	}()
	<-inLoad

	// Black's hello on B: A, loading the game, answers none in time.
	refusedHello(t, b.URL, id, tokens[1], "a game its node was still loading")
	unblock()
	if err := <-loaded; err != nil {
		t.Fatal(err)
	}
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl.stateAt(w.mustMove("e4"))
	if n := forwardedFrom(a, "B", id); n != 1 {
		t.Fatalf("node A holds %d connections to the game forwarded by B; want 1, black's live one", n)
	}
}

// refusedHello says hello to game id at the node at url and reads until
// the error it must get, failing on a welcome (joining what).
func refusedHello(t *testing.T, url, id, token, what string) {
	t.Helper()
	c, err := loadtest.Join(ctxT(t), url, id, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for {
		f, err := c.Read(ctxT(t))
		if err != nil {
			t.Fatalf("hello: %v before an error", err)
		}
		if f.T == "welcome" {
			t.Fatalf("joined %s", what)
		}
		if f.T == "error" {
			return
		}
	}
}

// forwardedFrom counts the connections node n holds for game id that
// node from forwarded.
func forwardedFrom(n *clusterNode, from, id string) int {
	n.cluster.mu.Lock()
	defer n.cluster.mu.Unlock()
	k := 0
	for _, r := range n.cluster.remotes {
		if r.from == from && r.lg.rec.ID == id {
			k++
		}
	}
	return k
}
