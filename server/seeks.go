package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/rating"
)

// LobbyConfig bounds the seeks. Zero fields take defaults.
type LobbyConfig struct {
	// SeeksPerVisitor is how many seeks one visitor may have posted at
	// once (default 5); MaxSeeks how many all visitors together (default
	// 10,000).
	SeeksPerVisitor int
	MaxSeeks        int
	// Grace is how long a visitor's seeks stay after its last lobby feed
	// closed, for it to come back (default 5s).
	Grace time.Duration
	// Keepalive is how often a quiet feed gets a comment line (default
	// 25s).
	Keepalive time.Duration
	// Batch is the least time between two writes of lobby events to one
	// feed (default 250ms): the events of that time go in one write. A
	// pairing is written at once. Negative: no batching.
	Batch time.Duration
	// Heartbeat is how often a node of a cluster tells the others it is
	// there (default 1s); a node not heard from for three heartbeats is
	// gone, and its seeks with it.
	Heartbeat time.Duration
}

func (c LobbyConfig) withDefaults() LobbyConfig {
	if c.SeeksPerVisitor <= 0 {
		c.SeeksPerVisitor = 5
	}
	if c.MaxSeeks <= 0 {
		c.MaxSeeks = 10000
	}
	if c.Grace <= 0 {
		c.Grace = 5 * time.Second
	}
	if c.Keepalive <= 0 {
		c.Keepalive = 25 * time.Second
	}
	if c.Batch == 0 {
		c.Batch = 250 * time.Millisecond
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = time.Second
	}
	return c
}

// feedQueue is how many lobby events a feed may fall behind before it is
// sent the whole list again instead.
const feedQueue = 256

// lobby holds the seeks, the visitors who posted them and the open
// lobby feeds. Its lock orders every change and every event. On a node
// of a cluster its seeks are this node's and the other nodes' (see
// lobbyBus).
type lobby struct {
	srv *Server
	cfg LobbyConfig

	mu       sync.Mutex
	seeks    map[string]*seek
	visitors map[string]*visitor
	feeds    map[*feed]struct{}
	closed   bool
	bus      *lobbyBus // nil: one node alone
}

// visitor is a lobby identity: a secret handed out by the feed, and the
// account signed in when it was, if any.
type visitor struct {
	id      string
	user    string // "" anonymous
	key     string // the client (address) it counts for
	feeds   map[*feed]struct{}
	seeks   map[string]*seek
	gone    *time.Timer // the grace after its last feed closed
	pending [][]byte    // pairings to tell a feed that is not open yet
}

// feed is one open lobby stream.
type feed struct {
	v      *visitor
	events chan []byte // lobby events, in order
	direct chan []byte // this visitor's own pairings
	lagged bool        // events were dropped: send the list again (lobby lock)
	wake   chan struct{}
}

// seek is a posted offer to play: posted here (owner set, node "") or
// held by another node of the cluster (node set, owner nil, req empty).
type seek struct {
	info  SeekInfo
	req   CreateRequest
	owner *visitor
	node  string // the node that holds it; "" this one
	plain bool   // another node's seek with the variant's default options
	quick bool   // posted here by quick pairing
}

// defaults reports whether the seek is for the variant with its default
// options, as quick pairing takes.
func (sk *seek) defaults() bool {
	if sk.node != "" {
		return sk.plain
	}
	return len(sk.req.Options) == 0
}

// SeekInfo is a seek as the lobby shows it.
type SeekInfo struct {
	ID        string            `json:"id"`
	Variant   string            `json:"variant"`
	Title     string            `json:"title"`
	Options   map[string]string `json:"options,omitempty"` // the public ones (a hidden variant's secret options are not shown)
	Color     string            `json:"color"`             // the poster's: white, black or random
	InitialMS int64             `json:"initial_ms"`
	IncMS     int64             `json:"increment_ms"`
	Days      int               `json:"days,omitempty"`
	Class     rating.Class      `json:"class"`
	Rated     bool              `json:"rated"`
	RatingMin int               `json:"rating_min,omitempty"`
	RatingMax int               `json:"rating_max,omitempty"`
	User      string            `json:"user,omitempty"` // the poster's account; absent when anonymous
	// Rating is the poster's rating in the seek's variant and class
	// (a new player's 1500 if it has none), Provisional whether it is.
	Rating      int       `json:"rating,omitempty"`
	Provisional bool      `json:"provisional,omitempty"`
	Hidden      bool      `json:"hidden,omitempty"`
	Posted      time.Time `json:"posted"`
}

// SeekRequest is the body of POST /api/seeks.
type SeekRequest struct {
	Visitor   string            `json:"visitor"`
	Variant   string            `json:"variant"`
	Options   map[string]string `json:"options"`
	Color     string            `json:"color"`
	Clock     *ClockRequest     `json:"clock"`
	Days      int               `json:"days"`
	Rated     bool              `json:"rated"`
	RatingMin int               `json:"rating_min"`
	RatingMax int               `json:"rating_max"`
}

// Paired tells both sides of an accepted seek their game: the accepter
// in the answer, the poster in a "paired" event on its lobby feed.
type Paired struct {
	Seek  string `json:"seek"`
	Game  string `json:"game"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
}

// Hello is the first event of a lobby feed.
type Hello struct {
	Visitor string `json:"visitor"`        // the secret that posts and accepts seeks
	User    string `json:"user,omitempty"` // the account signed in
}

var (
	errNoVisitor = errors.New("open the lobby feed (GET /api/lobby) and send its visitor")
	errNoSeek    = errors.New("no such seek")
	errOwnSeek   = errors.New("that is your own seek")
	errSeeks     = errors.New("too many seeks")
	errRated     = errors.New("sign in to play rated games")
	errRange     = errors.New("your rating is outside the seek's range")
)

func newLobby(s *Server, cfg LobbyConfig) *lobby {
	return &lobby{srv: s, cfg: cfg.withDefaults(), seeks: map[string]*seek{},
		visitors: map[string]*visitor{}, feeds: map[*feed]struct{}{}}
}

// close ends every feed's grace timer; the feeds end with their requests.
func (l *lobby) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for _, v := range l.visitors {
		if v.gone != nil {
			v.gone.Stop()
		}
	}
}

// sseFrame is one server-sent event, shared by every feed it goes to: its
// capacity is its length, so that an append to it copies.
func sseFrame(event string, v any) []byte {
	b := fmt.Appendf(nil, "event: %s\ndata: %s\n\n", event, mustJSON(v))
	return b[:len(b):len(b)]
}

// broadcast queues an event to every feed (lobby lock held). A feed whose
// queue is full drops it and is sent the whole list when it catches up.
func (l *lobby) broadcast(frame []byte) {
	for f := range l.feeds {
		if f.lagged {
			continue
		}
		select {
		case f.events <- frame:
		default:
			f.lagged = true
			select {
			case f.wake <- struct{}{}:
			default:
			}
		}
	}
}

// list returns the seeks, oldest first (lobby lock held).
func (l *lobby) list() []SeekInfo {
	out := make([]SeekInfo, 0, len(l.seeks))
	for _, sk := range l.seeks {
		out = append(out, sk.info)
	}
	slices.SortFunc(out, func(a, b SeekInfo) int {
		if c := a.Posted.Compare(b.Posted); c != 0 {
			return c
		}
		return cmpString(a.ID, b.ID)
	})
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// remove takes a seek out (lobby lock held) and tells the feeds.
func (l *lobby) remove(sk *seek) {
	if l.seeks[sk.info.ID] != sk {
		return
	}
	delete(l.seeks, sk.info.ID)
	if sk.owner != nil {
		delete(sk.owner.seeks, sk.info.ID)
	}
	l.unseek(sk)
}

// unseek tells the feeds, and the other nodes if sk is this node's, that
// sk is gone (lobby lock held).
func (l *lobby) unseek(sk *seek) {
	l.broadcast(sseFrame("unseek", map[string]string{"id": sk.info.ID}))
	if sk.node == "" {
		l.bus.sendUnseek(sk.info.ID)
	}
}

// removeAll takes out every seek of v (lobby lock held).
func (l *lobby) removeAll(v *visitor) {
	for _, sk := range v.seeks {
		l.remove(sk)
	}
}

// open registers a feed for the visitor resume names if it is still there
// for the same account, else for a new visitor.
func (l *lobby) open(resume, user, key string) (*feed, []byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, nil, errBusy
	}
	v := l.visitors[resume]
	if resume == "" || v == nil || v.user != user {
		id := randomHex(16)
		if l.bus != nil { // the node's name first: other nodes pass its requests here
			id = l.bus.node + "." + id
		}
		v = &visitor{id: id, user: user, key: key, feeds: map[*feed]struct{}{}, seeks: map[string]*seek{}}
		l.visitors[v.id] = v
	}
	if v.gone != nil {
		v.gone.Stop()
		v.gone = nil
	}
	f := &feed{v: v, events: make(chan []byte, feedQueue), direct: make(chan []byte, l.cfg.SeeksPerVisitor+1), wake: make(chan struct{}, 1)}
	v.feeds[f] = struct{}{}
	l.feeds[f] = struct{}{}
	first := sseFrame("hello", Hello{Visitor: v.id, User: user})
	first = append(first, sseFrame("seeks", l.list())...)
	for _, p := range v.pending {
		first = append(first, p...)
	}
	v.pending = nil
	return f, first, nil
}

// shut unregisters a feed; the visitor's seeks go once its grace passes
// with no feed open.
func (l *lobby) shut(f *feed) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := f.v
	delete(l.feeds, f)
	delete(v.feeds, f)
	if len(v.feeds) > 0 || l.closed {
		return
	}
	v.gone = time.AfterFunc(l.cfg.Grace, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(v.feeds) > 0 || l.visitors[v.id] != v {
			return
		}
		l.removeAll(v)
		delete(l.visitors, v.id)
	})
}

// catchUp empties a lagged feed's queue and returns the whole list.
func (l *lobby) catchUp(f *feed) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !f.lagged {
		return nil
	}
	for len(f.events) > 0 {
		<-f.events
	}
	f.lagged = false
	return sseFrame("seeks", l.list())
}

// handleLobby streams the lobby: hello (the visitor's secret), seeks (the
// list), then seek and unseek events as seeks come and go, and paired
// (to the poster only) when one of its seeks is accepted.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	key := s.clientKey(r)
	if !s.limits.openConn(key, s.lim.ConnsPerClient) {
		tooMany(w, time.Second, errors.New("too many open connections"))
		return
	}
	defer s.limits.closeConn(key)
	user, _ := s.user(r)
	f, first, err := s.lobby.open(r.URL.Query().Get("visitor"), user, key)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "busy", err)
		return
	}
	defer s.lobby.shut(f)
	ev := newSSE(w, s.writeTimeout(r))
	write := func(b []byte) bool {
		ev.extend()
		if _, err := w.Write(b); err != nil {
			return false
		}
		return ev.rc.Flush() == nil
	}
	if !write(first) {
		return
	}
	tick := time.NewTicker(s.lobby.cfg.Keepalive)
	defer tick.Stop()
	// After each write of events, events is nil (they wait in the queue)
	// until hold fires: one write per Batch at most.
	events := f.events
	var hold <-chan time.Time
	var buf []byte
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-f.direct:
			if !write(b) {
				return
			}
		case b := <-events:
			// Write what is queued at once, in one flush, from a buffer
			// of the feed's own: the frames are shared by every feed.
			buf = append(buf[:0], b...)
			for n := len(f.events); n > 0; n-- {
				buf = append(buf, <-f.events...)
			}
			if !write(buf) {
				return
			}
			if s.lobby.cfg.Batch > 0 {
				events, hold = nil, time.After(s.lobby.cfg.Batch)
			}
		case <-hold:
			events, hold = f.events, nil
		case <-f.wake:
			if b := s.lobby.catchUp(f); b != nil && !write(b) {
				return
			}
		case <-tick.C:
			if !write([]byte(": keepalive\n\n")) {
				return
			}
		}
	}
}

// handleSeeks answers the seeks, oldest first.
func (s *Server) handleSeeks(w http.ResponseWriter, r *http.Request) {
	s.lobby.mu.Lock()
	out := s.lobby.list()
	s.lobby.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// ratingOf returns a user's rating in a variant and class, a new player's
// if none (or if the store keeps none).
func (s *Server) ratingOf(ctx context.Context, user, variant string, class rating.Class) (rating.Rating, error) {
	if s.acc.people == nil {
		return rating.New(), nil
	}
	rs, err := s.acc.people.Ratings(ctx, user)
	if err != nil {
		return rating.Rating{}, err
	}
	for _, r := range rs {
		if r.Variant == variant && r.Class == class {
			return r.Rating, nil
		}
	}
	return rating.New(), nil
}

// seekError answers the errors of posting and accepting seeks.
func (s *Server) seekError(w http.ResponseWriter, err error) {
	var remote *remoteError
	switch {
	case errors.Is(err, errNoVisitor):
		writeError(w, http.StatusConflict, "no_lobby", err)
	case errors.Is(err, errNoSeek):
		writeError(w, http.StatusNotFound, "not_found", err)
	case errors.Is(err, errOwnSeek):
		writeError(w, http.StatusConflict, "own_seek", err)
	case errors.Is(err, errSeeks):
		writeError(w, http.StatusTooManyRequests, "too_many_seeks", err)
	case errors.Is(err, errRated):
		writeError(w, http.StatusForbidden, "not_signed_in", err)
	case errors.Is(err, errRange):
		writeError(w, http.StatusForbidden, "out_of_range", err)
	case writeRequestError(w, err):
	case errors.As(err, &remote):
		remote.write(w)
	default:
		s.logf("server: seek: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the game could not be created"))
	}
}

// visitorFor returns the visitor a request acts as: the one named, if it
// belongs to the account the request is signed in as (or to nobody, for
// an anonymous request).
func (l *lobby) visitorFor(id, user string) (*visitor, error) {
	v := l.visitors[id]
	if id == "" || v == nil || v.user != user {
		return nil, errNoVisitor
	}
	return v, nil
}

// newSeek checks a seek request and makes the seek (not yet posted).
func (s *Server) newSeek(ctx context.Context, req SeekRequest, user string) (*seek, error) {
	cr := CreateRequest{Variant: req.Variant, Options: req.Options, Color: req.Color, Days: req.Days}
	if cr.Color == "" {
		cr.Color = "random"
	}
	if req.Clock != nil {
		c := *req.Clock
		cr.Clock = &c
	}
	// The game the seek would make, made now to check it as game
	// creation does, and made again when the seek is accepted.
	g, _, _, err := s.prepare(ctx, cr)
	if err != nil {
		return nil, err
	}
	if req.Rated && user == "" {
		return nil, errRated
	}
	if req.RatingMin < 0 || req.RatingMax < 0 || req.RatingMax > 0 && req.RatingMin > req.RatingMax {
		return nil, fmt.Errorf("%w: rating range %d..%d", errBadRequest, req.RatingMin, req.RatingMax)
	}
	if !req.Rated && (req.RatingMin != 0 || req.RatingMax != 0) {
		return nil, fmt.Errorf("%w: a rating range is for rated seeks", errBadRequest)
	}
	v, _ := s.variantFor(g.Variant, g.Options)
	class := rating.ClassOf(g.Initial, g.Increment)
	info := SeekInfo{ID: newID(), Variant: g.Variant, Title: v.Title(), Options: v.PublicOptions(g.Options),
		Color: cr.Color, InitialMS: g.Initial.Milliseconds(), IncMS: g.Increment.Milliseconds(), Days: g.Days,
		Class: class, Rated: req.Rated, RatingMin: req.RatingMin, RatingMax: req.RatingMax, User: user,
		Hidden: face.Hidden(v), Posted: time.Now().UTC()}
	if len(info.Options) == 0 {
		info.Options = nil
	}
	if user != "" {
		r, err := s.ratingOf(ctx, user, g.Variant, class)
		if err != nil {
			return nil, err
		}
		info.Rating, info.Provisional = int(math.Round(r.R)), r.Provisional()
	}
	cr.Variant = g.Variant
	return &seek{info: info, req: cr}, nil
}

// post adds a seek for visitor id.
func (l *lobby) post(sk *seek, id, user string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, err := l.visitorFor(id, user)
	if err != nil {
		return err
	}
	if len(v.seeks) >= l.cfg.SeeksPerVisitor {
		return fmt.Errorf("%w: at most %d at once", errSeeks, l.cfg.SeeksPerVisitor)
	}
	if len(l.seeks) >= l.cfg.MaxSeeks {
		return fmt.Errorf("%w: the lobby is full", errSeeks)
	}
	sk.owner = v
	v.seeks[sk.info.ID] = sk
	l.seeks[sk.info.ID] = sk
	l.broadcast(sseFrame("seek", sk.info))
	l.bus.sendSeek(sk)
	return nil
}

func (s *Server) handlePostSeek(w http.ResponseWriter, r *http.Request) {
	var req SeekRequest
	if !readJSON(w, r, &req) || s.forwardVisitor(w, r, req.Visitor, req) {
		return
	}
	user, _ := s.user(r)
	sk, err := s.newSeek(r.Context(), req, user)
	if err != nil {
		s.seekError(w, err)
		return
	}
	if !s.allowCreate(w, r) {
		return
	}
	if err := s.lobby.post(sk, req.Visitor, user); err != nil {
		s.seekError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, sk.info)
}

// visitorBody is the body of accepting and cancelling a seek.
type visitorBody struct {
	Visitor string `json:"visitor"`
}

func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	var body visitorBody
	if !readJSON(w, r, &body) || s.forwardVisitor(w, r, body.Visitor, body) {
		return
	}
	user, _ := s.user(r)
	l := s.lobby
	l.mu.Lock()
	v, err := l.visitorFor(body.Visitor, user)
	if err == nil {
		if sk := v.seeks[r.PathValue("id")]; sk != nil {
			l.remove(sk)
		} else {
			err = errNoSeek
		}
	}
	l.mu.Unlock()
	if err != nil {
		s.seekError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// take removes seek id for visitor vid to accept, after checking that it
// may: not its own, and for a rated seek signed in, as another account,
// with a rating in range. The seek is back if the game cannot be made
// (put).
func (s *Server) take(ctx context.Context, id, vid, user string) (*seek, *visitor, error) {
	l := s.lobby
	l.mu.Lock()
	sk := l.seeks[id]
	v, err := l.visitorFor(vid, user)
	switch {
	case err != nil:
	case sk == nil:
		err = errNoSeek
	case sk.owner == v || user != "" && sk.info.User == user:
		err = errOwnSeek
	case sk.info.Rated && user == "":
		err = errRated
	}
	l.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	if sk.info.Rated && (sk.info.RatingMin > 0 || sk.info.RatingMax > 0) {
		r, err := s.ratingOf(ctx, user, sk.info.Variant, sk.info.Class)
		if err != nil {
			return nil, nil, err
		}
		if rr := int(math.Round(r.R)); rr < sk.info.RatingMin || sk.info.RatingMax > 0 && rr > sk.info.RatingMax {
			return nil, nil, fmt.Errorf("%w: %d is not in %d..%d", errRange, rr, sk.info.RatingMin, sk.info.RatingMax)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seeks[id] != sk {
		return nil, nil, errNoSeek // taken meanwhile
	}
	if sk.node == "" { // another node's is taken there (pair)
		delete(l.seeks, id)
		delete(sk.owner.seeks, id)
	}
	return sk, v, nil
}

// restore offers a seek that take removed again, if its owner is still
// there with room for it: the game could not be made. A seek that cannot
// be offered again is gone.
func (l *lobby) restore(sk *seek) {
	if sk.node != "" {
		return // take left it where it was
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seeks[sk.info.ID] != nil {
		return
	}
	if l.visitors[sk.owner.id] == sk.owner && len(sk.owner.seeks) < l.cfg.SeeksPerVisitor {
		sk.owner.seeks[sk.info.ID] = sk
		l.seeks[sk.info.ID] = sk
		return
	}
	l.unseek(sk)
}

// pair creates the game of seek sk accepted by visitor v (signed in as
// user), tells the poster and answers the accepter's seat. Both visitors'
// other seeks are withdrawn: each is playing now. Another node's seek is
// accepted by that node (pairRemote); v is nil when the accepter is
// another node's visitor.
func (s *Server) pair(ctx context.Context, sk *seek, v *visitor, user string) (*Paired, error) {
	l := s.lobby
	if sk.node != "" {
		return s.pairRemote(ctx, sk, v, user)
	}
	g, seat, tokens, err := s.prepare(ctx, sk.req)
	if err == nil {
		g.Users[seat], g.Users[1-seat] = sk.owner.user, user
		g.Rated = sk.info.Rated
		err = s.store.Create(ctx, g)
	}
	if err != nil {
		l.restore(sk)
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unseek(sk)
	l.removeAll(sk.owner)
	if v != nil {
		l.removeAll(v)
	}
	l.tell(sk.owner, Paired{Seek: sk.info.ID, Game: g.ID, Seat: seatName(seat), Token: tokens[seat]})
	return &Paired{Seek: sk.info.ID, Game: g.ID, Seat: seatName(1 - seat), Token: tokens[1-seat]}, nil
}

// tell sends v its pairing on its feeds, or keeps it for the next feed it
// opens (lobby lock held).
func (l *lobby) tell(v *visitor, p Paired) {
	own := sseFrame("paired", p)
	told := false
	for f := range v.feeds {
		select {
		case f.direct <- own:
			told = true
		default:
		}
	}
	if !told && len(v.pending) < l.cfg.SeeksPerVisitor {
		v.pending = append(v.pending, own)
	}
}

func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) {
	var body visitorBody
	if !readJSON(w, r, &body) || s.forwardVisitor(w, r, body.Visitor, body) {
		return
	}
	user, _ := s.user(r)
	sk, v, err := s.take(r.Context(), r.PathValue("id"), body.Visitor, user)
	if err != nil {
		s.seekError(w, err)
		return
	}
	if !s.allowCreate(w, r) {
		s.lobby.restore(sk)
		return
	}
	p, err := s.pair(r.Context(), sk, v, user)
	if err != nil {
		s.seekError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, p)
}

// QuickControl is a common time control offered as a quick-pairing button.
type QuickControl struct {
	Label     string       `json:"label"`
	InitialMS int64        `json:"initial_ms"`
	IncMS     int64        `json:"increment_ms"`
	Days      int          `json:"days,omitempty"`
	Class     rating.Class `json:"class"`
}

// quickControls are the quick-pairing time controls of every variant.
var quickControls = func() []QuickControl {
	out := []QuickControl{}
	for _, c := range []struct {
		label        string
		initial, inc int64 // seconds
		days         int
	}{{"1+0", 60, 0, 0}, {"2+1", 120, 1, 0}, {"3+0", 180, 0, 0}, {"3+2", 180, 2, 0}, {"5+0", 300, 0, 0}, {"5+3", 300, 3, 0},
		{"10+0", 600, 0, 0}, {"10+5", 600, 5, 0}, {"15+10", 900, 10, 0}, {"30+0", 1800, 0, 0}, {"3 days", 0, 0, 3}} {
		q := QuickControl{Label: c.label, InitialMS: c.initial * 1000, IncMS: c.inc * 1000, Days: c.days}
		q.Class = rating.ClassOf(time.Duration(q.InitialMS)*time.Millisecond, time.Duration(q.IncMS)*time.Millisecond)
		out = append(out, q)
	}
	return out
}()

// handleQuickControls answers the quick-pairing buttons of each variant.
func (s *Server) handleQuickControls(w http.ResponseWriter, r *http.Request) {
	out := map[string][]QuickControl{}
	for _, v := range s.reg.Variants() {
		out[v.Name()] = quickControls
	}
	writeJSON(w, http.StatusOK, out)
}

// QuickRequest is the body of POST /api/seeks/quick.
type QuickRequest struct {
	Visitor string        `json:"visitor"`
	Variant string        `json:"variant"`
	Clock   *ClockRequest `json:"clock"`
	Days    int           `json:"days"`
	Rated   bool          `json:"rated"`
}

// QuickAnswer answers a quick pairing: the game, if a seek was waiting,
// else the seek posted for the visitor (its pairing comes on its feed).
type QuickAnswer struct {
	Paired *Paired   `json:"paired,omitempty"`
	Seek   *SeekInfo `json:"seek,omitempty"`
}

// handleQuick pairs the visitor with the oldest waiting seek of the same
// variant (default options), time control and rated-ness that it may
// accept, or posts such a seek (colour random) for it.
func (s *Server) handleQuick(w http.ResponseWriter, r *http.Request) {
	var q QuickRequest
	if !readJSON(w, r, &q) || s.forwardVisitor(w, r, q.Visitor, q) {
		return
	}
	user, _ := s.user(r)
	sk, err := s.newSeek(r.Context(), SeekRequest{Visitor: q.Visitor, Variant: q.Variant, Clock: q.Clock, Days: q.Days, Rated: q.Rated}, user)
	if err != nil {
		s.seekError(w, err)
		return
	}
	l := s.lobby
	l.mu.Lock()
	var candidates []string
	for _, c := range l.list() {
		if other := l.seeks[c.ID]; quickMatch(sk, other) && (other.owner == nil || other.owner.id != q.Visitor) {
			candidates = append(candidates, c.ID)
		}
	}
	l.mu.Unlock()
	for _, id := range candidates {
		taken, v, err := s.take(r.Context(), id, q.Visitor, user)
		if errors.Is(err, errNoSeek) || errors.Is(err, errRange) {
			continue
		}
		if err != nil {
			s.seekError(w, err)
			return
		}
		if !s.allowCreate(w, r) {
			l.restore(taken)
			return
		}
		p, err := s.pair(r.Context(), taken, v, user)
		if errors.Is(err, errNoSeek) { // another node's, taken there meanwhile
			continue
		}
		if err != nil {
			s.seekError(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, QuickAnswer{Paired: p})
		return
	}
	if !s.allowCreate(w, r) {
		return
	}
	sk.quick = true
	if err := l.post(sk, q.Visitor, user); err != nil {
		s.seekError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, QuickAnswer{Seek: &sk.info})
}

// quickMatch reports whether quick pairing may pair the seek sk it made
// with the seek other: the same variant with its default options, time
// control and rated-ness, and another account's (or anonymous).
func quickMatch(sk, other *seek) bool {
	a, b := sk.info, other.info
	return a.Variant == b.Variant && other.defaults() && a.InitialMS == b.InitialMS && a.IncMS == b.IncMS &&
		a.Days == b.Days && a.Rated == b.Rated && (a.User == "" || a.User != b.User)
}

// LevelInfo is one of the engine's levels (package level): its search
// depth, its time cap here, and its Elo on Stockfish's UCI_Elo scale, measured in
// chess, with Margin the half-width of the measurement's 95% interval. The
// engine's levels are not rated players.
type LevelInfo struct {
	Level  int   `json:"level"`
	Depth  int   `json:"depth"`
	MaxMS  int64 `json:"max_ms"`
	Elo    int   `json:"elo,omitempty"`
	Margin int   `json:"margin,omitempty"`
	Rated  bool  `json:"rated"`
	Engine bool  `json:"engine"`
}

// handleLevels answers the engine's levels, weakest first.
func (s *Server) handleLevels(w http.ResponseWriter, r *http.Request) {
	out := []LevelInfo{}
	for _, l := range level.All() {
		lim := s.engines.levelLimits(l.N, 0)
		out = append(out, LevelInfo{Level: l.N, Depth: l.Depth, MaxMS: lim.MoveTime.Milliseconds(),
			Elo: l.Elo, Margin: l.Margin, Engine: true})
	}
	writeJSON(w, http.StatusOK, out)
}
