package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/anychess/anychess/variant/csipgs"
	"github.com/anychess/anychess/variant/csipgs/ai"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// MaxLevel is the engine's highest strength.
const MaxLevel = 8

// enginePool bounds the engine's thinking: a fixed number of engines, each
// searching for one game at a time, so that however many games wait for
// the engine the searches use at most that many cores, and every search
// has a deadline.
type enginePool struct {
	engines chan *search.Engine
	maxTime time.Duration
}

func newEnginePool(workers, hashMB int, maxTime time.Duration) *enginePool {
	p := &enginePool{engines: make(chan *search.Engine, workers), maxTime: maxTime}
	for range workers {
		p.engines <- search.New(hashMB)
	}
	return p
}

// levelLimits returns the search limits of a level: depth 1..8 and a time
// cap growing with the level, shortened by budget (the time the clock
// allows) if that is positive.
func (p *enginePool) levelLimits(level int, budget time.Duration) search.Limits {
	level = min(max(level, 1), MaxLevel)
	t := time.Duration(level) * time.Duration(level) * 20 * time.Millisecond // 20ms .. 1.28s
	t = min(t, p.maxTime)
	if budget > 0 {
		t = min(t, max(budget, 20*time.Millisecond))
	}
	return search.Limits{Depth: level, MoveTime: t}
}

// think returns the engine's move for p at level, waiting for a free
// engine first. The search ends by its limits, its deadline or ctx. seed
// is the game's seed for the engine's guesses (csipgs's moderated mode).
func (p *enginePool) think(ctx context.Context, pos *rules.Position, level int, budget time.Duration, seed uint64) (rules.Move, error) {
	var e *search.Engine
	select {
	case e = <-p.engines:
	case <-ctx.Done():
		return rules.NoMove, fmt.Errorf("engine: waiting for a worker: %w", ctx.Err())
	}
	defer func() { p.engines <- e }()
	lim := p.levelLimits(level, budget)
	ctx, cancel := context.WithTimeout(ctx, lim.MoveTime+time.Second)
	defer cancel()
	e.Clear()
	if csipgs.IsCsipgs(pos.Variant()) {
		return thinkCsipgs(ctx, e, pos, lim, seed)
	}
	res := e.Search(ctx, pos, lim, nil)
	if res.Best == rules.NoMove {
		var buf [rules.MaxMoves]rules.Move
		moves := pos.LegalMoves(buf[:0])
		if len(moves) == 0 {
			return rules.NoMove, errors.New("engine: no legal move")
		}
		return moves[0], nil
	}
	return res.Best, nil
}

// thinkCsipgs plays csipgs's whole turn (variant/csipgs/ai): the action
// searched, the design chosen by value. In the moderated mode the engine
// sees only its view, as a player does, and the server is its moderator
// (ai.Engine.PlayModerated), drawing its guesses from seed.
func thinkCsipgs(ctx context.Context, e *search.Engine, pos *rules.Position, lim search.Limits, seed uint64) (rules.Move, error) {
	a := ai.New(e, seed)
	if !csipgs.Moderated(pos.Variant()) {
		res, err := a.Search(ctx, pos, lim, nil)
		return res.Best, err
	}
	m, _, err := a.PlayModerated(ctx, pos, lim, 32)
	return m, err
}
