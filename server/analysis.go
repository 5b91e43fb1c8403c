package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/server/store"
)

// StudyConfig bounds the analysis board's engine (Config.Study). Zero
// fields take defaults.
type StudyConfig struct {
	// Workers is how many analyses may search at once (default 1),
	// besides one spare for a client with none searching. They are
	// engines of their own: analyses never hold up the engine's moves in
	// games. Waiting analyses are served to clients in turn.
	Workers int
	// MaxTime caps one analysis (default 10s), MaxDepth its depth
	// (default 30), MaxLines its lines (MultiPV, default 5).
	MaxTime  time.Duration
	MaxDepth int
	MaxLines int
	// PerClient is how many analyses and blunder checks one client may
	// have running or waiting at once (default 2); MaxAnalyses how many
	// all clients together may (default 32). Beyond them a request is
	// refused (429 too_many_analyses, 503 busy).
	PerClient   int
	MaxAnalyses int
	// BlunderDepth and BlunderTime bound the search of each position of
	// a game checked for blunders (defaults 6 plies and 250ms);
	// BlunderDrop is the drop, in centipawns from the mover's point of
	// view, that marks a ply as a blunder (default 200).
	BlunderDepth int
	BlunderTime  time.Duration
	BlunderDrop  int
}

func (c StudyConfig) withDefaults() StudyConfig {
	def := func(x *int, d int) {
		if *x <= 0 {
			*x = d
		}
	}
	def(&c.Workers, 1)
	def(&c.MaxDepth, 30)
	def(&c.MaxLines, 5)
	def(&c.PerClient, 2)
	def(&c.MaxAnalyses, 32)
	def(&c.BlunderDepth, 6)
	def(&c.BlunderDrop, 200)
	if c.MaxTime <= 0 {
		c.MaxTime = 10 * time.Second
	}
	if c.BlunderTime <= 0 {
		c.BlunderTime = 250 * time.Millisecond
	}
	return c
}

// Bounds on what a request names.
const (
	maxStudyMoves = 400 // moves played after a position
	maxStudyPlies = 600 // plies of a game checked for blunders
)

// study is the state of the analysis board: its engines, the analyses
// running per client and in all, and the live games in which each client
// holds a seat (no help during play).
type study struct {
	cfg     StudyConfig
	engines *enginePool

	mu      sync.Mutex
	running map[string]int            // analyses per client
	total   int                       // analyses in all
	seated  map[string]map[string]int // per client: game id -> seat connections
}

func newStudy(cfg StudyConfig, hashMB int) *study {
	cfg = cfg.withDefaults()
	return &study{cfg: cfg, engines: newAnalysisPool(cfg.Workers, hashMB, cfg.MaxTime),
		running: map[string]int{}, seated: map[string]map[string]int{}}
}

// newAnalysisPool returns the analyses' engines: workers of them and the
// spare, each with a table of hashMB and searching on one thread (an
// analysis takes a core at most), served to clients in turn as the game
// engines are (enginePool).
func newAnalysisPool(workers, hashMB int, maxTime time.Duration) *enginePool {
	p := &enginePool{maxTime: maxTime, spare: search.New(hashMB), spareFree: true,
		running: map[string]int{}, queues: map[string][]*engineWaiter{}}
	for range workers {
		p.free = append(p.free, search.New(hashMB))
	}
	return p
}

// join and leave count the seat connections of client c in game id
// (liveGame.join and leave).
func (st *study) join(id string, c *client)  { st.seat(id, c, 1) }
func (st *study) leave(id string, c *client) { st.seat(id, c, -1) }

func (st *study) seat(id string, c *client, d int) {
	if st == nil || c.seat == spectator || c.key == "" {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.seated[c.key]
	if m == nil {
		m = map[string]int{}
		st.seated[c.key] = m
	}
	if m[id] += d; m[id] <= 0 {
		delete(m, id)
	}
	if len(m) == 0 {
		delete(st.seated, c.key)
	}
}

// seatedIn returns the games in which client key holds a seat connection.
func (st *study) seatedIn(key string) []string {
	if st == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	var ids []string
	for id := range st.seated[key] {
		ids = append(ids, id)
	}
	return ids
}

// forget drops client key's seats in game id (a game no longer in memory
// whose connections left without saying so).
func (st *study) forget(key, id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if m := st.seated[key]; m != nil {
		delete(m, id)
		if len(m) == 0 {
			delete(st.seated, key)
		}
	}
}

// begin counts an analysis of client key; the error says which bound
// refuses it. end uncounts it.
func (st *study) begin(key string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.total >= st.cfg.MaxAnalyses {
		return errBusy
	}
	if st.running[key] >= st.cfg.PerClient {
		return fmt.Errorf("%w: at most %d at once; close one first", errTooManyAnalyses, st.cfg.PerClient)
	}
	st.running[key]++
	st.total++
	return nil
}

func (st *study) end(key string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.total--
	if st.running[key]--; st.running[key] <= 0 {
		delete(st.running, key)
	}
}

var (
	errTooManyAnalyses = errors.New("too many analyses")
	errNotAllowed      = errors.New("not allowed")
)

// studyGame is what the analysis board may know of a game: its variant,
// start, plies and whether it is over.
type studyGame struct {
	id     string
	v      *rules.Variant
	start  *rules.Position
	plies  []game.Ply
	over   bool
	hidden bool
	sum    *Summary
}

// studyGameFor returns game id for client key's analysis, refusing a game
// with hidden information while it is played, and any game in play to a
// client that holds one of its seats.
func (s *Server) studyGameFor(ctx context.Context, id, key string) (*studyGame, error) {
	var sg *studyGame
	f := func(lg *liveGame) {
		sg = &studyGame{id: id, v: lg.g.Variant, start: lg.g.Start(), plies: append([]game.Ply(nil), lg.g.Plies...),
			over: lg.over, hidden: lg.hidden, sum: lg.summary()}
	}
	if lg := s.loaded(id); lg == nil || !lg.call(ctx, func() { f(lg) }) {
		rec, evs, err := s.store.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		lg, err := newLiveGame(s, rec, evs)
		if err != nil {
			return nil, err
		}
		f(lg)
	}
	if sg.over {
		return sg, nil
	}
	if sg.hidden {
		return nil, fmt.Errorf("%w: a game with hidden information can be analysed once it is over", errNotAllowed)
	}
	for _, g := range s.study.seatedIn(key) {
		if g == id {
			return nil, fmt.Errorf("%w: no analysis of a game you are playing until it is over", errNotAllowed)
		}
	}
	return sg, nil
}

// position returns the position after the game's first n plies (all if
// n < 0), as they were played.
func (sg *studyGame) position(n int) (*rules.Position, error) {
	if n < 0 || n > len(sg.plies) {
		if n >= 0 {
			return nil, fmt.Errorf("%w: ply %d: the game has %d", errBadRequest, n, len(sg.plies))
		}
		n = len(sg.plies)
	}
	p := sg.start.Clone()
	for _, pl := range sg.plies[:n] {
		p.MakeOutcome(pl.Move, pl.Outcome)
	}
	return p, nil
}

// studyPosition reads the position a request names: game=ID with ply=N
// (the position after N plies of the game; the last by default), or
// variant=NAME with fen=FEN (the variant's start by default) and
// options={...}; then moves=M1 M2 ... (coordinates or SAN) played from
// there, each with its first outcome where chance decides. It refuses a
// live game as studyGameFor does, and a position of a live game the
// client plays in.
func (s *Server) studyPosition(ctx context.Context, r *http.Request, key string) (*rules.Position, error) {
	q := r.URL.Query()
	var p *rules.Position
	if id := q.Get("game"); id != "" {
		if q.Has("fen") || q.Has("variant") || q.Has("options") {
			return nil, fmt.Errorf("%w: a game's position comes from its record: no fen, variant or options with game", errBadRequest)
		}
		sg, err := s.studyGameFor(ctx, id, key)
		if err != nil {
			return nil, err
		}
		n := -1
		if ps := q.Get("ply"); ps != "" {
			if n, err = strconv.Atoi(ps); err != nil || n < 0 {
				return nil, fmt.Errorf("%w: ply %q: want a number from 0", errBadRequest, ps)
			}
		}
		if p, err = sg.position(n); err != nil {
			return nil, err
		}
	} else {
		opts, err := queryOptions(q)
		if err != nil {
			return nil, err
		}
		name := q.Get("variant")
		if name == "" {
			return nil, fmt.Errorf("%w: name a variant or a game", errBadRequest)
		}
		v, err := s.variantFor(name, opts)
		if err != nil {
			return nil, err
		}
		p = v.Start()
		if fen := q.Get("fen"); fen != "" {
			if len(fen) > 512 {
				return nil, fmt.Errorf("%w: too long", errBadFEN)
			}
			if p, err = v.ParseFEN(fen); err != nil {
				return nil, fmt.Errorf("%w: %w", errBadFEN, err)
			}
			if err := p.Validate(); err != nil {
				return nil, fmt.Errorf("%w: %w", errBadFEN, err)
			}
		}
	}
	hashes := []uint64{p.Hash()}
	moves := strings.Fields(strings.ReplaceAll(q.Get("moves"), ",", " "))
	if len(moves) > maxStudyMoves {
		return nil, fmt.Errorf("%w: at most %d moves", errBadRequest, maxStudyMoves)
	}
	for i, text := range moves {
		if p.Status().Over() {
			return nil, fmt.Errorf("%w: move %d %q: the game is over", errBadRequest, i+1, text)
		}
		m, err := notation.ParseMove(p, text)
		if err != nil {
			return nil, fmt.Errorf("%w: move %d: %w", errBadRequest, i+1, err)
		}
		p.Make(m)
		hashes = append(hashes, p.Hash())
	}
	if q.Get("game") == "" {
		if err := s.notPlaying(ctx, key, p.Variant(), hashes); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// notPlaying refuses the analysis of a position (any of hashes, of
// variant v) that stands on the board of a live game in which client key
// holds a seat: no help during play, whichever way the position is named.
// A player of a live game with hidden information may analyse no position
// of its variant at all: the position it would name is its view, which
// the true board's does not match.
func (s *Server) notPlaying(ctx context.Context, key string, v *rules.Variant, hashes []uint64) error {
	for _, id := range s.study.seatedIn(key) {
		lg := s.loaded(id)
		if lg == nil {
			s.study.forget(key, id)
			continue
		}
		var same bool
		ok := lg.call(ctx, func() {
			if lg.over || lg.g.Variant.Name() != v.Name() {
				return
			}
			if lg.hidden {
				same = true
				return
			}
			h := lg.g.Position().Hash()
			for _, x := range hashes {
				same = same || x == h
			}
		})
		if ok && same {
			return fmt.Errorf("%w: that position is on the board of a game you are playing; analyse it once the game is over", errNotAllowed)
		}
	}
	return nil
}

// studyError answers an error of the analysis board.
func (s *Server) studyError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", errors.New("no such game"))
	case errors.Is(err, errNotAllowed):
		writeError(w, http.StatusForbidden, "not_allowed", err)
	case errors.Is(err, errTooManyAnalyses):
		tooMany(w, time.Second, err)
	case writeRequestError(w, err):
	default:
		s.logf("server: analysis: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the analysis failed"))
	}
}

// LegalMove is a legal move of a position, in coordinates and in SAN.
type LegalMove struct {
	Move string `json:"move"`
	SAN  string `json:"san"`
}

// PositionInfo describes a position for the analysis board
// (GET /api/analysis/position).
type PositionInfo struct {
	Variant string      `json:"variant"`
	Files   int         `json:"files"`
	Ranks   int         `json:"ranks"`
	FEN     string      `json:"fen"`
	Board   string      `json:"board"`
	Turn    string      `json:"turn"`
	Check   string      `json:"check,omitempty"`
	Last    []string    `json:"last,omitempty"`
	Status  statusJSON  `json:"status"`
	Legal   []LegalMove `json:"legal"`
}

func positionInfo(p *rules.Position) PositionInfo {
	v := p.Variant()
	st := p.Status()
	info := PositionInfo{Variant: v.Name(), Files: v.Board().Files, Ranks: v.Board().Ranks,
		FEN: p.FEN(), Board: boardPart(p), Turn: p.Turn().String(), Check: checkSquare(p),
		Status: statusJSON{Result: st.Result.String(), Reason: string(st.Reason), Detail: st.Detail},
		Legal:  []LegalMove{}}
	if m, _, ok := p.LastMove(); ok {
		if m.Kind() != rules.Drop && m.From() != 0 {
			info.Last = append(info.Last, m.From().String())
		}
		info.Last = append(info.Last, m.To().String())
	}
	if !st.Over() {
		var buf [rules.MaxMoves]rules.Move
		for _, m := range p.LegalMoves(buf[:0]) {
			info.Legal = append(info.Legal, LegalMove{Move: notation.Coord(p, m), SAN: notation.SAN(p, m)})
		}
	}
	return info
}

// handlePosition answers the position a request names (studyPosition)
// with its legal moves.
func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	p, err := s.studyPosition(r.Context(), r, s.clientKey(r))
	if err != nil {
		s.studyError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, positionInfo(p))
}

// StudyPly is one ply of a game on the analysis board, with the
// position it leaves.
type StudyPly struct {
	Ply  int      `json:"ply"`
	Move string   `json:"move"`
	SAN  string   `json:"san"`
	FEN  string   `json:"fen"`
	Turn string   `json:"turn"` // the side to move after the ply
	Last []string `json:"last,omitempty"`
	// Chance marks a ply whose result chance decided.
	Chance bool `json:"chance,omitempty"`
}

// StudyGame answers GET /api/games/{id}/study: a game for the analysis
// board.
type StudyGame struct {
	Game     *Summary   `json:"game"`
	StartFEN string     `json:"start_fen"`
	Plies    []StudyPly `json:"plies"`
}

// handleStudyGame answers a game's plies for the analysis board.
func (s *Server) handleStudyGame(w http.ResponseWriter, r *http.Request) {
	sg, err := s.studyGameFor(r.Context(), r.PathValue("id"), s.clientKey(r))
	if err != nil {
		s.studyError(w, err)
		return
	}
	p := sg.start.Clone()
	out := StudyGame{Game: sg.sum, StartFEN: p.FEN(), Plies: []StudyPly{}}
	for i, pl := range sg.plies {
		sp := StudyPly{Ply: i + 1, Move: notation.Coord(p, pl.Move), SAN: notation.SAN(p, pl.Move),
			Chance: len(p.Outcomes(pl.Move)) > 1}
		if pl.Move.Kind() != rules.Drop && pl.Move.From() != 0 {
			sp.Last = append(sp.Last, pl.Move.From().String())
		}
		sp.Last = append(sp.Last, pl.Move.To().String())
		p.MakeOutcome(pl.Move, pl.Outcome)
		sp.FEN, sp.Turn = p.FEN(), p.Turn().String()
		out.Plies = append(out.Plies, sp)
	}
	writeJSON(w, http.StatusOK, out)
}

// AnalysisLine is one line of the engine's analysis: its score from the
// side to move's point of view and from White's, and its moves.
type AnalysisLine struct {
	Depth   int      `json:"depth"`
	MultiPV int      `json:"multipv"`
	Score   int      `json:"score"`          // centipawns, the side to move
	Mate    int      `json:"mate,omitempty"` // moves to mate, > 0 the side to move mates
	White   int      `json:"white"`          // the score for White
	Bound   string   `json:"bound,omitempty"`
	Nodes   int64    `json:"nodes"`
	TimeMS  int64    `json:"time_ms"`
	PV      []string `json:"pv"`
	SAN     []string `json:"san"`
}

// lineOf turns a search report into a line, its moves written from p.
func lineOf(p *rules.Position, in search.Info) AnalysisLine {
	l := AnalysisLine{Depth: in.Depth, MultiPV: max(in.MultiPV, 1), Score: in.Score, Mate: in.Mate,
		Bound: in.Bound, Nodes: in.Nodes, TimeMS: in.Time.Milliseconds(), PV: []string{}, SAN: []string{}}
	l.White = whiteScore(p, in.Score, in.Mate)
	q := p.Clone()
	for _, m := range in.PV {
		if q.Status().Over() || !q.IsLegal(m) {
			break
		}
		l.PV = append(l.PV, notation.Coord(q, m))
		l.SAN = append(l.SAN, notation.SAN(q, m))
		q.Make(m)
	}
	return l
}

// whiteScore turns a score of p's side to move into White's, a mate into
// ±(10000 - moves).
func whiteScore(p *rules.Position, score, mate int) int {
	switch {
	case mate > 0:
		score = 10000 - mate
	case mate < 0:
		score = -10000 - mate
	}
	if p.Turn() == rules.Black {
		return -score
	}
	return score
}

// sse writes server-sent events. A stream may last longer than the HTTP
// server's write timeout (a game's blunder check): each event moves the
// write deadline to the server's write timeout from now, so only a stream
// that falls silent that long is cut.
type sse struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func newSSE(w http.ResponseWriter, timeout time.Duration) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	e := &sse{w: w, rc: http.NewResponseController(w), timeout: timeout}
	e.extend()
	w.WriteHeader(http.StatusOK)
	e.rc.Flush()
	return e
}

// extend moves the write deadline (where the server has one to move).
func (e *sse) extend() {
	if e.timeout > 0 {
		e.rc.SetWriteDeadline(time.Now().Add(e.timeout))
	}
}

// send writes one event; false if the client is gone.
func (e *sse) send(event string, v any) bool {
	e.extend()
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, mustJSON(v)); err != nil {
		return false
	}
	return e.rc.Flush() == nil
}

// analysisLimits reads depth and lines from a request, capped.
func (st *study) analysisLimits(r *http.Request) (search.Limits, error) {
	q := r.URL.Query()
	lim := search.Limits{Depth: st.cfg.MaxDepth, MoveTime: st.cfg.MaxTime, MultiPV: 1}
	num := func(name string, dst *int, hi int) error {
		s := q.Get(name)
		if s == "" {
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("%w: %s %q: want a number from 1", errBadRequest, name, s)
		}
		*dst = min(n, hi)
		return nil
	}
	if err := num("depth", &lim.Depth, st.cfg.MaxDepth); err != nil {
		return lim, err
	}
	if err := num("multipv", &lim.MultiPV, st.cfg.MaxLines); err != nil {
		return lim, err
	}
	return lim, nil
}

// handleAnalysis streams the engine's analysis of a position
// (studyPosition) as server-sent events: "line" for each line of each
// depth (AnalysisLine), then "done" with the best move, or "error". The
// search ends at its depth or time cap, or when the client goes away.
func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	key := s.clientKey(r)
	lim, err := s.study.analysisLimits(r)
	if err != nil {
		s.studyError(w, err)
		return
	}
	p, err := s.studyPosition(r.Context(), r, key)
	if err != nil {
		s.studyError(w, err)
		return
	}
	if err := s.study.begin(key); err != nil {
		s.studyError(w, err)
		return
	}
	// The analysis is uncounted before its last event is sent, so that a
	// client that starts its next analysis on reading it is not refused.
	end := sync.OnceFunc(func() { s.study.end(key) })
	defer end()
	ev := newSSE(w, s.writeTimeout(r))
	if st := p.Status(); st.Over() {
		end()
		ev.send("done", map[string]any{"over": true, "status": statusJSON{Result: st.Result.String(), Reason: string(st.Reason), Detail: st.Detail}})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.study.cfg.MaxTime+5*time.Second)
	defer cancel()
	gone := false
	res, err := s.study.search(ctx, key, p, lim, func(in search.Info) {
		if !gone && !ev.send("line", lineOf(p, in)) {
			gone = true
			cancel()
		}
	})
	if gone || r.Context().Err() != nil {
		return
	}
	end()
	if err != nil {
		ev.send("error", map[string]string{"code": "internal", "message": "the analysis stopped: " + err.Error()})
		return
	}
	done := map[string]any{"depth": res.Info.Depth}
	if res.Best != rules.NoMove {
		done["best"] = notation.Coord(p, res.Best)
		done["best_san"] = notation.SAN(p, res.Best)
	}
	ev.send("done", done)
}

// search runs one search for client key on an analysis engine, in turn
// with the other clients' searches.
func (st *study) search(ctx context.Context, key string, p *rules.Position, lim search.Limits, info func(search.Info)) (search.Result, error) {
	e, err := st.engines.acquire(ctx, key)
	if err != nil {
		return search.Result{}, err
	}
	defer st.engines.release(key, e)
	e.Clear()
	ctx, cancel := context.WithTimeout(ctx, lim.MoveTime+time.Second)
	defer cancel()
	// The variant's whole decision (its own player where it has one: a
	// design in a design phase, an action otherwise).
	res, err := player.New(p.Variant(), e, 1).Search(ctx, p, lim, info)
	if errors.Is(err, player.ErrNoMove) {
		err = nil // no move: the result says so
	}
	return res, err
}

// PlyEval is the evaluation of the position after a ply of a game (ply
// 0: the start), for White, by a bounded search.
type PlyEval struct {
	Ply   int `json:"ply"`
	White int `json:"white"`
}

// Blunder is a ply after which the mover's evaluation dropped by more
// than StudyConfig.BlunderDrop.
type Blunder struct {
	Ply  int    `json:"ply"`
	SAN  string `json:"san"`
	Seat string `json:"seat"`
	Drop int    `json:"drop"` // centipawns lost, from the mover's point of view
	Best string `json:"best,omitempty"`
}

// clampEval bounds a White score for comparing plies: a mate counts as
// ten pawns.
func clampEval(x int) int { return max(-1000, min(1000, x)) }

// handleBlunders streams, as server-sent events, the evaluation of each
// position of a game ("eval", PlyEval, from the start on) by a search
// bounded by StudyConfig.BlunderDepth and BlunderTime, then "done" with
// the blunders: the plies after which the mover's evaluation fell by more
// than BlunderDrop (scores clamped to ten pawns). A ply decided by chance
// is not judged: its drop mixes the luck of the roll with the choice.
func (s *Server) handleBlunders(w http.ResponseWriter, r *http.Request) {
	key := s.clientKey(r)
	sg, err := s.studyGameFor(r.Context(), r.PathValue("id"), key)
	if err != nil {
		s.studyError(w, err)
		return
	}
	if len(sg.plies) > maxStudyPlies {
		s.studyError(w, fmt.Errorf("%w: the game has %d plies; at most %d are checked", errBadRequest, len(sg.plies), maxStudyPlies))
		return
	}
	if err := s.study.begin(key); err != nil {
		s.studyError(w, err)
		return
	}
	defer s.study.end(key)
	ev := newSSE(w, s.writeTimeout(r))
	cfg := s.study.cfg
	lim := search.Limits{Depth: cfg.BlunderDepth, MoveTime: cfg.BlunderTime}
	p := sg.start.Clone()
	evals := make([]int, 0, len(sg.plies)+1)
	bests := make([]string, 0, len(sg.plies)+1)
	for i := 0; ; i++ {
		white, best := 0, ""
		if st := p.Status(); st.Over() {
			switch st.Result {
			case rules.WhiteWins:
				white = 1000
			case rules.BlackWins:
				white = -1000
			}
		} else {
			res, err := s.study.search(r.Context(), key, p, lim, nil)
			if err != nil {
				if r.Context().Err() == nil {
					ev.send("error", map[string]string{"code": "internal", "message": "the check stopped: " + err.Error()})
				}
				return
			}
			white = clampEval(whiteScore(p, res.Info.Score, res.Info.Mate))
			if res.Best != rules.NoMove {
				best = notation.SAN(p, res.Best)
			}
		}
		evals = append(evals, white)
		bests = append(bests, best)
		if !ev.send("eval", PlyEval{Ply: i, White: white}) {
			return
		}
		if i == len(sg.plies) {
			break
		}
		p.MakeOutcome(sg.plies[i].Move, sg.plies[i].Outcome)
	}
	blunders := []Blunder{}
	q := sg.start.Clone()
	for i, pl := range sg.plies {
		mover := q.Turn()
		san := notation.SAN(q, pl.Move)
		chance := len(q.Outcomes(pl.Move)) > 1
		q.MakeOutcome(pl.Move, pl.Outcome)
		drop := evals[i] - evals[i+1]
		if mover == rules.Black {
			drop = -drop
		}
		if !chance && drop > cfg.BlunderDrop {
			blunders = append(blunders, Blunder{Ply: i + 1, SAN: san, Seat: mover.String(), Drop: drop, Best: bests[i]})
		}
	}
	ev.send("done", map[string]any{"threshold": cfg.BlunderDrop, "blunders": blunders})
}

// writeTimeout is the write timeout of the HTTP server that serves r, or
// 0 if it has none.
func (s *Server) writeTimeout(r *http.Request) time.Duration {
	if hs, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok {
		return hs.WriteTimeout
	}
	return 0
}
