// Package match plays games between players (the built-in engine with its
// settings, simple reference players, external UCI engines) and reports the
// score, the Elo difference with a 95% interval, and an optional SPRT
// decision.
package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// Clock is the time a player has for its move: its own and the opponent's
// remaining time and increment, or a fixed time per move.
type Clock struct {
	Left, OppLeft time.Duration
	Inc, OppInc   time.Duration
	MoveTime      time.Duration // fixed time per move, if set
}

// Player chooses moves. A player plays one game at a time; the runner
// creates one per game and side.
type Player interface {
	Name() string
	// NewGame is called before the first move of a game of variant v.
	NewGame(ctx context.Context, v *rules.Variant) error
	// Move returns the move to play in p (a copy the player may keep).
	// history lists the plies from start that led to p, each a move with
	// the outcome chance gave it; the player must not change it. In a
	// variant where a turn can take several decisions (a failed Vazir
	// try keeps the turn), Move is called for each of them.
	Move(ctx context.Context, start, p *rules.Position, history []game.Ply, clk Clock) (rules.Move, error)
	// Close releases the player (ends an external process).
	Close() error
}

// New creates a player from the spec.
func (sp Spec) New() (Player, error) {
	switch sp.Kind {
	case "engine":
		hash := 16
		if h, ok := sp.Options["hash"]; ok {
			hash, _ = strconv.Atoi(h)
		}
		e := &enginePlayer{name: sp.String(), e: search.New(hash), seed: sp.Seed, opts: sp.Options}
		if d, ok := sp.Options["depth"]; ok {
			e.depth, _ = strconv.Atoi(d)
		}
		if n, ok := sp.Options["nodes"]; ok {
			nn, _ := strconv.Atoi(n)
			e.nodes = int64(nn)
		}
		if n, ok := sp.Options["threads"]; ok {
			nn, _ := strconv.Atoi(n)
			e.e.SetThreads(nn)
		}
		e.e.SetCertainCaptures(sp.Options["certain"] == "1")
		return e, nil
	case "random":
		return &randomPlayer{rng: rand.New(rand.NewPCG(sp.Seed, 0x72616e646f6d))}, nil
	case "greedy":
		return &greedyPlayer{rng: rand.New(rand.NewPCG(sp.Seed, 0x677265656479))}, nil
	case "uci":
		return newUCIPlayer(sp)
	case "xboard":
		return newXBoardPlayer(sp)
	}
	return nil, fmt.Errorf("unknown player kind %q", sp.Kind)
}

// enginePlayer is the built-in engine. It plays the variant's whole turns
// with the variant's player (player.New), and in a hidden game from
// its view alone (face.Hidden).
type enginePlayer struct {
	name  string
	e     *search.Engine
	depth int
	nodes int64
	seed  uint64
	opts  map[string]string // the spec's options, offered to the variant's player
	pl    player.Player     // the variant's player of whole turns
	// hidden: the game is hidden, and Move is given the player's view
	hidden bool
	// rw, if not nil, gives the search every position with the weights of
	// the spec's weights= option instead of its variant's.
	rw *reweigher
	refusals
}

// playerOptions are the engine spec's options meant for a variant's own
// player (player.Configurable) rather than for the search.
var playerOptions = []string{"belief"}

// refusals are the moves the moderator refused in the position the
// player was last asked about (a hidden game).
type refusals struct {
	fen     string
	refused []rules.Move
}

// Refused records that the moderator refused m (CS-M5).
func (r *refusals) Refused(m rules.Move) { r.refused = append(r.refused, m) }

// forPosition returns the refusals that hold for p: those of the last
// position if p is the same, none otherwise.
func (r *refusals) forPosition(p *rules.Position) []rules.Move {
	if f := p.FEN(); f != r.fen {
		r.fen, r.refused = f, nil
	}
	return r.refused
}

func (e *enginePlayer) Name() string { return e.name }

func (e *enginePlayer) NewGame(_ context.Context, v *rules.Variant) error {
	e.e.Clear()
	if arg, ok := e.opts["weights"]; ok {
		w, err := LoadWeights(arg, v)
		if err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		e.rw = &reweigher{w: w}
	}
	e.pl, e.hidden = player.New(v, e.e, e.seed), face.Hidden(v)
	if c, ok := e.pl.(player.Configurable); ok {
		// The spec's options for the variant's own player (belief=); an
		// option it does not take is meant for other variants' players.
		for _, k := range playerOptions {
			if val, ok := e.opts[k]; ok {
				_ = c.SetOption(k, val)
			}
		}
	}
	return nil
}

func (e *enginePlayer) Move(ctx context.Context, _, p *rules.Position, _ []game.Ply, clk Clock) (rules.Move, error) {
	lim := search.Limits{Depth: e.depth, Nodes: e.nodes}
	if e.depth == 0 && e.nodes == 0 {
		us := p.Turn()
		if clk.MoveTime > 0 {
			lim.MoveTime = clk.MoveTime
		} else {
			// A clock at zero is still a clock: never hand the search a zero
			// time, which means no limit.
			lim.Time[us], lim.Inc[us] = max(clk.Left, time.Millisecond), clk.Inc
			lim.Time[us.Other()], lim.Inc[us.Other()] = max(clk.OppLeft, time.Millisecond), clk.OppInc
		}
	}
	if e.pl == nil {
		e.pl, e.hidden = player.New(p.Variant(), e.e, e.seed), false
	}
	if e.rw != nil {
		q, err := e.rw.position(p)
		if err != nil {
			return rules.NoMove, fmt.Errorf("engine: %w", err)
		}
		p = q
	}
	if e.hidden {
		return e.pl.SearchView(ctx, p, lim, e.forPosition(p))
	}
	res, err := e.pl.Search(ctx, p, lim, nil)
	if err != nil {
		return rules.NoMove, fmt.Errorf("engine: %w in %s", err, p.FEN())
	}
	return res.Best, nil
}

func (e *enginePlayer) Close() error { return nil }

// randomPlayer plays a uniformly random legal move.
type randomPlayer struct{ rng *rand.Rand }

func (r *randomPlayer) Name() string                                  { return "random" }
func (r *randomPlayer) NewGame(context.Context, *rules.Variant) error { return nil }
func (r *randomPlayer) Close() error                                  { return nil }

func (r *randomPlayer) Move(_ context.Context, _, p *rules.Position, _ []game.Ply, _ Clock) (rules.Move, error) {
	moves := p.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, fmt.Errorf("no legal move in %s", p.FEN())
	}
	return moves[r.rng.IntN(len(moves))], nil
}

// greedyPlayer plays the move that leaves it the best material balance
// one ply ahead, expected over the move's outcomes where chance decides
// it: a move that wins the game at once first, a move that loses it at
// once last. In Vazir a quiet move leaves the balance alone and a capture
// attempt gains P(success) times the victim's value (by type and rank),
// so the player tries the capture with the best expected gain, and plays
// a quiet move when no capture gains. Moves that are not moves of pieces
// (a denial, a purchase, a design) are the variant's to choose
// (face.GreedyMove). Ties are broken by its seeded random source.
type greedyPlayer struct {
	rng  *rand.Rand
	ev   *eval.Evaluator
	v    *rules.Variant // the variant the evaluator is of
	game *rules.Variant // the game's variant, whose face is asked
	refusals
}

func (g *greedyPlayer) Name() string { return "greedy" }
func (g *greedyPlayer) Close() error { return nil }

func (g *greedyPlayer) NewGame(_ context.Context, v *rules.Variant) error {
	g.game = v
	if g.v != v {
		g.v, g.ev = v, eval.New(v)
	}
	return nil
}

func (g *greedyPlayer) Move(_ context.Context, _, p *rules.Position, _ []game.Ply, _ Clock) (rules.Move, error) {
	if g.ev == nil || g.v != p.Variant() {
		g.v, g.ev = p.Variant(), eval.New(p.Variant())
	}
	moves := p.LegalMoves(nil)
	if refused := g.forPosition(p); len(refused) > 0 {
		moves = slices.DeleteFunc(moves, func(m rules.Move) bool { return slices.Contains(refused, m) })
	}
	if len(moves) == 0 {
		return rules.NoMove, fmt.Errorf("no legal move in %s", p.FEN())
	}
	v := g.game
	if v == nil {
		v = p.Variant()
	}
	return face.GreedyMove(v, p, moves, g.best, g.rng), nil
}

// best returns the moves among moves with the best expected balance.
func (g *greedyPlayer) best(p *rules.Position, moves []rules.Move) []rules.Move {
	best := []rules.Move{}
	var bestScore expected
	for i, m := range moves {
		sc := g.expectedBalance(p, m)
		switch c := sc.cmp(bestScore); {
		case i == 0 || c > 0:
			bestScore, best = sc, append(best[:0], m)
		case c == 0:
			best = append(best, m)
		}
	}
	return best
}

// expected is an exact expectation num/den (den > 0).
type expected struct{ num, den int64 }

// cmp compares x with y: -1, 0 or +1.
func (x expected) cmp(y expected) int {
	a, b := x.num*y.den, y.num*x.den
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// expectedBalance returns the mover's material balance after m, expected
// over m's outcomes, with a game won at once worth more and a game lost at
// once less than any balance.
func (g *greedyPlayer) expectedBalance(p *rules.Position, m rules.Move) expected {
	us := p.Turn()
	x := expected{0, 1}
	for k, o := range p.Outcomes(m) {
		p.MakeOutcome(m, k)
		sc := int64(material(g.ev, p, us))
		if st := p.Status(); st.Over() {
			switch st.Result {
			case rules.Win(us):
				sc = 1 << 30
			case rules.Win(us.Other()):
				sc = -1 << 30
			default:
				sc = 0
			}
		}
		p.Unmake()
		x = x.add(expected{sc * int64(o.Num), int64(o.Den)})
	}
	return x
}

// add returns x + y.
func (x expected) add(y expected) expected {
	if x.den == y.den {
		return expected{x.num + y.num, x.den}
	}
	return expected{x.num*y.den + y.num*x.den, x.den * y.den}
}

// material is c's material minus the opponent's, each piece at its
// evaluator value (by type and, where pieces carry ranks, rank), with the
// variant's own evaluation term where it has one.
func material(ev *eval.Evaluator, p *rules.Position, c rules.Color) int {
	n := 0
	for _, s := range p.Pieces(c) {
		n += ev.PieceValue(p.At(s))
	}
	for _, s := range p.Pieces(c.Other()) {
		n -= ev.PieceValue(p.At(s))
	}
	if h, ok := p.Variant().Ext().(rules.Engine); ok { // material off the board (Crazy Chess's passengers)
		x := h.Eval(p)
		if p.Turn() != c {
			x = -x
		}
		n += x
	}
	return n
}
