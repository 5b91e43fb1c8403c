package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/server/store"
)

// loaded returns game id if it is in memory, else nil.
func (s *Server) loaded(id string) *liveGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[id]
}

// summaryOfGame returns game id's public summary: the live game's if it
// is in memory, else one read from the store without loading the game
// (no replay, nothing kept).
func (s *Server) summaryOfGame(ctx context.Context, id string) (*Summary, error) {
	if lg := s.loaded(id); lg != nil {
		var sum *Summary
		if lg.call(ctx, func() { sum = lg.summary() }) {
			return sum, nil
		}
	}
	rec, evs, err := s.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.storedSummary(rec, evs)
}

// storedSummary builds the summary of a stored game from its record and
// events as liveGame.summary would after replaying them.
func (s *Server) storedSummary(rec *store.Game, evs []store.Event) (*Summary, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
	v, _, err := s.variantOfGame(ctx, rec)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	sum := summaryOf(rec, v)
	sum.Version = int64(len(evs))
	sum.Hidden = face.Hidden(v)
	sum.Plies = 0 // counted from evs, the events read with rec
	for _, ev := range evs {
		switch ev.Kind {
		case "ply":
			sum.Plies++
		case "end":
			var e eventJSON
			if err := json.Unmarshal(ev.Data, &e); err != nil {
				return nil, fmt.Errorf("game %s: event %d: %w", rec.ID, ev.Version, err)
			}
			sum.Finished = true
			sum.Result = e.Result
			if parseResult(e.Result) == rules.Ongoing {
				sum.Result = "*"
			}
			sum.Reason, sum.Detail = e.Reason, e.Detail
		}
	}
	sum.hideSecrets(v)
	if !sum.Hidden || sum.Finished {
		start, _, err := startOf(rec, v)
		if err != nil {
			return nil, fmt.Errorf("game %s: start: %w", rec.ID, err)
		}
		sum.StartFEN = start.FEN()
		sum.StartBrd = boardPart(start)
		sum.StartDescribe = describe(v, start)
	}
	return sum, nil
}

// pgnOfGame returns game id's PGN text, or hidden if the game has hidden
// information and is not over. A game not in memory is built from the
// store for this answer alone and not kept.
func (s *Server) pgnOfGame(ctx context.Context, id string) (text string, hidden bool, err error) {
	f := func(lg *liveGame) {
		hidden = lg.hidden && !lg.over
		if !hidden {
			text = lg.pgn()
		}
	}
	if lg := s.loaded(id); lg != nil && lg.call(ctx, func() { f(lg) }) {
		return text, hidden, nil
	}
	rec, evs, err := s.store.Load(ctx, id)
	if err != nil {
		return "", false, err
	}
	lg, err := newLiveGame(s, rec, evs)
	if err != nil {
		return "", false, err
	}
	f(lg)
	return text, hidden, nil
}
