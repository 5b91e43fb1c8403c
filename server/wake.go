package server

import (
	"container/heap"
	"context"
	"errors"
	"time"
)

// A game that needs the server without a client (its running clock must
// flag, the engine is to move) is kept in memory while it needs it. After
// a restart such games are not loaded all at once: the store keeps each
// game's wake time with its last event (store.Game.Wake), Start lists the
// games with one, and the waker loads each when it is due, one at a time.
// A game a client asks for first is loaded then, as any game is.

// wakeAfter returns the game's wake time after event e (with r, the ply
// it stores, or nil) is applied: the engine's move at once if the engine
// is then to move, else its running clock's flag; zero if neither.
// Owner goroutine only.
func (lg *liveGame) wakeAfter(e eventJSON, r *plyResult) time.Time {
	if e.Kind == "end" {
		return time.Time{}
	}
	clock, over := lg.clock, lg.over
	if r != nil {
		clock, over = r.clock, r.status.Over()
	}
	if over {
		return time.Time{}
	}
	if lg.rec.Opponent == "engine" && int(lg.g.Position().Turn()) == lg.rec.EngineSeat {
		return e.At
	}
	if clock.running >= 0 {
		return clock.since.Add(clock.left[clock.running])
	}
	return time.Time{}
}

// wakeItem is a game due at a time.
type wakeItem struct {
	at time.Time
	id string
}

// wakeHeap orders the games by wake time.
type wakeHeap []wakeItem

func (h wakeHeap) Len() int           { return len(h) }
func (h wakeHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h wakeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *wakeHeap) Push(x any)        { *h = append(*h, x.(wakeItem)) }
func (h *wakeHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// waker loads the games of h as each becomes due, until ctx ends. A game
// that cannot be loaded because the server is full is tried again a
// second later.
func (s *Server) waker(ctx context.Context, h *wakeHeap) {
	defer close(s.wakerDone)
	heap.Init(h)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for h.Len() > 0 {
		if d := time.Until((*h)[0].at); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			continue
		}
		it := heap.Pop(h).(wakeItem)
		if s.loaded(it.id) != nil {
			continue // a client loaded it already
		}
		lctx, cancel := context.WithTimeout(ctx, s.cfg.StoreTimeout)
		_, err := s.game(lctx, it.id)
		cancel()
		var elsewhere *ownedElsewhere
		switch {
		case errors.As(err, &elsewhere):
			// Another node of the cluster has it.
		case errors.Is(err, errBusy):
			heap.Push(h, wakeItem{at: time.Now().Add(time.Second), id: it.id})
		case err != nil && ctx.Err() == nil:
			s.logf("server: wake game %s: %v", it.id, err)
		}
		if ctx.Err() != nil {
			return
		}
	}
}
