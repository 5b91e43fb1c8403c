// Package server is anychess's game server: an HTTP API to list variants and
// create, list and download games, one WebSocket per game that carries
// moves, offers and results in both directions, and the embedded web page.
//
// The server is the only authority. Each live game has one owner goroutine
// that orders everything that happens in it and numbers each event with a
// version; an event is written to the store (package store) before it is
// acknowledged or sent, and a client that reconnects says the last version
// it saw and receives exactly what it missed. The wire protocol is described
// in docs/protocol.md.
//
// What one client (a remote address) may make the server do is bounded
// (Limits: requests, game creation, engine games, connections, a hello
// deadline and pings), the engine serves clients in turn, a game is in
// memory only while it is played, and after a restart games are loaded
// when a client asks for them or their stored wake time comes.
package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/server/store"
)

// Registry is what the server needs of a variant registry
// (catalog.Default returns one).
type Registry interface {
	Get(name string) (*rules.Variant, error)
	Variants() []*rules.Variant
	Aliases(v *rules.Variant) []string
}

// Config holds the server's settings. Zero fields take defaults.
type Config struct {
	// Store keeps the games; required.
	Store store.Store
	// Registry holds the variants; default catalog.Default().
	Registry Registry
	// Web serves the page at /; nil serves no page.
	Web http.Handler
	// EngineWorkers is the number of searches that may run at once
	// (default: half the CPUs divided by EngineThreads, at least 1),
	// besides one spare for a client with none running.
	EngineWorkers int
	// EngineThreads is the threads of each search (default 1, at most
	// the machine's CPUs): with more, each engine game's search is a
	// parallel one (search.Engine.SetThreads), and the searches use at
	// most (EngineWorkers+1)·EngineThreads cores.
	EngineThreads int
	// EngineHashMB is each engine's transposition table (default 16).
	EngineHashMB int
	// EngineMaxTime caps one search (default 2s).
	EngineMaxTime time.Duration
	// EngineBus, if set, sends the engine's searches for games whose
	// pieces both players see to engine workers over NATS (package
	// enginebus); with no worker free, or one failing, the search runs
	// here. Hidden-information games always search here.
	EngineBus RemoteEngine
	// IdleUnload is how long a game without connections stays in memory
	// (default 2 minutes).
	IdleUnload time.Duration
	// StoreTimeout bounds one write (default 10s).
	StoreTimeout time.Duration
	// RateLimit is the frames per second a connection may send on average
	// (default 20), RateBurst the burst (default 40).
	RateLimit float64
	RateBurst float64
	// Hosts are the host names the server answers to (the Host header,
	// any port); a request for another gets 421. Empty: any name.
	// "localhost" and loopback addresses are always accepted.
	Hosts []string
	// Diagnostics lets a loopback peer use /api/stats?gc=1 and ?reset=1.
	Diagnostics bool
	// Limits bounds the work of each client and of all (see Limits).
	Limits Limits
	// Study bounds the analysis board's engine (see StudyConfig).
	Study StudyConfig
	// Variants bounds the variants users check and save (see
	// VariantConfig).
	Variants VariantConfig
	// Lobby bounds the seeks (see LobbyConfig).
	Lobby LobbyConfig
	// Logger takes the server's log records (default: text lines on
	// standard error); a node of a cluster adds its name as the attribute
	// node to each.
	Logger *slog.Logger
	// Logf, if set, takes the log lines instead of Logger, each formatted
	// as one string (tests hand it testing.T.Logf).
	Logf func(format string, args ...any)
	// Cluster, if set, makes the server one node of a cluster (see
	// ClusterConfig); nil: one process, the only one on its store.
	Cluster *ClusterConfig
}

// RemoteEngine searches for the engine elsewhere; *enginebus.Client is
// one.
type RemoteEngine interface {
	Think(ctx context.Context, p *rules.Position, req enginebus.Request) (rules.Move, error)
}

// Server serves games. Create it with New, serve its Handler, and Close it.
type Server struct {
	cfg     Config
	store   store.Store
	reg     *userVariants // cfg.Registry and the saved variants
	engines *enginePool
	mux     *http.ServeMux
	handler http.Handler
	lim     Limits    // cfg.Limits with defaults
	limits  *limiters // their state
	study   *study    // the analysis board
	acc     *accounts // accounts, sessions and their throttles
	lobby   *lobby    // the seeks

	vcfg   VariantConfig // cfg.Variants with defaults
	saves  *keyedBuckets // variants saved per client
	checks chan struct{} // a slot for each check that may run
	saveMu sync.Mutex    // held by a save
	defs   definitions

	stopWaker func()        // ends the waker (Start)
	wakerDone chan struct{} // closed when it has ended

	cluster *cluster // this node's part in its cluster; nil: none

	mu      sync.Mutex
	games   map[string]*liveGame
	loading map[string]chan struct{} // games being loaded, closed when done
	conns   atomic.Int64

	ackLat   hist // from a move frame read to its ack queued
	storeLat hist // one event's write to the store
	health   writeHealth
}

// New returns a server over cfg.Store.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Registry == nil {
		reg, err := catalog.Default()
		if err != nil {
			return nil, fmt.Errorf("server: variants: %w", err)
		}
		cfg.Registry = reg
	}
	if cfg.EngineThreads <= 0 {
		cfg.EngineThreads = 1
	}
	if cfg.EngineThreads > search.CPUs() {
		return nil, fmt.Errorf("server: %d engine threads are more than the machine's %d CPUs", cfg.EngineThreads, search.CPUs())
	}
	if cfg.EngineWorkers <= 0 {
		cfg.EngineWorkers = max(runtime.NumCPU()/2/cfg.EngineThreads, 1)
	}
	if cfg.EngineHashMB <= 0 {
		cfg.EngineHashMB = 16
	}
	if cfg.EngineMaxTime <= 0 {
		cfg.EngineMaxTime = 2 * time.Second
	}
	if cfg.IdleUnload <= 0 {
		cfg.IdleUnload = 2 * time.Minute
	}
	if cfg.StoreTimeout <= 0 {
		cfg.StoreTimeout = 10 * time.Second
	}
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = 20
	}
	if cfg.RateBurst <= 0 {
		cfg.RateBurst = 40
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	s := &Server{
		cfg: cfg, reg: newUserVariants(cfg.Registry),
		engines: newEnginePool(cfg.EngineWorkers, cfg.EngineHashMB, cfg.EngineThreads, cfg.EngineMaxTime),
		games:   map[string]*liveGame{},
		loading: map[string]chan struct{}{},
		lim:     cfg.Limits.withDefaults(),

		wakerDone: make(chan struct{}),
	}
	s.store = watchedStore{Store: cfg.Store, health: &s.health}
	s.limits = newLimiters(s.lim)
	s.study = newStudy(cfg.Study, cfg.EngineHashMB)
	s.vcfg = cfg.Variants.withDefaults()
	if n := s.vcfg.SavesPerHour; n > 0 {
		s.saves = bucketsFor(float64(n)/3600, float64(n))
	}
	s.checks = make(chan struct{}, max(s.vcfg.Checks, 1))
	s.defs = definitions{compiled: map[string]*rules.Variant{}, stored: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.StoreTimeout)
	defer cancel()
	if err := s.loadSaved(ctx); err != nil {
		return nil, fmt.Errorf("server: saved variants: %w", err)
	}
	s.acc = newAccounts(cfg.Store)
	s.lobby = newLobby(s, cfg.Lobby)
	if cfg.Cluster != nil {
		k, err := newCluster(s, cfg.Cluster)
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		s.cluster = k
	}

	// On a node of a cluster: the seeks and saved variants of every node.
	if err := s.joinLobbyBus(); err != nil {
		return nil, err
	}

	s.routes()
	return s, nil
}

// Start lists the unfinished games that need the server without a
// client (a running clock, the engine to move) and loads each when its
// wake time comes, in the background: it does not load them itself, and
// returns once they are listed.
func (s *Server) Start(ctx context.Context) error {
	if s.cluster != nil {
		// In a cluster the nodes' sweepers load such games, each game
		// on the one node that takes its lease.
		if err := s.cluster.start(); err != nil {
			return fmt.Errorf("server: start: %w", err)
		}
		close(s.wakerDone)
		return nil
	}
	no := false
	due, err := s.store.List(ctx, store.Filter{Finished: &no, Waking: true})
	if err != nil {
		return fmt.Errorf("server: start: %w", err)
	}
	h := make(wakeHeap, 0, len(due))
	for _, g := range due {
		h = append(h, wakeItem{at: g.Wake, id: g.ID})
	}
	wctx, cancel := context.WithCancel(context.Background())
	s.stopWaker = cancel
	go s.waker(wctx, &h)
	return nil
}

// Close stops every game's owner goroutine. The store stays open.
func (s *Server) Close() {
	if s.stopWaker != nil {
		s.stopWaker()
		<-s.wakerDone
	}

	s.leaveLobbyBus() // on a node of a cluster: its seeks leave the others' lobbies

	if s.cluster != nil {
		s.cluster.close()
	}
	s.lobby.close()
	s.mu.Lock()
	games := s.games
	s.games = map[string]*liveGame{}
	s.mu.Unlock()
	for _, lg := range games {
		// The owner stops its timers, then ends (run closes the
		// connections still there).
		lg.do(context.Background(), lg.stopTimers)
		lg.do(context.Background(), nil)
		<-lg.done
	}
}

// Handler returns the server's HTTP handler, its limits and security
// headers included.
func (s *Server) Handler() http.Handler { return s.secure(s.handler) }

// variantFor returns the variant name configured with options.
func (s *Server) variantFor(name string, options map[string]string) (*rules.Variant, error) {
	v, err := s.reg.Get(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUnknownVariant, err)
	}
	return configure(v, options)
}

// configure returns v configured with options.
func configure(v *rules.Variant, options map[string]string) (*rules.Variant, error) {
	var err error
	for k := range options {
		if !v.HasOption(k) {
			return nil, fmt.Errorf("%w: %s has no option %q", errBadOption, v.Name(), k)
		}
	}
	if len(options) > 0 {
		if v, err = v.Configure(options); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadOption, err)
		}
	}
	return v, nil
}

var (
	errUnknownVariant = errors.New("unknown variant")
	errBadOption      = errors.New("bad option")
	errBadFEN         = errors.New("bad FEN")
	errBadRequest     = errors.New("bad request")
)

// game returns the live game id, loading it from the store if needed.
func (s *Server) game(ctx context.Context, id string) (*liveGame, error) {
	return s.gameFor(ctx, id, "")
}

// gameFor returns the live game id as game does; a game it loads counts
// for client key (its engine's searches are scheduled as that client's).
func (s *Server) gameFor(ctx context.Context, id, key string) (*liveGame, error) {
	// One load of a game at a time: a second waits for the first.
	for {
		s.mu.Lock()
		lg, wait := s.games[id], s.loading[id]
		if lg == nil && wait == nil {
			s.loading[id] = make(chan struct{})
		}
		s.mu.Unlock()
		if lg != nil {
			return lg, nil
		}
		if wait == nil {
			break
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	defer func() {
		s.mu.Lock()
		close(s.loading[id])
		delete(s.loading, id)
		s.mu.Unlock()
	}()
	if s.full() {
		return nil, errBusy
	}
	var fence *store.Fence
	var unowned time.Time
	if s.cluster != nil {
		var err error
		if fence, unowned, err = s.cluster.acquire(ctx, id); err != nil {
			return nil, err
		}
	}
	giveBack := func() {
		if fence != nil {
			s.cluster.leases.Release(context.WithoutCancel(ctx), id, fence.Node, fence.Epoch)
		}
	}
	rec, evs, err := s.store.Load(ctx, id)
	if err != nil {
		giveBack()
		return nil, err
	}
	lg, err := newLiveGame(s, rec, evs)
	if err != nil {
		giveBack()
		return nil, err
	}
	if rec.Opponent == "engine" && !lg.over {
		lg.owner = key
	}
	if fence != nil {
		lg.fence, lg.leasedAt = fence, time.Now()
		if err := lg.resume(unowned); err != nil {
			giveBack()
			return nil, err
		}
	}
	s.mu.Lock()
	s.games[id] = lg
	s.mu.Unlock()
	go lg.run()
	return lg, nil
}

// full reports whether the server holds as many games in memory as
// Limits.MaxLiveGames allows.
func (s *Server) full() bool {
	if s.lim.MaxLiveGames < 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games) >= s.lim.MaxLiveGames
}

// unload removes a game from memory; called by its owner goroutine, which
// then ends.
func (s *Server) unload(lg *liveGame) {
	s.mu.Lock()
	if s.games[lg.rec.ID] == lg {
		delete(s.games, lg.rec.ID)
	}
	s.mu.Unlock()
	lg.stopTimers()
	s.limits.dropEngineGame(lg.owner, lg.rec.ID)
	// Ends run after this function returns.
	go func() { lg.inbox <- nil }()
}

// Summary is a game's public description.
type Summary struct {
	ID        string            `json:"id"`
	Variant   string            `json:"variant"`
	Title     string            `json:"title"`
	Files     int               `json:"files"`
	Ranks     int               `json:"ranks"`
	Options   map[string]string `json:"options"`
	Opponent  string            `json:"opponent"`
	Level     int               `json:"level,omitempty"`
	Engine    string            `json:"engine_seat,omitempty"`
	InitialMS int64             `json:"initial_ms"`
	IncMS     int64             `json:"increment_ms"`
	Days      int               `json:"days,omitempty"`
	Created   time.Time         `json:"created"`
	Finished  bool              `json:"finished"`
	Result    string            `json:"result"`
	Reason    string            `json:"reason,omitempty"`
	Detail    string            `json:"detail,omitempty"`
	Version   int64             `json:"version"`
	Plies     int               `json:"plies"`
	StartFEN  string            `json:"start_fen,omitempty"`
	StartBrd  string            `json:"start_board,omitempty"`
	// StartDescribe is the variant's description of the start
	// (face.Description), shown when the start is.
	StartDescribe *face.Description `json:"start_describe,omitempty"`
	RematchOf     string            `json:"rematch_of,omitempty"`
	Pieces        []PieceInfo       `json:"pieces,omitempty"`
	Ranked        bool              `json:"ranked,omitempty"` // pieces carry ranks (Vazir), written after their letters in the FEN
	Hidden        bool              `json:"hidden,omitempty"` // each player sees only its view while the game is played (face.Hidden)
	// Definition is the hash of the variant definition the game is
	// played under (sha256:...); none for a variant built in code.
	Definition string `json:"definition,omitempty"`
	// White and Black are the accounts playing the seats (absent for an
	// anonymous player), Rated whether the game changes their ratings.
	White *PlayerInfo `json:"white,omitempty"`
	Black *PlayerInfo `json:"black,omitempty"`
	Rated bool        `json:"rated,omitempty"`
}

// PieceInfo describes a piece type of a variant.
type PieceInfo struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Betza  string `json:"betza"`
}

func pieces(v *rules.Variant) []PieceInfo {
	var out []PieceInfo
	for t := 1; t <= v.NumTypes(); t++ {
		ps := v.PieceSpec(rules.Type(t))
		out = append(out, PieceInfo{Letter: string(ps.Letter), Name: ps.Name, Betza: ps.Betza})
	}
	return out
}

func summaryOf(g *store.Game, v *rules.Variant) *Summary {
	s := &Summary{ID: g.ID, Variant: g.Variant, Options: g.Options, Opponent: g.Opponent,
		InitialMS: g.Initial.Milliseconds(), IncMS: g.Increment.Milliseconds(), Days: g.Days,
		Created: g.Created, Finished: g.Finished, Result: g.Result, Reason: g.Reason,
		Version: g.Version, RematchOf: g.RematchOf, Plies: g.Plies, Definition: g.Definition, Rated: g.Rated}
	s.White, s.Black = playerInfo(g.Users[0]), playerInfo(g.Users[1])
	if g.Opponent == "engine" {
		s.Level = g.Level
		s.Engine = seatName(g.EngineSeat)
	}
	if s.Result == "" {
		s.Result = "*"
	}
	if v != nil {
		s.Title = v.Title()
		b := v.Board()
		s.Files, s.Ranks = b.Files, b.Ranks
		s.Pieces = pieces(v)
		s.Ranked = v.Spec().Ranked
	}
	return s
}

// hideSecrets leaves out of a hidden game's summary, while the game is
// played, the options v keeps secret until the end (csipgs's terrain).
func (s *Summary) hideSecrets(v *rules.Variant) {
	if s.Hidden && !s.Finished {
		s.Options = v.PublicOptions(s.Options)
	}
}

// writeRequestError answers the errors a request to create or analyse a
// position shares (a busy server, an unknown variant, a bad option, FEN or
// request) and reports whether err was one of them.
func writeRequestError(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, errBusy):
		writeError(w, http.StatusServiceUnavailable, "busy", err)
	case errors.Is(err, errUnknownVariant):
		writeError(w, http.StatusBadRequest, "unknown_variant", err)
	case errors.Is(err, errBadOption):
		writeError(w, http.StatusBadRequest, "bad_option", err)
	case errors.Is(err, errBadFEN):
		writeError(w, http.StatusBadRequest, "bad_fen", err)
	case errors.Is(err, errBadRequest):
		writeError(w, http.StatusBadRequest, "bad_request", err)
	default:
		return false
	}
	return true
}

// randomHex returns n secure random bytes in hex (crypto/rand.Read never
// fails).
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newToken returns a fresh seat token and its hash.
func newToken() (token, hash string) {
	token = randomHex(32)
	return token, hashToken(token)
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// rematchToken derives a seat's token in the rematch from its token in
// the game: both the server and the client can compute it, nobody else.
func rematchToken(token string) string {
	h := sha256.Sum256([]byte("rematch:" + token))
	return hex.EncodeToString(h[:])
}

// seatOf returns the seat a token opens in g, or spectator for "".
func seatOf(g *store.Game, token string) (int, bool) {
	if token == "" {
		return spectator, true
	}
	h := hashToken(token)
	for s := range 2 {
		if g.TokenHash[s] != "" && subtle.ConstantTimeCompare([]byte(h), []byte(g.TokenHash[s])) == 1 {
			return s, true
		}
	}
	return spectator, false
}

func newID() string { return randomHex(6) }

// randomSeat returns white or black (0 or 1) at random.
func randomSeat() int {
	var b [1]byte
	rand.Read(b[:])
	return int(b[0] & 1)
}

// CreateRequest is the body of POST /api/games.
type CreateRequest struct {
	Variant  string            `json:"variant"`
	Options  map[string]string `json:"options"`
	FEN      string            `json:"fen"`
	Color    string            `json:"color"`
	Opponent string            `json:"opponent"`
	Level    int               `json:"level"`
	Clock    *ClockRequest     `json:"clock"`
	Days     int               `json:"days"`
}

// ClockRequest is the clock of a game asked for: initial time and
// increment in milliseconds.
type ClockRequest struct {
	InitialMS int64 `json:"initial_ms"`
	IncMS     int64 `json:"increment_ms"`
}

// CreateResponse answers POST /api/games.
type CreateResponse struct {
	ID     string `json:"id"`
	Seat   string `json:"seat"`
	Token  string `json:"token"`
	Invite string `json:"invite,omitempty"`
}

// Create creates a game as POST /api/games does, outside any client's
// limits.
func (s *Server) Create(ctx context.Context, req CreateRequest) (*CreateResponse, error) {
	return s.create(ctx, req, "")
}

// create creates a game for client key ("": none, no limits).
func (s *Server) create(ctx context.Context, req CreateRequest, key string) (*CreateResponse, error) {
	g, seat, tokens, err := s.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	return s.createPrepared(ctx, g, seat, tokens, key)
}

// prepare checks a request to create a game and returns the game's record,
// the creator's seat and the seats' tokens, stored nowhere yet.
func (s *Server) prepare(ctx context.Context, req CreateRequest) (*store.Game, int, [2]string, error) {
	fail := func(err error) (*store.Game, int, [2]string, error) { return nil, 0, [2]string{}, err }
	for k, val := range req.Options {
		if len(val) > MaxOptionValue {
			return fail(fmt.Errorf("%w: %s: value longer than %d bytes", errBadOption, k, MaxOptionValue))
		}
	}
	v, err := s.variantFor(req.Variant, req.Options)
	if err != nil {
		return fail(err)
	}
	g := &store.Game{ID: newID(), Variant: v.Name(), Options: req.Options,
		Opponent: "human", Created: time.Now().UTC(), Result: "*"}
	if g.Definition, err = s.recordDefinition(ctx, req.Variant); err != nil {
		return fail(err)
	}
	g.DiceKey, g.Nonce = newDice()
	if g.Options == nil {
		g.Options = map[string]string{}
	}
	if req.FEN != "" {
		if len(req.FEN) > 512 {
			return fail(fmt.Errorf("%w: too long", errBadFEN))
		}
		p, err := v.ParseFEN(req.FEN)
		if err != nil {
			return fail(fmt.Errorf("%w: %w", errBadFEN, err))
		}
		if err := p.Validate(); err != nil {
			return fail(fmt.Errorf("%w: %w", errBadFEN, err))
		}
		if p.Status().Over() {
			return fail(fmt.Errorf("%w: the game is over in that position", errBadFEN))
		}
		g.FEN = p.FEN()
	}
	seat := 0
	switch req.Color {
	case "", "white":
	case "black":
		seat = 1
	case "random":
		seat = randomSeat()
	default:
		return fail(fmt.Errorf("%w: color %q: want white, black or random", errBadRequest, req.Color))
	}
	switch req.Opponent {
	case "", "human":
	case "engine":
		if req.Level < 1 || req.Level > MaxLevel {
			return fail(fmt.Errorf("%w: level %d: want 1..%d", errBadRequest, req.Level, MaxLevel))
		}
		if s.reg.isSaved(v.Name()) && s.vcfg.EngineMaxLevel > 0 && req.Level > s.vcfg.EngineMaxLevel {
			return fail(fmt.Errorf("%w: level %d: the engine plays a saved variant at levels 1..%d", errBadRequest, req.Level, s.vcfg.EngineMaxLevel))
		}
		g.Opponent, g.Level, g.EngineSeat = "engine", req.Level, 1-seat
		g.Wake = g.Created // the engine may have the first move: after a restart, look at once
	default:
		return fail(fmt.Errorf("%w: opponent %q: want human or engine", errBadRequest, req.Opponent))
	}
	if req.Clock != nil && (req.Clock.InitialMS != 0 || req.Clock.IncMS != 0) {
		c := req.Clock
		if c.InitialMS <= 0 || c.InitialMS > 3*3600_000 || c.IncMS < 0 || c.IncMS > 180_000 {
			return fail(fmt.Errorf("%w: clock %d+%d ms out of range", errBadRequest, c.InitialMS, c.IncMS))
		}
		g.Initial, g.Increment = time.Duration(c.InitialMS)*time.Millisecond, time.Duration(c.IncMS)*time.Millisecond
	}
	if req.Days != 0 {
		if req.Days < 1 || req.Days > 14 || g.Initial > 0 {
			return fail(fmt.Errorf("%w: days %d: want 1..14 and no clock", errBadRequest, req.Days))
		}
		g.Days = req.Days
	}
	tokens := [2]string{}
	for i := range 2 {
		if g.Opponent == "engine" && i == g.EngineSeat {
			continue
		}
		tokens[i], g.TokenHash[i] = newToken()
	}
	// Check that the start can be drawn (a seeded set-up).
	if g.FEN == "" && v.Seeded() {
		r, err := setupRoller(g, nil)
		if err != nil {
			return fail(err)
		}
		if _, err := v.Setup(r); err != nil {
			return fail(fmt.Errorf("%w: %w", errBadRequest, err))
		}
	}
	return g, seat, tokens, nil
}

// createPrepared stores a game that prepare made, for client key ("":
// none, no limits), and answers its creator.
func (s *Server) createPrepared(ctx context.Context, g *store.Game, seat int, tokens [2]string, key string) (*CreateResponse, error) {
	if g.Opponent == "engine" && key != "" {
		if !s.limits.addEngineGame(key, g.ID, s.lim.EngineGames) {
			return nil, fmt.Errorf("%w: at most %d at once; finish or resign one first", errEngineGames, s.lim.EngineGames)
		}
	}
	if err := s.store.Create(ctx, g); err != nil {
		s.limits.dropEngineGame(key, g.ID)
		return nil, err
	}
	resp := &CreateResponse{ID: g.ID, Seat: seatName(seat), Token: tokens[seat]}
	if g.Opponent == "human" {
		resp.Invite = fmt.Sprintf("/#/game/%s/%s/%s", g.ID, seatName(1-seat), tokens[1-seat])
	} else if _, err := s.gameFor(ctx, g.ID, key); err != nil { // the engine may have the first move
		s.limits.dropEngineGame(key, g.ID)
		return nil, err
	}
	return resp, nil
}

// createRematch creates the rematch of rec with colours swapped; tokens
// are the seats' tokens in rec ("engine" for the engine's seat).
func (s *Server) createRematch(ctx context.Context, rec *store.Game, tokens [2]string) (string, error) {
	g := *rec
	g.ID = newID()
	g.Seed = 0 // the rematch of an old game draws ChaCha8 dice
	g.DiceKey, g.Nonce = newDice()
	g.Created = time.Now().UTC()
	g.Finished, g.Result, g.Reason, g.Version, g.RematchOf = false, "*", "", 0, rec.ID
	g.TokenHash = [2]string{}
	g.Users = [2]string{rec.Users[1], rec.Users[0]} // each account keeps its player
	for i := range 2 {
		if tokens[i] != "engine" {
			g.TokenHash[1-i] = hashToken(rematchToken(tokens[i]))
		}
	}
	g.Wake = time.Time{}
	if g.Opponent == "engine" {
		g.EngineSeat = 1 - rec.EngineSeat
		g.Wake = g.Created // the engine may have the first move
	}
	if err := s.store.Create(ctx, &g); err != nil {
		return "", err
	}
	if g.Opponent == "engine" {
		if _, err := s.game(ctx, g.ID); err != nil {
			return "", err
		}
	}
	return g.ID, nil
}

// routes sets up the HTTP handlers.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /api/variants", s.handleVariants)
	m.HandleFunc("GET /api/design", s.handleDesign)
	m.HandleFunc("POST /api/games", s.handleCreate)
	m.HandleFunc("GET /api/games", s.handleList)
	m.HandleFunc("GET /api/games/{id}", s.handleGame)
	m.HandleFunc("GET /api/games/{id}/pgn", s.handlePGN)
	m.HandleFunc("GET /api/stats", s.handleStats)
	m.HandleFunc("GET /api/health", s.handleHealth)
	m.HandleFunc("GET /metrics", s.handleMetrics)
	m.HandleFunc("GET /ws/{id}", s.handleWS)
	s.studyRoutes(m)
	s.variantRoutes(m)
	s.peopleRoutes(m)
	if s.cfg.Web != nil {
		m.Handle("GET /", s.cfg.Web)
	}
	s.mux = m
	s.handler = s.limit(s.csrf(m))
}

// VariantInfo describes a variant for the lobby.
type VariantInfo struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Aliases     []string     `json:"aliases"`
	Description string       `json:"description"`
	Files       int          `json:"files"`
	Ranks       int          `json:"ranks"`
	StartFEN    string       `json:"start_fen"`
	Pieces      []PieceInfo  `json:"pieces"`
	Options     []OptionInfo `json:"options"`
	Chance      bool         `json:"chance"`
	Hidden      bool         `json:"hidden"`
	Ranked      bool         `json:"ranked"`           // pieces carry ranks, written after their letters in the FEN
	Stacks      bool         `json:"stacks,omitempty"` // a square may hold a stack of pieces, written together in the FEN (face.Stacks)
}

func (s *Server) handleVariants(w http.ResponseWriter, r *http.Request) {
	var out []VariantInfo
	for _, v := range s.reg.Variants() {
		b := v.Board()
		out = append(out, VariantInfo{Name: v.Name(), Title: v.Title(), Aliases: s.reg.Aliases(v),
			Description: v.Spec().Description, Files: b.Files, Ranks: b.Ranks, StartFEN: v.StartFEN(),
			Pieces: pieces(v), Options: optionInfos(v), Chance: v.Chance(), Hidden: face.Hidden(v),
			Ranked: v.Spec().Ranked, Stacks: face.Stacks(v)})
	}
	writeJSON(w, http.StatusOK, out)
}

// DesignInfo is a piece design priced (GET /api/design?d=TEXT): what the
// design editor shows as the player types.
type DesignInfo struct {
	Design     string `json:"design"`
	Price      int    `json:"price"`
	Exact      string `json:"exact"` // the cost before rounding up, a fraction
	ColorBound bool   `json:"colorbound"`
	Royal      bool   `json:"royal"`
	Diagram    string `json:"diagram"` // its moves from the centre of an empty 9x9 board
	// Move is the text of the move that puts the design into the slot
	// named by slot (GET /api/design?d=TEXT&slot=X), to be sent as it is.
	Move string `json:"move,omitempty"`
}

// handleDesign prices a design by the rules of the variant named by
// variant, with the game's options if options gives them as a JSON object
// (some change prices), by default the first variant whose pieces are
// designed (face.Designer);
// a design the rules refuse is a 400 bad_design error whose pos is the
// byte offset of the fault. With slot (the letter of the type a slot
// holds) the answer gives the move that puts the design into that slot
// (face.Designer.PutDesign); a slot that cannot be named so is a 400
// bad_request error.
func (s *Server) handleDesign(w http.ResponseWriter, r *http.Request) {
	d := r.URL.Query().Get("d")
	if len(d) > 200 {
		writeError(w, http.StatusBadRequest, "bad_design", errors.New("a design is at most 200 bytes"))
		return
	}
	var v *rules.Variant
	var designer face.Designer
	ok := false
	if name := r.URL.Query().Get("variant"); name != "" {
		opts, err := queryOptions(r.URL.Query())
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_option", err)
			return
		}
		if v, err = s.variantFor(name, opts); err == nil {
			designer, ok = face.DesignerOf(v)
		} else if errors.Is(err, errBadOption) {
			writeError(w, http.StatusBadRequest, "bad_option", err)
			return
		}
	} else {
		v, designer, ok = face.FirstDesigner(s.reg.Variants())
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_request", errors.New("no variant with designed pieces by that name"))
		return
	}
	info, err := designer.PriceDesign(v, d, 9)
	if err != nil {
		var de *face.DesignError
		body := map[string]any{"code": "bad_design", "message": err.Error()}
		if errors.As(err, &de) {
			body["pos"] = de.Pos
			body["message"] = de.Msg
		}
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": body})
		return
	}
	out := DesignInfo{Design: info.Design, Price: info.Price, Exact: info.Exact,
		ColorBound: info.ColorBound, Royal: info.Royal, Diagram: info.Diagram}
	if q := r.URL.Query(); q.Has("slot") {
		if out.Move, err = designer.PutDesign(q.Get("slot"), info.Design); err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", err)
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// queryOptions reads a variant's per-game options from a query's options
// parameter, a JSON object of strings (none if it is absent).
func queryOptions(q url.Values) (map[string]string, error) {
	o := q.Get("options")
	if o == "" {
		return nil, nil
	}
	if len(o) > 4096 {
		return nil, fmt.Errorf("%w: options too long", errBadOption)
	}
	var opts map[string]string
	if err := json.Unmarshal([]byte(o), &opts); err != nil {
		return nil, fmt.Errorf("%w: options: want a JSON object of strings: %w", errBadOption, err)
	}
	return opts, nil
}

// OptionInfo is a per-game option of a variant with its default value.
type OptionInfo struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// optionInfos returns v's options as the lobby offers them.
func optionInfos(v *rules.Variant) []OptionInfo {
	var out []OptionInfo
	for _, o := range v.AllOptions() {
		out = append(out, OptionInfo{Name: o.Name, Value: o.Value})
	}
	return out
}

type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code string, err error) {
	var e apiError
	e.Error.Code, e.Error.Message = code, err.Error()
	writeJSON(w, status, e)
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	if !s.checkCreate(w, r) {
		return
	}
	body, err := io.ReadAll(r.Body) // bounded by Limits.MaxBody
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", err)
		return
	}
	var req CreateRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err)
		return
	}
	resp, err := s.createBy(r, req)
	switch {
	case err == nil:
		writeJSON(w, http.StatusCreated, resp)
	case errors.Is(err, errEngineGames):
		writeError(w, http.StatusTooManyRequests, "too_many_engine_games", err)
	case writeRequestError(w, err):
	default:
		s.logf("server: create: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the game could not be created"))
	}
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	f := store.Filter{Limit: 50}
	switch r.URL.Query().Get("state") {
	case "live":
		no := false
		f.Finished = &no
	case "finished":
		yes := true
		f.Finished = &yes
	}
	games, err := s.store.List(r.Context(), f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err)
		return
	}
	out := []*Summary{}
	for i := range games {
		v, _ := s.reg.Get(games[i].Variant)
		sum := summaryOf(&games[i], v)
		sum.Pieces = nil
		if !games[i].Finished && v != nil {
			// Without configuring each game's variant: the secret options
			// of every game in play are left out.
			sum.Options = v.PublicOptions(games[i].Options)
		}
		out = append(out, sum)
	}
	writeJSON(w, http.StatusOK, out) // newest first, as the store lists them
}

// handleGame answers a game's summary; a game not in memory is read from
// the store and stays out of memory.
func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	sum, err := s.summaryOfGame(r.Context(), r.PathValue("id"))
	if s.notFound(w, err) {
		return
	}
	s.addRatings(r.Context(), sum)
	writeJSON(w, http.StatusOK, sum)
}

func (s *Server) notFound(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", errors.New("no such game"))
	case errors.Is(err, errBusy):
		writeError(w, http.StatusServiceUnavailable, "busy", err)
	default:
		writeError(w, http.StatusInternalServerError, "internal", err)
	}
	return true
}

// handlePGN answers a game's record; a game not in memory is built from
// the store for the answer and not kept.
func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request) {
	text, hidden, err := s.pgnOfGame(r.Context(), r.PathValue("id"))
	if s.notFound(w, err) {
		return
	}
	if hidden {
		writeError(w, http.StatusForbidden, "not_allowed", errors.New("the game's record is hidden until it ends"))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="anychess-%s.pgn"`, r.PathValue("id")))
	io.WriteString(w, text)
}

// Stats are the server's load figures. The latencies are measured inside
// the server since the last reset (?reset=1): from a move frame read to
// its ack queued, and one event's write to the store.
type Stats struct {
	GamesLive   int    `json:"games_live"`
	Connections int64  `json:"connections"`
	Goroutines  int    `json:"goroutines"`
	HeapBytes   uint64 `json:"heap_bytes"`
	AckP50us    int64  `json:"ack_p50_us"`
	AckP99us    int64  `json:"ack_p99_us"`
	StoreP50us  int64  `json:"store_p50_us"`
	StoreP99us  int64  `json:"store_p99_us"`
}

// Stats returns the server's load figures.
func (s *Server) Stats() Stats {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.mu.Lock()
	n := len(s.games)
	s.mu.Unlock()
	return Stats{GamesLive: n, Connections: s.conns.Load(), Goroutines: runtime.NumGoroutine(), HeapBytes: ms.HeapInuse,
		AckP50us: s.ackLat.quantile(0.5).Microseconds(), AckP99us: s.ackLat.quantile(0.99).Microseconds(),
		StoreP50us: s.storeLat.quantile(0.5).Microseconds(), StoreP99us: s.storeLat.quantile(0.99).Microseconds()}
}

// handleStats answers /api/stats. With Config.Diagnostics, from a
// loopback address, ?gc=1 first collects garbage, so heap_bytes is the
// live heap, and ?reset=1 starts the latency histograms over (for load
// tests).
func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	if s.diagnostics(r) {
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC()
		}
		if r.URL.Query().Get("reset") == "1" {
			s.ackLat.reset()
			s.storeLat.reset()
		}
	}
	writeJSON(w, http.StatusOK, s.Stats())
}
