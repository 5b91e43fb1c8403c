package server

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/anychess/anychess/server/loadtest"
)

// TestHelloDeadline checks that a WebSocket that does not say hello in
// time gets a hello_timeout error and is closed, and one that does stays.
func TestHelloDeadline(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.HelloTimeout = 200 * time.Millisecond })
	g := create(t, ts, map[string]any{"variant": "chess"})
	silent, err := loadtest.Dial(ctxT(t), ts.URL, g["id"])
	if err != nil {
		t.Fatal(err)
	}
	defer silent.CloseNow()
	f, err := silent.Read(ctxT(t))
	if err != nil || f.T != "error" || f.Code != "hello_timeout" {
		t.Fatalf("silent connection: %+v %v", f, err)
	}
	if _, err := silent.Read(ctxT(t)); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("silent connection not closed with 1008: %v", err)
	}
	// A client that said hello is not closed when the deadline passes: its
	// ping is answered after it.
	sc := join(t, ts, g["id"], g["token"], 0)
	time.Sleep(400 * time.Millisecond)
	if err := sc.c.Send(ctxT(t), map[string]any{"t": "ping", "id": 7}); err != nil {
		t.Fatal(err)
	}
	if f := sc.until(func(f *loadtest.Frame) bool { return f.T == "pong" || f.T == "error" }); f.T != "pong" {
		t.Errorf("after hello: %s %s", f.Code, f.Message)
	}
}

// TestConnsPerClient checks the cap on one client's WebSockets: the one
// over it gets a too_many_connections error and is closed; once one
// closes, a new one is accepted.
func TestConnsPerClient(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.ConnsPerClient = 3 })
	g := create(t, ts, map[string]any{"variant": "chess"})
	var open []*seatClient
	for range 3 {
		open = append(open, join(t, ts, g["id"], "", 0))
	}
	if f := firstFrame(t, ts, g["id"], ""); f.T != "error" || f.Code != "too_many_connections" {
		t.Fatalf("connection 4: %s %s, want error too_many_connections", f.T, f.Code)
	}
	open[0].c.Close()
	// Once the server has counted the close, a fourth connection is welcome.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		f := firstFrame(t, ts, g["id"], "")
		if f.T == "welcome" {
			break
		}
		if f.Code != "too_many_connections" || time.Now().After(deadline) {
			t.Fatalf("connection 4 after one closed: %s %s %s", f.T, f.Code, f.Message)
		}
	}
}

// firstFrame connects to game id with token (a seat's, or "" to watch)
// and returns the server's first answer to the hello.
func firstFrame(t *testing.T, ts *testServer, id, token string) *loadtest.Frame {
	t.Helper()
	c, err := loadtest.Join(ctxT(t), ts.URL, id, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	f, err := c.Read(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestClientKey checks which client a request counts for: its address,
// an IPv6 address by its /64, and behind a trusted proxy the address the
// proxy forwards (X-Forwarded-For is ignored from anyone else).
func TestClientKey(t *testing.T) {
	s := &Server{lim: Limits{TrustedProxies: mustPrefixes(t, "10.0.0.0/8", "::1/128")}}
	for _, tc := range []struct {
		remote, xff, want string
	}{
		{"192.0.2.7:5000", "", "192.0.2.7"},
		{"192.0.2.7:5000", "198.51.100.1", "192.0.2.7"}, // not a trusted proxy: the header is ignored
		{"[2001:db8:1:2:3:4:5:6]:80", "", "2001:db8:1:2::/64"},
		{"10.1.2.3:80", "198.51.100.1", "198.51.100.1"},
		{"10.1.2.3:80", "203.0.113.9, 198.51.100.1", "198.51.100.1"}, // the rightmost untrusted hop
		{"10.1.2.3:80", "203.0.113.9, 10.9.9.9", "203.0.113.9"},      // a chain of trusted proxies
		{"10.1.2.3:80", "", "10.1.2.3"},
		{"10.1.2.3:80", "garbage", "10.1.2.3"},
		{"[::1]:80", "192.0.2.8", "192.0.2.8"},
		{"[::ffff:192.0.2.7]:80", "", "192.0.2.7"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/api/variants", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := s.clientKey(r); got != tc.want {
			t.Errorf("%s with X-Forwarded-For %q: %q, want %q", tc.remote, tc.xff, got, tc.want)
		}
	}
}

func mustPrefixes(t *testing.T, ss ...string) []netip.Prefix {
	t.Helper()
	out, err := ParsePrefixes(ss)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLimitListener checks the listener's caps: connections over the
// per-address cap are closed at once, and a closed one frees its place.
func TestLimitListener(t *testing.T) {
	ts := newTestServer(t, "", nil)
	for _, tc := range []struct {
		name           string
		perAddr, total int
		want           int // connections held of 5 tried
	}{
		{"per address", 2, 100, 2},
		{"total", 100, 3, 3},
		{"no limit", -1, -1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ln := ts.LimitListener(raw, tc.perAddr, tc.total)
			defer ln.Close()
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func() { io.Copy(c, c); c.Close() }() // echo until the client closes
				}
			}()
			held := 0
			var conns []net.Conn
			for range 5 {
				c, err := net.Dial("tcp", raw.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				c.Write([]byte("x"))
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				var b [1]byte
				if _, err := c.Read(b[:]); err == nil {
					held++
				} else if !errors.Is(err, io.EOF) && !isReset(err) {
					t.Fatalf("read: %v", err)
				}
			}
			if held != tc.want {
				t.Errorf("%d connections held, want %d", held, tc.want)
			}
			for _, c := range conns {
				c.Close()
			}
			if tc.want < 5 { // a place freed is taken again
				for {
					c, err := net.Dial("tcp", raw.Addr().String())
					if err != nil {
						t.Fatal(err)
					}
					c.Write([]byte("x"))
					var b [1]byte
					_, err = c.Read(b[:])
					c.Close()
					if err == nil {
						break
					}
				}
			}
		})
	}
}

// isReset reports whether err is a connection reset by the peer.
func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

// TestPingCloses checks that a WebSocket whose client stops answering the
// server's pings is closed, and one that answers is not.
func TestPingCloses(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) {
		c.Limits.PingInterval, c.Limits.PingTimeout = 50*time.Millisecond, 50*time.Millisecond
	})
	g := create(t, ts, map[string]any{"variant": "chess"})
	ctx := ctxT(t)
	// The reading client reads all the time, so it answers every ping.
	live, err := loadtest.Join(ctx, ts.URL, g["id"], "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	frames := make(chan *loadtest.Frame, 100)
	go func() {
		defer close(frames)
		for {
			f, err := live.Read(ctx)
			if err != nil {
				return
			}
			frames <- f
		}
	}()
	join(t, ts, g["id"], g["token"], 0) // then reads no more, so answers no ping
	for ts.Stats().Connections != 1 {
		select {
		case <-ctx.Done():
			t.Fatalf("%d connections, want the silent one closed", ts.Stats().Connections)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := live.Send(ctx, map[string]any{"t": "ping", "id": 9}); err != nil {
		t.Fatal(err)
	}
	for f := range frames {
		if f.T == "pong" {
			return
		}
	}
	t.Error("the reading client was closed")
}

// TestLoadRate checks that one client's WebSockets load games into memory
// at a bounded rate: a hello to one more game not in memory is refused
// with rate_limited, while games in memory may still be joined.
func TestLoadRate(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.LoadRate, c.Limits.LoadBurst = 0.001, 2 })
	var ids []string
	for range 3 {
		ids = append(ids, create(t, ts, map[string]any{"variant": "chess"})["id"])
	}
	join(t, ts, ids[0], "", 0)
	join(t, ts, ids[1], "", 0)
	if f := firstFrame(t, ts, ids[2], ""); f.T != "error" || f.Code != "rate_limited" {
		t.Errorf("third game: %s %s, want error rate_limited", f.T, f.Code)
	}
	if ts.loaded(ids[2]) != nil {
		t.Error("the refused game was loaded")
	}
	join(t, ts, ids[0], "", 0) // in memory: no load
}
