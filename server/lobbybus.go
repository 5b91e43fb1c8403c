package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/server/store"
)

// The lobby of a cluster's nodes over NATS.
//
// Each node holds the seeks its visitors posted (a visitor and its feed
// live on one node) and a copy of every other node's. A node publishes
// each change of its own seeks on its stream, anychess.lobby.ev.<node>,
// numbered in order: a seek, an unseek, a heartbeat (every
// LobbyConfig.Heartbeat, with the last number), a goodbye when it closes.
// Every node follows every other node's stream; one that misses a number
// (or joins late, or hears a heartbeat with another number than its
// last) asks on anychess.lobby.sync for the node's snapshot, which the
// node publishes on its stream in parts, numbered with its last number,
// and replaces its copy with it. A node not heard from for three
// heartbeats is gone: its seeks leave the other lobbies.
//
// A seek held by another node is accepted there: the accepting node
// checks what it can (the visitor, its own seek, rated, the rating
// range), then asks the holding node on anychess.lobby.accept.<node>,
// which takes the seek, creates the game, tells its poster and answers
// the accepter's seat. Each node withdraws its own visitor's other seeks.
//
// Quick pairing takes the oldest matching seek of any node; with none it
// posts a quick seek. Two quick seeks posted on two nodes before either
// heard of the other are paired when the newer one's node hears of the
// older: it accepts the older for the newer one's poster.
//
// A visitor lives on the node of its feed, and its ID starts with that
// node's name and a dot. A request for a visitor of another node (posting,
// cancelling, accepting, quick pairing: a balancer sends requests where it
// likes) is passed to that node on anychess.lobby.act.<node> with the
// account the request is signed in as and the client it counts for, and
// answered with that node's answer.
//
// Seeks carry only the public options (SeekInfo), and whether the seek
// has the variant's default options (quick pairing takes only those).
//
// Saved variants: a node that saves one publishes its name on
// anychess.variants.saved, and every node reads it from the store; a
// node asked for a variant it does not know reads the store's saved
// variants before answering that it is unknown (savedOnMiss).

// Subjects of the lobby and of saved variants.
const (
	subjLobbyEvents = "anychess.lobby.ev."     // + node: a node's stream
	subjLobbySync   = "anychess.lobby.sync"    // a snapshot asked for
	subjLobbyAccept = "anychess.lobby.accept." // + node: accept its seek
	subjLobbyAct    = "anychess.lobby.act."    // + node: a request of its visitor
	subjSaved       = "anychess.variants.saved"
)

// snapPart is how many seeks one part of a snapshot carries.
const snapPart = 200

// maxAccepts is how many accepts of this node's seeks, and how many
// requests of its visitors, passed on by other nodes are served at once;
// more are answered busy.
const maxAccepts = 64

// busSeek is a seek on the bus.
type busSeek struct {
	Info  SeekInfo `json:"info"`
	Plain bool     `json:"plain,omitempty"` // the variant's default options
}

// busEvent is a message of a node's stream.
type busEvent struct {
	Kind string   `json:"kind"` // seek, unseek, beat, snap, bye
	Seq  uint64   `json:"seq"`
	Seek *busSeek `json:"seek,omitempty"`
	ID   string   `json:"id,omitempty"`
	// A snapshot's parts: Part from 0, Last on the last one.
	Seeks []busSeek `json:"seeks,omitempty"`
	Part  int       `json:"part,omitempty"`
	Last  bool      `json:"last,omitempty"`
}

// peer is what this node knows of another node's seeks (lobby lock).
type peer struct {
	seq    uint64           // the last number applied
	synced bool             // seeks is the node's since its snapshot
	seeks  map[string]*seek // by ID
	snap   map[string]*seek // a snapshot being received
	part   int              // the next part of it
	heard  time.Time        // the last message
	asked  time.Time        // the last snapshot asked for
}

// lobbyBus is a node's side of the cluster's lobby (its state under the
// lobby lock).
type lobbyBus struct {
	l    *lobby
	nc   *nats.Conn
	node string
	// pub publishes (nc.Publish; the lobby lock is held).
	pub     func(subject string, data []byte) error
	seq     uint64 // the last number of this node's stream
	peers   map[string]*peer
	subs    []*nats.Subscription
	accepts chan struct{} // a slot for each accept served for another node
	acts    chan struct{} // a slot for each request served for another node
	stop    chan struct{}
	done    chan struct{}
}

// acceptRequest asks a node to accept its seek for another node's
// visitor, signed in as User ("" anonymous).
type acceptRequest struct {
	Seek string `json:"seek"`
	User string `json:"user,omitempty"`
}

// acceptAnswer answers an acceptRequest: the accepter's seat, or the
// error the holding node answered (its status and body).
type acceptAnswer struct {
	Paired *Paired          `json:"paired,omitempty"`
	Status int              `json:"status,omitempty"`
	Code   string           `json:"code,omitempty"`
	Body   *json.RawMessage `json:"body,omitempty"`
}

// savedNotice tells the nodes a variant was saved.
type savedNotice struct {
	Node string `json:"node"`
	Name string `json:"name"`
}

// validNode reports whether a node's name may be a NATS subject's token.
func validNode(n string) bool {
	return n != "" && len(n) <= 64 && !strings.ContainsAny(n, ".*> \t\r\n")
}

// joinLobbyBus makes the lobby and the saved variants cluster-wide when
// the server is a node of a cluster; it does nothing otherwise.
func (s *Server) joinLobbyBus() error {
	cc := s.cfg.Cluster
	if cc == nil {
		return nil
	}
	if cc.NATS == nil {
		return errors.New("server: cluster: no NATS connection")
	}
	node := s.Node() // the cluster's name for this node, its random default too
	if !validNode(node) {
		return fmt.Errorf("server: cluster: node name %q: want up to 64 characters, no dots, wildcards or spaces", node)
	}
	l := s.lobby
	b := &lobbyBus{l: l, nc: cc.NATS, node: node, pub: cc.NATS.Publish, peers: map[string]*peer{},
		accepts: make(chan struct{}, maxAccepts), acts: make(chan struct{}, maxAccepts), stop: make(chan struct{}), done: make(chan struct{})}
	sub := func(subject string, h nats.MsgHandler) error {
		sb, err := b.nc.Subscribe(subject, h)
		if err != nil {
			return fmt.Errorf("server: cluster: subscribe %s: %w", subject, err)
		}
		b.subs = append(b.subs, sb)
		return nil
	}
	err := sub(subjLobbyEvents+"*", b.receive)
	if err == nil {
		err = sub(subjLobbySync, b.syncAsked)
	}
	if err == nil {
		err = sub(subjLobbyAccept+node, b.acceptAsked)
	}
	if err == nil {
		err = sub(subjLobbyAct+node, b.actAsked)
	}
	if err == nil {
		err = sub(subjSaved, func(m *nats.Msg) { s.savedHeard(m, node) })
	}
	if err == nil {
		// The NATS server has the subscriptions once it answers a ping:
		// from then on, no other node's notice or event is missed.
		err = b.nc.FlushTimeout(s.cfg.StoreTimeout)
	}
	if err != nil {
		b.unsubscribe()
		return fmt.Errorf("server: cluster: %w", err)
	}
	// A variant saved by another node between the first read of the
	// saved variants (loadSaved) and the subscription.
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
	defer cancel()
	if err := s.readSaved(ctx); err != nil {
		b.unsubscribe()
		return fmt.Errorf("server: saved variants: %w", err)
	}
	s.reg.setMiss(s.savedOnMiss)
	l.mu.Lock()
	l.bus = b
	b.send(busEvent{Kind: "beat"})
	b.askSync("")
	l.mu.Unlock()
	go b.beat()
	return nil
}

// leaveLobbyBus says goodbye to the other nodes, whose lobbies drop this
// node's seeks at once.
func (s *Server) leaveLobbyBus() {
	l := s.lobby
	l.mu.Lock()
	b := l.bus
	if b == nil {
		l.mu.Unlock()
		return
	}
	b.send(busEvent{Kind: "bye"})
	l.bus = nil
	l.mu.Unlock()
	close(b.stop)
	<-b.done
	b.unsubscribe()
	b.nc.Flush()
}

func (b *lobbyBus) unsubscribe() {
	for _, sb := range b.subs {
		sb.Unsubscribe()
	}
}

// send publishes ev on this node's stream, a seek or unseek numbered next
// (lobby lock held).
func (b *lobbyBus) send(ev busEvent) {
	if ev.Kind == "seek" || ev.Kind == "unseek" {
		b.seq++
	}
	if ev.Kind != "snap" {
		ev.Seq = b.seq
	}
	data, err := json.Marshal(ev)
	if err == nil {
		err = b.pub(subjLobbyEvents+b.node, data)
	}
	if err != nil {
		b.l.srv.logf("server: lobby: publish %s: %v", ev.Kind, err)
	}
}

// sendSeek publishes a seek of this node (lobby lock held; nil: one node).
func (b *lobbyBus) sendSeek(sk *seek) {
	if b == nil {
		return
	}
	b.send(busEvent{Kind: "seek", Seek: &busSeek{Info: sk.info, Plain: sk.defaults()}})
}

// sendUnseek publishes that a seek of this node is gone (lobby lock held;
// nil: one node).
func (b *lobbyBus) sendUnseek(id string) {
	if b == nil {
		return
	}
	b.send(busEvent{Kind: "unseek", ID: id})
}

// askSync asks node ("": every node) for its snapshot (lobby lock held).
func (b *lobbyBus) askSync(node string) {
	data, _ := json.Marshal(map[string]string{"node": node})
	if err := b.pub(subjLobbySync, data); err != nil {
		b.l.srv.logf("server: lobby: ask for a snapshot: %v", err)
	}
}

// beat publishes the heartbeat and drops the nodes not heard from for
// three heartbeats, until the bus is left.
func (b *lobbyBus) beat() {
	defer close(b.done)
	tick := time.NewTicker(b.l.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-tick.C:
			l := b.l
			l.mu.Lock()
			if l.bus == b {
				b.send(busEvent{Kind: "beat"})
				for node, p := range b.peers {
					if now.Sub(p.heard) > 3*l.cfg.Heartbeat {
						b.drop(node)
					}
				}
			}
			l.mu.Unlock()
		}
	}
}

// drop forgets a node and its seeks (lobby lock held).
func (b *lobbyBus) drop(node string) {
	p := b.peers[node]
	if p == nil {
		return
	}
	for _, sk := range p.seeks {
		b.l.remove(sk)
	}
	delete(b.peers, node)
}

// remoteSeek makes another node's seek.
func remoteSeek(node string, bs busSeek) *seek {
	return &seek{info: bs.Info, node: node, plain: bs.Plain}
}

// receive applies a message of another node's stream.
func (b *lobbyBus) receive(m *nats.Msg) {
	node := strings.TrimPrefix(m.Subject, subjLobbyEvents)
	if node == b.node {
		return
	}
	var ev busEvent
	if err := json.Unmarshal(m.Data, &ev); err != nil {
		b.l.srv.logf("server: lobby: from node %s: %v", node, err)
		return
	}
	l := b.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bus != b {
		return
	}
	if ev.Kind == "bye" {
		b.drop(node)
		return
	}
	p := b.peers[node]
	if p == nil {
		p = &peer{seeks: map[string]*seek{}}
		b.peers[node] = p
	}
	now := time.Now()
	p.heard = now
	if ev.Kind != "snap" && p.snap != nil { // a part was lost
		p.snap = nil
		p.synced = false
	}
	resync := func() {
		p.synced = false
		if now.Sub(p.asked) >= l.cfg.Heartbeat {
			p.asked = now
			b.askSync(node)
		}
	}
	switch ev.Kind {
	case "beat":
		switch {
		case !p.synced && ev.Seq == 0 && len(p.seeks) == 0: // a node that never had a seek
			p.synced = true
		case !p.synced || ev.Seq != p.seq:
			resync()
		}
	case "seek", "unseek":
		if !p.synced || ev.Seq != p.seq+1 {
			resync()
			return
		}
		p.seq = ev.Seq
		if ev.Kind == "unseek" {
			if sk := p.seeks[ev.ID]; sk != nil {
				delete(p.seeks, ev.ID)
				l.remove(sk)
			}
			return
		}
		if ev.Seek != nil {
			b.add(p, remoteSeek(node, *ev.Seek))
		}
	case "snap":
		if ev.Part == 0 {
			p.snap, p.part = map[string]*seek{}, 0
		}
		if p.snap == nil || ev.Part != p.part {
			p.snap = nil
			resync()
			return
		}
		p.part++
		for _, bs := range ev.Seeks {
			p.snap[bs.Info.ID] = remoteSeek(node, bs)
		}
		if !ev.Last {
			return
		}
		for id, sk := range p.seeks {
			if p.snap[id] == nil {
				delete(p.seeks, id)
				l.remove(sk)
			}
		}
		for id, sk := range p.snap {
			if p.seeks[id] == nil {
				b.add(p, sk)
			}
		}
		p.snap, p.seq, p.synced = nil, ev.Seq, true
	}
}

// add shows another node's seek in this node's lobby (lobby lock held),
// and pairs it with a newer quick seek of this node that it matches.
func (b *lobbyBus) add(p *peer, sk *seek) {
	l := b.l
	if l.seeks[sk.info.ID] != nil {
		return
	}
	p.seeks[sk.info.ID] = sk
	l.seeks[sk.info.ID] = sk
	l.broadcast(sseFrame("seek", sk.info))
	var newer *seek
	for _, own := range l.seeks {
		if own.node == "" && own.quick && quickMatch(own, sk) && olderSeek(sk, own) && (newer == nil || olderSeek(own, newer)) {
			newer = own
		}
	}
	if newer != nil {
		go l.srv.pairQuick(newer, sk)
	}
}

// olderSeek reports whether a was posted before b (by the time posted,
// then ID, so that every node orders two seeks alike).
func olderSeek(a, b *seek) bool {
	if c := a.info.Posted.Compare(b.info.Posted); c != 0 {
		return c < 0
	}
	return a.info.ID < b.info.ID
}

// pairQuick accepts another node's seek older for the poster of this
// node's quick seek own, which the older one matches: both were posted
// before either node heard of the other. own is withdrawn; its poster is
// told the game on its feed as if own had been accepted.
func (s *Server) pairQuick(own, older *seek) {
	l := s.lobby
	l.mu.Lock()
	if l.seeks[own.info.ID] != own {
		l.mu.Unlock()
		return // taken or withdrawn meanwhile
	}
	delete(l.seeks, own.info.ID)
	delete(own.owner.seeks, own.info.ID)
	v := own.owner
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
	defer cancel()
	taken, _, err := s.take(ctx, older.info.ID, v.id, v.user)
	var p *Paired
	if err == nil {
		p, err = s.pair(ctx, taken, v, v.user)
	}
	if err != nil {
		l.restore(own)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unseek(own)
	p.Seek = own.info.ID
	l.tell(v, *p)
}

// syncAsked publishes this node's snapshot when it is asked for.
func (b *lobbyBus) syncAsked(m *nats.Msg) {
	var req struct{ Node string }
	if json.Unmarshal(m.Data, &req) != nil || req.Node != "" && req.Node != b.node {
		return
	}
	l := b.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bus != b {
		return
	}
	var part []busSeek
	n := 0
	for _, sk := range l.seeks {
		if sk.node != "" {
			continue
		}
		part = append(part, busSeek{Info: sk.info, Plain: sk.defaults()})
		if len(part) == snapPart {
			b.send(busEvent{Kind: "snap", Seq: b.seq, Seeks: part, Part: n})
			part, n = nil, n+1
		}
	}
	b.send(busEvent{Kind: "snap", Seq: b.seq, Seeks: part, Part: n, Last: true})
}

// pairRemote accepts another node's seek sk for visitor v (signed in as
// user): the holding node makes the game and tells its poster; this node
// withdraws v's other seeks.
func (s *Server) pairRemote(ctx context.Context, sk *seek, v *visitor, user string) (*Paired, error) {
	l := s.lobby
	l.mu.Lock()
	b := l.bus
	l.mu.Unlock()
	if b == nil {
		return nil, errNoSeek
	}
	data, _ := json.Marshal(acceptRequest{Seek: sk.info.ID, User: user})
	ctx, cancel := context.WithTimeout(ctx, 2*s.cfg.StoreTimeout) // the holding node's store write, and some
	defer cancel()
	m, err := b.nc.RequestWithContext(ctx, subjLobbyAccept+sk.node, data)
	if errors.Is(err, nats.ErrNoResponders) { // the node is gone
		l.mu.Lock()
		if l.bus == b {
			b.drop(sk.node)
		}
		l.mu.Unlock()
		return nil, errNoSeek
	}
	if err != nil {
		return nil, fmt.Errorf("%w: node %s: %w", errBusy, sk.node, err)
	}
	var a acceptAnswer
	if err := json.Unmarshal(m.Data, &a); err != nil {
		return nil, fmt.Errorf("node %s answered an accept: %w", sk.node, err)
	}
	if a.Paired == nil {
		switch a.Code {
		case "not_found":
			err = errNoSeek
		case "own_seek":
			err = errOwnSeek
		case "not_signed_in":
			err = errRated
		default:
			err = &remoteError{status: a.Status, body: a.Body}
		}
		if errors.Is(err, errNoSeek) {
			l.mu.Lock()
			if p := b.peers[sk.node]; p != nil && p.seeks[sk.info.ID] == sk {
				delete(p.seeks, sk.info.ID)
				l.remove(sk)
			}
			l.mu.Unlock()
		}
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := b.peers[sk.node]; p != nil && p.seeks[sk.info.ID] == sk {
		delete(p.seeks, sk.info.ID)
		l.remove(sk)
	}
	if v != nil {
		l.removeAll(v)
	}
	return a.Paired, nil
}

// remoteError is an error another node answered an accept with, passed
// on to the accepter as it is.
type remoteError struct {
	status int
	body   *json.RawMessage
}

func (e *remoteError) Error() string {
	if e.body == nil {
		return fmt.Sprintf("status %d", e.status)
	}
	return fmt.Sprintf("status %d: %s", e.status, *e.body)
}

// write answers a request with the error.
func (e *remoteError) write(w http.ResponseWriter) {
	status := e.status
	if status < 400 || status > 599 {
		status = http.StatusBadGateway
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if e.body != nil {
		w.Write(*e.body)
	}
}

// recorded is an answer written to memory, to be passed on.
type recorded struct {
	h      http.Header
	status int
	body   []byte
}

func (r *recorded) Header() http.Header         { return r.h }
func (r *recorded) WriteHeader(status int)      { r.status = status }
func (r *recorded) Write(b []byte) (int, error) { r.body = append(r.body, b...); return len(b), nil }

// acceptAsked accepts one of this node's seeks for another node's
// visitor, as handleAccept does, and answers the accepter's seat.
func (b *lobbyBus) acceptAsked(m *nats.Msg) {
	s := b.l.srv
	answer := func(a acceptAnswer) {
		data, _ := json.Marshal(a)
		if err := m.Respond(data); err != nil {
			s.logf("server: lobby: answer an accept: %v", err)
		}
	}
	fail := func(err error) {
		rec := &recorded{h: http.Header{}}
		s.seekError(rec, err)
		var e apiError
		json.Unmarshal(rec.body, &e)
		body := json.RawMessage(rec.body)
		answer(acceptAnswer{Status: rec.status, Code: e.Error.Code, Body: &body})
	}
	var req acceptRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		fail(fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	select {
	case b.accepts <- struct{}{}:
	default:
		fail(errBusy)
		return
	}
	go func() {
		defer func() { <-b.accepts }()
		l := b.l
		l.mu.Lock()
		sk := l.seeks[req.Seek]
		var err error
		switch {
		case sk == nil || sk.node != "":
			err = errNoSeek
		case req.User != "" && sk.info.User == req.User:
			err = errOwnSeek
		case sk.info.Rated && req.User == "":
			err = errRated
		default:
			delete(l.seeks, sk.info.ID)
			delete(sk.owner.seeks, sk.info.ID)
		}
		l.mu.Unlock()
		if err != nil {
			fail(err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
		defer cancel()
		p, err := s.pair(ctx, sk, nil, req.User)
		if err != nil {
			fail(err)
			return
		}
		answer(acceptAnswer{Paired: p})
	}()
}

// publishSaved tells the other nodes that the variant name was saved.
func (s *Server) publishSaved(name string) {
	l := s.lobby
	l.mu.Lock()
	b := l.bus
	l.mu.Unlock()
	if b == nil {
		return
	}
	data, _ := json.Marshal(savedNotice{Node: b.node, Name: name})
	if err := b.nc.Publish(subjSaved, data); err != nil {
		s.logf("server: saved variant %s: publish: %v", name, err)
	}
}

// savedHeard registers a variant another node saved, read from the
// store; node is this node.
func (s *Server) savedHeard(m *nats.Msg, node string) {
	var n savedNotice
	if err := json.Unmarshal(m.Data, &n); err != nil || n.Node == node {
		return
	}
	if !s.reg.readQueued.CompareAndSwap(false, true) {
		return // a read that has not started yet will see it
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
		defer cancel()
		if err := s.readSaved(ctx); err != nil {
			s.logf("server: saved variant %s: %v", n.Name, err)
		}
	}()
}

// actRequest is a lobby request passed to the node of its visitor.
type actRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	User   string          `json:"user,omitempty"` // the account signed in
	Key    string          `json:"key"`            // the client it counts for
	Body   json.RawMessage `json:"body"`
}

// actAnswer is that node's answer.
type actAnswer struct {
	Status     int             `json:"status"`
	RetryAfter string          `json:"retry_after,omitempty"`
	Body       json.RawMessage `json:"body"`
}

// visitorNode returns the node that holds the visitor id, if it is
// another node of the cluster; "" otherwise.
func (l *lobby) visitorNode(id string) string {
	l.mu.Lock()
	b := l.bus
	l.mu.Unlock()
	if b == nil {
		return ""
	}
	node, _, ok := strings.Cut(id, ".")
	if !ok || node == b.node || !validNode(node) {
		return ""
	}
	return node
}

// forwardVisitor passes a lobby request whose visitor lives on another
// node to that node, with body (the request's, decoded), and answers
// with its answer; false if the visitor is not another node's.
func (s *Server) forwardVisitor(w http.ResponseWriter, r *http.Request, visitor string, body any) bool {
	node := s.lobby.visitorNode(visitor)
	if node == "" {
		return false
	}
	l := s.lobby
	l.mu.Lock()
	b := l.bus
	l.mu.Unlock()
	if b == nil {
		s.seekError(w, errNoVisitor)
		return true
	}
	user, _ := s.user(r)
	data, err := json.Marshal(body)
	if err == nil {
		data, err = json.Marshal(actRequest{Method: r.Method, Path: r.URL.Path, User: user, Key: s.clientKey(r), Body: data})
	}
	if err != nil {
		s.seekError(w, err)
		return true
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*s.cfg.StoreTimeout)
	defer cancel()
	m, err := b.nc.RequestWithContext(ctx, subjLobbyAct+node, data)
	if errors.Is(err, nats.ErrNoResponders) { // the node is gone, and its visitors
		s.seekError(w, errNoVisitor)
		return true
	}
	var a actAnswer
	if err == nil {
		err = json.Unmarshal(m.Data, &a)
	}
	if err != nil {
		s.seekError(w, fmt.Errorf("%w: node %s: %w", errBusy, node, err))
		return true
	}
	if a.RetryAfter != "" {
		w.Header().Set("Retry-After", a.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.Status)
	w.Write(a.Body)
	return true
}

// actAsked serves a lobby request of one of this node's visitors that
// another node passed on, as if it had come here.
func (b *lobbyBus) actAsked(m *nats.Msg) {
	s := b.l.srv
	answer := func(a actAnswer) {
		data, _ := json.Marshal(a)
		if err := m.Respond(data); err != nil {
			s.logf("server: lobby: answer a request: %v", err)
		}
	}
	var req actRequest
	if err := json.Unmarshal(m.Data, &req); err != nil || req.Method != http.MethodPost || !strings.HasPrefix(req.Path, "/api/seeks") {
		answer(actAnswer{Status: http.StatusBadRequest, Body: json.RawMessage(`{"error":{"code":"bad_request","message":"not a lobby request"}}`)})
		return
	}
	select {
	case b.acts <- struct{}{}:
	default:
		answer(actAnswer{Status: http.StatusServiceUnavailable, Body: mustJSON(apiErrorOf("busy", errBusy))})
		return
	}
	go func() {
		defer func() { <-b.acts }()
		ctx, cancel := context.WithTimeout(context.Background(), 2*s.cfg.StoreTimeout)
		defer cancel()
		if req.User != "" {
			ctx = context.WithValue(ctx, sessionKey{}, &store.Session{User: req.User})
		}
		r, err := http.NewRequestWithContext(ctx, req.Method, req.Path, bytes.NewReader(req.Body))
		if err != nil {
			answer(actAnswer{Status: http.StatusBadRequest, Body: mustJSON(apiErrorOf("bad_request", err))})
			return
		}
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = req.Key
		rec := &recorded{h: http.Header{}}
		s.mux.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		answer(actAnswer{Status: rec.status, RetryAfter: rec.h.Get("Retry-After"), Body: rec.body})
	}()
}

// apiErrorOf is the body of an error answer.
func apiErrorOf(code string, err error) apiError {
	var e apiError
	e.Error.Code, e.Error.Message = code, err.Error()
	return e
}
