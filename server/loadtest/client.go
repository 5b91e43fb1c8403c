// Package loadtest drives an anychess server the way its clients do: over
// HTTP and the game WebSocket (docs/protocol.md), with scripted players.
// Run plays many concurrent games and reports games held, moves per second,
// acknowledgement latency percentiles and memory per game; Client and
// StartServer are also what the server's tests use to talk to a real
// server process.
package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// Frame is any frame the server sends; which fields are set depends on T.
type Frame struct {
	T       string          `json:"t"`
	V       int64           `json:"v"`
	ID      int64           `json:"id"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Seat    string          `json:"seat"`
	Version int64           `json:"version"`
	E       json.RawMessage `json:"e"`
	Game    json.RawMessage `json:"game"`
	Token   string          `json:"token"`
	FEN     string          `json:"fen"`
	Board   string          `json:"board"`
	Turn    string          `json:"turn"`
	Counter int             `json:"counter"`
	Legal   []string        `json:"legal"`
	Check   string          `json:"check"`
	Offer   string          `json:"offer"`
	Status  struct {
		Result string `json:"result"`
		Reason string `json:"reason"`
		Detail string `json:"detail"`
	} `json:"status"`
	Dice *struct {
		Commit string `json:"commit"`
		Gen    string `json:"gen"`
		Seed   string `json:"seed"`
		Nonce  string `json:"nonce"`
	} `json:"dice"`
	// Raw is the frame as received.
	Raw []byte `json:"-"`
}

// Event is the body of an event frame.
type Event struct {
	Kind     string `json:"kind"`
	Seat     string `json:"seat"`
	Ply      int    `json:"ply"`
	Move     string `json:"move"`
	SAN      string `json:"san"`
	Outcome  int    `json:"outcome"`
	Roll     int    `json:"roll"` // the die's face of a chance ply, 0 if none was rolled
	TurnOver bool   `json:"turn_over"`
	FEN      string `json:"fen"`
	Board    string `json:"board"`
	Offer    string `json:"offer"`
	Result   string `json:"result"`
	Reason   string `json:"reason"`
	Game     string `json:"game"`
}

// Event decodes the frame's event.
func (f *Frame) Event() (Event, error) {
	var e Event
	err := json.Unmarshal(f.E, &e)
	return e, err
}

// Client is one WebSocket connection to a game.
type Client struct {
	ws *websocket.Conn
}

// CreateGame creates a game with the JSON request req and returns the
// answer's fields id, seat, token and invite.
func CreateGame(ctx context.Context, base string, req any) (map[string]string, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/games", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := httpClient(ctx).Do(hr)
	if err != nil {
		return nil, fmt.Errorf("create game: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return nil, &StatusError{Op: "create game", Status: resp.StatusCode, Body: string(bytes.TrimSpace(b))}
	}
	out := map[string]string{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("create game: %w", err)
	}
	return out, nil
}

// StatusError is an HTTP answer other than the one wanted.
type StatusError struct {
	Op     string
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.Op, e.Status, http.StatusText(e.Status), e.Body)
}

type fromKey struct{}

// From returns a context under which CreateGame, Dial, Join and Watch
// connect from the local address ip (any 127.x.y.z on Linux's loopback),
// so that the server counts them as a client of their own.
func From(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, fromKey{}, ip)
}

var (
	clientsMu sync.Mutex
	clients   = map[string]*http.Client{}
)

// httpClient returns the HTTP client for ctx's source address (From), or
// the default client.
func httpClient(ctx context.Context) *http.Client {
	ip, _ := ctx.Value(fromKey{}).(string)
	if ip == "" {
		return http.DefaultClient
	}
	clientsMu.Lock()
	defer clientsMu.Unlock()
	if c := clients[ip]; c != nil {
		return c
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 30 * time.Second}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 16, IdleConnTimeout: 30 * time.Second}}
	clients[ip] = c
	return c
}

// forgetClient closes the idle connections of the HTTP client of source
// address ip and forgets it.
func forgetClient(ip string) {
	clientsMu.Lock()
	c := clients[ip]
	delete(clients, ip)
	clientsMu.Unlock()
	if c != nil {
		c.CloseIdleConnections()
	}
}

// InviteToken returns the token in an invite path /#/game/ID/SEAT/TOKEN.
func InviteToken(invite string) string {
	i := strings.LastIndexByte(invite, '/')
	return invite[i+1:]
}

// Dial opens the WebSocket of game id on the server at base (http://...).
func Dial(ctx context.Context, base, id string) (*Client, error) {
	u := "ws" + strings.TrimPrefix(base, "http") + "/ws/" + id
	ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: httpClient(ctx)})
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	ws.SetReadLimit(1 << 20)
	return &Client{ws: ws}, nil
}

// Join dials game id and says hello with token and since.
func Join(ctx context.Context, base, id, token string, since int64) (*Client, error) {
	return dialHello(ctx, base, id, map[string]any{"t": "hello", "token": token, "since": since})
}

// Watch dials game id as a spectator whose hello asks for the view of
// side ("white" or "black"); the server ignores the request (no spectator
// receives a seat's view of a game with hidden information in play), and
// the server's tests check that it does.
func Watch(ctx context.Context, base, id, side string) (*Client, error) {
	return dialHello(ctx, base, id, map[string]any{"t": "hello", "view": side})
}

// dialHello dials game id and sends the hello frame hello.
func dialHello(ctx context.Context, base, id string, hello map[string]any) (*Client, error) {
	c, err := Dial(ctx, base, id)
	if err != nil {
		return nil, err
	}
	if err := c.Send(ctx, hello); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Send sends a frame (any JSON value).
func (c *Client) Send(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.SendRaw(ctx, b)
}

// SendRaw sends a text frame as it is.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	return nil
}

// Read returns the next frame.
func (c *Client) Read(ctx context.Context) (*Frame, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	f := &Frame{Raw: b}
	if err := json.Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return f, nil
}

// ReadUntil reads frames until one satisfies ok, and returns it with the
// frames read before it.
func (c *Client) ReadUntil(ctx context.Context, ok func(*Frame) bool) (*Frame, []*Frame, error) {
	var seen []*Frame
	for {
		f, err := c.Read(ctx)
		if err != nil {
			return nil, seen, err
		}
		if ok(f) {
			return f, seen, nil
		}
		seen = append(seen, f)
	}
}

// follow reads a player's frames until the game ends (nil), ctx does or
// the server sends an error. It keeps the player's seat from the welcome
// and hands every other frame to on with that seat and, for an event
// frame, its decoded event.
func (c *Client) follow(ctx context.Context, on func(f *Frame, e Event, seat string) error) error {
	var seat string
	for {
		f, err := c.Read(ctx)
		if err != nil {
			return err
		}
		var e Event
		switch f.T {
		case "welcome":
			seat = f.Seat
			continue
		case "error":
			return fmt.Errorf("%s: %s", f.Code, f.Message)
		case "event":
			if e, err = f.Event(); err != nil {
				return err
			}
			if e.Kind == "end" {
				return nil
			}
		}
		if err := on(f, e, seat); err != nil {
			return err
		}
	}
}

// Close closes the connection.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseNow drops the connection without a closing handshake.
func (c *Client) CloseNow() error { return c.ws.CloseNow() }

// Sub is a server running as a subprocess.
type Sub struct {
	URL string
	cmd *exec.Cmd

	waitOnce sync.Once
	waitErr  error
}

// StartServer runs "exe serve" on a free loopback port with its data in
// dir and returns when it listens. Its standard error goes to logw.
func StartServer(ctx context.Context, exe, dir string, logw io.Writer, extra ...string) (*Sub, error) {
	args := append([]string{"serve", "-addr", "127.0.0.1:0", "-data", dir}, extra...)
	cmd := exec.Command(exe, args...)
	cmd.Stderr = logw
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	select {
	case line := <-lines:
		i := strings.Index(line, "http://")
		if i < 0 {
			cmd.Process.Kill()
			return nil, fmt.Errorf("start server: unexpected output %q", line)
		}
		u := strings.Fields(line[i:])[0]
		return &Sub{URL: strings.TrimSuffix(u, "/"), cmd: cmd}, nil
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, errors.New("start server: no address after 30s")
	case <-ctx.Done():
		cmd.Process.Kill()
		return nil, ctx.Err()
	}
}

// Kill ends the server at once with SIGKILL, as a crash would.
func (s *Sub) Kill() error {
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	s.Wait()
	return nil
}

// Signal sends sig to the server (SIGSTOP and SIGCONT pause and resume
// it, SIGTERM asks it to stop).
func (s *Sub) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// Wait waits for the server to exit and returns how it did: nil for exit
// status 0, else an *exec.ExitError. It may be called any number of times.
func (s *Sub) Wait() error {
	s.waitOnce.Do(func() { s.waitErr = s.cmd.Wait() })
	return s.waitErr
}

// Stop ends the server with SIGINT (after 10 seconds SIGKILL) and waits
// for it.
func (s *Sub) Stop() error {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	return nil
}

// Pid returns the server's process id.
func (s *Sub) Pid() int { return s.cmd.Process.Pid }

// CPU returns the processor time the server process has used so far (user
// and system), read from /proc on Linux.
func (s *Sub) CPU() (time.Duration, error) { return ProcessCPU(s.cmd.Process.Pid) }

// ProcessCPU returns the processor time process pid has used so far (user
// and system), read from /proc on Linux.
func ProcessCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("cpu: bad /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("cpu: short /proc stat")
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / hz, nil
}
