// Package search finds good moves in any variant: iterative deepening
// principal-variation search with a transposition table (in quiescence
// too), quiescence search, move ordering (hash move, captures by victim
// and attacker and by capture history, killers, counter moves, history and
// continuation history with a malus for the moves that did not cut off),
// null-move pruning and late-move reductions (by a log table and the
// move's history) where the variant makes them sound, reverse futility,
// futility and late-move pruning that depend on whether the static
// evaluation improves, internal iterative reduction, and time management
// that follows the best move's stability.
//
// Where captures are plain (no hook makes, resolves or gives chances to
// them; see plainCaptures), static exchange evaluation, on the rules'
// attackers of any piece set, orders the captures that lose material
// after the quiet moves, drops them from quiescence and prunes losing
// moves at low depth. Variants whose captures are hooks (Vazir's tries,
// Crazy Chess, csipgs) go without it.
//
// Scores are centipawns from the side to move's point of view. Mate and
// the variant's decisive end rules (a stalemate that wins, a bare king that
// loses) score ±(Mate - plies); draws by rule score 0.
//
// The search stands on rules.Position and the eval package only. Variants
// that add chance (outcomes with probabilities), several decisions in a row
// by one side, or hidden information extend it at fixed points: the side to
// move is read from the position after every move (the sign flips only
// when it changes), and a chance move is a chance node whose value is the
// probability-weighted mean of its outcomes' values, taken on a utility
// scale that flattens toward the mates (see mix).
//
// Chance nodes are searched with Ballard's Star1 pruning: the value of
// every outcome lies within known bounds (those of a mate), so each outcome
// is searched with the window that the outcomes already searched and the
// bounds of the others leave, and the node is cut off as soon as the
// weighted bounds decide it. Before that, Star2-style probes narrow the
// search: the transposition table gives each outcome a bound (if deep
// enough) and a guess, and outcomes are first tested with null windows at
// the thresholds those guesses imply, so that a node that is clearly above
// or below its window costs null-window searches only. Every decision
// costs a ply, also one after a failed try that keeps the turn (searching
// that outcome at the same depth makes each failed try a full re-search
// of the position, and played worse in Vazir at short time controls). In
// quiescence a capture attempt out of check is weighed with its retries:
// it succeeds within the turn's remaining tries or the side stands pat.
// A chance node never scores a mate: its value stays below nearMate, so
// that only a certain mate scores as mate.
//
// An engine may search with several threads (Engine.SetThreads): Lazy SMP,
// a shared-hash parallel search. Helper threads search the same root on
// their own copies of the position, with their own killers, history and
// continuation history, skipping some depths by Stockfish's schedule; they
// share only the transposition table, whose slots are written and read
// word by word with atomic stores and loads, the key stored XOR the data
// so that a slot torn by two threads writing at once reads as empty. The
// main thread decides the move and the time and reports the nodes of all.
// With one thread, the default, a search is the same node for node.
package search

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Score bounds.
const (
	Mate     = 32000       // the score of mate now; mate in n plies is Mate-n
	Infinity = Mate + 1    // above any score
	maxPly   = 128         // deepest line searched
	mateMin  = Mate - 1000 // scores beyond this are mates
	maxDepth = maxPly - 16 // deepest iteration
	tbWin    = mateMin - 1 // reserved
	_        = tbWin
	// nearMate bounds the scores of chance nodes: a chance node at ply
	// scores at most nearMate-ply, so a likely mate reached sooner scores
	// more. Scores above it are stored in the transposition table
	// relative to the node, like mates.
	nearMate = mateMin - 1
	// plyRelative: scores beyond it are relative to the root and stored
	// relative to the node.
	plyRelative = nearMate - maxPly - 1
	// maxOutcomes is the most outcomes a chance node weighs with Star1; a
	// move with more is searched as a plain expectation.
	maxOutcomes = 8
	// maxProbes is the number of null-window tests of an outcome at its
	// guessed threshold before it gets the Star1 window. On nine Vazir
	// positions (three starts, six middle games) one takes 1.10 million
	// nodes to depth 7, two 1.21 million; Star1 alone takes 3.0 million
	// to depth 6, where one probe takes 0.37 million.
	maxProbes = 1
	// maxRetries bounds the tries of one capture that quiescence weighs
	// together (see retryNode).
	maxRetries = 4
)

// chanceMode says how chance nodes are searched.
type chanceMode uint8

const (
	modeProbe chanceMode = iota // Star1 after null-window probes at guessed thresholds (the default)
	modeStar1                   // Star1 alone: each outcome once, with the Star1 window
	modePlain                   // every outcome with a full window (plain expectimax)
)

// Limits bound a search. Zero values mean no limit; with no limit at all the
// search runs until stopped.
type Limits struct {
	Depth     int           // plies
	Nodes     int64         // nodes
	MoveTime  time.Duration // exact time for this move
	Time      [2]time.Duration
	Inc       [2]time.Duration
	MovesToGo int
	Infinite  bool // search until Stop, whatever else is set
	MultiPV   int  // lines to report at the root (1 if 0)
	// SearchMoves, if not empty, limits the root to these moves.
	SearchMoves []rules.Move
	// CurrMove, if not nil, is called as each root move is searched, with
	// its number in the order searched (from 1), for a protocol's
	// "currmove" report.
	CurrMove func(m rules.Move, number int)
}

// Info reports the progress of a search after each completed iteration.
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int           // 1-based line number
	Score    int           // centipawns, side to move
	Mate     int           // moves to mate: > 0 the side to move mates, < 0 it is mated
	Bound    string        // "" exact, "lowerbound" or "upperbound"
	Nodes    int64         // nodes so far
	Time     time.Duration // time so far
	PV       []rules.Move
}

// NPS returns the nodes per second of the search so far.
func (i Info) NPS() int64 {
	if i.Time <= 0 {
		return 0
	}
	return int64(float64(i.Nodes) / i.Time.Seconds())
}

// Result is the outcome of a search.
type Result struct {
	Best   rules.Move // NoMove if the position has no legal move
	Ponder rules.Move
	Info   Info
}

// Engine searches positions. It keeps its transposition table and its
// histories (of quiet moves, continuation and capture history) between
// searches of one game. It is not safe for concurrent searches; one
// engine plays one game at a time.
//
// With several threads (SetThreads) a search is a shared-hash parallel
// search (Lazy SMP): helper threads search the same root, each on its own
// copy of the position with its own move-ordering tables, and share the
// transposition table with the main thread, which alone decides the move
// and the time and reports. Helpers skip some depths of their iterative
// deepening (the skip schedule below), so that the threads spread over
// depths and fill the table with different parts of the tree. With one
// thread (the default) a search is the same, node for node, as ever.
type Engine struct {
	tt      *table
	evals   map[*rules.Variant]*eval.Evaluator
	cont    *contHist // the continuation history of the game's variant
	threads int       // threads per search (1 if 0)
	main    *searcher // the main thread's searcher, kept for its buffers
	// running counts the helper threads still running, of this search or
	// of earlier ones still stopping: Clear and SetHash wait for them.
	running sync.WaitGroup
	mu      sync.Mutex
	spare   []*searcher // helpers' searchers not in use, each with its continuation history
	stopFl  atomic.Bool
	certain bool // search only the first outcome of every move

	// For tests: how chance nodes are searched, and whether to search
	// exactly (no forward pruning, no cutoffs from the table), so that
	// every mode gives the same values.
	mode  chanceMode
	exact bool
	// For tests: quiescence tests every capture's legality before it
	// orders them, as for a variant without LazyCaptures.
	eagerQ bool
}

// New returns an engine with a transposition table of hashMB megabytes.
func New(hashMB int) *Engine {
	if hashMB < 1 {
		hashMB = 1
	}
	return &Engine{tt: newTable(hashMB), evals: map[*rules.Variant]*eval.Evaluator{}}
}

// SetHash resizes the transposition table (and clears it).
func (e *Engine) SetHash(mb int) {
	if mb < 1 {
		mb = 1
	}
	e.running.Wait()
	e.tt = newTable(mb)
}

// MaxThreads is the most threads SetThreads accepts.
const MaxThreads = 256

// SetThreads sets the number of threads a search uses, within 1 and
// MaxThreads. The protocols and commands offer up to CPUs().
func (e *Engine) SetThreads(n int) {
	e.threads = min(max(n, 1), MaxThreads)
}

// Threads returns the number of threads a search uses.
func (e *Engine) Threads() int { return max(e.threads, 1) }

// CPUs returns the number of logical CPUs the process may use, the most
// threads the protocols and commands offer.
func CPUs() int { return min(runtime.NumCPU(), MaxThreads) }

// Hashfull returns how full the transposition table is, in permille: the
// share of a sample of slots that hold an entry of the latest search.
func (e *Engine) Hashfull() int { return e.tt.hashfull() }

// Clear forgets everything learned (a new game).
func (e *Engine) Clear() {
	e.running.Wait()
	e.tt.clear()
	e.cont = nil
	e.main = nil // and with it the main thread's history
	e.mu.Lock()
	e.spare = nil
	e.mu.Unlock()
}

// SetCertainCaptures sets whether the engine takes every move with several
// outcomes to have its first one (in Vazir: every capture succeeds) and
// searches that outcome alone, instead of weighing all of them. It is a
// baseline that ignores chance.
func (e *Engine) SetCertainCaptures(on bool) {
	if on != e.certain {
		e.running.Wait()
		e.tt.clear() // the values of the other model are no use
	}
	e.certain = on
}

// CertainCaptures reports whether SetCertainCaptures is on.
func (e *Engine) CertainCaptures() bool { return e.certain }

// Stop asks a running search to finish as soon as possible; it still
// returns its best move so far.
func (e *Engine) Stop() { e.stopFl.Store(true) }

// Evaluator returns the evaluator the engine uses for v.
func (e *Engine) Evaluator(v *rules.Variant) *eval.Evaluator {
	ev, ok := e.evals[v]
	if !ok {
		if len(e.evals) >= maxEvaluators {
			// Every definition or set of options an analysis request
			// brings is a variant of its own: keep the map bounded.
			clear(e.evals)
		}
		ev = eval.New(v)
		e.evals[v] = ev
	}
	return ev
}

// maxEvaluators bounds the evaluators an engine keeps, one a variant it
// searched (each with its tables and its cache of scores).
const maxEvaluators = 64

// searcher is the state of one search, or of one thread of a search
// with several.
type searcher struct {
	nets     eval.NetState
	e        *Engine
	thread   int     // 0 for the main thread, from 1 for helpers
	sh       *shared // the threads' common state; nil with one thread
	others   int64   // main thread: the helpers' nodes, as last published
	p        *rules.Position
	ev       *eval.Evaluator
	tt       *table
	ctx      context.Context
	lim      Limits
	start    time.Time
	soft     time.Time // do not start a new iteration after this (scaled by softScale)
	flexible bool      // the soft deadline follows the stability of the best move
	hard     time.Time // abort the search at this
	timed    bool
	nodes    int64
	seldepth int
	stopped  bool
	nullOK   bool // null-move pruning is sound in this variant
	drawRep  bool // repetition draws
	nmove    int  // half-moves of the n-move rule (0: none)
	moveCap  int
	chance   bool // moves decided by chance are chance nodes
	ranked   bool // the variant has chance: material values follow ranks
	prune    bool // forward pruning and cutoffs from the table are on
	mode     chanceMode
	end      rules.Ender        // the variant's end rules, or nil
	hend     rules.HistoryEnder // the variant's rule from the course of the game (makruk's counting), or nil
	gain     rules.Engine       // the variant's Tactical, or nil
	// lazy: the variant decides legality by a Legal hook, which may be
	// costly (Crazy Chess resolves the move and the replies): below the
	// root, pseudo-legal moves are generated and each is tested only when
	// its turn to be searched comes.
	lazy bool
	// lazyQ: the variant asks for the same in quiescence (LazyCaptures):
	// its captures are generated pseudo-legal, and each is tested only
	// once it is not pruned.
	lazyQ bool
	// see: captures are plain (see plainCaptures), so static exchange
	// evaluation orders and prunes them; seeBuf holds its attackers.
	see       bool
	seeBuf    []geom.Square
	seeLifted seeLifts // the pieces seeGE lifts

	moves       [maxPly + 1][]rules.Move
	scores      [maxPly + 1][]int32
	seeOf       [maxPly + 1][]seeState // per move of moves[ply], where s.see: its SEE at 0, if known
	killers     [maxPly + 1][2]rules.Move
	history     *histTable                        // kept from one search of a game to the next
	quiets      [maxPly + 1][maxQuiets]rules.Move // quiet moves searched at a node, for the history malus
	caps        [maxPly + 1][maxQuiets]int32      // the capture-history indices of the captures searched at a node
	cont        *contHist                         // nil: none for this variant
	cctx        [maxPly + 1]int32                 // the continuation context of the move made at each ply
	evals       [maxPly + 1]int32                 // the static evaluation at each ply (-Infinity in check)
	turns       [maxPly + 1]rules.Color           // the side to move at each ply
	pv          [maxPly + 1][maxPly + 1]rules.Move
	pvLen       [maxPly + 1]int
	rootExclude []rules.Move
}

// Search searches p (which it leaves as it found it) within the limits and
// returns the best move. info, if not nil, is called after each iteration
// (and once per line with MultiPV).
//
// With several threads it returns as soon as the main thread has
// finished, the nodes of the helpers counted as they last published them
// (within 1024 each), without waiting for the helpers: they stop within
// moments, and meanwhile the next search may start (Clear and SetHash
// wait for them), so that a helper slow to be scheduled on a busy machine
// costs the clock nothing.
func (e *Engine) Search(ctx context.Context, p *rules.Position, lim Limits, info func(Info)) Result {
	e.stopFl.Store(false)
	s := e.newSearcher(ctx, p, lim)
	s.setTime()
	e.tt.age.Add(1)
	n := e.Threads()
	if n == 1 {
		return s.iterate(info)
	}
	sh := &shared{nodes: make([]atomic.Int64, n-1)}
	s.sh = sh
	for i := range n - 1 {
		h := e.newHelper(ctx, p.Clone(), lim, i+1, sh)
		e.running.Go(h.help)
	}
	res := s.iterate(info)
	sh.halt.Store(true)
	for i := range sh.nodes {
		res.Info.Nodes += sh.nodes[i].Load()
	}
	return res
}

// shared is what the threads of one search share besides the table.
type shared struct {
	halt  atomic.Bool    // the main thread has finished: helpers stop
	nodes []atomic.Int64 // each helper's nodes (index thread-1), published every 1024
}

// Lazy SMP's skip schedule (as in Stockfish 8): helper i (from 1) skips
// depth d when (d+skipPhase[j])/skipSize[j] is odd, j = (i-1) mod 20, so
// that of the helpers about half search each depth and they start at
// varied depths.
var (
	skipSize  = [20]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	skipPhase = [20]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
)

// skipDepth reports whether helper thread (from 1) skips depth.
func skipDepth(thread, depth int) bool {
	j := (thread - 1) % len(skipSize)
	return (depth+skipPhase[j])/skipSize[j]%2 != 0
}

// newHelper prepares helper thread (from 1) of a search of p, a copy of
// the main thread's position: the same root moves and depth limit, its own
// continuation history (kept by the engine between searches with a
// searcher a helper has finished with), no reports, and no clock or node
// limit of its own (the main thread stops it).
func (e *Engine) newHelper(ctx context.Context, p *rules.Position, lim Limits, thread int, sh *shared) *searcher {
	lim.CurrMove, lim.MultiPV, lim.Nodes = nil, 1, 0
	var reuse *searcher
	e.mu.Lock()
	if n := len(e.spare); n > 0 {
		reuse = e.spare[n-1]
		e.spare = e.spare[:n-1]
	}
	e.mu.Unlock()
	s := e.searcherOf(ctx, p, lim, reuse)
	s.thread, s.sh = thread, sh
	if v := p.Variant(); s.cont == nil || s.cont.v != v {
		s.cont = newContHist(v)
	}
	return s
}

// help is a helper thread's iterative deepening: each depth its skip
// schedule leaves, with aspiration windows around its own last score,
// until the main thread finishes or the depth limit is reached. Its
// results reach the main thread through the table alone; it publishes its
// nodes as it ends.
func (s *searcher) help() {
	defer func() {
		s.sh.nodes[s.thread-1].Store(s.nodes)
		s.e.mu.Lock()
		s.e.spare = append(s.e.spare, s) // s is not touched after this
		s.e.mu.Unlock()
	}()
	if len(s.rootMoves(s.p.LegalMoves(nil))) == 0 {
		return
	}
	maxD := maxDepth
	if s.lim.Depth > 0 {
		maxD = min(s.lim.Depth, maxDepth)
	}
	prev := 0
	for depth := 1; depth <= maxD; depth++ {
		if skipDepth(s.thread, depth) {
			continue
		}
		score, _ := s.aspiration(depth, prev, true)
		if s.stopped {
			return
		}
		prev = score
	}
}

// newSearcher prepares a search of p by the main thread.
func (e *Engine) newSearcher(ctx context.Context, p *rules.Position, lim Limits) *searcher {
	s := e.searcherOf(ctx, p, lim, e.main)
	e.main = s
	v := p.Variant()
	if e.cont == nil || e.cont.v != v {
		e.cont = newContHist(v)
	}
	s.cont = e.cont
	return s
}

// searcherOf returns a searcher of p within lim: reuse (if not nil) made
// new but for its move buffers, its continuation history and its history
// (kept while the variant stays the same), or else a new one without a
// continuation history.
func (e *Engine) searcherOf(ctx context.Context, p *rules.Position, lim Limits, reuse *searcher) *searcher {
	v := p.Variant()
	spec := v.Spec()
	end := spec.End
	s := reuse
	if s == nil {
		s = &searcher{seeBuf: make([]geom.Square, 0, 2*rules.MaxPieces)}
		for i := range s.moves {
			s.moves[i] = make([]rules.Move, 0, 256)
			s.scores[i] = make([]int32, 0, 256)
			s.seeOf[i] = make([]seeState, 0, 256)
		}
	}
	moves, scores, seeOf, cont, seeBuf, hist := s.moves, s.scores, s.seeOf, s.cont, s.seeBuf[:0], s.history
	if hist == nil || hist.v != v {
		hist = &histTable{v: v}
	}
	*s = searcher{
		moves: moves, scores: scores, seeOf: seeOf, cont: cont, seeBuf: seeBuf, history: hist,
		e: e, p: p, ev: e.Evaluator(v), tt: e.tt, ctx: ctx, lim: lim, start: time.Now(),
		nullOK:  end.Stalemate == rules.DrawValue && !isAfterMover(v),
		drawRep: end.NFold > 0,
		nmove:   2 * end.NMoveRule,
		moveCap: end.MoveCap,
		chance:  v.Chance() && !e.certain,
		ranked:  v.Chance(),
		prune:   !e.exact,
		mode:    e.mode,
		lazy:    isLegalJudge(v),
		lazyQ:   lazyCaptures(v) && !e.eagerQ,
		see:     plainCaptures(v),
	}
	s.end, _ = v.Ext().(rules.Ender)
	s.hend, _ = v.Ext().(rules.HistoryEnder)
	s.gain, _ = v.Ext().(rules.Engine)
	return s
}

// setTime turns the limits into a soft and a hard deadline.
func (s *searcher) setTime() {
	l := s.lim
	if l.Infinite {
		return
	}
	switch {
	case l.MoveTime > 0:
		s.timed = true
		s.soft = s.start.Add(l.MoveTime)
		s.hard = s.soft
	case l.Time[s.p.Turn()] > 0:
		s.timed = true
		us := s.p.Turn()
		left := l.Time[us]
		inc := l.Inc[us]
		mtg := l.MovesToGo
		if mtg <= 0 || mtg > 40 {
			mtg = 30
		}
		overhead := 30 * time.Millisecond
		budget := max(left/time.Duration(mtg)+inc*3/4, 5*time.Millisecond)
		budget = min(budget, max(left-overhead, time.Millisecond)/2)
		s.soft = s.start.Add(budget * 6 / 10)
		s.flexible = true
		s.hard = s.start.Add(min(budget*3, max(left-overhead, time.Millisecond)*3/4))
	}
}

// stop reports whether the search must end now.
func (s *searcher) stop() bool {
	if s.stopped {
		return true
	}
	if s.nodes&1023 == 0 {
		if s.e.stopFl.Load() || s.ctx.Err() != nil || (s.timed && time.Now().After(s.hard)) {
			s.stopped = true
		}
		if s.sh != nil {
			s.syncThreads()
		}
	}
	if s.lim.Nodes > 0 && s.nodes+s.others >= s.lim.Nodes {
		s.stopped = true
	}
	return s.stopped
}

// syncThreads is a thread's periodic exchange with the others: a helper
// publishes its nodes and stops once the main thread has finished; the
// main thread reads the helpers' nodes (for reports and the node limit).
func (s *searcher) syncThreads() {
	if s.thread > 0 {
		s.sh.nodes[s.thread-1].Store(s.nodes)
		if s.sh.halt.Load() {
			s.stopped = true
		}
		return
	}
	var n int64
	for i := range s.sh.nodes {
		n += s.sh.nodes[i].Load()
	}
	s.others = n
}

func (s *searcher) iterate(info func(Info)) Result {
	p := s.p
	rootMoves := s.rootMoves(p.LegalMoves(nil))
	if len(rootMoves) == 0 {
		return Result{Info: Info{Score: s.terminal(0), Time: time.Since(s.start)}}
	}
	maxD := maxDepth
	if s.lim.Depth > 0 {
		maxD = min(s.lim.Depth, maxDepth)
	}
	multi := max(1, min(s.lim.MultiPV, len(rootMoves)))
	var best Result
	best.Best = rootMoves[0]
	prevScore := 0
	scale := 1.0                  // of the soft deadline, from softScale when it is flexible
	changes, lastChange := 0.0, 0 // best-move changes (decaying) and the depth of the last
	for depth := 1; depth <= maxD; depth++ {
		s.rootExclude = s.rootExclude[:0]
		var lines []Info
		for line := 1; line <= multi; line++ {
			score, bound := s.aspiration(depth, prevScore, line == 1)
			if s.stopped && depth > 1 {
				break
			}
			pv := append([]rules.Move(nil), s.pv[0][:s.pvLen[0]]...)
			if len(pv) == 0 {
				break
			}
			in := s.info(depth, score, pv)
			in.MultiPV = line
			in.Bound = bound
			lines = append(lines, in)
			if line == 1 {
				changes /= 2
				if depth > 1 && pv[0] != best.Best {
					changes++
					lastChange = depth
				}
				if s.flexible {
					scale = softScale(changes, depth-lastChange, prevScore, score, depth)
				}
				prevScore = score
				best = Result{Best: pv[0], Info: in}
				if len(pv) > 1 {
					best.Ponder = pv[1]
				}
			}
			s.rootExclude = append(s.rootExclude, pv[0])
			if s.stopped {
				break
			}
		}
		if len(lines) == multi && multi > 1 {
			// Each line after the first is searched without the lines
			// before it, and may come out above them: report the lines
			// best first, the best move being the first.
			sortLines(lines)
			best.Best, best.Info, best.Ponder = lines[0].PV[0], lines[0], rules.NoMove
			if len(lines[0].PV) > 1 {
				best.Ponder = lines[0].PV[1]
			}
		}
		if info != nil {
			for _, in := range lines {
				info(in)
			}
		}
		if s.stopped {
			break
		}
		if s.timed && time.Since(s.start) > time.Duration(float64(s.soft.Sub(s.start))*scale) {
			break
		}
		if best.Info.Mate != 0 && depth > 2*abs(best.Info.Mate)+4 && !s.lim.Infinite && s.lim.Depth == 0 {
			break // a mate found and confirmed
		}
	}
	best.Info.Nodes, best.Info.Time = s.nodes, time.Since(s.start)
	return best
}

// sortLines orders the lines of one iteration by score, best first
// (a stable sort: equal scores keep their order), and numbers them again.
func sortLines(lines []Info) {
	slices.SortStableFunc(lines, func(a, b Info) int { return cmp.Compare(b.Score, a.Score) })
	for i := range lines {
		lines[i].MultiPV = i + 1
	}
}

// softScale scales the soft deadline of a search on the clock after the
// iteration at depth: longer while the best move changes (changes counts
// the recent changes, each iteration halving the count before) or the
// score falls from prev, shorter once the best move has stood for stable
// iterations.
func softScale(changes float64, stable, prev, score, depth int) float64 {
	x := 1 + 1.5*changes
	if stable >= 6 {
		x *= 0.7
	}
	if depth > 4 && abs(prev) < mateMin && abs(score) < mateMin {
		x *= min(max(1+float64(prev-score)/200, 0.85), 1.5)
	}
	return min(max(x, 0.5), 2.5)
}

// rootMoves keeps the moves the limits allow at the root.
func (s *searcher) rootMoves(moves []rules.Move) []rules.Move {
	if len(s.lim.SearchMoves) == 0 {
		return moves
	}
	return slices.DeleteFunc(moves, func(m rules.Move) bool { return !slices.Contains(s.lim.SearchMoves, m) })
}

// aspiration searches the root at depth with a window around prev:
// aspDelta either side, widened on the side it fails by delta, which
// grows by half each time, past the score the search returned.
func (s *searcher) aspiration(depth, prev int, first bool) (int, string) {
	alpha, beta := -Infinity, Infinity
	delta := aspDelta
	if depth >= 4 && first && abs(prev) < mateMin {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		score := s.negamax(alpha, beta, depth, 0, true)
		if s.stopped {
			return score, ""
		}
		if score > alpha && score < beta {
			return score, ""
		}
		alpha, beta, delta = widen(alpha, beta, score, delta)
	}
}

// widen returns the aspiration window and delta after a search with the
// window (alpha, beta) returned score, outside it: the side it failed on
// moved delta past the score, delta grown by half, the whole range once
// delta passes 1000.
func widen(alpha, beta, score, delta int) (int, int, int) {
	if score <= alpha {
		alpha = max(-Infinity, min(alpha, score)-delta)
	} else {
		beta = min(Infinity, max(beta, score)+delta)
	}
	delta += delta / 2
	if delta > 1000 {
		return -Infinity, Infinity, delta
	}
	return alpha, beta, delta
}

// aspDelta is the half-width of the first aspiration window.
const aspDelta = 15

func (s *searcher) info(depth, score int, pv []rules.Move) Info {
	in := Info{Depth: depth, SelDepth: s.seldepth, Score: score, Nodes: s.nodes + s.others, Time: time.Since(s.start), PV: pv}
	if score > mateMin {
		in.Mate = (Mate - score + 1) / 2
	} else if score < -mateMin {
		in.Mate = -(Mate + score) / 2
	}
	return in
}

// terminal scores a position without legal moves at ply, by the variant's
// rules for checkmate and stalemate.
func (s *searcher) terminal(ply int) int {
	spec := s.p.Variant().Spec()
	end := spec.End
	val := end.Stalemate
	if s.p.InCheck() {
		if spec.DropMateIllegal != "" {
			// A checkmate by a drop the rules forbid to mate is the
			// checkmated side's win: the position's status says which.
			if st := s.p.Status(); st.Over() {
				return statusScore(s.p, st, ply)
			}
		}
		val = end.Checkmate
		if val == rules.None {
			val = rules.Loss
		}
	}
	return valueScore(val, ply)
}

func valueScore(v rules.Value, ply int) int {
	switch v {
	case rules.Loss:
		return -(Mate - ply)
	case rules.WinValue:
		return Mate - ply
	}
	return 0
}

// ruleEnd scores the end rules that do not need move generation: the
// variant's own end rules (its End hook), a missing royal, a bare king, the
// n-move rule (checkmate excepted: the caller checks the moves),
// repetition, the move cap. ok is false if none applies.
func (s *searcher) ruleEnd(ply int) (score int, ok bool) {
	p := s.p
	v := p.Variant()
	if s.end != nil {
		if st, decided := s.end.End(p); decided {
			if !st.Over() {
				return 0, false // the variant says the game goes on
			}
			return statusScore(p, st, ply), true
		}
	}
	if s.drawRep && p.Recurrences() >= 2 {
		return 0, true
	}
	if s.moveCap > 0 && p.Played() >= s.moveCap {
		return 0, true
	}
	end := v.Spec().End
	if end.BareKing != rules.None {
		us := p.Turn()
		n, royals := 0, 0
		for _, sq := range p.Pieces(us) {
			n++
			if v.Royal(p.At(sq).Type()) {
				royals++
			}
		}
		if royals > 0 && n == royals {
			return valueScore(end.BareKing, ply), true
		}
	}
	return 0, false
}

// statusScore scores a finished game's status for the side to move at
// ply.
func statusScore(p *rules.Position, st rules.Status, ply int) int {
	switch st.Result {
	case rules.Win(p.Turn()):
		return Mate - ply
	case rules.Win(p.Turn().Other()):
		return -(Mate - ply)
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// orderMoves scores moves for ordering: hash move, captures by value and
// promotions, killers, history, then (where captures are plain) the
// captures that lose material in the exchange, which alone score below 0.
func (s *searcher) orderMoves(ply int, moves []rules.Move, hashMove rules.Move) []int32 {
	p := s.p
	sc := s.scores[ply][:0]
	so := s.seeOf[ply][:0]
	us := p.Turn()
	counter := s.counterMove(ply)
	for _, m := range moves {
		var v int32
		st := seeNone
		switch {
		case m == hashMove:
			v = 1 << 30
		case p.IsCapture(m) || m.Kind() == rules.Promotion:
			victim := s.prize(m)
			if s.chance {
				if outs := p.Outcomes(m); len(outs) > 1 {
					victim = victim * int(outs[0].Num) / int(outs[0].Den)
				}
			}
			attacker := s.ev.Value(p.At(m.From()).Type())
			if s.ranked {
				attacker = s.ev.PieceValue(p.At(m.From()))
			}
			v = 1<<28 + int32(victim*16-attacker/16+s.captureScore(m))
			if s.see {
				st = seeDue // tested when pick reaches it (see pick)
			}
		case m == s.killers[ply][0]:
			v = 1<<27 + 2
		case m == s.killers[ply][1]:
			v = 1<<27 + 1
		case m == counter:
			v = 1 << 27
		default:
			if h := s.histOf(us, m); h != nil {
				v = *h + int32(s.contScore(ply, s.contextOf(m)))
			}
		}
		sc = append(sc, v)
		so = append(so, st)
	}
	s.scores[ply] = sc
	s.seeOf[ply] = so
	return sc
}

// prize returns what the capture or promotion m wins if it succeeds: the
// victim's value (by rank where pieces carry ranks) and the promotion's.
// Where chance decides m, its expected gain is this times the chance of
// success.
func (s *searcher) prize(m rules.Move) int {
	p := s.p
	if s.gain != nil {
		g, _ := s.gain.Tactical(p, m)
		return g
	}
	if !s.ranked {
		victim := 100 // en passant
		if q := p.At(m.To()); q.IsPiece() {
			victim = s.ev.Value(q.Type())
		}
		if m.Kind() == rules.Promotion {
			victim += s.ev.Value(m.Promo())
		}
		return victim
	}
	victim := 0
	switch {
	case m.Kind() == rules.EnPassant:
		victim = s.ev.PieceValue(p.At(m.Aux()))
	case p.At(m.To()).IsPiece():
		victim = s.ev.PieceValue(p.At(m.To()))
	}
	if m.Kind() == rules.Promotion {
		victim += s.ev.Value(m.Promo()) - s.ev.Value(p.At(m.From()).Type())
	}
	return victim
}

// seeState is what is known of a capture's static exchange at threshold
// 0 while its node's moves are picked.
type seeState uint8

const (
	seeNone  seeState = iota // not a capture ordered by SEE (or no SEE in the variant)
	seeDue                   // a capture not tested yet: its score is an upper bound
	seeWins                  // tested: seeGE(m, 0) holds
	seeLoses                 // tested: it fails, its score lowered by seeLoss
)

// seeLoss lowers the score of a capture that loses in the exchange: it
// comes after the quiet moves.
const seeLoss = 1<<28 + 1<<24

// bestFrom returns the index of the first highest score from i on.
func bestFrom(scores []int32, i int) int {
	b, top := i, scores[i]
	for j, v := range scores[i+1:] {
		if v > top {
			b, top = i+1+j, v
		}
	}
	return b
}

// pick moves the best-scored remaining move of moves[ply] to position i.
// A capture's exchange is tested only when it would be picked (orderMoves
// leaves it due, its score an upper bound): if it loses, its score is
// lowered and the pick is made again. The moves come in the order the
// scores with every exchange tested up front would give, ties included:
// nothing moves in the slices until a pick is final, and a move picked
// with its score final is the first highest of the final scores too.
func (s *searcher) pick(ply int, moves []rules.Move, scores []int32, i int) {
	b := bestFrom(scores, i)
	if s.see {
		so := s.seeOf[ply]
		for so[b] == seeDue {
			if s.seeGE(moves[b], 0) {
				so[b] = seeWins
				break
			}
			so[b] = seeLoses
			scores[b] -= seeLoss
			b = bestFrom(scores, i)
		}
		so[i], so[b] = so[b], so[i]
	}
	moves[i], moves[b] = moves[b], moves[i]
	scores[i], scores[b] = scores[b], scores[i]
}

func (s *searcher) negamax(alpha, beta, depth, ply int, pvNode bool) int {
	p := s.p
	s.pvLen[ply] = 0
	if ply > 0 {
		if s.stop() {
			return 0
		}
		if sc, ok := s.ruleEnd(ply); ok {
			return sc
		}
		// Mate-distance pruning.
		alpha = max(alpha, -(Mate - ply))
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	if ply >= maxPly-1 {
		return s.ev.EvaluateState(p, &s.nets)
	}
	inCheck := p.InCheck()
	if inCheck && p.Counter() == 0 && p.Phase() == 0 {
		depth++ // once a turn, at its first decision
	}
	if depth <= 0 {
		return s.quiesce(alpha, beta, ply)
	}
	s.nodes++
	s.seldepth = max(s.seldepth, ply)

	key := p.Hash()
	hashMove := rules.NoMove
	staticEval := -Infinity
	if e, ok := s.tt.probe(key); ok {
		hashMove = e.move
		sc := fromTT(int(e.score), ply)
		if !pvNode && s.prune && int(e.depth) >= depth && cuts(e.bound, sc, alpha, beta) {
			if s.nmove == 0 || p.Halfmove() < s.nmove-4 {
				return sc
			}
		}
		staticEval = int(e.eval)
	}
	if !inCheck && staticEval == -Infinity {
		staticEval = s.ev.EvaluateState(p, &s.nets)
	}
	if inCheck {
		staticEval = -Infinity
	}
	improving := s.improving(ply, staticEval)
	// Internal iterative reduction: a node the table knows no move for is
	// searched one ply shallower (it is likely new, and its move order
	// poor); the next iteration finds its move stored.
	if s.prune && ply > 0 && hashMove == rules.NoMove && depth >= 4 {
		depth--
	}

	if !pvNode && !inCheck && ply > 0 && s.prune {
		// Reverse futility pruning.
		if depth <= rfpDepth && staticEval-rfpMargin(depth, improving) >= beta && abs(beta) < mateMin {
			return staticEval
		}
		// Null move: pass and see whether the opponent can still not
		// reach beta; not in variants where passing can be an advantage
		// the rules give no way to take (zugzwang with a stalemate win).
		if s.nullOK && depth >= 3 && staticEval >= beta && s.hasPieces() && abs(beta) < mateMin {
			r := 2 + depth/4
			s.cctx[ply] = -1
			p.MakeNull()
			sc := -s.negamax(-beta, -beta+1, depth-1-r, ply+1, false)
			p.Unmake()
			if s.stopped {
				return 0
			}
			if sc >= beta {
				if sc >= mateMin {
					sc = beta
				}
				return sc
			}
		}
	}

	var moves []rules.Move
	lazy := s.lazy && ply > 0
	if lazy {
		moves = p.PseudoLegalMoves(s.moves[ply][:0])
	} else {
		moves = p.LegalMoves(s.moves[ply][:0])
	}
	s.moves[ply] = moves
	if ply == 0 {
		moves = s.rootMoves(moves)
		if len(s.rootExclude) > 0 {
			moves = slices.DeleteFunc(moves, func(m rules.Move) bool { return slices.Contains(s.rootExclude, m) })
		}
		s.moves[ply] = moves
	}
	if len(moves) == 0 {
		return s.terminal(ply)
	}
	if s.nmove > 0 && p.Halfmove() >= s.nmove {
		return 0 // the n-move rule; a mate would have had no moves
	}
	if s.hend != nil && ply > 0 {
		// The variant's rule from the course of the game, judged as in
		// play once the side to move is known to have a move.
		if st, ok := s.hend.HistoryEnd(p); ok && st.Over() {
			return statusScore(p, st, ply)
		}
	}
	scores := s.orderMoves(ply, moves, hashMove)

	best := -Infinity
	bestMove := rules.NoMove
	origAlpha := alpha
	us := p.Turn()
	legal := 0
	nQuiets, nCaps := 0, 0
	for i := range moves {
		s.pick(ply, moves, scores, i)
		m := moves[i]
		if lazy && !p.IsLegal(m) {
			continue
		}
		legal++
		if ply == 0 && s.lim.CurrMove != nil {
			s.lim.CurrMove(m, legal)
		}
		quiet := !p.IsCapture(m) && m.Kind() != rules.Promotion
		cur := s.contextOf(m)
		s.cctx[ply] = cur
		// Late move pruning and futility at shallow depth (the pruning
		// before the history is read: it does not need it).
		shallow := !pvNode && !inCheck && quiet && i > 0 && best > -mateMin && s.prune
		if shallow && depth <= lmpDepth && i >= lmpCount(depth, improving) {
			continue
		}
		hist := 0 // the move's history scores, for reductions
		if h := s.histOf(us, m); h != nil && quiet {
			hist = int(*h) + s.contScore(ply, cur)
		}
		// Futility and the quiet moves' SEE margin go by lmrDepth, the
		// depth the move would be searched to after its late-move
		// reduction red (at least 0).
		red := 0
		if quiet {
			red = lmrReduction(depth, i, improving, hist)
		}
		lmrDepth := depth
		if shallow {
			lmrDepth = max(depth-1-red, 0)
			if lmrDepth <= futilityDepth && staticEval+futilityMargin(lmrDepth) <= alpha {
				continue
			}
		}
		// SEE pruning: at shallow depth, a move that loses more material in
		// the exchange on its target than the depth allows.
		if !pvNode && !inCheck && i > 0 && best > -mateMin && s.prune && s.see && depth <= 6 {
			margin := -100 * depth
			if quiet {
				margin = -30 * lmrDepth * lmrDepth
			}
			// A capture that wins at 0 wins at margin <= 0 too.
			if s.seeOf[ply][i] != seeWins && !s.seeGE(m, margin) {
				continue
			}
		}
		capIdx := int32(-1)
		switch {
		case quiet && nQuiets < maxQuiets:
			s.quiets[ply][nQuiets] = m
			nQuiets++
		case !quiet && s.cont != nil && nCaps < maxQuiets:
			capIdx = s.cont.captureIndex(p, m)
			s.caps[ply][nCaps] = capIdx
			nCaps++
		}
		if s.chance {
			if outs := p.Outcomes(m); len(outs) > 1 {
				var sc int
				if i == 0 || beta == alpha+1 {
					sc = s.chanceNode(m, outs, alpha, beta, depth, ply, false)
				} else {
					sc = s.chanceNode(m, outs, alpha, alpha+1, depth, ply, false)
					if sc > alpha && sc < beta && !s.stopped {
						sc = s.chanceNode(m, outs, alpha, beta, depth, ply, false)
					}
				}
				if s.stopped {
					return 0
				}
				if sc > best {
					best, bestMove = sc, m
					if sc > alpha {
						alpha = sc
						s.pv[ply][0] = m
						s.pvLen[ply] = 1
						if sc >= beta {
							break
						}
					}
				}
				continue
			}
		}
		p.Make(m)
		var sc int
		sameSide := p.Turn() == us
		if sameSide {
			// Several decisions in a row: no sign flip, no window swap.
			sc = s.negamax(alpha, beta, depth-1, ply+1, pvNode)
		} else if i == 0 {
			sc = -s.negamax(-beta, -alpha, depth-1, ply+1, pvNode)
		} else {
			r := 0
			if depth >= 3 && quiet && !inCheck && i >= 2 && s.prune {
				// Late-move reductions: more for later moves at greater
				// depth, less in PV nodes, for checks and for moves with
				// a good history, more for those with a bad one.
				r = red - b2i(pvNode) - b2i(p.InCheck())
				r = max(0, min(r, depth-2))
			}
			sc = -s.negamax(-alpha-1, -alpha, depth-1-r, ply+1, false)
			if sc > alpha && r > 0 {
				sc = -s.negamax(-alpha-1, -alpha, depth-1, ply+1, false)
			}
			if sc > alpha && (pvNode || sc < beta) {
				// A wider window than a null one (a PV node, or an
				// outcome of a chance node): find the value.
				sc = -s.negamax(-beta, -alpha, depth-1, ply+1, pvNode)
			}
		}
		p.Unmake()
		if s.stopped {
			return 0
		}
		if sc > best {
			best = sc
			bestMove = m
			if sc > alpha {
				alpha = sc
				s.pv[ply][0] = m
				copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1] + 1
				if sc >= beta {
					if quiet {
						if s.killers[ply][0] != m {
							s.killers[ply][1] = s.killers[ply][0]
							s.killers[ply][0] = m
						}
						s.updateQuietHistory(us, ply, m, nQuiets, depth)
					}
					s.updateCaptures(ply, nCaps, capIdx, depth)
					break
				}
			}
		}
	}
	if legal == 0 {
		return s.terminal(ply) // only illegal pseudo-legal moves
	}
	if (len(s.rootExclude) == 0 && len(s.lim.SearchMoves) == 0) || ply > 0 {
		s.tt.store(key, bestMove, int32(toTT(best, ply)), int32(staticEval), depth, boundOf(best, origAlpha, beta))
	}
	return best
}

// chanceNode is a chance node: the value for the side to move of the move
// m, whose outcomes are outs, within the window (alpha, beta) (fail-soft;
// see mix for the value). depth is the node's; every outcome is searched
// at depth-1, or with qs by quiescence.
func (s *searcher) chanceNode(m rules.Move, outs []rules.Outcome, alpha, beta, depth, ply int, qs bool) int {
	a, b, c, ok := chanceWindow(alpha, beta, ply)
	if !ok {
		return c
	}
	var mx mix
	mx.n = len(outs)
	den := uint64(1)
	for _, o := range outs {
		den = lcm(den, uint64(o.Den))
	}
	mx.den = float64(den)
	if mx.n > maxOutcomes || s.mode == modePlain {
		return s.expectAll(m, outs, den, depth, ply, c, qs)
	}
	for i, o := range outs {
		mx.w[i] = float64(uint64(o.Num) * (den / uint64(o.Den)))
	}
	return s.star(m, &mx, -1, 0, a, b, c, depth, ply, qs)
}

// chanceWindow returns the window (a, b) in which a chance node at ply
// searches for a window (alpha, beta) of its parent: the part within the
// node's range [-c, c]. If the window lies outside that range, ok is false
// and c is the node's value as a bound (fail-soft).
func chanceWindow(alpha, beta, ply int) (a, b, c int, ok bool) {
	c = nearMate - ply
	switch {
	case alpha >= c:
		return 0, 0, c, false
	case beta <= -c:
		return 0, 0, -c, false
	}
	return max(alpha, -c), min(beta, c), c, true
}

// riskScale is the scale of the utility on which chance nodes average
// scores (see mix): a score v counts riskScale·tanh(v/riskScale), so a
// mate counts as much as riskScale, a queen ahead about 0.9 of it.
const riskScale = 800

// utility maps a score to the scale on which chance nodes average.
func utility(v float64) float64 { return riskScale * math.Tanh(v/riskScale) }

// mix is how a chance node values its outcomes: by their expected
// utility, riskScale·tanh(v/riskScale) of the score v, mapped back to a
// score. Utility grows like the score over small differences and flattens
// toward ±riskScale, as the chance to win does, so that a small chance of
// a mate does not outweigh the likely loss of a queen (with scores
// averaged as they are, a tenth of a mate is worth three queens). The
// value is the integer k with utility(k-½) ≤ mean < utility(k+½), within
// the node's range ±c; it is at least b exactly when the mean is at least
// utility(b-½), and at most a when it is below utility(a+½).
type mix struct {
	n   int
	w   [maxOutcomes]float64 // the outcomes' probabilities times den
	den float64
}

// mean returns the mean of the outcomes' utilities u, with u[i] replaced
// by x if i >= 0.
func (mx *mix) mean(u *[maxOutcomes]float64, i int, x float64) float64 {
	var sum float64
	for j := range mx.n {
		uj := u[j]
		if j == i {
			uj = x
		}
		sum += mx.w[j] * uj
	}
	return sum / mx.den
}

// utilities returns the utilities of the values v.
func (mx *mix) utilities(v *[maxOutcomes]int) (u [maxOutcomes]float64) {
	for j := range mx.n {
		u[j] = utility(float64(v[j]))
	}
	return u
}

// least returns the least x in [from, to] for which the mean of the
// utilities u with u[i] = utility(x) is at least target, or to+1. It
// starts from the x that the inverse of the utility gives and searches by
// halves if that is off.
func (mx *mix) least(u *[maxOutcomes]float64, i, from, to int, target float64) int {
	ok := func(x int) bool { return mx.mean(u, i, utility(float64(x))) >= target }
	need := target * mx.den
	for j := range mx.n {
		if j != i {
			need -= mx.w[j] * u[j]
		}
	}
	guess := to + 1
	if r := need / mx.w[i] / riskScale; r <= -1 {
		guess = from
	} else if r < 1 {
		guess = max(from, min(to+1, int(math.Ceil(riskScale*math.Atanh(r)))))
	}
	if (guess > to || ok(guess)) && (guess == from || !ok(guess-1)) {
		return guess
	}
	lo, hi := from, to+1
	for lo < hi {
		x := lo + (hi-lo)/2
		if ok(x) {
			hi = x
		} else {
			lo = x + 1
		}
	}
	return lo
}

// score returns the value of the mean utility u within ±c (see mix).
func score(u float64, c int) int {
	k := c
	if r := u / riskScale; r > -1 && r < 1 {
		k = max(-c, min(c, int(math.Round(riskScale*math.Atanh(r)))))
	} else if r <= -1 {
		k = -c
	}
	for k > -c && u < utility(float64(k)-0.5) {
		k--
	}
	for k < c && u >= utility(float64(k)+0.5) {
		k++
	}
	return k
}

// expectAll searches every outcome of m with a full window and returns the
// value of their mix (plain expectimax).
func (s *searcher) expectAll(m rules.Move, outs []rules.Outcome, den uint64, depth, ply, c int, qs bool) int {
	var sum float64
	for i, o := range outs {
		v := s.searchOutcome(m, i, -Infinity, Infinity, depth, ply, qs)
		if s.stopped {
			return 0
		}
		sum += float64(uint64(o.Num)*(den/uint64(o.Den))) * utility(float64(v))
	}
	return score(sum/float64(den), c)
}

// star searches the outcomes of m, weighed by mx, within the window
// (a, b) (within ±c): Star1, after null-window probes in the default mode.
// Each outcome's value is known to lie in [lo, hi], at first the mate
// bounds (outcome known is known to be worth knownVal); the node fails
// high once the mix of the lower bounds reaches b, low once the mix of the
// upper bounds stays at or below a.
func (s *searcher) star(m rules.Move, mx *mix, known, knownVal, a, b, c, depth, ply int, qs bool) int {
	n := mx.n
	lim := Mate - ply - 1 // no outcome is worth more than a mate at the next ply
	uHigh, uLow := utility(float64(b)-0.5), utility(float64(a)+0.5)
	var lo, hi, guess [maxOutcomes]int
	var probes [maxOutcomes]int8
	probing := s.mode == modeProbe
	for i := range n {
		lo[i], hi[i] = -lim, lim
		switch {
		case i == known:
			lo[i], hi[i] = knownVal, knownVal
		case probing:
			guess[i] = s.probeOutcome(m, i, depth, ply, qs, &lo[i], &hi[i])
		}
	}
	for {
		ul, uh := mx.utilities(&lo), mx.utilities(&hi)
		mLo, mHi := mx.mean(&ul, -1, 0), mx.mean(&uh, -1, 0)
		if mLo >= uHigh || mHi < uLow || lo == hi {
			// Failed high (the value is at least b), low (at most a), or
			// every outcome is known.
			if mHi < uLow {
				return score(mHi, c)
			}
			return score(mLo, c)
		}
		// The outcome to search: the first unknown one, or with probes the
		// one whose bounds are widest apart (the first on a tie: the hit,
		// which no other move's outcome shares, before the miss).
		i := -1
		for j := range n {
			if lo[j] < hi[j] && (i < 0 || probing && hi[j]-lo[j] > hi[i]-lo[i]) {
				i = j
			}
		}
		// Star1: at or below wa the node fails low, at or above wb high.
		wb := mx.least(&ul, i, lo[i]+1, hi[i], uHigh)
		wa := mx.least(&uh, i, lo[i], hi[i]-1, uLow) - 1
		if probing && probes[i] < maxProbes {
			// A null window at the value this outcome needs for a fail
			// high if the others are worth their guesses.
			probes[i]++
			var g [maxOutcomes]int
			for j := range n {
				g[j] = max(lo[j], min(hi[j], guess[j]))
			}
			ug := mx.utilities(&g)
			from, to := max(wa, lo[i])+1, min(wb, hi[i])
			x := min(mx.least(&ug, i, from, to, uHigh), to)
			wa, wb = x-1, x
		}
		v := s.searchOutcome(m, i, wa, wb, depth, ply, qs)
		if s.stopped {
			return 0
		}
		// A result that contradicts the known bounds (search instability)
		// settles the outcome at the nearest bound.
		switch {
		case v <= wa:
			hi[i] = max(lo[i], min(hi[i], v))
		case v >= wb:
			lo[i] = min(hi[i], max(lo[i], v))
		default:
			lo[i], hi[i] = v, v
		}
		guess[i] = v
	}
}

// probeOutcome plays outcome i of m and looks it up in the transposition
// table: an entry deep enough narrows [lo, hi] (the outcome's value for the
// side to move before m); the result is a guess of the value, the entry's
// score or else the static evaluation.
func (s *searcher) probeOutcome(m rules.Move, i, depth, ply int, qs bool, lo, hi *int) int {
	p := s.p
	us := p.Turn()
	p.MakeOutcome(m, i)
	defer p.Unmake()
	sign, d := 1, depth-1
	if p.Turn() != us {
		sign = -1
	}
	if qs {
		d = 0
	}
	e, ok := s.tt.probe(p.Hash())
	if !ok {
		return sign * s.ev.EvaluateState(p, &s.nets)
	}
	sc := fromTT(int(e.score), ply+1)
	if s.prune && int(e.depth) >= max(d, 0) && (s.nmove == 0 || p.Halfmove() < s.nmove-4) {
		l, h := -Infinity, Infinity
		switch e.bound {
		case boundExact:
			l, h = sc, sc
		case boundLower:
			l = sc
		case boundUpper:
			h = sc
		}
		if sign < 0 {
			l, h = -h, -l
		}
		if l <= *hi && h >= *lo {
			*lo, *hi = max(*lo, l), min(*hi, h)
		}
	}
	return sign * sc
}

// searchOutcome plays outcome i of m and searches it with the window
// (alpha, beta) of the side to move before m; the value is for that side.
func (s *searcher) searchOutcome(m rules.Move, i, alpha, beta, depth, ply int, qs bool) int {
	p := s.p
	us := p.Turn()
	p.MakeOutcome(m, i)
	var v int
	switch same := p.Turn() == us; {
	case qs && same:
		v = s.quiesce(alpha, beta, ply+1)
	case qs:
		v = -s.quiesce(-beta, -alpha, ply+1)
	case same:
		v = s.negamax(alpha, beta, depth-1, ply+1, false)
	default:
		v = -s.negamax(-beta, -alpha, depth-1, ply+1, false)
	}
	p.Unmake()
	return v
}

// triesLeft returns how many times in a row the side to move may try the
// chance move m, counting this one: one more than the failures of m after
// which the same side still moves in the same phase (at most maxRetries).
func (s *searcher) triesLeft(m rules.Move) int {
	p := s.p
	us, ph := p.Turn(), p.Phase()
	k, made := 1, 0
	for k < maxRetries {
		p.MakeOutcome(m, 1)
		made++
		if p.Turn() != us || p.Phase() != ph {
			break
		}
		k++
	}
	for range made {
		p.Unmake()
	}
	return k
}

// retryNode is quiescence's chance node of a capture attempt m (hit or
// miss) out of check: the side to move tries m again after each failure
// while its tries last (tries of them), so it succeeds within the turn or
// else the turn is worth the static evaluation stand (the side may still
// make a quiet move, and quiescence stands pat there). Only the hit is
// searched (Star1 with one unknown outcome).
func (s *searcher) retryNode(m rules.Move, hit rules.Outcome, tries, stand, alpha, beta, ply int) int {
	a, b, c, ok := chanceWindow(alpha, beta, ply)
	if !ok {
		return c
	}
	den, miss := uint64(1), uint64(1)
	for range tries {
		den *= uint64(hit.Den)
		miss *= uint64(hit.Den - hit.Num)
	}
	mx := mix{n: 2, w: [maxOutcomes]float64{float64(den - miss), float64(miss)}, den: float64(den)}
	if s.mode == modePlain {
		h := s.searchOutcome(m, 0, -Infinity, Infinity, 0, ply, true)
		v := [maxOutcomes]int{h, stand}
		u := mx.utilities(&v)
		return score(mx.mean(&u, -1, 0), c)
	}
	return s.star(m, &mx, 1, stand, a, b, c, 0, ply, true)
}

func lcm(a, b uint64) uint64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// bare reports whether the side to move has only royal pieces on the
// board. It only spares quiescence a legality test where a side has many
// moves, so it is not rules.Position.Bare, whose variant hook (Crazy
// Chess's) scans the whole board at every node.
func (s *searcher) bare() bool {
	p := s.p
	v := p.Variant()
	for _, sq := range p.Pieces(p.Turn()) {
		if !v.Royal(p.At(sq).Type()) {
			return false
		}
	}
	return true
}

// hasPieces reports whether the side to move has material beyond pawns and
// royals (null-move pruning is unsafe in pawn endings).
func (s *searcher) hasPieces() bool {
	p := s.p
	v := p.Variant()
	pawn := v.Pawn()
	for _, sq := range p.Pieces(p.Turn()) {
		t := p.At(sq).Type()
		if t != pawn && !v.Royal(t) {
			return true
		}
	}
	return false
}

// improving reports whether the static evaluation ev of the node at ply
// is better than at the last node where the same side was to move (two
// plies back when sides alternate), which makes pruning and reductions
// more careful. It records ev and the side to move for the nodes below.
// It is false in check (ev -Infinity) and true when no earlier evaluation
// is known.
func (s *searcher) improving(ply, ev int) bool {
	us := s.p.Turn()
	s.evals[ply], s.turns[ply] = int32(ev), us
	if ev == -Infinity {
		return false
	}
	for k := ply - 1; k >= max(0, ply-4); k-- {
		if s.turns[k] == us {
			if s.evals[k] == -Infinity {
				continue
			}
			return ev > int(s.evals[k])
		}
	}
	return true
}

// rfpDepth is the greatest depth of reverse futility pruning: a node
// (not a PV node, not in check) whose static evaluation lies rfpMargin
// above beta returns it without a search.
const rfpDepth = 7

// rfpMargin is the margin of reverse futility pruning at depth: 80 a ply,
// one ply less when the evaluation improves.
func rfpMargin(depth int, improving bool) int {
	return 80 * (depth - b2i(improving))
}

// lmpDepth is the greatest depth of late-move pruning.
const lmpDepth = 5

// futilityDepth is the greatest depth of futility pruning: a quiet move
// of a node whose static evaluation lies futilityMargin below alpha is
// not searched. Both go by the move's depth after its late-move
// reduction (lmrReduction), not the node's.
const futilityDepth = 7

// futilityMargin is the margin of futility pruning at depth.
func futilityMargin(depth int) int { return 100 + 80*depth }

// lmrReduction is the late-move reduction of the quiet move i (from 0) at
// depth in a node that is not a PV node, before the move is made (so
// without the check it may give): the table's, a ply more when the
// evaluation does not improve, less for a good history hist, at least 0.
func lmrReduction(depth, i int, improving bool, hist int) int {
	r := int(lmrTable[min(depth, 63)][min(i, 63)]) + b2i(!improving) - hist/histMax
	return max(r, 0)
}

// lmpCount is the number of moves searched at depth before late-move
// pruning drops the quiet ones among the rest.
func lmpCount(depth int, improving bool) int {
	if improving {
		return 4 + 2*depth*depth
	}
	return 3 + depth*depth
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// histMax bounds the history scores: each update moves a score toward
// ±histMax by a share of the bonus that shrinks as it nears the bound.
const histMax = 16384

// maxQuiets is the number of quiet moves a node remembers for the history
// malus.
const maxQuiets = 64

// lmrTable[d][i] is the late-move reduction at depth d of move i (from 0):
// about ln(d)·ln(i)/2.25 plies.
var lmrTable = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
	return t
}()

// histOf returns the history score of side us for m, a move of the side
// to move not yet made, or nil for a move with no history (drops and
// special moves).
func (s *searcher) histOf(us rules.Color, m rules.Move) *int32 {
	if m.Kind() != rules.Normal && m.Kind() != rules.Castle {
		return nil
	}
	return &s.history.score[us][s.p.At(m.From()).Type()][m.To()]
}

// histTable is the history of quiet moves of one variant, by side, piece
// type and target, within ±histMax. A searcher keeps it from one search
// to the next (an engine's main thread: until Clear), like the
// continuation history.
type histTable struct {
	v     *rules.Variant
	score [2][rules.MaxTypes + 1][1024]int32
}

// gravity adds bonus (negative: a malus) to the history score h, scaled so
// that h stays within ±histMax.
func gravity(h *int32, bonus int) {
	*h += int32(bonus - int(*h)*abs(bonus)/histMax)
}

// histBonus is the history bonus of a cutoff at depth.
func histBonus(depth int) int { return min(250*depth-200, 1600) }

// updateQuietHistory rewards the quiet move m that failed high at ply and
// penalizes the quiet moves searched before it (the first n of
// s.quiets[ply], m the last of them).
func (s *searcher) updateQuietHistory(us rules.Color, ply int, m rules.Move, n, depth int) {
	bonus := histBonus(depth)
	for _, q := range s.quiets[ply][:n] {
		h := s.histOf(us, q)
		if h == nil {
			continue
		}
		b := -bonus
		if q == m {
			b = bonus
		}
		gravity(h, b)
		s.updateCont(ply, s.contextOf(q), b)
	}
	s.setCounter(ply, m)
}

// quiesce searches captures and promotions until the position is quiet.
func (s *searcher) quiesce(alpha, beta, ply int) int {
	p := s.p
	s.nodes++
	s.pvLen[ply] = 0
	if s.stop() {
		return 0
	}
	s.seldepth = max(s.seldepth, ply)
	if sc, ok := s.ruleEnd(ply); ok {
		return sc
	}
	if ply >= maxPly-1 {
		return s.ev.EvaluateState(p, &s.nets)
	}
	// The table keeps quiescence results too (at depth 0): captures in
	// another order, and in variants with chance the outcomes of different
	// tries, lead to the same positions.
	useTT := s.prune
	var key uint64
	if useTT {
		key = p.Hash()
		if e, ok := s.tt.probe(key); ok && (s.nmove == 0 || p.Halfmove() < s.nmove-4) {
			sc := fromTT(int(e.score), ply)
			if cuts(e.bound, sc, alpha, beta) {
				return sc
			}
		}
	}
	origAlpha := alpha
	inCheck := p.InCheck()
	var moves []rules.Move
	stand := -Infinity
	switch {
	case inCheck && s.lazyQ:
		moves = p.PseudoLegalMoves(s.moves[ply][:0])
	case inCheck:
		moves = p.LegalMoves(s.moves[ply][:0])
		if len(moves) == 0 {
			return s.terminal(ply)
		}
	case s.bare() && !p.HasLegalMove():
		// A side left with its royal pieces alone has few moves; without
		// any it is stalemated, which the static evaluation would not see
		// (a shallow search would drive a lone king into stalemate).
		return s.terminal(ply)
	default:
		stand = s.ev.EvaluateState(p, &s.nets)
		if stand >= beta {
			if useTT {
				s.tt.store(key, rules.NoMove, int32(toTT(stand, ply)), int32(stand), 0, boundLower)
			}
			return stand
		}
		alpha = max(alpha, stand)
		if s.lazyQ {
			moves = p.PseudoLegalCaptures(s.moves[ply][:0])
		} else {
			moves = p.LegalCaptures(s.moves[ply][:0])
		}
	}
	s.moves[ply] = moves
	scores := s.orderMoves(ply, moves, rules.NoMove)
	best := stand
	us := p.Turn()
	tries := 0 // how many times in a row a capture may be tried here, once known
	legal := 0 // the moves searched, for lazy legality in check
	for i := range moves {
		s.pick(ply, moves, scores, i)
		m := moves[i]
		if !inCheck && s.prune && scores[i] < 0 {
			break // the rest lose material in the exchange (SEE)
		}
		outs := p.Outcomes(m)
		chance := s.chance && len(outs) > 1
		retry := chance && !inCheck && len(outs) == 2
		if retry && tries == 0 {
			tries = s.triesLeft(m)
		}
		if !inCheck && m.Kind() != rules.Promotion && s.prune {
			gain := s.prize(m)
			if retry {
				// At most the chance of success within the tries left.
				gain = gain * min(tries*int(outs[0].Num), int(outs[0].Den)) / int(outs[0].Den)
			}
			if stand+gain+200 <= alpha {
				continue // delta pruning
			}
		}
		if s.lazyQ && !p.IsLegal(m) {
			continue
		}
		legal++
		s.cctx[ply] = s.contextOf(m) // for the continuation scores and counter move below it
		var sc int
		switch {
		case retry:
			sc = s.retryNode(m, outs[0], tries, stand, alpha, beta, ply)
		case chance:
			sc = s.chanceNode(m, outs, alpha, beta, 0, ply, true)
		default:
			p.Make(m)
			if p.Turn() == us {
				sc = s.quiesce(alpha, beta, ply+1)
			} else {
				sc = -s.quiesce(-beta, -alpha, ply+1)
			}
			p.Unmake()
		}
		if s.stopped {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				if sc >= beta {
					break
				}
			}
		}
	}
	if inCheck && legal == 0 {
		return s.terminal(ply) // lazy legality: no move was legal
	}
	if useTT {
		s.tt.store(key, rules.NoMove, int32(toTT(best, ply)), int32(stand), 0, boundOf(best, origAlpha, beta))
	}
	return best
}

// boundOf returns the kind of bound a fail-soft score best is for the
// window (alpha, beta) it was searched with.
func boundOf(best, alpha, beta int) uint8 {
	switch {
	case best >= beta:
		return boundLower
	case best > alpha:
		return boundExact
	}
	return boundUpper
}

// cuts reports whether a table entry's score sc with bound decides the
// window (alpha, beta) without a search.
func cuts(bound uint8, sc, alpha, beta int) bool {
	return bound == boundExact || bound == boundLower && sc >= beta || bound == boundUpper && sc <= alpha
}

// toTT and fromTT convert mate scores (and the near-mate scores of chance
// nodes) between "from this node" (stored) and "from the root".
func toTT(score, ply int) int {
	switch {
	case score > plyRelative:
		return score + ply
	case score < -plyRelative:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > plyRelative:
		return score - ply
	case score < -plyRelative:
		return score + ply
	}
	return score
}
