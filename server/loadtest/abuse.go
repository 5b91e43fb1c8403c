package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// AbuseReport counts what the abusive client tried and what the server
// let through.
type AbuseReport struct {
	mu                         sync.Mutex
	Created, CreateRefused     int // games created, and refused (429, 415, 503)
	Gets, GetsRefused          int // GETs of game summaries answered, and refused
	EngineGames, EngineRefused int // level-8 engine games created, and refused
	EngineMoves                int // its moves in engine games (each sets off a search)
}

func (a *AbuseReport) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return fmt.Sprintf("games created %d (refused %d), summaries %d (refused %d), level-8 engine games %d (refused %d), moves against the engine %d",
		a.Created, a.CreateRefused, a.Gets, a.GetsRefused, a.EngineGames, a.EngineRefused, a.EngineMoves)
}

func (a *AbuseReport) count(f func()) {
	a.mu.Lock()
	f()
	a.mu.Unlock()
}

// abusePace is the wait between two requests of one of the abuser's
// loops: about 200 requests per second each, far over any fair share.
const abusePace = 5 * time.Millisecond

// abuse is one abusive client, until ctx ends: it creates games as fast
// as it may, asks for summaries of its games and of made-up ones, and
// keeps as many level-8 engine games busy as the server lets it.
func abuse(ctx context.Context, base string, rep *AbuseReport) {
	var wg sync.WaitGroup
	var idsMu sync.Mutex
	var ids []string
	wg.Add(2)
	go func() { // creation
		defer wg.Done()
		for ctx.Err() == nil {
			g, err := CreateGame(ctx, base, map[string]any{"variant": "chess"})
			var se *StatusError
			switch {
			case err == nil:
				rep.count(func() { rep.Created++ })
				idsMu.Lock()
				ids = append(ids, g["id"])
				idsMu.Unlock()
			case errors.As(err, &se):
				rep.count(func() { rep.CreateRefused++ })
			}
			sleep(ctx, abusePace)
		}
	}()
	go func() { // summaries
		defer wg.Done()
		rng := rand.New(rand.NewPCG(rand.Uint64(), 2))
		for ctx.Err() == nil {
			id := fmt.Sprintf("%012x", rng.Uint64()&(1<<48-1))
			idsMu.Lock()
			if len(ids) > 0 && rng.IntN(2) == 0 {
				id = ids[rng.IntN(len(ids))]
			}
			idsMu.Unlock()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/games/"+id, nil)
			if err != nil {
				return
			}
			resp, err := httpClient(ctx).Do(req)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
					rep.count(func() { rep.GetsRefused++ })
				} else {
					rep.count(func() { rep.Gets++ })
				}
			}
			sleep(ctx, abusePace)
		}
	}()
	// Engine games: as many at once as the server allows, each kept busy.
	for ctx.Err() == nil {
		g, err := CreateGame(ctx, base, map[string]any{"variant": "chess", "opponent": "engine", "level": 8})
		if err != nil {
			rep.count(func() { rep.EngineRefused++ })
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		rep.count(func() { rep.EngineGames++ })
		wg.Add(1)
		go func() {
			defer wg.Done()
			playEngine(ctx, base, g["id"], g["token"], 0, 0, func(time.Duration) { rep.count(func() { rep.EngineMoves++ }) })
		}()
	}
	wg.Wait()
}

// playEngine plays random moves against the engine in game id at once
// (after pause, and at least gap after its previous move) whenever it is
// the player's turn, until the game ends or ctx does; reply gets the wait
// from each of its moves' ack to the engine's answer.
func playEngine(ctx context.Context, base, id, token string, pause, gap time.Duration, reply func(time.Duration)) error {
	c, err := Join(ctx, base, id, token, 0)
	if err != nil {
		return err
	}
	defer c.CloseNow()
	rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
	var acked, sent time.Time
	next := int64(1)
	return c.follow(ctx, func(f *Frame, e Event, seat string) error {
		switch f.T {
		case "ack":
			acked = time.Now()
		case "event":
			if e.Kind == "ply" && e.Seat != seat && !acked.IsZero() {
				reply(time.Since(acked))
				acked = time.Time{}
			}
		case "state":
			if f.Turn != seat || len(f.Legal) == 0 || f.Status.Result != "*" {
				return nil
			}
			sleep(ctx, max(pause, gap-time.Since(sent)))
			sent = time.Now()
			if err := c.Send(ctx, map[string]any{"t": "move", "id": next, "move": f.Legal[rng.IntN(len(f.Legal))]}); err != nil {
				return err
			}
			next++
		}
		return nil
	})
}

// probeEngine plays level-1 engine games one after another until ctx
// ends and returns its waits for the engine's replies.
func probeEngine(ctx context.Context, base string) ([]time.Duration, error) {
	var lats []time.Duration
	for ctx.Err() == nil {
		g, err := CreateGame(ctx, base, map[string]any{"variant": "chess", "opponent": "engine", "level": 1})
		if err != nil {
			return lats, err
		}
		err = playEngine(ctx, base, g["id"], g["token"], 200*time.Millisecond, 0, func(d time.Duration) { lats = append(lats, d) })
		if err != nil && ctx.Err() == nil {
			return lats, err
		}
	}
	return lats, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}
