package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// clusterNode is one node of a test cluster.
type clusterNode struct {
	*Server
	URL string
	nc  *nats.Conn
	hs  *httptest.Server
}

// newTestCluster starts nodes named by names on one SQLite store and one
// NATS server, with leases of lease (newHookedNodes, with no hook set).
func newTestCluster(t *testing.T, lease time.Duration, names ...string) (store.Store, []*clusterNode) {
	t.Helper()
	st, nodes, _ := newHookedNodes(t, lease, names...)
	return st, nodes
}

// createAt creates a game through the node at url and returns its id and
// the tokens of white and black.
func createAt(t *testing.T, url string, req map[string]any) (string, [2]string) {
	t.Helper()
	g, err := loadtest.CreateGame(ctxT(t), url, req)
	if err != nil {
		t.Fatal(err)
	}
	tokens := [2]string{g["token"], loadtest.InviteToken(g["invite"])}
	if g["seat"] == "black" {
		tokens[0], tokens[1] = tokens[1], tokens[0]
	}
	return g["id"], tokens
}

// leaseOf returns game id's lease.
func leaseOf(t *testing.T, st store.Store, id string) store.Lease {
	t.Helper()
	l, err := st.(store.Leases).LeaseOf(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// afterWelcome returns the raw frames a client received after its
// welcome.
func afterWelcome(sc *seatClient) [][]byte {
	var out [][]byte
	for _, f := range sc.frames {
		if f.T != "welcome" {
			out = append(out, f.Raw)
		}
	}
	return out
}

// TestClusterForward: a game owned by node A is played by one seat on A
// and one on B, whose frames B forwards; both seats see every event, and
// a spectator on B receives exactly the frames a spectator on A does, in
// a game with hidden information too.
func TestClusterForward(t *testing.T) {
	st, nodes := newTestCluster(t, time.Second, "A", "B")
	a, b := nodes[0], nodes[1]
	for _, tc := range []struct {
		name  string
		req   map[string]any
		moves [][2]string // seat ("w"/"b") and move
	}{
		{"chess", map[string]any{"variant": "chess"},
			[][2]string{{"w", "e4"}, {"b", "e5"}, {"w", "Bc4"}, {"b", "Nc6"}, {"w", "Qh5"}, {"b", "Nf6"}, {"w", "Qxf7#"}}},
		{"moderated csipgs", map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "1", "Terrain": "c4,f5"}},
			[][2]string{{"w", "e1e2"}, {"w", "&-"}, {"b", "e8e7"}, {"b", "&-"}, {"w", "e2e3"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, tokens := createAt(t, a.URL, tc.req)
			w := joinURL(t, a.URL, id, tokens[0], 0) // loads the game on A
			if l := leaseOf(t, st, id); l.Node != "A" || !l.Live() {
				t.Fatalf("lease after the first hello on A: %+v", l)
			}
			bl := joinURL(t, b.URL, id, tokens[1], 0)
			specA := joinURL(t, a.URL, id, "", 0)
			specB := joinURL(t, b.URL, id, "", 0)
			if b.loaded(id) != nil {
				t.Fatal("node B loaded a game node A owns")
			}
			var v int64
			for _, m := range tc.moves {
				c := w
				if m[0] == "b" {
					c = bl
				}
				v = c.mustMove(m[1])
			}
			for _, c := range []*seatClient{w, bl, specA, specB} {
				c.stateAt(v)
			}
			if wv, _ := w.events(); len(wv) == 0 {
				t.Fatal("white saw no event")
			}
			wv, _ := w.events()
			bv, _ := bl.events()
			if fmt.Sprint(wv) != fmt.Sprint(bv) || wv[len(wv)-1] < v {
				t.Errorf("white saw versions %v, black (forwarded) %v; want the same, up to %d at least", wv, bv, v)
			}
			fa, fb := afterWelcome(specA), afterWelcome(specB)
			if len(fa) != len(fb) {
				t.Fatalf("spectator on A got %d frames, on B %d", len(fa), len(fb))
			}
			for i := range fa {
				if !bytes.Equal(fa[i], fb[i]) {
					t.Errorf("frame %d: spectator on A got\n%s\non B\n%s", i, fa[i], fb[i])
				}
			}
			if r := b.cluster.forwardedOut.Load(); r == 0 {
				t.Error("node B forwarded no connection")
			}
		})
	}
}

// TestClusterTakeover: node A stops answering and renewing (as a paused
// or dead node); node B closes the connection it forwarded to A, the
// client reconnects to B, which takes the game over once A's lease has
// expired, with the clock credited for the time the game had no node.
// When A's own client then moves, A's write is fenced: it is not
// acknowledged, A drops the game, and the move is played on B instead.
func TestClusterTakeover(t *testing.T) {
	const lease = 600 * time.Millisecond
	st, nodes := newTestCluster(t, lease, "A", "B")
	a, b := nodes[0], nodes[1]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": 300000}})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	w.mustMove("e4")
	v := bl.mustMove("e5")
	w.stateAt(v)

	// A stops: no renewal, no answer on the bus; its game stays in its
	// memory with white connected.
	a.cluster.close()
	untilClosed(bl) // B closes the connection it forwarded to A
	bl = joinURL(t, b.URL, id, tokens[1], v)
	if l := leaseOf(t, st, id); l.Node != "B" || l.Epoch != 2 {
		t.Fatalf("lease after the reconnection to B: %+v; want B's epoch 2", l)
	}
	_, es := bl.events()
	if len(es) != 1 || es[0].Kind != "resume" {
		t.Fatalf("events after the take-over: %+v; want one resume", es)
	}

	// White, still on A, moves: A may not write any more.
	if f := w.move("Nf3"); f.T != "error" {
		t.Fatalf("a move on the node that lost the game: %s, want an error", f.Raw)
	}
	untilClosed(w)
	if a.loaded(id) != nil {
		t.Error("node A still holds the game it lost")
	}
	w = joinURL(t, b.URL, id, tokens[0], v)
	v2 := w.mustMove("Nf3")
	bl.stateAt(v2)

	_, evs, err := st.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var epochs []int64
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
		epochs = append(epochs, e.Epoch)
	}
	if got, want := fmt.Sprint(kinds, epochs), "[ply ply resume ply] [1 1 2 2]"; got != want {
		t.Errorf("stored events (kinds, epochs) = %s, want %s", got, want)
	}
	var resume eventJSON
	if err := json.Unmarshal(evs[2].Data, &resume); err != nil || resume.CreditMS <= 0 {
		t.Errorf("resume event %s: want a positive credit", evs[2].Data)
	}
	if b.cluster.takenOver.Load() != 1 || a.cluster.lost.Load() != 1 {
		t.Errorf("taken over on B %d, lost on A %d; want 1 and 1", b.cluster.takenOver.Load(), a.cluster.lost.Load())
	}
}

// untilClosed reads a client's frames until its connection closes.
func untilClosed(sc *seatClient) {
	sc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		f, err := sc.c.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				sc.t.Fatalf("%s: the connection stayed open", sc.seat)
			}
			return
		}
		sc.frames = append(sc.frames, f)
	}
}

// TestClusterDrain: a node that drains answers 503 on its health, hands
// its game over (the lease released, its connections and those forwarded
// to it closed), and the game goes on at once on the other node with
// every acknowledged move.
func TestClusterDrain(t *testing.T) {
	st, nodes := newTestCluster(t, 10*time.Second, "A", "B")
	a, b := nodes[0], nodes[1]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	w.mustMove("d4")
	v := bl.mustMove("d5")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	untilClosed(w)
	untilClosed(bl)
	resp, err := http.Get(a.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var h Health
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !h.Draining || h.Node != "A" || h.Games != 0 {
		t.Errorf("health of the drained node: %d %+v", resp.StatusCode, h)
	}
	if l := leaseOf(t, st, id); l.Live() {
		t.Fatalf("lease after the drain: %+v; want released", l)
	}
	// Well within B's lease of 10 s: the released game is taken at once.
	w = joinURL(t, b.URL, id, tokens[0], v)
	bl = joinURL(t, b.URL, id, tokens[1], v)
	v = w.mustMove("c4")
	bl.stateAt(v)
	if l := leaseOf(t, st, id); l.Node != "B" || l.Epoch != 2 {
		t.Errorf("lease after the drain: %+v; want B's epoch 2", l)
	}
	if _, evs, err := st.Load(context.Background(), id); err != nil || len(evs) != 3 {
		t.Errorf("stored events after the drain: %d, %v; want 3 plies", len(evs), err)
	}
}

// TestClusterHiddenBus: in a moderated csipgs game owned by node A, with
// black and a spectator on node B, what crosses the bus to B is black's
// view and the spectator's alone: no message carries white's treasury,
// and none for the spectator's connection a position, a view or a legal
// move, while white's own frames never leave A.
func TestClusterHiddenBus(t *testing.T) {
	_, nodes := newTestCluster(t, time.Second, "A", "B")
	a, b := nodes[0], nodes[1]
	sniff, err := nats.Connect(a.nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	defer sniff.Close()
	msgs := make(chan *nats.Msg, 4096)
	if _, err := sniff.ChanSubscribe("anychess.>", msgs); err != nil {
		t.Fatal(err)
	}
	sniff.Flush()
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "HideEconomy": "1", "Terrain": "c4,f5"}})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	spec := joinURL(t, b.URL, id, "", 0)
	var v int64
	for _, mv := range []struct {
		c    *seatClient
		text string
	}{{w, "e1e2"}, {w, "&-"}, {bl, "e8e7"}, {bl, "&-"}, {w, "e2e3"}} {
		v = mv.c.mustMove(mv.text)
	}
	for _, c := range []*seatClient{w, bl, spec} {
		c.stateAt(v)
	}
	// The spectator's connection id is the one whose frames have no
	// seat in their welcome.
	seen := 0
	conns := map[string][]connMsg{}
	for done := false; !done; {
		select {
		case m := <-msgs:
			seen++
			if len(m.Subject) > len("anychess.conn.B.") && m.Subject[:len("anychess.conn.B.")] == "anychess.conn.B." {
				var cm connMsg
				if err := json.Unmarshal(m.Data, &cm); err != nil {
					t.Fatal(err)
				}
				conns[m.Subject] = append(conns[m.Subject], cm)
			}
			if bytes.Contains(m.Data, []byte("c4")) && bytes.Contains(m.Data, []byte("f5")) && bytes.Contains(m.Data, []byte("Terrain")) {
				t.Errorf("the terrain crossed the bus on %s: %s", m.Subject, m.Data)
			}
		case <-time.After(300 * time.Millisecond):
			done = true
		}
	}
	if len(conns) != 2 {
		t.Fatalf("frames crossed the bus to %d connections on B, want 2 (black and the spectator); %d messages in all", len(conns), seen)
	}
	for subj, cms := range conns {
		seat := ""
		for _, cm := range cms {
			for _, f := range cm.Frames {
				var head struct {
					T    string `json:"t"`
					Seat string `json:"seat"`
				}
				json.Unmarshal(f, &head)
				if head.T == "welcome" {
					seat = head.Seat
				}
			}
		}
		for _, cm := range cms {
			for _, f := range cm.Frames {
				var sf stateFrame
				if json.Unmarshal(f, &sf) != nil || sf.T != "state" {
					continue
				}
				if _, ok := sf.Money["white"]; ok {
					t.Errorf("%s (%s) got white's treasury: %s", subj, seat, f)
				}
				if seat == "spectator" && (sf.FEN != "" || sf.Board != "" || len(sf.Visible) != 0 || len(sf.Legal) != 0) {
					t.Errorf("%s (the spectator) got a view: %s", subj, f)
				}
				if seat == "black" && len(sf.Visible) == 0 {
					t.Errorf("%s (black) got no view: %s", subj, f)
				}
			}
		}
		if seat != "black" && seat != "spectator" {
			t.Errorf("%s: a connection of seat %q", subj, seat)
		}
	}
}

// TestProxyHoldsUntilAnswer: what the owner sends a forwarded connection
// before it answers the join is held; delivered in order once the join
// succeeded, and never if it failed (no stray welcome or close from a
// join that answered late or refused).
func TestProxyHoldsUntilAnswer(t *testing.T) {
	newProxy := func() (*proxy, *client) {
		c := &client{out: make(chan [][]byte, 8), closed: make(chan struct{})}
		return &proxy{c: c}, c
	}
	closed := func(c *client) bool {
		select {
		case <-c.closed:
			return true
		default:
			return false
		}
	}
	welcome := connMsg{Frames: []json.RawMessage{json.RawMessage(`{"t":"welcome"}`), json.RawMessage(`{"t":"state"}`)}}
	bye := connMsg{Close: true}

	p, c := newProxy()
	p.take(welcome)
	p.take(bye)
	if len(c.out) != 0 || closed(c) {
		t.Fatal("frames reached the client before the join's answer")
	}
	p.open()
	if len(c.out) != 1 || !closed(c) {
		t.Fatalf("after the answer: %d items queued, closed %v; want the welcome and the close", len(c.out), closed(c))
	}
	if got := <-c.out; len(got) != 2 || string(got[0]) != `{"t":"welcome"}` {
		t.Errorf("delivered %q", got)
	}

	p, c = newProxy()
	p.open()
	p.take(welcome)
	if len(c.out) != 1 {
		t.Error("a frame after the answer was not delivered at once")
	}

	p, c = newProxy() // a join refused: never opened
	p.take(welcome)
	p.take(bye)
	if len(c.out) != 0 || closed(c) {
		t.Error("a refused join's frames reached the client")
	}
}

// TestClusterBadTokenForwarded: a hello with a wrong token on a node that
// forwards the game is refused as on the game's node, and the connection
// stays open for another hello.
func TestClusterBadTokenForwarded(t *testing.T) {
	_, nodes := newTestCluster(t, time.Second, "A", "B")
	a, b := nodes[0], nodes[1]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	joinURL(t, a.URL, id, tokens[0], 0) // A owns the game
	c, err := loadtest.Dial(ctxT(t), b.URL, id)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	sc := &seatClient{t: t, c: c, seat: "black on B"}
	if err := c.Send(ctxT(t), map[string]any{"t": "hello", "id": 1, "token": "wrong"}); err != nil {
		t.Fatal(err)
	}
	if f := sc.until(func(f *loadtest.Frame) bool { return f.ID == 1 || f.T == "welcome" }); f.T != "error" || f.Code != "bad_token" {
		t.Fatalf("hello with a wrong token through B: %s", f.Raw)
	}
	if err := c.Send(ctxT(t), map[string]any{"t": "hello", "id": 2, "token": tokens[1]}); err != nil {
		t.Fatal(err)
	}
	if f := sc.until(func(f *loadtest.Frame) bool { return f.T == "welcome" || f.T == "error" }); f.T != "welcome" || f.Seat != "black" {
		t.Fatalf("second hello through B: %s", f.Raw)
	}
}

// TestClusterPublishRefused: a frame for a forwarded connection that NATS
// refuses (here one over its payload limit) closes that connection, so
// that its client reconnects and is sent what it missed, instead of
// missing the frame unawares; the refusal is counted.
func TestClusterPublishRefused(t *testing.T) {
	_, nodes := newTestCluster(t, time.Second, "A", "B")
	a, b := nodes[0], nodes[1]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	spec := joinURL(t, b.URL, id, "", 0)
	v := w.mustMove("e4")
	a.cluster.mu.Lock()
	var r *remote
	for _, x := range a.cluster.remotes {
		r = x
	}
	a.cluster.mu.Unlock()
	if r == nil {
		t.Fatal("node A holds no forwarded connection")
	}
	big := []byte(`{"t":"pad","x":"` + strings.Repeat("x", int(a.nc.MaxPayload())) + `"}`)
	r.c.out <- [][]byte{big}
	untilClosed(spec)
	if n := a.cluster.publishFailed.Load(); n != 1 {
		t.Errorf("refused publications counted %d, want 1", n)
	}
	for _, f := range spec.frames {
		if len(f.Raw) > len(big)/2 {
			t.Error("the spectator received the refused frame")
		}
	}
	// Reconnected through B, the spectator sees the game as it stands.
	joinURL(t, b.URL, id, "", 0).stateAt(v)
}

// TestClusterForwardRefused: a client's frame the forwarding node cannot
// publish to the owner (its NATS connection gone) closes the client's
// connection at once, rather than leaving it open with its moves lost
// until the owner's pings are missed (here a minute away).
func TestClusterForwardRefused(t *testing.T) {
	_, nodes := newTestCluster(t, time.Minute, "A", "B")
	a, b := nodes[0], nodes[1]
	id, tokens := createAt(t, a.URL, map[string]any{"variant": "chess"})
	w := joinURL(t, a.URL, id, tokens[0], 0)
	bl := joinURL(t, b.URL, id, tokens[1], 0)
	w.mustMove("e4")
	b.nc.Close()
	if err := bl.c.Send(ctxT(t), map[string]any{"t": "move", "move": "e5", "id": 1}); err != nil {
		t.Fatal(err)
	}
	untilClosed(bl)
	if n := b.cluster.publishFailed.Load(); n != 1 {
		t.Errorf("refused publications counted %d, want 1", n)
	}
}

// TestClusterPingsAtOnce: a node forwarding connections to two owners
// pings both at once, so that an owner that does not answer delays no
// other's ping. One after the other, every ping would come a whole ping
// timeout (a third of a lease) after the one before, which waited for
// its answer in vain.
func TestClusterPingsAtOnce(t *testing.T) {
	const lease = 3 * time.Second
	_, nodes := newTestCluster(t, lease, "A", "B", "C")
	a, b, c := nodes[0], nodes[1], nodes[2]
	for _, owner := range []*clusterNode{a, c} {
		id, tokens := createAt(t, owner.URL, map[string]any{"variant": "chess"})
		joinURL(t, owner.URL, id, tokens[0], 0)
		joinURL(t, b.URL, id, tokens[1], 0)
	}
	// Both owners fall silent: their pings reach a subscriber that never
	// answers and notes when each came.
	ghost, err := nats.Connect(b.nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	defer ghost.Close()
	var mu sync.Mutex
	pings := map[string][]time.Time{}
	var silent atomic.Bool
	for _, owner := range []string{"A", "C"} {
		if _, err := ghost.Subscribe("anychess.node."+owner+".ping", func(*nats.Msg) {
			if silent.Load() {
				mu.Lock()
				pings[owner] = append(pings[owner], time.Now())
				mu.Unlock()
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ghost.Flush(); err != nil {
		t.Fatal(err)
	}
	a.nc.Close()
	c.nc.Close()
	silent.Store(true)
	// Node B gives up on each owner after two missed pings.
	deadline := time.Now().Add(10 * lease)
	for {
		mu.Lock()
		n := min(len(pings["A"]), len(pings["C"]))
		mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pings after the owners fell silent: %v", pings)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	closest := time.Hour
	for _, ta := range pings["A"] {
		for _, tc := range pings["C"] {
			closest = min(closest, max(ta.Sub(tc), tc.Sub(ta)))
		}
	}
	if closest >= lease/6 {
		t.Errorf("the two owners' pings came at least %s apart; want them at once (one ping's timeout is %s)", closest, lease/3)
	}
}
