package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
	"github.com/nats-io/nats.go"
)

const (
	lease = 2 * time.Second
	// more is how many plies every game plays after a node is lost.
	more = 6
)

// busiest returns the index of the node that owns the most games, and
// how many it owns.
func busiest(ctx context.Context, t *testing.T, c *Cluster) (int, int) {
	t.Helper()
	owners, err := c.Owners(ctx)
	if err != nil {
		t.Fatal(err)
	}
	best, most := -1, -1
	for i := range c.Nodes() {
		if n := owners[c.Node(i).Name]; n > most {
			best, most = i, n
		}
	}
	t.Logf("games owned: %v", owners)
	return best, most
}

// TestClusterFailover plays games through the balancer on three nodes,
// kills the node owning the most of them with SIGKILL, and checks that
// every game goes on elsewhere, that every acknowledged move is stored and
// was seen by both players, and that no game had two owners at once.
func TestClusterFailover(t *testing.T) {
	c := Start(t, Options{Nodes: 3, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 12, 1, 40*time.Millisecond)
	waitPlies(t, 20*time.Second, games, func(int) int { return 4 })
	victim, owned := busiest(ctx, t, c)
	if owned == 0 {
		t.Fatal("no node owns a game")
	}
	at := pliesNow(games)
	c.Kill(victim)
	t.Logf("killed %s, which owned %d games", c.Node(victim).Name, owned)
	waitPlies(t, 30*time.Second, games, func(i int) int { return at[i] + more })
	finish(ctx, t, games)
	acked := checkGames(ctx, t, c, games, true)
	for _, g := range games {
		l, err := c.Owner(ctx, g.id)
		if err == nil && l.Node == c.Node(victim).Name && l.Expires.After(time.Now()) {
			t.Errorf("game %s is still leased to the dead %s: %+v", g.id, l.Node, l)
		}
	}
	t.Logf("%d moves acknowledged, %d players reconnected", acked, reconnected(games))
	if reconnected(games) == 0 {
		t.Error("no player reconnected after its game's node was killed")
	}
}

// reconnected returns how many players opened more than one connection.
func reconnected(games []*game) int {
	n := 0
	for _, g := range games {
		for _, p := range g.players {
			if p.Dials() > 1 {
				n++
			}
		}
	}
	return n
}

// TestClusterFencing pauses a game's owner with SIGSTOP for three times
// the lease while a client connected to it directly has sent a move
// (which waits in the paused node's socket buffer). The game goes on
// through the balancer on another node; once resumed, the old owner must
// not acknowledge the buffered move nor write under its old lease, and it
// answers /healthz and serves games again.
func TestClusterFencing(t *testing.T) {
	c := Start(t, Options{Nodes: 3, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 1, 2, 20*time.Millisecond)
	g := games[0]
	// Four plies, then White is to move and both players wait.
	for _, p := range g.players {
		p.Hold(4)
	}
	waitPlies(t, 20*time.Second, games, func(int) int { return 4 })
	l, err := c.Owner(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	owner := c.Index(l.Node)
	if owner < 0 {
		t.Fatalf("game %s is owned by %q, no node of the cluster", g.id, l.Node)
	}
	// A raw client takes White's seat on the owner itself.
	raw, err := loadtest.Join(loadtest.From(ctx, "127.3.0.1"), c.NodeURL(owner), g.id, g.players[0].Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.CloseNow()
	st, _, err := raw.ReadUntil(ctx, func(f *loadtest.Frame) bool {
		return f.T == "state" && f.Turn == "white" && len(f.Legal) > 0
	})
	if err != nil {
		t.Fatalf("the raw client on %s: %v", l.Node, err)
	}
	c.Stop(owner)
	stopped, before := time.Now(), g.players[0].Last()
	const rawID = 777
	if err := raw.Send(ctx, map[string]any{"t": "move", "id": rawID, "move": st.Legal[0], "v": st.V}); err != nil {
		t.Fatal(err)
	}
	// The game goes on elsewhere.
	for _, p := range g.players {
		p.Hold(4 + more)
	}
	waitPlies(t, 30*time.Second, games, func(int) int { return 4 + more })
	if l2, err := c.Owner(ctx, g.id); err != nil || l2.Node == l.Node || l2.Epoch <= l.Epoch {
		t.Errorf("while %s is paused the game's lease is %+v (%v), before %+v", l.Node, l2, err, l)
	}
	if d := 3*lease - time.Since(stopped); d > 0 {
		time.Sleep(d)
	}
	c.Cont(owner)
	// Whatever the resumed node does with the buffered move, it is not
	// acknowledged: read the raw client's frames until its connection
	// ends or the node has had a few seconds.
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	for {
		f, err := raw.Read(rctx)
		if err != nil {
			break
		}
		t.Logf("the raw client after resuming: %s", f.Raw)
		if f.T == "ack" && f.ID == rawID {
			t.Errorf("the paused owner acknowledged the move it read after resuming: %s", f.Raw)
		}
	}
	rcancel()
	// The resumed node is healthy and serves games.
	waitFor(t, 10*time.Second, func() bool {
		h, err := Health(ctx, c.NodeURL(owner))
		return err == nil && h.Status == http.StatusOK && !h.Draining
	}, func() string { return l.Node + " does not answer /healthz with 200" })
	again := startGames(ctx, t, func() string { return c.NodeURL(owner) }, 1, 3, 10*time.Millisecond)
	waitPlies(t, 20*time.Second, again, func(int) int { return 4 })
	games = append(games, again...)
	finish(ctx, t, games)
	checkGames(ctx, t, c, games, true)
	evs, err := c.Events(ctx, g.id, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Epoch == l.Epoch && e.Version > before {
			t.Errorf("version %d was written under the paused owner's epoch %d (paused at version %d; the lease was %+v; the events %+v)", e.Version, e.Epoch, before, l, evs)
		}
	}
}

// TestClusterDrain plays games through the balancer, then stops the node
// owning the most of them with SIGTERM: it says so on /healthz, exits 0
// within a few seconds, and every game goes on with no acknowledged move
// lost.
func TestClusterDrain(t *testing.T) {
	c := Start(t, Options{Nodes: 3, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 9, 4, 30*time.Millisecond)
	waitPlies(t, 20*time.Second, games, func(int) int { return 4 })
	victim, owned := busiest(ctx, t, c)
	if owned == 0 {
		t.Fatal("no node owns a game")
	}
	at := pliesNow(games)
	c.Term(victim)
	termed := time.Now()
	if err := c.Wait(victim, 10*time.Second); err != nil {
		t.Errorf("%s after SIGTERM: %v", c.Node(victim).Name, err)
	}
	t.Logf("%s exited %s after SIGTERM", c.Node(victim).Name, time.Since(termed).Round(time.Millisecond))
	waitPlies(t, 30*time.Second, games, func(i int) int { return at[i] + more })
	finish(ctx, t, games)
	acked := checkGames(ctx, t, c, games, true)
	t.Logf("%s drained %d games; %d moves acknowledged, %d players reconnected", c.Node(victim).Name, owned, acked, reconnected(games))
	if reconnected(games) == 0 {
		t.Error("no player reconnected after its game's node drained")
	}
}

// TestClusterDrainHealth: a node told to stop answers /healthz with 503
// and draining true while it hands over its games.
func TestClusterDrainHealth(t *testing.T) {
	c := Start(t, Options{Nodes: 2, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Games held by connections keep the node busy while it drains.
	games := startGames(ctx, t, func() string { return c.NodeURL(0) }, 4, 5, 30*time.Millisecond)
	waitPlies(t, 20*time.Second, games, func(int) int { return 2 })
	h, err := Health(ctx, c.NodeURL(0))
	if err != nil || h.Status != http.StatusOK || h.Draining || h.Node != c.Node(0).Name {
		t.Fatalf("/healthz before SIGTERM: %+v, %v", h, err)
	}
	c.Term(0)
	var seen []HealthAnswer
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		h, err := Health(ctx, c.NodeURL(0))
		if err != nil {
			break // gone
		}
		seen = append(seen, h)
		if h.Status != http.StatusOK {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(seen) == 0 || seen[len(seen)-1].Status != http.StatusServiceUnavailable || !seen[len(seen)-1].Draining {
		t.Errorf("/healthz after SIGTERM: %+v, want 503 with draining true before the node exits", seen)
	}
	if err := c.Wait(0, 10*time.Second); err != nil {
		t.Errorf("after SIGTERM: %v", err)
	}
}

// spectator is a raw spectator connection and the frames it received.
type spectator struct {
	c      *loadtest.Client
	mu     sync.Mutex
	frames []*loadtest.Frame
	done   chan error
}

// watch connects a spectator to game id at base and reads its frames in
// the background.
func watch(ctx context.Context, t *testing.T, base, from, id string) *spectator {
	t.Helper()
	c, err := loadtest.Join(loadtest.From(ctx, from), base, id, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := &spectator{c: c, done: make(chan error, 1)}
	t.Cleanup(func() { c.CloseNow() })
	go func() {
		for {
			f, err := c.Read(ctx)
			if err != nil {
				s.done <- err
				return
			}
			s.mu.Lock()
			s.frames = append(s.frames, f)
			s.mu.Unlock()
		}
	}()
	return s
}

// stateAt reports whether the spectator has a state frame of version v.
func (s *spectator) stateAt(v int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.frames {
		if f.T == "state" && f.V == v {
			return true
		}
	}
	return false
}

// raws returns the frames as received.
func (s *spectator) raws() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, f := range s.frames {
		out = append(out, string(f.Raw))
	}
	return out
}

// seat is a raw seat connection that moves and waits for its ack.
type seat struct {
	c    *loadtest.Client
	name string
	id   int64
}

// move plays text and returns the version of its ack.
func (s *seat) move(ctx context.Context, t *testing.T, text string) int64 {
	t.Helper()
	s.id++
	if err := s.c.Send(ctx, map[string]any{"t": "move", "id": s.id, "move": text}); err != nil {
		t.Fatal(err)
	}
	f, _, err := s.c.ReadUntil(ctx, func(f *loadtest.Frame) bool {
		return (f.T == "ack" || f.T == "error") && f.ID == s.id
	})
	if err != nil {
		t.Fatalf("%s's %s: %v", s.name, text, err)
	}
	if f.T != "ack" {
		t.Fatalf("%s's %s: %s", s.name, text, f.Raw)
	}
	return f.V
}

// leaks are what a spectator of a live hidden game must never receive,
// as JSON fields (possibly escaped inside another JSON string): a view's
// position (fen, board, visible squares), legal moves, the last move's
// squares, a treasury or reserve of either side, a seat's token, and the
// terrain's squares.
var leaks = []*regexp.Regexp{
	regexp.MustCompile(`\\*"fen\\*":\s*\\*"[^"\\]`),
	regexp.MustCompile(`\\*"board\\*":\s*\\*"[^"\\]`),
	regexp.MustCompile(`\\*"visible\\*":\s*\[\s*[^\]\s]`),
	regexp.MustCompile(`\\*"legal\\*":\s*\[\s*[^\]\s]`),
	regexp.MustCompile(`\\*"last\\*":\s*\[\s*[^\]\s]`),
	regexp.MustCompile(`\\*"(money|pocket)\\*":\s*\{\s*\\*"`),
	regexp.MustCompile(`\\*"token\\*":\s*\\*"[^"\\]`),
}

// leak returns what of the hidden game b shows, or "".
func leak(b, terrain string) string {
	for _, re := range leaks {
		if m := re.FindString(b); m != "" {
			return m
		}
	}
	if strings.Contains(b, terrain) {
		return "the terrain " + terrain
	}
	return ""
}

func TestLeak(t *testing.T) {
	const terrain = "c4,f5"
	tests := []struct {
		name, frame string
		leaks       bool
	}{
		{"a spectator's state", `{"t":"state","v":1,"fen":"","board":"","turn":"white","legal":[],"money":{},"pocket":{},"visible":[],"last":null}`, false},
		{"a spectator's welcome", `{"t":"welcome","seat":"spectator","game":{"start_fen":"rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w","options":{"Moderated":"1"}},"version":0}`, false},
		{"a seat's position", `{"t":"state","v":1,"fen":"8/8/8/8/8/8/8/4K3 w","turn":"white"}`, true},
		{"a seat's board", `{"t":"state","board":"8/8/8/8/8/8/8/4K3"}`, true},
		{"legal moves", `{"t":"state","legal":["e1e2"]}`, true},
		{"visible squares", `{"t":"state","visible":[ "e2"]}`, true},
		{"the last move", `{"t":"state","last":["e1","e2"]}`, true},
		{"a treasury", `{"t":"state","money":{"white":2}}`, true},
		{"a reserve", `{"t":"state","pocket":{"black":"N"}}`, true},
		{"a token", `{"t":"rematch","token":"abc"}`, true},
		{"the terrain", `{"t":"welcome","game":{"options":{"Terrain":"c4,f5"}}}`, true},
		{"a position escaped in an envelope", `{"frame":"{\"t\":\"state\",\"fen\":\"8/8 w\"}"}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := leak(tc.frame, terrain); (got != "") != tc.leaks {
				t.Errorf("leak(%s) = %q, want a leak: %v", tc.frame, got, tc.leaks)
			}
		})
	}
}

// TestClusterHidden plays a moderated csipgs game (hidden information,
// hidden economy, terrain) with its seats on two nodes and a spectator on
// the third, which the owner serves over NATS. The forwarded spectator's
// frames are byte for byte those of a spectator on the owner itself, and
// neither they nor anything on the bus for the spectator's node shows a
// seat's view, economy or the terrain.
func TestClusterHidden(t *testing.T) {
	c := Start(t, Options{Nodes: 3, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const terrain = "c4,f5"
	g, err := loadtest.CreateGame(loadtest.From(ctx, "127.4.0.1"), c.NodeURL(0), map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "HideEconomy": "1", "Terrain": terrain}})
	if err != nil {
		t.Fatal(err)
	}
	id := g["id"]
	wc, err := loadtest.Join(loadtest.From(ctx, "127.4.0.2"), c.NodeURL(0), id, g["token"], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer wc.CloseNow()
	if _, _, err := wc.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "state" }); err != nil {
		t.Fatal(err)
	}
	l, err := c.Owner(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	owner := c.Index(l.Node)
	if owner < 0 {
		t.Fatalf("game %s is owned by %q, no node of the cluster", id, l.Node)
	}
	other, far := (owner+1)%3, (owner+2)%3
	// The spectator's node's connections, as the bus carries them.
	nc, err := nats.Connect(c.NATS)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var (
		busMu sync.Mutex
		bus   []*nats.Msg
	)
	sub, err := nc.Subscribe("anychess.conn."+c.Node(far).Name+".>", func(m *nats.Msg) {
		busMu.Lock()
		bus = append(bus, m)
		busMu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	bc, err := loadtest.Join(loadtest.From(ctx, "127.4.0.3"), c.NodeURL(other), id, loadtest.InviteToken(g["invite"]), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.CloseNow()
	if _, _, err := bc.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "state" }); err != nil {
		t.Fatal(err)
	}
	forwarded := watch(ctx, t, c.NodeURL(far), "127.4.0.4", id)
	direct := watch(ctx, t, c.NodeURL(owner), "127.4.0.5", id)
	waitFor(t, 10*time.Second, func() bool { return forwarded.stateAt(0) && direct.stateAt(0) },
		func() string { return "the spectators got no state" })
	w, b := &seat{c: wc, name: "white"}, &seat{c: bc, name: "black"}
	var v int64
	for _, mv := range []struct {
		s    *seat
		text string
	}{{w, "e1e2"}, {w, "&-"}, {b, "e8e7"}, {b, "&-"}, {w, "e2e3"}, {w, "&-"}, {b, "e7e6"}} {
		v = mv.s.move(ctx, t, mv.text)
	}
	waitFor(t, 10*time.Second, func() bool { return forwarded.stateAt(v) && direct.stateAt(v) },
		func() string { return fmt.Sprintf("the spectators did not reach version %d", v) })
	if got, want := forwarded.raws(), direct.raws(); !slices.Equal(got, want) {
		t.Errorf("the spectator on %s (forwarded) received\n%s\nthe spectator on the owner %s\n%s",
			c.Node(far).Name, strings.Join(got, "\n"), l.Node, strings.Join(want, "\n"))
	}
	for name, s := range map[string]*spectator{"forwarded": forwarded, "direct": direct} {
		for _, r := range s.raws() {
			if m := leak(r, terrain); m != "" {
				t.Errorf("the %s spectator received %s: %s", name, m, r)
			}
			var f struct {
				T string `json:"t"`
			}
			if err := json.Unmarshal([]byte(r), &f); err != nil || f.T == "" {
				t.Errorf("the %s spectator received %q (%v)", name, r, err)
			}
		}
	}
	busMu.Lock()
	defer busMu.Unlock()
	t.Logf("%d frames to each spectator, %d messages on the bus to %s", len(direct.raws()), len(bus), c.Node(far).Name)
	for i, m := range bus {
		if i < 3 || i == len(bus)-1 {
			t.Logf("bus %s: %s", m.Subject, m.Data)
		}
	}
	if len(bus) == 0 {
		t.Errorf("nothing on anychess.conn.%s.> while its spectator watched a game owned by %s", c.Node(far).Name, l.Node)
	}
	for _, m := range bus {
		if s := leak(string(m.Data), terrain); s != "" {
			t.Errorf("the bus carried %s to %s: %s: %s", s, c.Node(far).Name, m.Subject, m.Data)
		}
	}
}
