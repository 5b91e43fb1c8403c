package server

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits bounds what one client, and all clients together, may make the
// server do. A client is a remote address (an IPv6 address counts by its
// /64 prefix); behind a reverse proxy listed in TrustedProxies it is the
// address the proxy puts in X-Forwarded-For. Zero fields take defaults; a
// negative field turns that limit off.
type Limits struct {
	// TrustedProxies are the proxies whose X-Forwarded-For is believed:
	// a request from one of them counts for the rightmost address in the
	// header that is not itself a trusted proxy. Default: none, and the
	// header is ignored.
	TrustedProxies []netip.Prefix
	// RequestRate is the HTTP requests per second a client may make on
	// average (default 20), RequestBurst the burst (default 200).
	RequestRate  float64
	RequestBurst float64
	// CreateRate is the games per second a client may create on average
	// (default 0.2, one every five seconds), CreateBurst the burst
	// (default 30).
	CreateRate  float64
	CreateBurst float64
	// LoadRate is the games not in memory per second that a client's
	// WebSockets may load on average (default 1), LoadBurst the burst
	// (default 30): each such game stays in memory a while after its
	// connections leave.
	LoadRate  float64
	LoadBurst float64
	// GlobalCreateRate is the games per second all clients together may
	// create (default 200), with a burst of ten times that.
	GlobalCreateRate float64
	// EngineGames is how many unfinished engine games a client may have
	// in play at once (default 16): from a game's creation, and while one of
	// the client's seats is connected to it.
	EngineGames int
	// MaxLiveGames is how many games may be in memory at once (default
	// 20,000); a game that would be loaded beyond that is refused as busy.
	MaxLiveGames int
	// MaxBody is the largest request body in bytes (default 16 KiB).
	MaxBody int64
	// ConnsPerClient is how many WebSockets a client may hold open at
	// once (default 64).
	ConnsPerClient int
	// HelloTimeout is how long a new WebSocket may take to say hello
	// (default 10s).
	HelloTimeout time.Duration
	// PingInterval is how often the server pings an open WebSocket; a
	// connection that does not answer within PingTimeout is closed
	// (defaults 30s and 15s).
	PingInterval time.Duration
	PingTimeout  time.Duration
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// withDefaults returns l with its zero fields set to the defaults.
func (l Limits) withDefaults() Limits {
	setF := func(f *float64, d float64) {
		if *f == 0 {
			*f = d
		}
	}
	setI := func(i *int, d int) {
		if *i == 0 {
			*i = d
		}
	}
	setD := func(t *time.Duration, d time.Duration) {
		if *t == 0 {
			*t = d
		}
	}
	setF(&l.RequestRate, 20)
	setF(&l.RequestBurst, 200)
	setF(&l.CreateRate, 0.2)
	setF(&l.CreateBurst, 30)
	setF(&l.LoadRate, 1)
	setF(&l.LoadBurst, 30)
	setF(&l.GlobalCreateRate, 200)
	setI(&l.EngineGames, 16)
	setI(&l.MaxLiveGames, 20000)
	if l.MaxBody == 0 {
		l.MaxBody = 16 << 10
	}
	setI(&l.ConnsPerClient, 64)
	setD(&l.HelloTimeout, 10*time.Second)
	setD(&l.PingInterval, 30*time.Second)
	setD(&l.PingTimeout, 15*time.Second)
	return l
}

// errBusy is the error of an action the server's global limits refuse.
var errBusy = errors.New("the server is busy; try again later")

// errEngineGames refuses an engine game over a client's limit.
var errEngineGames = errors.New("too many engine games in play")

// clientKey returns the client that r counts for (see Limits).
func (s *Server) clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if s.trusted(addr) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a malformed hop: count the request for the last good one
			}
			addr = a
			if !s.trusted(a) {
				break
			}
		}
	}
	return addrKey(addr)
}

// trusted reports whether a is one of the trusted proxies.
func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.lim.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// addrKey is the client an address counts for: an IPv4 address itself,
// an IPv6 address its /64 (one host's share of a network).
func addrKey(a netip.Addr) string {
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// keyedBuckets holds a token bucket per client. Buckets that have filled
// up again are forgotten, so the map holds only clients seen recently.
type keyedBuckets struct {
	rate, burst float64

	mu    sync.Mutex
	m     map[string]*bucket
	swept time.Time
}

// allow takes a token of key's bucket; false if it has none. A nil
// keyedBuckets (a limit turned off) allows everything.
func (k *keyedBuckets) allow(key string, now time.Time) bool {
	if k == nil {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if now.Sub(k.swept) > time.Minute {
		full := time.Duration(k.burst / k.rate * float64(time.Second))
		for key, b := range k.m {
			if now.Sub(b.last) > full {
				delete(k.m, key)
			}
		}
		k.swept = now
	}
	b := k.m[key]
	if b == nil {
		b = &bucket{rate: k.rate, burst: k.burst, tokens: k.burst, last: now}
		k.m[key] = b
	}
	return b.allow(now)
}

// bucketsFor returns the buckets of a limit, or nil if rate is negative
// (the limit is off).
func bucketsFor(rate, burst float64) *keyedBuckets {
	if rate < 0 || burst < 0 {
		return nil
	}
	return &keyedBuckets{rate: rate, burst: burst, m: map[string]*bucket{}}
}

// limiters are the server's per-client and global limits in force.
type limiters struct {
	requests, creates, loads, global *keyedBuckets

	mu          sync.Mutex
	conns       map[string]int                 // open WebSockets per client
	engineGames map[string]map[string]struct{} // loaded unfinished engine games per client
}

func newLimiters(l Limits) *limiters {
	return &limiters{
		requests:    bucketsFor(l.RequestRate, l.RequestBurst),
		creates:     bucketsFor(l.CreateRate, l.CreateBurst),
		loads:       bucketsFor(l.LoadRate, l.LoadBurst),
		global:      bucketsFor(l.GlobalCreateRate, 10*l.GlobalCreateRate),
		conns:       map[string]int{},
		engineGames: map[string]map[string]struct{}{},
	}
}

// openConn counts a WebSocket of client key; false if it has max open
// already (max < 0: no limit).
func (l *limiters) openConn(key string, max int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if max >= 0 && l.conns[key] >= max {
		return false
	}
	l.conns[key]++
	return true
}

// closeConn uncounts a WebSocket of client key.
func (l *limiters) closeConn(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conns[key]--; l.conns[key] <= 0 {
		delete(l.conns, key)
	}
}

// addEngineGame counts engine game id for client key (once however often
// it is added); false if the client has max others already (max < 0: no
// limit).
func (l *limiters) addEngineGame(key, id string, max int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	set := l.engineGames[key]
	if _, ok := set[id]; ok {
		return true
	}
	if max >= 0 && len(set) >= max {
		return false
	}
	if set == nil {
		set = map[string]struct{}{}
		l.engineGames[key] = set
	}
	set[id] = struct{}{}
	return true
}

// dropEngineGame uncounts engine game id of client key (it ended or left
// memory).
func (l *limiters) dropEngineGame(key, id string) {
	if key == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if set := l.engineGames[key]; set != nil {
		delete(set, id)
		if len(set) == 0 {
			delete(l.engineGames, key)
		}
	}
}

// limit wraps the server's handler: every request body is bounded, and
// every request counts toward its client's request rate.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.lim.MaxBody >= 0 && r.Body != nil {
			n := s.lim.MaxBody
			if strings.HasPrefix(r.URL.Path, "/api/variants") { // the variant editor sends a file
				n = max(n, s.maxVariantBody())
			}
			r.Body = http.MaxBytesReader(w, r.Body, n)
		}
		if !s.limits.requests.allow(s.clientKey(r), time.Now()) {
			tooMany(w, time.Duration(float64(time.Second)/s.lim.RequestRate), errors.New("too many requests; slow down"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// tooMany answers 429 with a Retry-After of at least a second.
func tooMany(w http.ResponseWriter, after time.Duration, err error) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int((after+time.Second-1)/time.Second))))
	writeError(w, http.StatusTooManyRequests, "rate_limited", err)
}

// checkCreate checks a request to create a game before its body is read:
// a JSON body (a form or text/plain body, which any site can make a
// browser send, is refused) and the creation rates.
func (s *Server) checkCreate(w http.ResponseWriter, r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
			fmt.Errorf("a game is created with a Content-Type: application/json body, not %q", r.Header.Get("Content-Type")))
		return false
	}
	return s.allowCreate(w, r)
}

// allowCreate counts a game's creation against the client's rate and all
// clients' (Limits.CreateRate and GlobalCreateRate), answering 429 or 503
// if it is over one. A seek posted and a pairing count as creations too: a
// seek goes to every lobby feed.
func (s *Server) allowCreate(w http.ResponseWriter, r *http.Request) bool {
	now := time.Now()
	if !s.limits.creates.allow(s.clientKey(r), now) {
		tooMany(w, time.Duration(float64(time.Second)/s.lim.CreateRate), errors.New("too many games created; wait a little"))
		return false
	}
	if !s.limits.global.allow("", now) {
		tooMany(w, time.Second, errBusy)
		return false
	}
	return true
}

// claim counts an unfinished engine game that a seated client joins for
// its client: a client may play only Limits.EngineGames engine games at
// once (a game counts from its creation, and from each join of one of
// the client's seats until the last of them leaves). The first client to
// claim a game that counts for nobody has its engine's searches scheduled
// as its own. Owner goroutine only.
func (lg *liveGame) claim(c *client) *wireError {
	if c.seat == spectator || lg.over || lg.rec.Opponent != "engine" || c.key == "" {
		return nil
	}
	if !lg.srv.limits.addEngineGame(c.key, lg.rec.ID, lg.srv.lim.EngineGames) {
		return &wireError{"too_many_engine_games", fmt.Sprintf("at most %d engine games in play at once; finish, resign or leave one first", lg.srv.lim.EngineGames)}
	}
	if lg.owner == "" {
		lg.owner = c.key
	}
	return nil
}

// release uncounts an engine game for the client of c, a connection that
// left, when none of its client's seats is left in the game. Owner
// goroutine only.
func (lg *liveGame) release(c *client) {
	if c.seat == spectator || lg.rec.Opponent != "engine" || c.key == "" {
		return
	}
	for o := range lg.subs {
		if o.seat != spectator && o.key == c.key {
			return
		}
	}
	lg.srv.limits.dropEngineGame(c.key, lg.rec.ID)
}

// ParsePrefixes reads trusted proxies: each an address (one host) or a
// CIDR prefix ("10.0.0.0/8", "fd00::/8").
func ParsePrefixes(ss []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range ss {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an address or a CIDR prefix", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
