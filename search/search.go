// Package search finds good moves in any variant: iterative deepening
// principal-variation search with a transposition table, quiescence search,
// move ordering (hash move, captures by victim and attacker, killers,
// history), null-move pruning and late-move reductions where the variant
// makes them sound, and time management.
//
// Scores are centipawns from the side to move's point of view. Mate and
// the variant's decisive end rules (a stalemate that wins, a bare king that
// loses) score ±(Mate - plies); draws by rule score 0.
//
// The search stands on rules.Position and the eval package only. Variants
// that add chance (outcomes with probabilities), several decisions in a row
// by one side, or hidden information extend it at fixed points: the side to
// move is read from the position after every move (the sign flips only
// when it changes), and a chance move is searched as the probability-
// weighted sum of its outcomes.
package search

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/anychess/anychess/eval"
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

// Engine searches positions. It keeps its transposition table between
// searches of one game. It is not safe for concurrent searches; one engine
// plays one game at a time.
type Engine struct {
	tt     *table
	evals  map[*rules.Variant]*eval.Evaluator
	stopFl atomic.Bool
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
	e.tt = newTable(mb)
}

// Clear forgets everything learned (a new game).
func (e *Engine) Clear() { e.tt.clear() }

// Stop asks a running search to finish as soon as possible; it still
// returns its best move so far.
func (e *Engine) Stop() { e.stopFl.Store(true) }

// Evaluator returns the evaluator the engine uses for v.
func (e *Engine) Evaluator(v *rules.Variant) *eval.Evaluator {
	ev, ok := e.evals[v]
	if !ok {
		ev = eval.New(v)
		e.evals[v] = ev
	}
	return ev
}

// searcher is the state of one search.
type searcher struct {
	e        *Engine
	p        *rules.Position
	ev       *eval.Evaluator
	tt       *table
	ctx      context.Context
	lim      Limits
	start    time.Time
	soft     time.Time // do not start a new iteration after this
	hard     time.Time // abort the search at this
	timed    bool
	nodes    int64
	seldepth int
	stopped  bool
	nullOK   bool // null-move pruning is sound in this variant
	drawRep  bool // repetition draws
	nmove    int  // half-moves of the n-move rule (0: none)
	moveCap  int
	chance   bool // the variant has moves decided by chance

	moves       [maxPly + 1][]rules.Move
	scores      [maxPly + 1][]int32
	killers     [maxPly + 1][2]rules.Move
	history     [2][rules.MaxTypes + 1][1024]int32
	pv          [maxPly + 1][maxPly + 1]rules.Move
	pvLen       [maxPly + 1]int
	rootExclude []rules.Move
}

// Search searches p (which it leaves as it found it) within the limits and
// returns the best move. info, if not nil, is called after each iteration
// (and once per line with MultiPV).
func (e *Engine) Search(ctx context.Context, p *rules.Position, lim Limits, info func(Info)) Result {
	e.stopFl.Store(false)
	v := p.Variant()
	end := v.Spec().End
	s := &searcher{
		e: e, p: p, ev: e.Evaluator(v), tt: e.tt, ctx: ctx, lim: lim, start: time.Now(),
		nullOK:  end.Stalemate == rules.DrawValue && v.Spec().Hooks.AfterMake == nil,
		drawRep: end.NFold > 0,
		nmove:   2 * end.NMoveRule,
		moveCap: end.MoveCap,
		chance:  v.Spec().Hooks.Outcomes != nil,
	}
	for i := range s.moves {
		s.moves[i] = make([]rules.Move, 0, 256)
		s.scores[i] = make([]int32, 0, 256)
	}
	s.setTime()
	e.tt.age++
	return s.iterate(info)
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
	}
	if s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes {
		s.stopped = true
	}
	return s.stopped
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
		if info != nil {
			for _, in := range lines {
				info(in)
			}
		}
		if s.stopped {
			break
		}
		if s.timed && time.Now().After(s.soft) {
			break
		}
		if best.Info.Mate != 0 && depth > 2*abs(best.Info.Mate)+4 && !s.lim.Infinite && s.lim.Depth == 0 {
			break // a mate found and confirmed
		}
	}
	best.Info.Nodes, best.Info.Time = s.nodes, time.Since(s.start)
	return best
}

// rootMoves keeps the moves the limits allow at the root.
func (s *searcher) rootMoves(moves []rules.Move) []rules.Move {
	if len(s.lim.SearchMoves) == 0 {
		return moves
	}
	return slices.DeleteFunc(moves, func(m rules.Move) bool { return !slices.Contains(s.lim.SearchMoves, m) })
}

// aspiration searches the root at depth with a window around prev.
func (s *searcher) aspiration(depth, prev int, first bool) (int, string) {
	alpha, beta := -Infinity, Infinity
	delta := 30
	if depth >= 4 && first && abs(prev) < mateMin {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		score := s.negamax(alpha, beta, depth, 0, true)
		if s.stopped {
			return score, ""
		}
		switch {
		case score <= alpha:
			alpha = max(-Infinity, alpha-delta)
			delta *= 3
		case score >= beta:
			beta = min(Infinity, beta+delta)
			delta *= 3
		default:
			return score, ""
		}
		if delta > 1000 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

func (s *searcher) info(depth, score int, pv []rules.Move) Info {
	in := Info{Depth: depth, SelDepth: s.seldepth, Score: score, Nodes: s.nodes, Time: time.Since(s.start), PV: pv}
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
	end := s.p.Variant().Spec().End
	val := end.Stalemate
	if s.p.InCheck() {
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

// ruleEnd scores the end rules that do not need move generation: a missing
// royal, a bare king, the n-move rule (checkmate excepted: the caller
// checks the moves), repetition, the move cap. ok is false if none applies.
func (s *searcher) ruleEnd(ply int) (score int, ok bool) {
	p := s.p
	v := p.Variant()
	if s.drawRep && p.Repetitions() >= 2 {
		return 0, true
	}
	if s.moveCap > 0 && p.Ply() >= s.moveCap {
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// orderMoves scores moves for ordering: hash move, winning captures by
// value, promotions, killers, then history.
func (s *searcher) orderMoves(ply int, moves []rules.Move, hashMove rules.Move) []int32 {
	p := s.p
	sc := s.scores[ply][:0]
	us := p.Turn()
	for _, m := range moves {
		var v int32
		switch {
		case m == hashMove:
			v = 1 << 30
		case p.IsCapture(m) || m.Kind() == rules.Promotion:
			victim := 100 // en passant
			if q := p.At(m.To()); q.IsPiece() {
				victim = s.ev.Value(q.Type())
			}
			if m.Kind() == rules.Promotion {
				victim += s.ev.Value(m.Promo())
			}
			attacker := s.ev.Value(p.At(m.From()).Type())
			v = 1<<28 + int32(victim*16-attacker/16)
		case m == s.killers[ply][0]:
			v = 1<<27 + 2
		case m == s.killers[ply][1]:
			v = 1<<27 + 1
		default:
			if m.Kind() == rules.Normal || m.Kind() == rules.Castle {
				v = s.history[us][p.At(m.From()).Type()][m.To()]
			}
		}
		sc = append(sc, v)
	}
	s.scores[ply] = sc
	return sc
}

// pick moves the best-scored remaining move to position i.
func pick(moves []rules.Move, scores []int32, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[b] {
			b = j
		}
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
		return s.ev.Evaluate(p)
	}
	inCheck := p.InCheck()
	if inCheck {
		depth++
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
		if !pvNode && int(e.depth) >= depth && (e.bound == boundExact ||
			e.bound == boundLower && sc >= beta || e.bound == boundUpper && sc <= alpha) {
			if s.nmove == 0 || p.Halfmove() < s.nmove-4 {
				return sc
			}
		}
		staticEval = int(e.eval)
	}
	if !inCheck && staticEval == -Infinity {
		staticEval = s.ev.Evaluate(p)
	}

	if !pvNode && !inCheck && ply > 0 {
		// Reverse futility pruning.
		if depth <= 3 && staticEval-120*depth >= beta && abs(beta) < mateMin {
			return staticEval
		}
		// Null move: pass and see whether the opponent can still not
		// reach beta; not in variants where passing can be an advantage
		// the rules give no way to take (zugzwang with a stalemate win).
		if s.nullOK && depth >= 3 && staticEval >= beta && s.hasPieces() && abs(beta) < mateMin {
			r := 2 + depth/4
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

	moves := p.LegalMoves(s.moves[ply][:0])
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
	scores := s.orderMoves(ply, moves, hashMove)

	best := -Infinity
	bestMove := rules.NoMove
	origAlpha := alpha
	us := p.Turn()
	for i := range moves {
		pick(moves, scores, i)
		m := moves[i]
		quiet := !p.IsCapture(m) && m.Kind() != rules.Promotion
		// Late move pruning and futility at shallow depth.
		if !pvNode && !inCheck && quiet && i > 0 && best > -mateMin {
			if depth <= 3 && i >= 4+depth*depth*2 {
				continue
			}
			if depth <= 2 && staticEval+150*depth <= alpha {
				continue
			}
		}
		if s.chance {
			if outs := p.Outcomes(m); len(outs) > 1 {
				sc := s.expect(m, outs, depth-1, ply)
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
			if depth >= 3 && quiet && !inCheck && i >= 3 {
				r = 1 + depth/6 + i/12
				if pvNode {
					r--
				}
				if p.InCheck() {
					r = 0
				}
				r = max(0, min(r, depth-2))
			}
			sc = -s.negamax(-alpha-1, -alpha, depth-1-r, ply+1, false)
			if sc > alpha && r > 0 {
				sc = -s.negamax(-alpha-1, -alpha, depth-1, ply+1, false)
			}
			if sc > alpha && pvNode {
				sc = -s.negamax(-beta, -alpha, depth-1, ply+1, true)
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
						h := &s.history[us][p.At(m.From()).Type()][m.To()]
						*h += int32(depth * depth)
						if *h > 1<<20 {
							s.ageHistory()
						}
					}
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if (len(s.rootExclude) == 0 && len(s.lim.SearchMoves) == 0) || ply > 0 {
		s.tt.store(key, bestMove, int32(toTT(best, ply)), int32(staticEval), depth, bound)
	}
	return best
}

// expect is a chance node: the value of move m for the side to move is the
// probability-weighted sum of the values of its outcomes, each searched
// with a full window (depth 0 goes to quiescence). After an outcome the
// same side may move again (a failed try) or the opponent (a hit); the
// sign follows the side to move.
func (s *searcher) expect(m rules.Move, outs []rules.Outcome, depth, ply int) int {
	p := s.p
	us := p.Turn()
	var sum float64
	for i, o := range outs {
		p.MakeOutcome(m, i)
		var v int
		if p.Turn() == us {
			v = s.negamax(-Infinity, Infinity, depth, ply+1, false)
		} else {
			v = -s.negamax(-Infinity, Infinity, depth, ply+1, false)
		}
		p.Unmake()
		if s.stopped {
			return 0
		}
		sum += float64(o.Num) / float64(o.Den) * float64(v)
	}
	return int(sum)
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

func (s *searcher) ageHistory() {
	for c := range s.history {
		for t := range s.history[c] {
			for i := range s.history[c][t] {
				s.history[c][t][i] /= 8
			}
		}
	}
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
		return s.ev.Evaluate(p)
	}
	inCheck := p.InCheck()
	var moves []rules.Move
	stand := -Infinity
	if inCheck {
		moves = p.LegalMoves(s.moves[ply][:0])
		if len(moves) == 0 {
			return s.terminal(ply)
		}
	} else {
		stand = s.ev.Evaluate(p)
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		moves = p.LegalCaptures(s.moves[ply][:0])
	}
	s.moves[ply] = moves
	scores := s.orderMoves(ply, moves, rules.NoMove)
	best := stand
	us := p.Turn()
	for i := range moves {
		pick(moves, scores, i)
		m := moves[i]
		if !inCheck && m.Kind() != rules.Promotion {
			gain := 100
			if q := p.At(m.To()); q.IsPiece() {
				gain = s.ev.Value(q.Type())
			}
			if stand+gain+200 <= alpha {
				continue // delta pruning
			}
		}
		var sc int
		if outs := p.Outcomes(m); s.chance && len(outs) > 1 {
			sc = s.expect(m, outs, 0, ply)
		} else {
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
	return best
}

// toTT and fromTT convert mate scores between "from this node" (stored) and
// "from the root".
func toTT(score, ply int) int {
	switch {
	case score > mateMin:
		return score + ply
	case score < -mateMin:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > mateMin:
		return score - ply
	case score < -mateMin:
		return score + ply
	}
	return score
}
