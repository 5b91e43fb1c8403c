package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/anychess/anychess/server/store"
)

// Limits of the WebSocket protocol.
const (
	// MaxFrame is the largest frame a client may send.
	MaxFrame = 4096
	// MaxMoveText is the longest move text.
	MaxMoveText = 96
	// MaxOptionValue is the longest value of a variant option in a new
	// game (room for a csipgs Terrain of a 16x16 board).
	MaxOptionValue = 2048
	// sendBuffer is how many frames wait for a slow client before it is
	// disconnected (it reconnects and catches up by version).
	sendBuffer = 64
	// writeTimeout bounds writing one frame.
	writeTimeout = 10 * time.Second
	// maxDropped is how many frames over the rate limit close a connection.
	maxDropped = 50
)

// client is one WebSocket connection to a game.
type client struct {
	seat  int
	token string
	key   string // the client it counts for (Server.clientKey)
	out   chan [][]byte

	closeOnce sync.Once
	closed    chan struct{}
}

// send queues a frame; a client whose queue is full is disconnected.
func (c *client) send(b []byte) { c.sendAll([][]byte{b}) }

// sendAll queues frames to be written in order as one item.
func (c *client) sendAll(frames [][]byte) {
	select {
	case <-c.closed:
	case c.out <- frames:
	default:
		c.close()
	}
}

func (c *client) close() { c.closeOnce.Do(func() { close(c.closed) }) }

// loadError is the error frame for a game that could not be loaded for a
// hello, here or, forwarded, on its node.
func loadError(err error) *wireError {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &wireError{"not_found", "no such game"}
	case errors.Is(err, errBusy):
		return &wireError{"busy", err.Error()}
	case errors.Is(err, errDraining):
		return &wireError{"draining", "this node is shutting down; reconnect"}
	}
	return &wireError{"internal", "the game could not be loaded"}
}

// bucket is a token-bucket rate limiter.
type bucket struct {
	rate, burst, tokens float64
	last                time.Time
}

func (b *bucket) allow(now time.Time) bool {
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// validMoveText reports whether s may be a move: not too long, made of
// printable ASCII without spaces (SAN, coordinates, drops and the text of a
// variant's own moves, such as a csipgs design "&Q>Y=FfR"). An outcome
// mark "~" is refused: the server rolls the dice.
func validMoveText(s string) error {
	if s == "" {
		return errors.New("empty move")
	}
	if len(s) > MaxMoveText {
		return fmt.Errorf("move longer than %d bytes", MaxMoveText)
	}
	for _, r := range s {
		switch {
		case r == '~':
			return errors.New("a move may not name its outcome: the server rolls the dice")
		case r < '!' || r > '~' || r == '"' || r == '\\' || r == '`':
			return fmt.Errorf("character %q in a move", r)
		}
	}
	return nil
}

// parseFrame decodes and validates a client frame.
func parseFrame(data []byte) (clientMsg, *wireError) {
	var m clientMsg
	if err := checkObject(data, frameKeys); err != nil {
		return m, &wireError{"bad_frame", "not a frame: " + err.Error()}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, &wireError{"bad_frame", "not a frame: " + err.Error()}
	}
	if m.ID < 0 || m.ID > 1<<53 {
		return m, &wireError{"bad_frame", "id out of range"}
	}
	switch m.T {
	case "hello":
		if len(m.Token) > 128 || m.Since < 0 {
			return m, &wireError{"bad_frame", "bad hello"}
		}
		if m.View != "" && m.View != "white" && m.View != "black" {
			return m, &wireError{"bad_frame", "view must be white or black"}
		}
	case "move":
		if err := validMoveText(m.Move); err != nil {
			return m, &wireError{"bad_move", err.Error()}
		}
	case "draw":
		if m.Offer == nil {
			return m, &wireError{"bad_frame", "draw needs offer: true or false"}
		}
	case "resign", "abort", "rematch", "ping":
	case "":
		return m, &wireError{"bad_frame", "a frame needs a kind t"}
	default:
		return m, &wireError{"bad_frame", fmt.Sprintf("unknown kind %q", m.T)}
	}
	return m, nil
}

// pinger pings conn every Limits.PingInterval and ends the connection
// (cancel) when a pong does not come within Limits.PingTimeout. (A ping
// is a control frame; the library orders it with the writer's frames.)
func (s *Server) pinger(ctx context.Context, conn *websocket.Conn, cancel func()) {
	t := time.NewTicker(s.lim.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, pcancel := context.WithTimeout(ctx, s.lim.PingTimeout)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				cancel()
				return
			}
		}
	}
}

// handleWS serves a game's WebSocket.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	key := s.clientKey(r)
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	if !s.limits.openConn(key, s.lim.ConnsPerClient) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		conn.Write(ctx, websocket.MessageText, errFrame(0, "too_many_connections",
			fmt.Sprintf("at most %d connections from one address", s.lim.ConnsPerClient)))
		cancel()
		conn.Close(websocket.StatusPolicyViolation, "too many connections")
		return
	}
	defer s.limits.closeConn(key)
	s.conns.Add(1)
	defer s.conns.Add(-1)
	conn.SetReadLimit(MaxFrame)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := &client{seat: spectator, key: key, out: make(chan [][]byte, sendBuffer), closed: make(chan struct{})}

	// The writer: the only goroutine that writes to conn.
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		defer cancel()
		for {
			select {
			case frames := <-c.out:
				wctx, wcancel := context.WithTimeout(ctx, writeTimeout)
				for _, b := range frames {
					if err := conn.Write(wctx, websocket.MessageText, b); err != nil {
						wcancel()
						return
					}
				}
				wcancel()
			case <-c.closed:
				// Flush what is queued, then close.
				for {
					select {
					case frames := <-c.out:
						wctx, wcancel := context.WithTimeout(ctx, time.Second)
						for _, b := range frames {
							conn.Write(wctx, websocket.MessageText, b)
						}
						wcancel()
						continue
					default:
					}
					break
				}
				conn.Close(websocket.StatusPolicyViolation, "closed by the server")
				return
			case <-ctx.Done():
				return
			}
		}
	}()

	// A connection must say hello in time, and answer pings while open.
	var helloed atomic.Bool
	if s.lim.HelloTimeout > 0 {
		t := time.AfterFunc(s.lim.HelloTimeout, func() {
			if !helloed.Load() {
				c.send(errFrame(0, "hello_timeout", fmt.Sprintf("say hello within %s", s.lim.HelloTimeout)))
				c.close()
			}
		})
		defer t.Stop()
	}
	if s.lim.PingInterval > 0 {
		go s.pinger(ctx, conn, cancel)
	}

	var lg *liveGame
	var px *proxy // in a cluster, the connection forwarded to the game's node
	defer func() {
		c.close()
		if lg != nil {
			lg.do(context.Background(), func() { lg.leave(c) })
		}
		if px != nil {
			px.drop(true)
		}
		cancel()
		<-writerDone
		conn.CloseNow()
	}()

	lim := bucket{rate: s.cfg.RateLimit, burst: s.cfg.RateBurst, tokens: s.cfg.RateBurst, last: time.Now()}
	dropped := 0
	for {
		typ, data, err := conn.Read(ctx)
		read := time.Now()
		if err != nil {
			return // closed, or a frame over the read limit (the library closes with 1009)
		}
		if !lim.allow(time.Now()) {
			dropped++
			m, _ := parseFrame(data) // for its id; at most MaxFrame bytes
			c.send(errFrame(m.ID, "rate_limited", "too many frames; slow down"))
			if dropped > maxDropped {
				conn.Close(websocket.StatusPolicyViolation, "rate limit")
				return
			}
			continue
		}
		if typ != websocket.MessageText {
			c.send(errFrame(0, "bad_frame", "frames are JSON text"))
			continue
		}
		m, werr := parseFrame(data)
		if werr != nil {
			c.send(errFrame(m.ID, werr.code, werr.msg))
			continue
		}
		switch {
		case m.T == "ping":
			c.send(mustJSON(pongFrame{T: "pong", ID: m.ID}))
		case m.T == "hello":
			if lg != nil || px != nil {
				c.send(errFrame(m.ID, "bad_frame", "hello was already said"))
				continue
			}
			if s.loaded(id) == nil && !s.limits.loads.allow(key, time.Now()) {
				c.send(errFrame(m.ID, "rate_limited", "too many games opened; wait a little"))
				continue
			}
			var g *liveGame
			var err error
			if s.cluster != nil {
				var werr *wireError
				g, px, werr, err = s.cluster.attach(ctx, id, c, m)
				if werr != nil && werr.code == "bad_token" {
					c.send(errFrame(m.ID, werr.code, werr.msg))
					continue // as on the game's own node: another hello may follow
				}
				if werr != nil {
					c.send(errFrame(m.ID, werr.code, werr.msg))
					c.close()
					<-writerDone
					return
				}
				if px != nil {
					helloed.Store(true)
					continue
				}
			} else {
				g, err = s.game(ctx, id)
			}
			if err != nil {
				werr := loadError(err)
				c.send(errFrame(m.ID, werr.code, werr.msg))
				c.close()
				<-writerDone
				return
			}
			seat, ok := seatOf(g.rec, m.Token)
			if !ok {
				c.send(errFrame(m.ID, "bad_token", "that token opens no seat of this game"))
				continue
			}
			c.seat, c.token = seat, m.Token
			since := m.Since
			var werr *wireError
			if !g.call(ctx, func() {
				if werr = g.claim(c); werr == nil {
					g.join(c, since)
				}
			}) {
				return // unloaded before the join: the client reconnects
			}
			if werr != nil {
				c.send(errFrame(m.ID, werr.code, werr.msg))
				c.close()
				<-writerDone
				return
			}
			helloed.Store(true)
			lg = g
		case lg == nil && px == nil:
			c.send(errFrame(m.ID, "need_hello", "say hello first"))
		case c.seat == spectator:
			c.send(errFrame(m.ID, "not_your_seat", "spectators cannot act"))
		case px != nil:
			px.send(data) // the game's node checks it as its own
		default:
			if !lg.do(ctx, func() { lg.handle(c, m, read) }) {
				return
			}
		}
		select {
		case <-c.closed:
			<-writerDone
			return
		default:
		}
	}
}
