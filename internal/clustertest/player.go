package clustertest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

// Player plays one seat of a game through a URL (the balancer, usually)
// and survives its connections' ends: after any close it reconnects with
// backoff (50 ms doubling up to 1 s) and says hello with since = the last
// version it saw, so it is told exactly the events it missed. It moves at
// random among the legal moves of each state frame for its turn (as
// server/loadtest's players do), sending the state's version with each
// move so that a move against an older position is refused rather than
// played; a move that was sent but not acknowledged may be lost, and the
// next state then shows that it is still the player's turn. It records
// every acknowledgement and every event version it sees.
type Player struct {
	// URL returns the base URL to connect to for each connection.
	URL func() string
	// Game and Token name the game and the seat's token.
	Game, Token string
	// From is the loopback address the player connects from (each player
	// a client of its own), empty for any.
	From string
	// Think is the mean wait before each move (0: none).
	Think time.Duration
	// Seed seeds the choice of moves.
	Seed uint64

	mu    sync.Mutex
	seat  string
	last  int64
	plies int
	acks  map[int64]string // version -> the move text acknowledged
	seen  map[int64]bool
	gaps  []string
	errs  []string
	dials int
	ended bool
	hold  int // stop moving once the game has this many plies (0: no limit)
}

// Ack is one acknowledged move.
type Ack struct {
	Version int64
	Move    string
}

// Hold makes the player stop moving once the game has plies plies (0:
// move again).
func (p *Player) Hold(plies int) {
	p.mu.Lock()
	p.hold = plies
	p.mu.Unlock()
}

// Resign resigns the player's seat over a connection of its own,
// retried until the server acknowledges it or says that the game is over;
// the game's end then reaches both players, and their Run returns.
func (p *Player) Resign(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	var last error
	for ctx.Err() == nil {
		cctx := ctx
		if p.From != "" {
			cctx = loadtest.From(ctx, p.From)
		}
		c, err := loadtest.Join(cctx, p.URL(), p.Game, p.Token, p.Last())
		if err == nil {
			err = c.Send(cctx, map[string]any{"t": "resign", "id": 1})
			for err == nil {
				var f *loadtest.Frame
				if f, err = c.Read(cctx); err != nil {
					break
				}
				if f.T == "ack" && f.ID == 1 || f.T == "error" && f.Code == "game_over" {
					c.CloseNow()
					return nil
				}
				if f.T == "error" && f.ID == 1 {
					err = fmt.Errorf("resign: %s: %s", f.Code, f.Message)
				}
			}
			c.CloseNow()
		}
		last = err
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
		}
		backoff = min(2*backoff, time.Second)
	}
	return fmt.Errorf("resign: %w (last: %v)", ctx.Err(), last)
}

// Plies returns the number of plies of the game the player has seen.
func (p *Player) Plies() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.plies
}

// Last returns the last event version the player has seen.
func (p *Player) Last() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// Ended reports whether the player has seen the game's end.
func (p *Player) Ended() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ended
}

// Dials returns how many connections the player opened.
func (p *Player) Dials() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dials
}

// Acks returns the player's acknowledged moves by version.
func (p *Player) Acks() map[int64]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[int64]string, len(p.acks))
	for v, m := range p.acks {
		out[v] = m
	}
	return out
}

// Saw reports whether the player received the event of version v.
func (p *Player) Saw(v int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen[v]
}

// Problems returns what went wrong that the protocol does not allow: an
// event out of order or missing.
func (p *Player) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.gaps...)
}

// Errors returns the error frames and connection errors the player met
// (refused moves after a reconnection, closed connections), for logs.
func (p *Player) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Run plays until the game ends (nil) or ctx is done (its error).
func (p *Player) Run(ctx context.Context) error {
	p.mu.Lock()
	if p.acks == nil {
		p.acks, p.seen = map[int64]string{}, map[int64]bool{}
	}
	p.mu.Unlock()
	rng := rand.New(rand.NewPCG(p.Seed, 7))
	backoff := 50 * time.Millisecond
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		cctx := ctx
		if p.From != "" {
			cctx = loadtest.From(ctx, p.From)
		}
		p.mu.Lock()
		since := p.last
		p.dials++
		p.mu.Unlock()
		c, err := loadtest.Join(cctx, p.URL(), p.Game, p.Token, since)
		if err == nil {
			var progressed bool
			progressed, err = p.session(cctx, c, rng)
			c.CloseNow()
			if err == nil {
				return nil
			}
			if progressed {
				backoff = 50 * time.Millisecond
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.note("connection: %v", err)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return ctx.Err()
		}
		backoff = min(2*backoff, time.Second)
	}
}

// note records an error for the logs.
func (p *Player) note(format string, args ...any) {
	p.mu.Lock()
	if len(p.errs) < 200 {
		p.errs = append(p.errs, fmt.Sprintf(format, args...))
	}
	p.mu.Unlock()
}

// session follows one connection until it closes (its error) or the
// game ends (nil). progressed says whether it got a welcome.
func (p *Player) session(ctx context.Context, c *loadtest.Client, rng *rand.Rand) (progressed bool, err error) {
	sent := map[int64]string{}
	nextID := int64(1)
	for {
		f, err := c.Read(ctx)
		if err != nil {
			return progressed, err
		}
		switch f.T {
		case "welcome":
			progressed = true
			p.mu.Lock()
			p.seat = f.Seat
			p.mu.Unlock()
		case "error":
			p.note("error frame: %s: %s", f.Code, f.Message)
			if f.Code == "bad_token" {
				return progressed, fmt.Errorf("%s: %s", f.Code, f.Message)
			}
		case "ack":
			if m, ok := sent[f.ID]; ok {
				p.mu.Lock()
				p.acks[f.V] = m
				p.mu.Unlock()
				delete(sent, f.ID)
			}
		case "event":
			e, err := f.Event()
			if err != nil {
				return progressed, err
			}
			p.mu.Lock()
			if f.V != p.last+1 {
				p.gaps = append(p.gaps, fmt.Sprintf("event %d after %d", f.V, p.last))
			}
			p.seen[f.V] = true
			if f.V > p.last {
				p.last = f.V
			}
			if e.Kind == "ply" && e.Ply > p.plies {
				p.plies = e.Ply
			}
			if e.Kind == "end" {
				p.ended = true
			}
			p.mu.Unlock()
			if e.Kind == "end" {
				return true, nil
			}
		case "state":
			p.mu.Lock()
			seat, hold, plies := p.seat, p.hold, p.plies
			p.mu.Unlock()
			if f.Status.Result != "*" {
				continue
			}
			if f.Turn != seat || len(f.Legal) == 0 || hold > 0 && plies >= hold {
				continue
			}
			if p.Think > 0 {
				select {
				case <-time.After(time.Duration(float64(p.Think) * (0.5 + rng.Float64()))):
				case <-ctx.Done():
					return progressed, ctx.Err()
				}
			}
			id := nextID
			nextID++
			m := f.Legal[rng.IntN(len(f.Legal))]
			sent[id] = m
			if err := c.Send(ctx, map[string]any{"t": "move", "id": id, "move": m, "v": f.V}); err != nil {
				return progressed, err
			}
		}
	}
}
