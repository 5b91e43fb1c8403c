// Package enginebus carries the engine's searches for games between
// server nodes and engine workers over NATS, so that the CPU the engine
// takes grows apart from the nodes that hold the games.
//
// A node sends a Request (the game's variant, its start and its plies, the
// search's limits) to the subject Subject; the workers (anychess worker)
// take them in the queue group Queue, so each request reaches one of
// them, which replays the game, searches and answers with its move. With
// no worker listening the request fails at once (ErrNoWorker) and the node
// searches itself; a worker that dies mid-search leaves the request
// unanswered until its deadline, and the node asks again (Client.Think).
//
// Only games whose every piece both players see travel on the bus: a
// hidden-information game's search needs the true position for its
// moderator, so nodes keep those searches (see the server's engine pool).
package enginebus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// Subject is the NATS subject of search requests, and Queue the queue
// group of the workers that answer them.
const (
	Subject = "anychess.engine.search"
	Queue   = "anychess-engine"
)

// Limits on what a worker accepts, so that no request makes it work
// without bound.
const (
	MaxPlies    = 10000
	MaxMoveTime = 30 * time.Second
	MaxDepth    = 64
	maxRequest  = 1 << 20
	maxRefusals = 32
)

// ErrNoWorker is returned by Client.Think when no worker is listening.
var ErrNoWorker = errors.New("enginebus: no engine worker")

// Ply is a move of the game with the index of its chance outcome (0 for a
// move without chance), as game.Ply has them.
type Ply struct {
	Move    uint64 `json:"m"`
	Outcome int    `json:"o,omitempty"`
}

// Request is a search for the side to move of a game.
type Request struct {
	Variant string `json:"variant"` // a registry name
	// Definition is the variant's definition file, self-contained, when
	// the game is played under one the workers' registry may not have
	// (a variant users saved, an older version of a file); "" to take
	// Variant from the registry.
	Definition string            `json:"definition,omitempty"`
	Options    map[string]string `json:"options,omitempty"` // the game's options
	Start      string            `json:"start,omitempty"`   // the start position's FEN; "" for the variant's start
	Plies      []Ply             `json:"plies,omitempty"`
	Depth      int               `json:"depth,omitempty"` // plies; 0: no depth limit
	MoveTimeMS int64             `json:"movetime_ms"`     // the time the search may take
	Seed       uint64            `json:"seed"`            // the seed of the engine's guesses
}

// Reply answers a Request: a move, or why there is none.
type Reply struct {
	Move  uint64 `json:"m,omitempty"`
	Error string `json:"error,omitempty"`
}

// Registry finds a variant by name and compiles a definition;
// *variant.Registry (catalog.Default) is one.
type Registry interface {
	Get(name string) (*rules.Variant, error)
	Compile(data []byte, origin string) (*rules.Variant, error)
}

// NewRequest describes the search for the side to move of g, within lim's
// depth and move time.
func NewRequest(name string, options map[string]string, g *game.Game, lim search.Limits, seed uint64) Request {
	r := Request{Variant: name, Options: options, Depth: lim.Depth, MoveTimeMS: lim.MoveTime.Milliseconds(), Seed: seed}
	if start := g.Start(); start.FEN() != g.Variant.Start().FEN() {
		r.Start = start.FEN()
	}
	r.Plies = make([]Ply, len(g.Plies))
	for i, p := range g.Plies {
		r.Plies[i] = Ply{Move: uint64(p.Move), Outcome: p.Outcome}
	}
	return r
}

// Position replays the request's game and returns its position, or why it
// cannot: an unknown variant or option, a bad start, an illegal ply, a
// hidden-information variant, or a limit beyond the bounds.
func (r *Request) Position(reg Registry) (*rules.Position, error) {
	switch {
	case len(r.Plies) > MaxPlies:
		return nil, fmt.Errorf("%d plies: at most %d", len(r.Plies), MaxPlies)
	case r.Depth < 0 || r.Depth > MaxDepth:
		return nil, fmt.Errorf("depth %d: want 0 to %d", r.Depth, MaxDepth)
	case r.MoveTimeMS <= 0 || time.Duration(r.MoveTimeMS)*time.Millisecond > MaxMoveTime:
		return nil, fmt.Errorf("move time %d ms: want 1 to %d", r.MoveTimeMS, MaxMoveTime.Milliseconds())
	}
	var v *rules.Variant
	var err error
	if r.Definition != "" {
		// A user's definition: within the limits of one, before anything
		// is compiled or searched.
		if err = variant.CheckText([]byte(r.Definition), variant.DefaultLimits()); err != nil {
			return nil, err
		}
		if v, err = reg.Compile([]byte(r.Definition), "definition"); err != nil {
			return nil, err
		}
		if err = variant.CheckLimits(v, variant.DefaultLimits()); err != nil {
			return nil, err
		}
		if v.Name() != r.Variant {
			return nil, fmt.Errorf("the definition is of %q, not %q", v.Name(), r.Variant)
		}
	} else if v, err = reg.Get(r.Variant); err != nil {
		return nil, err
	}
	for k := range r.Options {
		if !v.HasOption(k) {
			return nil, fmt.Errorf("%s has no option %q", v.Name(), k)
		}
	}
	if len(r.Options) > 0 {
		if v, err = v.Configure(r.Options); err != nil {
			return nil, err
		}
	}
	if face.Hidden(v) {
		return nil, fmt.Errorf("%s hides pieces: its searches stay on the node", v.Name())
	}
	var start *rules.Position
	if r.Start != "" {
		if start, err = v.ParseFEN(r.Start); err != nil {
			return nil, err
		}
	}
	g := game.New(v, start)
	for i, p := range r.Plies {
		if err := g.Play(rules.Move(p.Move), p.Outcome); err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	return g.Position().Clone(), nil
}

// Worker answers search requests with its own engines.
type Worker struct {
	Registry Registry
	Engines  int // searches at once (at least 1)
	HashMB   int // each engine's table (at least 1)
	// Logf, if set, reports each request that could not be answered.
	Logf func(format string, args ...any)

	served atomic.Int64
	taken  func() // called as an engine takes a request (tests)
}

// Served returns the searches the worker has answered with a move.
func (w *Worker) Served() int64 { return w.served.Load() }

// Serve takes requests from nc until ctx is done, then answers the
// searches it has taken and returns. Each engine joins the
// queue group only while it is idle, for one request at a time (a
// subscription that ends after one message), and joins again before it
// answers: a busy worker is offered nothing, and when every engine is
// busy a node hears at once that no worker listens and searches itself.
func (w *Worker) Serve(ctx context.Context, nc *nats.Conn) error {
	n := max(w.Engines, 1)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		eng := search.New(max(w.HashMB, 1))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.engine(ctx, nc, eng); err != nil && ctx.Err() == nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// engine serves requests with one engine until ctx is done or the
// connection fails.
func (w *Worker) engine(ctx context.Context, nc *nats.Conn, eng *search.Engine) error {
	sub, err := join(nc)
	if err != nil {
		return err
	}
	for {
		msg, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			sub.Unsubscribe()
			return fmt.Errorf("enginebus: %w", err)
		}
		if w.taken != nil {
			w.taken()
		}
		// A search taken is finished and answered even when ctx ends
		// meanwhile: the worker stops taking requests, not answering.
		r := w.answer(context.WithoutCancel(ctx), eng, msg.Data)
		stopping := ctx.Err() != nil
		if !stopping {
			if sub, err = join(nc); err != nil {
				return err
			}
		}
		data, _ := json.Marshal(r)
		if err := msg.Respond(data); err != nil && w.Logf != nil {
			w.Logf("enginebus: reply: %v", err)
		}
		if stopping {
			return nil
		}
	}
}

// join joins the queue group for one request.
func join(nc *nats.Conn) (*nats.Subscription, error) {
	sub, err := nc.QueueSubscribeSync(Subject, Queue)
	if err != nil {
		return nil, fmt.Errorf("enginebus: subscribe: %w", err)
	}
	if err := sub.AutoUnsubscribe(1); err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("enginebus: %w", err)
	}
	if err := nc.FlushTimeout(10 * time.Second); err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("enginebus: %w", err)
	}
	return sub, nil
}

// answer searches one request.
func (w *Worker) answer(ctx context.Context, eng *search.Engine, data []byte) Reply {
	var req Request
	if len(data) > maxRequest {
		return Reply{Error: "request too large"}
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return Reply{Error: "bad request: " + err.Error()}
	}
	p, err := req.Position(w.Registry)
	if err != nil {
		if w.Logf != nil {
			w.Logf("enginebus: refused: %v", err)
		}
		return Reply{Error: err.Error()}
	}
	lim := search.Limits{Depth: req.Depth, MoveTime: time.Duration(req.MoveTimeMS) * time.Millisecond}
	ctx, cancel := context.WithTimeout(ctx, lim.MoveTime+time.Second)
	defer cancel()
	eng.Clear()
	m, _, err := player.Play(ctx, player.New(p.Variant(), eng, req.Seed), p, lim, maxRefusals)
	if err != nil || m == rules.NoMove {
		if err == nil {
			err = errors.New("no move")
		}
		return Reply{Error: err.Error()}
	}
	w.served.Add(1)
	return Reply{Move: uint64(m)}
}

// Client sends search requests to the workers.
type Client struct {
	NC *nats.Conn
	// Tries is how many times a request is sent before giving up (default
	// 2: a worker that died is replaced by another).
	Tries int
}

// Think asks a worker for the move of req, waiting for each try the
// request's move time and two seconds more. It returns ErrNoWorker at
// once when no worker listens, and the worker's reason when it refused.
// The move is checked to be legal in p, the position the request
// describes.
func (c *Client) Think(ctx context.Context, p *rules.Position, req Request) (rules.Move, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return rules.NoMove, err
	}
	if len(data) > maxRequest {
		return rules.NoMove, fmt.Errorf("enginebus: a request of %d bytes", len(data))
	}
	tries := c.Tries
	if tries <= 0 {
		tries = 2
	}
	wait := time.Duration(req.MoveTimeMS)*time.Millisecond + 2*time.Second
	var last error
	for range tries {
		tctx, cancel := context.WithTimeout(ctx, wait)
		msg, err := c.NC.RequestWithContext(tctx, Subject, data)
		cancel()
		switch {
		case errors.Is(err, nats.ErrNoResponders):
			return rules.NoMove, ErrNoWorker
		case err != nil:
			if ctx.Err() != nil {
				return rules.NoMove, ctx.Err()
			}
			last = err
			continue
		}
		var r Reply
		if err := json.Unmarshal(msg.Data, &r); err != nil {
			return rules.NoMove, fmt.Errorf("enginebus: a reply that is not JSON: %w", err)
		}
		if r.Error != "" {
			return rules.NoMove, fmt.Errorf("enginebus: the worker refused: %s", r.Error)
		}
		m := rules.Move(r.Move)
		if !p.Playable(m) {
			return rules.NoMove, fmt.Errorf("enginebus: the worker's move %#x is not playable here", r.Move)
		}
		return m, nil
	}
	return rules.NoMove, fmt.Errorf("enginebus: no answer after %d tries: %w", tries, last)
}
