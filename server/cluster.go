package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/server/store"
)

// A cluster is several `anychess serve` nodes on one store and one NATS
// server (docs/scale.md). Each live game is owned by one node at a time,
// the holder of its lease in the store (store.Leases), and only the owner
// loads it, plays its moves and writes its events, each under its lease
// (store.Fence). Any node takes any client: when a client says hello to a
// node that does not own the game, that node forwards the connection to
// the owner over NATS (a proxy), so that the owner sees it as one more
// connection, sends it exactly the frames it would send a connection of
// its own (the seat's view alone: a hidden game's other views never leave
// the owner) and takes its frames in order. A game's clients therefore
// get the same events, in the same order, from whichever node they reach.
//
// When the owner dies, its leases expire after ClusterConfig.Lease; the
// nodes forwarding to it notice within a few pings and close their
// clients' connections, and a client's reconnection (through the load
// balancer, to any node) takes the game over from the store: every
// acknowledged move is there, since moves are stored before they are
// acknowledged. The running clock is credited the time the game had no
// owner (a "resume" event). A node paused past its lease cannot write
// after it resumes (the store fences it) and drops its games at its next
// renewal or write. On SIGTERM a node drains: it refuses new clients,
// releases each game's lease and closes its connections, so that its
// clients reconnect elsewhere at once.
//
// NATS subjects (all under "anychess."):
//
//	anychess.node.<node>.join   request: a forwarded hello (joinMsg → joinReply)
//	anychess.node.<node>.frame  a forwarded connection's frame (frameMsg), in order
//	anychess.node.<node>.leave  a forwarded connection closed (frameMsg without data)
//	anychess.node.<node>.ping   request: the forwarding node's live connections (pingMsg → pingReply)
//	anychess.conn.<node>.<conn> frames for a forwarded connection, from its game's owner (connMsg)

// ClusterConfig makes the server one node of a cluster: several
// `anychess serve` processes on one store (PostgreSQL, in practice) and
// one NATS server, any of which accepts any client (docs/scale.md). The
// store must implement store.Leases, as the SQL stores do.
type ClusterConfig struct {
	// NATS is the connection to the cluster's message bus; required.
	NATS *nats.Conn
	// Node names this process in the cluster: letters, digits, '-' and
	// '_', at most 64. It must differ from every other node's and from
	// its own earlier runs' (default: random).
	Node string
	// Lease is how long a node owns a game after its last renewal
	// (default 3s, at least 300ms): a game whose node dies is taken over
	// this long, at most, after the node last renewed its leases (every
	// third of it). The nodes' clocks must agree with the database's to
	// well under it.
	Lease time.Duration
	// DrainWait is how long a draining node keeps its games after its
	// health turns 503, so that the load balancer's health checks stop
	// sending it clients before they reconnect (default 0).
	DrainWait time.Duration
}

// nodeName is what a node's name may be: a NATS subject token.
var nodeName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// cluster is a node's part in its cluster.
type cluster struct {
	srv    *Server
	nc     *nats.Conn
	node   string
	lease  time.Duration
	leases store.Leases
	wait   time.Duration // ClusterConfig.DrainWait

	draining atomic.Bool
	// Counters for /metrics.
	acquired, takenOver, lost, released atomic.Int64
	forwardedIn, forwardedOut           atomic.Int64
	publishFailed                       atomic.Int64

	mu       sync.Mutex
	proxies  map[string]*proxy  // this node's connections forwarded to another owner, by conn id
	remotes  map[string]*remote // at the owner: other nodes' connections, by node + "/" + conn
	peerSeen map[string]time.Time
	// At the owner: when other nodes' connections closed before they
	// joined (their node gave up waiting for the join), by node + "/" +
	// conn, so that their joins, when they come, are refused; kept until
	// such a join would have timed out (Config.StoreTimeout).
	left map[string]time.Time

	subs []*nats.Subscription
	stop chan struct{}
	wg   sync.WaitGroup
}

// ownedElsewhere is the error of a game whose lease another node holds.
type ownedElsewhere struct {
	game string
	l    store.Lease
}

func (e *ownedElsewhere) Error() string {
	return fmt.Sprintf("game %s is owned by node %s", e.game, e.l.Node)
}

// newCluster checks cfg and makes the node's part; start starts it.
func newCluster(s *Server, cfg *ClusterConfig) (*cluster, error) {
	if cfg.NATS == nil {
		return nil, errors.New("cluster: no NATS connection")
	}
	leases, ok := s.cfg.Store.(store.Leases)
	if !ok {
		return nil, fmt.Errorf("cluster: the store (%T) keeps no leases", s.cfg.Store)
	}
	k := &cluster{srv: s, nc: cfg.NATS, node: cfg.Node, lease: cfg.Lease, leases: leases, wait: max(cfg.DrainWait, 0),
		proxies: map[string]*proxy{}, remotes: map[string]*remote{}, peerSeen: map[string]time.Time{},
		left: map[string]time.Time{}, stop: make(chan struct{})}
	if k.node == "" {
		k.node = "n" + randomHex(6)
	}
	if !nodeName.MatchString(k.node) {
		return nil, fmt.Errorf("cluster: node name %q: use letters, digits, '-' and '_', at most 64", k.node)
	}
	if k.lease == 0 {
		k.lease = 3 * time.Second
	}
	if k.lease < 300*time.Millisecond {
		return nil, fmt.Errorf("cluster: a lease of %s is too short (at least 300ms)", k.lease)
	}
	return k, nil
}

func (k *cluster) subject(node, what string) string { return "anychess.node." + node + "." + what }

// start subscribes to the node's subjects and starts its loops.
func (k *cluster) start() error {
	for what, h := range map[string]nats.MsgHandler{
		"join":  func(m *nats.Msg) { go k.onJoin(m) },
		"frame": k.onFrame,
		"leave": k.onLeave,
		"ping":  k.onPing,
	} {
		sub, err := k.nc.Subscribe(k.subject(k.node, what), h)
		if err != nil {
			k.close()
			return fmt.Errorf("cluster: subscribe: %w", err)
		}
		k.subs = append(k.subs, sub)
	}
	if err := k.nc.Flush(); err != nil {
		k.close()
		return fmt.Errorf("cluster: NATS: %w", err)
	}
	k.wg.Add(3)
	go k.renewer()
	go k.monitor()
	go k.sweeper()
	return nil
}

// close ends the loops and subscriptions; the node's games are closed by
// Server.Close.
func (k *cluster) close() {
	select {
	case <-k.stop:
		return
	default:
	}
	close(k.stop)
	for _, s := range k.subs {
		s.Unsubscribe()
	}
	k.wg.Wait()
	k.mu.Lock()
	ps := make([]*proxy, 0, len(k.proxies))
	for _, p := range k.proxies {
		ps = append(ps, p)
	}
	k.mu.Unlock()
	for _, p := range ps {
		p.c.close()
	}
}

// acquire takes game id's lease for this node. It returns the fence to
// write its events under and, if the game is taken over from a node that
// stopped renewing or released it, when that node was last known to hold
// it (zero otherwise). A lease held by another node is *ownedElsewhere.
func (k *cluster) acquire(ctx context.Context, id string) (*store.Fence, time.Time, error) {
	if k.draining.Load() {
		return nil, time.Time{}, errDraining
	}
	now, before, err := k.leases.Acquire(ctx, id, k.node, k.lease)
	if err != nil {
		return nil, time.Time{}, err
	}
	if now.Node != k.node {
		return nil, time.Time{}, &ownedElsewhere{game: id, l: now}
	}
	k.acquired.Add(1)
	var since time.Time
	switch {
	case before.Epoch == 0 || before.Live():
		// Never owned, or this node's own live lease: no gap.
	case before.Node == "":
		since = before.Expires // released then
	default:
		// Not renewed in time: renewals come every third of a lease,
		// so the node held it until at least its expiry less a lease.
		since = before.Expires.Add(-k.lease)
		if before.Node != k.node {
			k.takenOver.Add(1)
		}
	}
	return &store.Fence{Node: k.node, Epoch: now.Epoch, Lease: k.lease}, since, nil
}

// release gives up lg's lease, once its owner goroutine has ended.
func (k *cluster) release(lg *liveGame) {
	ctx, cancel := context.WithTimeout(context.Background(), k.srv.cfg.StoreTimeout)
	defer cancel()
	if err := k.leases.Release(ctx, lg.rec.ID, k.node, lg.fence.Epoch); err != nil {
		k.srv.logf("cluster: release %s: %v", lg.rec.ID, err)
		return
	}
	k.released.Add(1)
}

// renewer renews the node's leases every third of their length, and
// unloads the games whose lease it lost (a pause past the lease, a store
// out of reach for longer).
func (k *cluster) renewer() {
	defer k.wg.Done()
	t := time.NewTicker(k.lease / 3)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), k.lease)
		games, err := k.leases.Renew(ctx, k.node, k.lease)
		cancel()
		if err != nil {
			k.srv.logf("cluster: renew: %v", err)
			if time.Since(last) > k.lease {
				k.dropLost(nil, start)
			}
			continue
		}
		last = start
		held := make(map[string]bool, len(games))
		for _, g := range games {
			held[g] = true
		}
		k.dropLost(held, start)
		// A lease held for a game no longer in memory (its load failed
		// after the lease was taken) is given back.
		var stray []string
		for _, g := range games {
			if k.notLive(g) {
				stray = append(stray, g)
			}
		}
		for _, g := range stray {
			// A load that started meanwhile took the lease again: the
			// lease read is then that load's, and stays.
			ctx, cancel := context.WithTimeout(context.Background(), k.srv.cfg.StoreTimeout)
			if l, err := k.leases.LeaseOf(ctx, g); err == nil && l.Node == k.node && k.notLive(g) {
				k.leases.Release(ctx, g, k.node, l.Epoch)
			}
			cancel()
		}
	}
}

// notLive reports whether game id is neither in memory nor being loaded.
func (k *cluster) notLive(id string) bool {
	k.srv.mu.Lock()
	defer k.srv.mu.Unlock()
	return k.srv.games[id] == nil && k.srv.loading[id] == nil
}

// dropLost unloads the games in memory whose lease is not in held (nil:
// none is held) and was taken before the renewal that started at start.
func (k *cluster) dropLost(held map[string]bool, start time.Time) {
	k.srv.mu.Lock()
	var lost []*liveGame
	for id, lg := range k.srv.games {
		if lg.fence != nil && !held[id] && lg.leasedAt.Before(start) {
			lost = append(lost, lg)
		}
	}
	k.srv.mu.Unlock()
	for _, lg := range lost {
		k.srv.logf("cluster: game %s: lease lost; unloading it", lg.rec.ID)
		// Not waited for: a game held up (a slow store write, a full
		// inbox) must not hold up the renewals of the others.
		go lg.do(context.Background(), lg.fenced)
	}
}

// sweeper loads the games that need a node although no client asks for
// them (a clock to flag, the engine to move) and whose lease no node
// holds: those of a node that died or drained. Each is taken as soon as
// it is found, whenever its wake time: the credit of its take-over (a
// "resume" event) is the time it had no node, which would otherwise run
// until its flag.
func (k *cluster) sweeper() {
	defer k.wg.Done()
	t := time.NewTicker(k.lease)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		if k.draining.Load() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), k.srv.cfg.StoreTimeout)
		ids, err := k.leases.Orphans(ctx, sweepWithin, 100)
		if err != nil {
			k.srv.logf("cluster: orphans: %v", err)
		}
		for _, id := range ids {
			if k.srv.full() {
				break
			}
			var elsewhere *ownedElsewhere
			if _, err := k.srv.game(ctx, id); err != nil && !errors.As(err, &elsewhere) && !errors.Is(err, errDraining) {
				k.srv.logf("cluster: wake game %s: %v", id, err)
			}
		}
		cancel()
		// Connections forwarded here by nodes that stopped pinging are
		// dropped.
		k.mu.Lock()
		var gone []*remote
		for _, r := range k.remotes {
			if time.Since(k.peerSeen[r.from]) > 3*k.lease {
				gone = append(gone, r)
			}
		}
		// And such nodes are forgotten (each run of a node has a name
		// of its own).
		for from, seen := range k.peerSeen {
			if time.Since(seen) > 3*k.lease {
				delete(k.peerSeen, from)
			}
		}
		for key, at := range k.left {
			if time.Since(at) > k.srv.cfg.StoreTimeout+k.lease {
				delete(k.left, key) // its join, if it comes, has timed out
			}
		}
		k.mu.Unlock()
		for _, r := range gone {
			k.dropRemote(r)
		}
	}
}

// sweepWithin is how far ahead of its wake time the sweeper takes an
// orphaned game: any wake time.
const sweepWithin = 100 * 365 * 24 * time.Hour

// joinMsg is a hello forwarded to a game's owner.
type joinMsg struct {
	Game  string `json:"game"`
	From  string `json:"from"`
	Conn  string `json:"conn"`
	Token string `json:"token"`
	Since int64  `json:"since"`
	Key   string `json:"key"`
	ID    int64  `json:"id"`
}

// joinReply answers a joinMsg: the seat, or an error frame's code and
// message, or the node that owns the game now.
type joinReply struct {
	Seat  string `json:"seat,omitempty"`
	Code  string `json:"code,omitempty"`
	Msg   string `json:"msg,omitempty"`
	Moved string `json:"moved,omitempty"`
}

// frameMsg is a forwarded connection's frame (no Data: it closed).
type frameMsg struct {
	From string          `json:"from"`
	Conn string          `json:"conn"`
	Data json.RawMessage `json:"data,omitempty"`
}

// connMsg carries frames to a forwarded connection, or closes it.
type connMsg struct {
	Frames []json.RawMessage `json:"f,omitempty"`
	Close  bool              `json:"close,omitempty"`
}

// pingMsg lists a node's connections forwarded to the pinged owner.
type pingMsg struct {
	From  string   `json:"from"`
	Conns []string `json:"conns"`
}

// pingReply lists those the owner does not hold.
type pingReply struct {
	Unknown []string `json:"unknown,omitempty"`
}

// remote is, at a game's owner, a connection of another node.
type remote struct {
	from, conn string
	c          *client
	lg         *liveGame
	in         chan []byte
	gone       chan struct{}
	once       sync.Once
}

// maxConnMsg bounds the frames' bytes in one connMsg.
const maxConnMsg = 256 << 10

// onJoin answers a forwarded hello: it joins a connection standing for
// the forwarding node's client to the game, as handleWS joins its own.
func (k *cluster) onJoin(m *nats.Msg) {
	reply := func(r joinReply) { m.Respond(mustJSON(r)) }
	var j joinMsg
	if err := json.Unmarshal(m.Data, &j); err != nil || !nodeName.MatchString(j.From) || !nodeName.MatchString(j.Conn) {
		reply(joinReply{Code: "bad_frame", Msg: "a malformed forwarded hello"})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.srv.cfg.StoreTimeout)
	defer cancel()
	lg, err := k.srv.gameFor(ctx, j.Game, j.Key)
	var elsewhere *ownedElsewhere
	switch {
	case errors.As(err, &elsewhere):
		reply(joinReply{Moved: elsewhere.l.Node})
		return
	case err != nil:
		werr := loadError(err)
		reply(joinReply{Code: werr.code, Msg: werr.msg})
		return
	}
	seat, ok := seatOf(lg.rec, j.Token)
	if !ok {
		reply(joinReply{Code: "bad_token", Msg: "that token opens no seat of this game"})
		return
	}
	if ctx.Err() != nil {
		reply(joinReply{Code: "internal", Msg: "the game could not be loaded"})
		return
	}
	r := &remote{from: j.From, conn: j.Conn, lg: lg, in: make(chan []byte, sendBuffer), gone: make(chan struct{}),
		c: &client{seat: seat, token: j.Token, key: j.Key, out: make(chan [][]byte, sendBuffer), closed: make(chan struct{})}}
	key := j.From + "/" + j.Conn
	k.mu.Lock()
	if k.remotes[key] != nil {
		k.mu.Unlock()
		reply(joinReply{Code: "bad_frame", Msg: "that connection is joined already"})
		return
	}
	if _, ok := k.left[key]; ok {
		delete(k.left, key)
		k.mu.Unlock()
		reply(joinReply{Code: "closed", Msg: "that connection closed"})
		return
	}
	k.remotes[key] = r
	k.peerSeen[j.From] = time.Now()
	k.mu.Unlock()
	go k.pump(r)
	go k.feed(r)
	var werr *wireError
	if !lg.call(ctx, func() {
		if werr = lg.claim(r.c); werr == nil {
			lg.join(r.c, j.Since)
		}
	}) {
		k.dropRemote(r)
		reply(joinReply{Code: "moved", Msg: "the game moved; reconnect"})
		return
	}
	if werr != nil {
		k.dropRemote(r)
		reply(joinReply{Code: werr.code, Msg: werr.msg})
		return
	}
	k.forwardedIn.Add(1)
	reply(joinReply{Seat: seatName(seat)})
}

// pump sends a remote connection's frames to its node, and tells it when
// the connection closes. A message NATS refuses (one over its payload
// limit, a connection whose buffer is full) would leave a gap in what the
// client sees: the connection is closed instead, so that the client
// reconnects and is sent what it missed.
func (k *cluster) pump(r *remote) {
	subj := "anychess.conn." + r.from + "." + r.conn
	publish := func(msg connMsg) bool {
		if err := k.nc.Publish(subj, mustJSON(msg)); err != nil {
			k.publishFailed.Add(1)
			k.srv.logf("cluster: frames to %s/%s: %v", r.from, r.conn, err)
			return false
		}
		return true
	}
	send := func(frames [][]byte) bool {
		var msg connMsg
		n := 0
		for _, f := range frames {
			if n > 0 && n+len(f) > maxConnMsg {
				if !publish(msg) {
					return false
				}
				msg.Frames, n = nil, 0
			}
			msg.Frames = append(msg.Frames, f)
			n += len(f)
		}
		return len(msg.Frames) == 0 || publish(msg)
	}
	for {
		select {
		case frames := <-r.c.out:
			if !send(frames) {
				publish(connMsg{Close: true})
				k.dropRemote(r)
				return
			}
		case <-r.c.closed:
			ok := true
			for ok {
				select {
				case frames := <-r.c.out:
					ok = send(frames)
					continue
				default:
				}
				break
			}
			publish(connMsg{Close: true})
			k.dropRemote(r)
			return
		}
	}
}

// feed hands a remote connection's frames to its game in order.
func (k *cluster) feed(r *remote) {
	for {
		select {
		case data := <-r.in:
			read := time.Now()
			m, werr := parseFrame(data)
			if werr != nil {
				r.c.send(errFrame(m.ID, werr.code, werr.msg))
				continue
			}
			if m.T == "hello" || m.T == "ping" || r.c.seat == spectator {
				continue // answered by the forwarding node
			}
			if !r.lg.do(context.Background(), func() { r.lg.handle(r.c, m, read) }) {
				r.c.close()
			}
		case <-r.gone:
			return
		}
	}
}

// dropRemote forgets a remote connection and takes it out of its game
// (in the background).
func (k *cluster) dropRemote(r *remote) {
	r.once.Do(func() {
		k.mu.Lock()
		if k.remotes[r.from+"/"+r.conn] == r {
			delete(k.remotes, r.from+"/"+r.conn)
		}
		k.mu.Unlock()
		close(r.gone)
		r.c.close()
		// Not waited for: a game whose owner goroutine is held up (a
		// slow store write, a full inbox) must not hold up the node's
		// NATS handlers, which serve every game's connections.
		go r.lg.do(context.Background(), func() { r.lg.leave(r.c) })
	})
}

// lookup returns the remote connection a frameMsg names.
func (k *cluster) lookup(data []byte) (*remote, frameMsg) {
	var f frameMsg
	if json.Unmarshal(data, &f) != nil {
		return nil, f
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.remotes[f.From+"/"+f.Conn], f
}

// onFrame takes a forwarded connection's frame.
func (k *cluster) onFrame(m *nats.Msg) {
	r, f := k.lookup(m.Data)
	if r == nil || len(f.Data) > MaxFrame {
		return
	}
	select {
	case r.in <- f.Data:
	case <-r.gone:
	default:
		k.dropRemote(r) // a client far ahead of its game is disconnected, as here
	}
}

// maxLeft bounds cluster.left.
const maxLeft = 4096

// onLeave takes a forwarded connection's close; one not joined yet (its
// join still waits for the game) is remembered, and its join refused.
func (k *cluster) onLeave(m *nats.Msg) {
	var f frameMsg
	if json.Unmarshal(m.Data, &f) != nil || !nodeName.MatchString(f.From) || !nodeName.MatchString(f.Conn) {
		return
	}
	key := f.From + "/" + f.Conn
	k.mu.Lock()
	r := k.remotes[key]
	if r == nil && len(k.left) < maxLeft {
		k.left[key] = time.Now()
	}
	k.mu.Unlock()
	if r != nil {
		k.dropRemote(r)
	}
}

// onPing answers a forwarding node with the connections it lists that
// this node does not hold.
func (k *cluster) onPing(m *nats.Msg) {
	var p pingMsg
	if json.Unmarshal(m.Data, &p) != nil || !nodeName.MatchString(p.From) {
		return
	}
	var r pingReply
	k.mu.Lock()
	k.peerSeen[p.From] = time.Now()
	for _, c := range p.Conns {
		if k.remotes[p.From+"/"+c] == nil {
			r.Unknown = append(r.Unknown, c)
		}
	}
	k.mu.Unlock()
	m.Respond(mustJSON(r))
}

// proxy is, at the node a client reached, its connection forwarded to
// the game's owner.
type proxy struct {
	k     *cluster
	id    string
	owner string
	c     *client
	sub   *nats.Subscription
	once  sync.Once

	// Until the owner has answered the join, its frames are held: a
	// join that fails or answers too late shows the client nothing of
	// it (no welcome, no close), and the client gets the error, or the
	// next attempt's frames alone.
	mu      sync.Mutex
	live    bool
	pending []connMsg
}

// maxPending bounds the messages held before the owner's answer.
const maxPending = 64

// deliver passes an owner's message to the client.
func (p *proxy) deliver(cm connMsg) {
	if len(cm.Frames) > 0 {
		frames := make([][]byte, len(cm.Frames))
		for i, f := range cm.Frames {
			frames[i] = f
		}
		p.c.sendAll(frames)
	}
	if cm.Close {
		p.c.close()
	}
}

// take handles an owner's message: held until the join's answer, then
// delivered.
func (p *proxy) take(cm connMsg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.deliver(cm)
		return
	}
	if len(p.pending) < maxPending {
		p.pending = append(p.pending, cm)
	}
}

// isLive reports whether the owner has answered the join.
func (p *proxy) isLive() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live
}

// open delivers the messages held, and every one after as it comes.
func (p *proxy) open() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cm := range p.pending {
		p.deliver(cm)
	}
	p.pending, p.live = nil, true
}

// errOwnerGone is a forwarded hello the owner did not answer.
var errOwnerGone = errors.New("the game's node does not answer")

// forward joins client c to game id, owned by node owner, with hello m.
// It returns the proxy, or the error frame the owner answered.
func (k *cluster) forward(ctx context.Context, id, owner string, c *client, m clientMsg) (*proxy, joinReply, error) {
	p := &proxy{k: k, id: randomHex(8), owner: owner, c: c}
	sub, err := k.nc.Subscribe("anychess.conn."+k.node+"."+p.id, func(msg *nats.Msg) {
		var cm connMsg
		if json.Unmarshal(msg.Data, &cm) != nil {
			return
		}
		p.take(cm)
	})
	if err != nil {
		return nil, joinReply{}, fmt.Errorf("cluster: %w", err)
	}
	p.sub = sub
	k.mu.Lock()
	k.proxies[p.id] = p
	k.mu.Unlock()
	j := joinMsg{Game: id, From: k.node, Conn: p.id, Token: m.Token, Since: m.Since, Key: c.key, ID: m.ID}
	rctx, cancel := context.WithTimeout(ctx, k.lease)
	resp, err := k.nc.RequestWithContext(rctx, k.subject(owner, "join"), mustJSON(j))
	cancel()
	if err != nil {
		// The owner may yet join it (a late answer): it is told that
		// the connection is gone.
		p.drop(true)
		return nil, joinReply{}, fmt.Errorf("%w: %w", errOwnerGone, err)
	}
	var r joinReply
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		p.drop(true)
		return nil, joinReply{}, fmt.Errorf("cluster: join reply: %w", err)
	}
	if r.Seat == "" {
		p.drop(false)
		return nil, r, nil
	}
	c.seat = seatIndex(r.Seat)
	p.open()
	k.forwardedOut.Add(1)
	return p, r, nil
}

// send forwards a client frame to the owner. A frame NATS refuses closes
// the client's connection: the owner would not see it, and the client,
// reconnecting, sends it again.
func (p *proxy) send(data []byte) {
	if err := p.k.nc.Publish(p.k.subject(p.owner, "frame"), mustJSON(frameMsg{From: p.k.node, Conn: p.id, Data: data})); err != nil {
		p.k.publishFailed.Add(1)
		p.k.srv.logf("cluster: frame to %s: %v", p.owner, err)
		p.drop(true)
		p.c.close()
	}
}

// drop ends the proxy, telling the owner if tell.
func (p *proxy) drop(tell bool) {
	p.once.Do(func() {
		p.sub.Unsubscribe()
		p.k.mu.Lock()
		delete(p.k.proxies, p.id)
		p.k.mu.Unlock()
		if tell {
			p.k.nc.Publish(p.k.subject(p.owner, "leave"), mustJSON(frameMsg{From: p.k.node, Conn: p.id}))
		}
	})
}

// monitor pings the owners this node forwards connections to, every
// third of a lease, all at once (an owner that does not answer holds up
// no other's ping): an owner that misses two pings in a row, or says it
// no longer holds a connection, has that connection closed here, so that
// its client reconnects and the game is found again.
func (k *cluster) monitor() {
	defer k.wg.Done()
	t := time.NewTicker(k.lease / 3)
	defer t.Stop()
	missed := map[string]int{}
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		byOwner := map[string][]*proxy{}
		k.mu.Lock()
		for _, p := range k.proxies {
			if p.isLive() {
				byOwner[p.owner] = append(byOwner[p.owner], p)
			}
		}
		k.mu.Unlock()
		type answer struct {
			owner string
			r     pingReply
			err   error
		}
		answers := make(chan answer, len(byOwner))
		for owner, ps := range byOwner {
			go func() {
				a := answer{owner: owner}
				a.r, a.err = k.ping(owner, ps)
				answers <- a
			}()
		}
		for range byOwner {
			a := <-answers
			ps := byOwner[a.owner]
			if a.err != nil {
				if missed[a.owner]++; missed[a.owner] < 2 && !errors.Is(a.err, nats.ErrNoResponders) {
					continue
				}
				k.srv.logf("cluster: node %s does not answer (%v); closing %d forwarded connections", a.owner, a.err, len(ps))
				for _, p := range ps {
					p.c.close()
				}
				delete(missed, a.owner)
				continue
			}
			delete(missed, a.owner)
			unknown := map[string]bool{}
			for _, id := range a.r.Unknown {
				unknown[id] = true
			}
			for _, p := range ps {
				if unknown[p.id] {
					p.c.close()
				}
			}
		}
		for owner := range missed {
			if byOwner[owner] == nil {
				delete(missed, owner)
			}
		}
	}
}

// ping asks owner which of the connections ps it no longer holds,
// waiting at most a third of a lease.
func (k *cluster) ping(owner string, ps []*proxy) (pingReply, error) {
	msg := pingMsg{From: k.node}
	for _, p := range ps {
		msg.Conns = append(msg.Conns, p.id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.lease/3)
	defer cancel()
	var r pingReply
	resp, err := k.nc.RequestWithContext(ctx, k.subject(owner, "ping"), mustJSON(msg))
	if err == nil {
		err = json.Unmarshal(resp.Data, &r)
	}
	return r, err
}

// attach finds game id for a client's hello on a node of a cluster: the
// game loaded here (this node owns it or has just taken it), or a proxy
// to the node that owns it. A node that does not answer is waited for
// until its lease expires, then the game is taken over.
func (k *cluster) attach(ctx context.Context, id string, c *client, m clientMsg) (*liveGame, *proxy, *wireError, error) {
	deadline := time.Now().Add(3*k.lease + 2*time.Second)
	for attempt := 0; ; attempt++ {
		lg, err := k.srv.game(ctx, id)
		var elsewhere *ownedElsewhere
		if !errors.As(err, &elsewhere) {
			return lg, nil, nil, err
		}
		p, r, err := k.forward(ctx, id, elsewhere.l.Node, c, m)
		switch {
		case err == nil && p != nil:
			return nil, p, nil, nil
		case err == nil && r.Moved == "" && r.Code != "moved" && r.Code != "draining":
			return nil, nil, &wireError{r.Code, r.Msg}, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if err == nil {
				err = fmt.Errorf("game %s keeps moving", id)
			}
			return nil, nil, nil, err
		}
		// The owner is gone or moving the game: try again once its
		// lease may have ended (or at once, after a move).
		wait := 50 * time.Millisecond
		if err != nil {
			wait = min(max(elsewhere.l.Expires.Sub(elsewhere.l.Now), 50*time.Millisecond), k.lease/3)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, nil, nil, ctx.Err()
		}
	}
}

// drain hands the node's games over: no new game is taken, each game's
// connections are closed and its lease released, and drain returns when
// every game has left memory or ctx ends.
func (k *cluster) drain(ctx context.Context) error {
	if !k.draining.Swap(true) && k.wait > 0 {
		select {
		case <-time.After(k.wait):
		case <-ctx.Done():
		}
	}
	k.srv.mu.Lock()
	games := make([]*liveGame, 0, len(k.srv.games))
	for _, lg := range k.srv.games {
		games = append(games, lg)
	}
	k.srv.mu.Unlock()
	for _, lg := range games {
		lg.do(ctx, func() { k.srv.unload(lg) })
	}
	for _, lg := range games {
		select {
		case <-lg.done:
		case <-ctx.Done():
			return fmt.Errorf("cluster: drain: %w", ctx.Err())
		}
	}
	// A game loaded meanwhile, or being loaded (by a join already under
	// way, its lease taken before the drain), goes too.
	k.srv.mu.Lock()
	n := len(k.srv.games)
	loading := make([]chan struct{}, 0, len(k.srv.loading))
	for _, ch := range k.srv.loading {
		loading = append(loading, ch)
	}
	k.srv.mu.Unlock()
	for _, ch := range loading {
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("cluster: drain: %w", ctx.Err())
		}
	}
	if n > 0 || len(loading) > 0 {
		return k.drain(ctx)
	}
	return nil
}

// errDraining refuses work on a node that drains.
var errDraining = errors.New("the node is shutting down")

// Drain hands a cluster node's games to the other nodes before it stops
// (see cluster.drain); without a cluster it does nothing. /api/health
// and /healthz answer 503 from its start.
func (s *Server) Drain(ctx context.Context) error {
	if s.cluster == nil {
		return nil
	}
	return s.cluster.drain(ctx)
}

// Node returns the server's node name in its cluster, "" without one.
func (s *Server) Node() string {
	if s.cluster == nil {
		return ""
	}
	return s.cluster.node
}

// writeMetrics writes the cluster's counters for /metrics.
func (k *cluster) writeMetrics(w io.Writer) {
	counter := func(name, help string, v int64) { writeMetric(w, "counter", name, help, float64(v)) }
	k.mu.Lock()
	proxies, remotes := len(k.proxies), len(k.remotes)
	k.mu.Unlock()
	counter("anychess_leases_acquired_total", "Game leases this node took.", k.acquired.Load())
	counter("anychess_leases_taken_over_total", "Game leases this node took from another node.", k.takenOver.Load())
	counter("anychess_leases_lost_total", "Game leases this node lost (not renewed in time, or fenced).", k.lost.Load())
	counter("anychess_leases_released_total", "Game leases this node gave up (a game unloaded, a drain).", k.released.Load())
	counter("anychess_forwarded_joins_out_total", "Connections this node forwarded to a game's owner.", k.forwardedOut.Load())
	counter("anychess_forwarded_joins_in_total", "Connections other nodes forwarded to this node.", k.forwardedIn.Load())
	counter("anychess_forward_publish_failed_total", "Forwarded frames NATS refused; each closed its connection.", k.publishFailed.Load())
	fmt.Fprintf(w, "# HELP anychess_forwarded_connections Connections forwarded now, out (to owners) and in (from other nodes).\n# TYPE anychess_forwarded_connections gauge\n")
	fmt.Fprintf(w, "anychess_forwarded_connections{dir=\"out\"} %d\nanychess_forwarded_connections{dir=\"in\"} %d\n", proxies, remotes)
	draining := 0.0
	if k.draining.Load() {
		draining = 1
	}
	writeMetric(w, "gauge", "anychess_draining", "Whether this node drains.", draining)
}
