package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/anychess/anychess/server/store"
)

// secure wraps the server's routes with what every response needs: the
// Host check (Config.Hosts) and the security headers.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		if r.TLS != nil {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, "bad_host", errors.New("this server does not answer to that host name"))
			return
		}
		h.Set("Content-Security-Policy", csp(r.Host))
		next.ServeHTTP(w, r)
	})
}

// csp is the page's content security policy: everything from the site
// itself (styles may be set inline, images may be data: URLs), WebSockets
// only to the site itself (host, if it is a plain host name or address
// with a port), and no framing.
func csp(host string) string {
	connect := "'self'"
	if plainHost(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
		"connect-src " + connect + "; " +
		"frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
}

// plainHost reports whether a Host header is made only of letters,
// digits, '.', '-', ':', '[' and ']', so that it cannot change the policy
// it is written into.
func plainHost(host string) bool {
	if host == "" {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return true
}

// hostAllowed reports whether the server answers to a request's Host
// header: any host if Config.Hosts is empty; otherwise one of those names
// (letter case aside, any port), "localhost" or a loopback address.
func (s *Server) hostAllowed(hostport string) bool {
	if len(s.cfg.Hosts) == 0 {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, name := range s.cfg.Hosts {
		if strings.EqualFold(host, strings.TrimSuffix(name, ".")) {
			return true
		}
	}
	return false
}

// diagnostics reports whether r may use the diagnostics of /api/stats:
// only when Config.Diagnostics is set, and only from a loopback peer.
// (Behind a reverse proxy on the same machine every peer is loopback,
// hence the setting.)
func (s *Server) diagnostics(r *http.Request) bool {
	if !s.cfg.Diagnostics {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	return err == nil && net.ParseIP(host).IsLoopback()
}

// Health is the body of GET /api/health (also at /healthz).
type Health struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"` // the last write's failure, while writes fail
	// Node is the server's name in its cluster ("" without one), and
	// Draining whether it is handing its games over before it stops.
	Node     string `json:"node,omitempty"`
	Draining bool   `json:"draining"`
	// Games is the number of games in memory.
	Games int `json:"games"`
}

// handleHealth answers 200 while the server takes clients and the store
// takes writes; 503 with the error once a write failed, until one
// succeeds again, and 503 while a node of a cluster drains (so that a
// load balancer sends clients elsewhere).
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := Health{OK: true, Node: s.Node(), Games: len(s.games)}
	s.mu.Unlock()
	status := http.StatusOK
	if s.cluster != nil && s.cluster.draining.Load() {
		h.OK, h.Draining, status = false, true, http.StatusServiceUnavailable
	}
	if err := s.health.get(); err != nil {
		h.OK, h.Error, status = false, err.Error(), http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, h)
}

// writeHealth holds the failure of the last write to the store, if it
// failed.
type writeHealth struct {
	mu  sync.Mutex
	err error
}

func (h *writeHealth) get() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// note records a write's result. A refusal that is the caller's (a
// version conflict, an unknown game, a cancelled request) says nothing of
// the store's health.
func (h *writeHealth) note(err error) {
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrFenced) ||
		errors.Is(err, context.Canceled) {
		return
	}
	h.mu.Lock()
	h.err = err
	h.mu.Unlock()
}

// watchedStore is the server's store with each write's result noted in
// its health.
type watchedStore struct {
	store.Store
	health *writeHealth
}

// Create implements store.Store.
func (s watchedStore) Create(ctx context.Context, g *store.Game) error {
	err := s.Store.Create(ctx, g)
	s.health.note(err)
	return err
}

// Append implements store.Store.
func (s watchedStore) Append(ctx context.Context, id string, ev store.Event, end *store.End) error {
	err := s.Store.Append(ctx, id, ev, end)
	s.health.note(err)
	return err
}
