// Package ai plays csipgs Chess with the search engine: the whole turn,
// the action (a move, a transfer, a buy, or saving by not buying) and the
// design decision.
//
// The action is searched by package search on a copy of the position
// whose design phase offers only "no change" (csipgs.ActionsOnly): the
// evaluation (the variant's Eval hook) values the pieces by their
// designs' movement, the reserves, and the treasuries, so the search
// decides when to buy and what, when to save, and where to transfer. The
// design decision is csipgs.ChooseDesign: the best value-for-money slots
// from the game's design catalogue (a curated list of good designs) and
// the designs it generates (csipgs.GeneratedDesigns), each priced by the
// rules and valued by its movement.
//
// With hidden information (the moderated mode) the engine sees only its
// view: Engine.SearchView samples full positions consistent with the view
// (the variant's Determinize hook, drawn from the engine's seed and the
// view), searches each with a share of the time, and plays the action
// most samples choose (ties: the best mean score). With Engine.Belief
// the engine remembers, from the views it was given, where it saw the
// opponent's pieces and how likely each has stayed or gone to each square
// it could reach since, and draws the unseen pieces of each sample by
// that probability (see belief).
// It then searches only the actions that leave its royal
// about as unlikely to be taken by an enemy piece as the safest action
// (Engine.safest).
package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// DefaultSamples is the number of determinized positions SearchView
// searches.
const DefaultSamples = 4

// ErrNoMove is returned when the position has no legal decision left: the
// face's error, so that every player reports it alike.
var ErrNoMove = player.ErrNoMove

// Engine plays csipgs Chess with a search engine. It is not safe for
// concurrent use.
type Engine struct {
	e       *search.Engine
	seed    uint64
	Samples int // determinized positions per decision with hidden information
	// Belief: the unseen pieces of the samples go where the views this
	// engine was given say they most likely stand (see belief), not
	// anywhere out of sight, and only the actions about as safe for the
	// royal as the safest are searched.
	Belief bool
	bel    belief
}

// New returns an engine that searches with e and draws determinizations
// from seed (a game's seed, so that the game replays). An engine plays
// one game: its belief is built from the views of that game.
func New(e *search.Engine, seed uint64) *Engine {
	return &Engine{e: e, seed: seed, Samples: DefaultSamples, Belief: DefaultBelief}
}

// DefaultBelief is whether New's engines keep a belief (Engine.Belief):
// on, since with it the engine scored above 60% against itself without
// it (docs/strength.md).
const DefaultBelief = true

// Search chooses the decision of the side to move in p, a position the
// player may see whole: in the design phase by csipgs.ChooseDesign, in the
// action phase by a search within lim (info, if not nil, follows it). p is
// left as it was.
func (a *Engine) Search(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) (search.Result, error) {
	if p.Status().Over() {
		return search.Result{}, ErrNoMove
	}
	if csipgs.DesignPhase(p) {
		m, err := csipgs.ChooseDesign(p)
		if err != nil {
			return search.Result{}, err
		}
		return search.Result{Best: m}, nil
	}
	q, err := csipgs.ActionsOnly(p)
	if err != nil {
		return search.Result{}, err
	}
	res := a.e.Search(ctx, q, lim, info)
	if res.Best == rules.NoMove {
		return res, ErrNoMove
	}
	return res, nil
}

// SearchView chooses the decision of colour viewer from a position that
// shows only what viewer sees (its csipgs view, Position.View). Moves in
// exclude (refused by the moderator this turn) are not chosen. The action
// is the one most of a.Samples determinized positions choose, each
// searched within a share of lim. The samples are drawn from the engine's
// seed and the view alone, and with a.Belief from the belief the views of
// the game so far have built, so that with a depth or node limit the same
// seed and views give the same decision (a game replays from its seed);
// the same view asked about again (after a refusal) gives the same.
func (a *Engine) SearchView(ctx context.Context, view *rules.Position, lim search.Limits, exclude []rules.Move) (rules.Move, error) {
	us := view.Turn()
	vw := view.View(us)
	if a.Belief {
		a.bel.update(vw)
	}
	allowed := map[string]rules.Move{}
	for _, m := range view.LegalMoves(nil) {
		if !slices.Contains(exclude, m) {
			allowed[notation.Coord(view, m)] = m
		}
	}
	if len(allowed) == 0 {
		return rules.NoMove, ErrNoMove
	}
	if csipgs.DesignPhase(view) {
		m, err := csipgs.ChooseDesign(view)
		if err == nil && slices.Contains(exclude, m) {
			m = csipgsPass(view)
		}
		return m, err
	}
	if len(allowed) == 1 {
		for _, m := range allowed {
			return m, nil
		}
	}
	if a.Belief {
		allowed = a.safest(view, vw, allowed)
	}
	det, _ := view.Variant().Ext().(rules.Determinizer)
	rng := rand.New(rand.NewPCG(a.seed, view.Hash()))
	n := max(1, a.Samples)
	per := share(lim, us, n)
	votes := map[string]int{}
	sum := map[string]int{}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		sample, err := a.sample(view, vw, det, rng)
		if err != nil {
			return rules.NoMove, err
		}
		q, err := csipgs.ActionsOnly(sample)
		if err != nil {
			return rules.NoMove, err
		}
		var root []rules.Move
		for _, m := range q.LegalMoves(nil) {
			if _, ok := allowed[notation.Coord(q, m)]; ok {
				root = append(root, m)
			}
		}
		if len(root) == 0 {
			continue
		}
		l := per
		l.SearchMoves = root
		a.e.Clear() // samples differ in what they hide: no shared table
		res := a.e.Search(ctx, q, l, nil)
		if res.Best == rules.NoMove {
			continue
		}
		k := notation.Coord(q, res.Best)
		votes[k]++
		sum[k] += res.Info.Score
	}
	best, bestVotes, bestMean := "", 0, 0
	keys := make([]string, 0, len(votes))
	for k := range votes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		mean := sum[k] / votes[k]
		if votes[k] > bestVotes || votes[k] == bestVotes && mean > bestMean {
			best, bestVotes, bestMean = k, votes[k], mean
		}
	}
	if best == "" {
		if ctx.Err() != nil {
			return rules.NoMove, ctx.Err()
		}
		keys = keys[:0]
		for k := range allowed {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return allowed[keys[0]], nil
	}
	return allowed[best], nil
}

// sample returns a position consistent with vw, the view of view's
// player (det's, placed by the belief with a.Belief; view itself without
// a Determinizer), as a position of view's variant: the determinizer
// builds its samples on the variant of the player's view of the game,
// which carries the game's evaluation weights, while view may be on a copy
// of it with other weights (rules.Variant.WithWeights: a match's engine
// option weights=), and the samples are searched with view's. A sample
// that cannot be moved there (another variant's rules) is an error, not
// a search with other weights.
func (a *Engine) sample(view *rules.Position, vw rules.View, det rules.Determinizer, rng *rand.Rand) (*rules.Position, error) {
	if det == nil {
		return view, nil
	}
	s := det.Determinize(vw, rng)
	if s == nil {
		return view, nil
	}
	if a.Belief {
		s = a.bel.place(s, vw, rng)
	}
	if v := view.Variant(); s.Variant() != v {
		return s.On(v)
	}
	return s, nil
}

// RiskMargin is how much more likely than the safest action's (by the
// belief, belief.risk) an action may leave the engine's royal to be taken
// and still be searched.
const RiskMargin = 0.1

// safest returns the actions of allowed (by their text in view) that by
// the belief leave the engine's royal no more likely to be taken by an
// unseen or seen enemy piece than RiskMargin above the safest, and every
// capture of a royal the view shows.
func (a *Engine) safest(view *rules.Position, vw rules.View, allowed map[string]rules.Move) map[string]rules.Move {
	hidden := hiddenCounts(vw)
	risk := make(map[string]float64, len(allowed))
	least := 1.0
	for k, m := range allowed {
		r := a.bel.risk(view, vw, hidden, m)
		risk[k], least = r, min(least, r)
	}
	royal := map[rules.Type]bool{}
	for _, td := range csipgs.TypeTable(view) {
		royal[rules.Type(td.Letter-'A'+1)] = td.Royal
	}
	out := make(map[string]rules.Move, len(allowed))
	for k, m := range allowed {
		takesRoyal := false
		if csipgs.KindOf(m) == csipgs.PieceMove {
			at := view.At(m.To())
			takesRoyal = at.IsPiece() && at.Color() != vw.Viewer && royal[at.Type()]
		}
		if risk[k] <= least+RiskMargin || takesRoyal {
			out[k] = m
		}
	}
	return out
}

// PlayModerated chooses the decision of the side to move in a moderated
// game whose true position p the caller holds as the moderator: the
// engine chooses from its view only (SearchView), and the moderator
// judges the choice on p, at most maxRefusals times (player.Play, the one
// loop every program uses). It returns the move as a move of p, and how
// many of the engine's moves were refused.
func (a *Engine) PlayModerated(ctx context.Context, p *rules.Position, lim search.Limits, maxRefusals int) (rules.Move, int, error) {
	return player.Play(ctx, a, p, lim, maxRefusals)
}

// csipgsPass returns the "no change" design move of p.
func csipgsPass(p *rules.Position) rules.Move {
	for _, m := range p.LegalMoves(nil) {
		if csipgs.KindOf(m) == csipgs.Pass {
			return m
		}
	}
	return rules.NoMove
}

// share returns the limits of one of n searches that together keep within
// lim: a depth or node limit stays (nodes divided), a time is divided.
func share(lim search.Limits, us rules.Color, n int) search.Limits {
	l := lim
	if l.Nodes > 0 {
		l.Nodes = max(1, l.Nodes/int64(n))
	}
	switch {
	case l.MoveTime > 0:
		l.MoveTime = max(time.Millisecond, l.MoveTime/time.Duration(n))
	case l.Time[us] > 0:
		// the search's own budget for one move, shared out
		budget := l.Time[us]/30 + l.Inc[us]*3/4
		budget = min(budget, l.Time[us]/2)
		l.MoveTime = max(time.Millisecond, budget/time.Duration(n))
		l.Time, l.Inc = [2]time.Duration{}, [2]time.Duration{}
	}
	return l
}

// String describes the engine.
func (a *Engine) String() string { return fmt.Sprintf("csipgs engine (%d samples)", a.Samples) }
