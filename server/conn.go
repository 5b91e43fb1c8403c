package server

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Timeouts of the HTTP server (HTTPServer). A WebSocket is free of them
// once upgraded; its own limits are the hello deadline and pings (Limits).
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	httpWriteTimeout  = 60 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// HTTPServer returns an http.Server for the server's handler with the
// timeouts a public server needs: a request's header must arrive within
// 10 seconds and the whole request within 30, an answer be written within
// 60, and an idle keep-alive connection is closed after 2 minutes.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      httpWriteTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// LimitListener returns a listener that holds at most perAddr
// connections from one address (a trusted proxy's connections do not
// count toward it) and at most total in all; a connection over a limit is
// closed as soon as it is accepted, before it costs more than its
// descriptor for a moment. A negative limit is no limit.
func (s *Server) LimitListener(ln net.Listener, perAddr, total int) net.Listener {
	return &limitListener{Listener: ln, srv: s, perAddr: perAddr, total: total, byAddr: map[string]int{}}
}

type limitListener struct {
	net.Listener
	srv            *Server
	perAddr, total int

	mu     sync.Mutex
	n      int
	byAddr map[string]int
}

// Accept returns the next connection within the limits.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := l.key(c.RemoteAddr())
		if !l.take(key) {
			c.Close()
			continue
		}
		return &limitConn{Conn: c, release: func() { l.give(key) }}, nil
	}
}

// key is the per-address count a connection from a counts toward: ""
// (none) for a trusted proxy.
func (l *limitListener) key(a net.Addr) string {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return a.String()
	}
	if l.srv.trusted(ap.Addr()) {
		return ""
	}
	return addrKey(ap.Addr())
}

func (l *limitListener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= 0 && l.n >= l.total {
		return false
	}
	if key != "" && l.perAddr >= 0 && l.byAddr[key] >= l.perAddr {
		return false
	}
	l.n++
	if key != "" {
		l.byAddr[key]++
	}
	return true
}

func (l *limitListener) give(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n--
	if key != "" {
		if l.byAddr[key]--; l.byAddr[key] <= 0 {
			delete(l.byAddr, key)
		}
	}
}

// limitConn gives its place back once when closed.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
