package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// MaxLevel is the engine's highest strength (level.Max).
const MaxLevel = level.Max

// enginePool bounds the engine's thinking: a fixed number of engines, each
// searching for one game at a time, so that however many games wait for
// the engine the searches use at most that many cores (and one more, see
// below), and every search has a deadline. Games wait in one queue per
// client, and a freed engine goes to the next client in turn (round
// robin), so one client's many deep searches do not queue ahead of another
// client's. One spare engine serves only clients with no search running:
// while one client's searches take every engine, another client's search
// starts at once on the spare instead of waiting for one of them to end.
type enginePool struct {
	maxTime time.Duration
	spare   *search.Engine

	mu        sync.Mutex
	free      []*search.Engine
	spareFree bool
	running   map[string]int             // searches running per client
	queues    map[string][]*engineWaiter // per client, oldest first
	ring      []string                   // the clients with waiters, in turn order
}

// engineWaiter is one search waiting for an engine.
type engineWaiter struct {
	key string
	got chan *search.Engine // receives the engine (buffered)
}

// newEnginePool returns a pool of workers engines and the spare, each with
// a table of hashMB and searching with threads threads.
func newEnginePool(workers, hashMB, threads int, maxTime time.Duration) *enginePool {
	newEngine := func() *search.Engine {
		e := search.New(hashMB)
		e.SetThreads(threads)
		return e
	}
	p := &enginePool{maxTime: maxTime, spare: newEngine(), spareFree: true,
		running: map[string]int{}, queues: map[string][]*engineWaiter{}}
	for range workers {
		p.free = append(p.free, newEngine())
	}
	return p
}

// acquire returns an engine for client key, waiting in the client's queue
// for its turn; the caller gives it back with release.
func (p *enginePool) acquire(ctx context.Context, key string) (*search.Engine, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 && len(p.ring) == 0 {
		e := p.free[n-1]
		p.free = p.free[:n-1]
		p.running[key]++
		p.mu.Unlock()
		return e, nil
	}
	if p.spareFree && p.running[key] == 0 {
		p.spareFree = false
		p.running[key]++
		p.mu.Unlock()
		return p.spare, nil
	}
	w := &engineWaiter{key: key, got: make(chan *search.Engine, 1)}
	if len(p.queues[key]) == 0 {
		p.ring = append(p.ring, key)
	}
	p.queues[key] = append(p.queues[key], w)
	p.mu.Unlock()
	select {
	case e := <-w.got:
		return e, nil
	case <-ctx.Done():
		p.mu.Lock()
		removed := p.remove(w)
		p.mu.Unlock()
		if !removed { // handed an engine meanwhile: pass it on
			p.release(key, <-w.got)
		}
		return nil, fmt.Errorf("engine: waiting for a worker: %w", ctx.Err())
	}
}

// remove takes w out of its queue; false if it is no longer there (it was
// given an engine). p.mu held.
func (p *enginePool) remove(w *engineWaiter) bool {
	q := p.queues[w.key]
	i := slices.Index(q, w)
	if i < 0 {
		return false
	}
	p.dequeue(w.key, i)
	return true
}

// dequeue takes the i-th waiter out of client key's queue, and the client
// out of the ring if that empties its queue. p.mu held.
func (p *enginePool) dequeue(key string, i int) *engineWaiter {
	q := p.queues[key]
	w := q[i]
	q = slices.Delete(q, i, i+1)
	if len(q) == 0 {
		delete(p.queues, key)
		p.ring = slices.DeleteFunc(p.ring, func(k string) bool { return k == key })
	} else {
		p.queues[key] = q
	}
	return w
}

// release gives back e, which client key used: to the first waiter of
// the next client in turn (the spare only to a client with no search
// running), or back to the free engines.
func (p *enginePool) release(key string, e *search.Engine) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running[key]--; p.running[key] <= 0 {
		delete(p.running, key)
	}
	for i, k := range p.ring {
		if e == p.spare && p.running[k] > 0 {
			continue
		}
		w := p.dequeue(k, 0)
		if _, still := p.queues[k]; still { // its turn comes again after the others'
			p.ring = append(slices.Delete(p.ring, i, i+1), k)
		}
		p.running[k]++
		w.got <- e
		return
	}
	if e == p.spare {
		p.spareFree = true
	} else {
		p.free = append(p.free, e)
	}
}

// levelLimits returns the search limits of a level (package level): its
// depth, within the pool's time cap, shortened by budget (the time the
// clock allows) if that is positive.
func (p *enginePool) levelLimits(n int, budget time.Duration) search.Limits {
	t := p.maxTime
	if budget > 0 {
		t = min(t, max(budget, 20*time.Millisecond))
	}
	return level.At(n).Limits(t)
}

// think returns the engine's move for p at level, waiting for a free
// engine first in client key's queue. The search ends by its limits, its
// deadline or ctx. The variant's player (player.New) plays the
// whole turn; in a hidden game it sees only its view and the server's
// moderator judges it (player.Play). seed is the game's seed for the
// engine's guesses.
func (p *enginePool) think(ctx context.Context, key string, pos *rules.Position, level int, budget time.Duration, seed uint64) (rules.Move, error) {
	e, err := p.acquire(ctx, key)
	if err != nil {
		return rules.NoMove, err
	}
	defer p.release(key, e)
	lim := p.levelLimits(level, budget)
	ctx, cancel := context.WithTimeout(ctx, lim.MoveTime+time.Second)
	defer cancel()
	e.Clear()
	m, _, err := player.Play(ctx, player.New(pos.Variant(), e, seed), pos, lim, maxEngineRefusals)
	if err != nil && !errors.Is(err, player.ErrNoMove) {
		return rules.NoMove, err
	}
	if m == rules.NoMove {
		var buf [rules.MaxMoves]rules.Move
		moves := pos.LegalMoves(buf[:0])
		if len(moves) == 0 {
			return rules.NoMove, errors.New("engine: no legal move")
		}
		return moves[0], nil
	}
	return m, nil
}

// maxEngineRefusals is how many of the engine's moves in a row the
// moderator may refuse in a hidden game before the engine gives up.
const maxEngineRefusals = 32
