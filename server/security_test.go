package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/anychess/anychess/web"
)

// get sends a GET to the test server with the given Host header ("": the
// server's address) and returns the response, its body closed.
func get(t *testing.T, ts *testServer, path, host string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t), http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestSecurityHeaders: every response, the page's and the API's, forbids
// sniffing and framing, and the page may connect only to its own site.
func TestSecurityHeaders(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Web = web.Handler() })
	host := strings.TrimPrefix(ts.URL, "http://")
	for _, path := range []string{"/", "/app.js", "/nope.css", "/api/variants", "/api/games/nope", "/ws/nope"} {
		resp := get(t, ts, path, "")
		h := resp.Header
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s (%d): nosniff %q, frame options %q", path, resp.StatusCode, h.Get("X-Content-Type-Options"), h.Get("X-Frame-Options"))
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q lets others frame it", path, csp)
		}
		for _, d := range strings.Split(csp, ";") {
			f := strings.Fields(d)
			if len(f) == 0 || f[0] != "connect-src" {
				continue
			}
			for _, src := range f[1:] {
				if src != "'self'" && src != "ws://"+host && src != "wss://"+host {
					t.Errorf("%s: connect-src allows %q", path, src)
				}
			}
		}
	}
}

// TestCSPHost: a Host header that is not a plain name cannot add to the
// policy; the WebSockets are then allowed to the site itself only.
func TestCSPHost(t *testing.T) {
	ts := newTestServer(t, "", nil)
	for host, want := range map[string]string{
		"chess.example.org:8080": "connect-src 'self' ws://chess.example.org:8080 wss://chess.example.org:8080;",
		"a;script-src":           "connect-src 'self';",
	} {
		if csp := get(t, ts, "/api/variants", host).Header.Get("Content-Security-Policy"); !strings.Contains(csp, want) || strings.Contains(csp, "script-src") {
			t.Errorf("Host %q: CSP %q, want %q", host, csp, want)
		}
	}
}

// TestHostCheck: with host names configured, a request for another name
// is refused with 421; the names, localhost and loopback addresses are
// served. Without names, any host is served.
func TestHostCheck(t *testing.T) {
	named := newTestServer(t, "", func(c *Config) { c.Hosts = []string{"chess.example.org"} })
	open := newTestServer(t, "", nil)
	tests := []struct {
		ts   *testServer
		host string
		want int
	}{
		{named, "chess.example.org", http.StatusOK},
		{named, "Chess.Example.ORG:8443", http.StatusOK},
		{named, "localhost:8080", http.StatusOK},
		{named, "127.0.0.1", http.StatusOK},
		{named, "[::1]:80", http.StatusOK},
		{named, "evil.example.com", http.StatusMisdirectedRequest},
		{named, "chess.example.org.evil.example.com", http.StatusMisdirectedRequest},
		{named, "10.1.2.3:8080", http.StatusMisdirectedRequest},
		{open, "evil.example.com", http.StatusOK},
	}
	for _, tc := range tests {
		if resp := get(t, tc.ts, "/api/variants", tc.host); resp.StatusCode != tc.want {
			t.Errorf("Host %s: %d, want %d", tc.host, resp.StatusCode, tc.want)
		}
	}
}

// TestDiagnostics: /api/stats?reset=1 starts the latency figures over
// only on a server that allows diagnostics; on others (behind a proxy
// every peer looks like loopback) the figures stay.
func TestDiagnostics(t *testing.T) {
	for _, allow := range []bool{false, true} {
		ts := newTestServer(t, "", func(c *Config) { c.Diagnostics = allow })
		_, w, _, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
		w.mustMove("e4")
		stats := func(q string) Stats {
			resp, err := http.Get(ts.URL + "/api/stats" + q)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var st Stats
			if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
				t.Fatal(err)
			}
			return st
		}
		if st := stats(""); st.StoreP50us == 0 || st.AckP50us == 0 {
			t.Fatalf("no figures after a move: %+v", st)
		}
		stats("?gc=1&reset=1")
		if st := stats(""); (st.StoreP50us == 0) != allow {
			t.Errorf("diagnostics %v: store p50 %dµs after a reset", allow, st.StoreP50us)
		}
	}
}

// TestHealth: /api/health says 503, with the store's error, once a write
// failed, and 200 again after a write succeeded.
func TestHealth(t *testing.T) {
	var fs *flakyStore
	ts := newTestServer(t, "", func(c *Config) {
		fs = &flakyStore{Store: c.Store}
		c.Store = fs
	})
	health := func() (int, Health) {
		resp, err := http.Get(ts.URL + "/api/health")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var h Health
		json.NewDecoder(resp.Body).Decode(&h)
		return resp.StatusCode, h
	}
	if code, h := health(); code != http.StatusOK || !h.OK {
		t.Fatalf("at the start: %d %+v", code, h)
	}
	_, w, _, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	fs.fail.Store(true)
	if f := w.move("e4"); f.Code != "internal" {
		t.Fatalf("e4 with the store down: %s %s", f.T, f.Code)
	}
	if code, h := health(); code != http.StatusServiceUnavailable || h.OK || !strings.Contains(h.Error, "the store is down") {
		t.Errorf("with writes failing: %d %+v", code, h)
	}
	fs.fail.Store(false)
	w.mustMove("e4")
	if code, h := health(); code != http.StatusOK || !h.OK {
		t.Errorf("after a write: %d %+v", code, h)
	}
}

// TestGzipPage: the page's files sent gzipped to a client that takes gzip
// keep the security headers, and decompress to the files.
func TestGzipPage(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Web = web.Handler() })
	for _, path := range []string{"/", "/app.js", "/app.css"} {
		req, err := http.NewRequestWithContext(ctxT(t), http.MethodGet, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "gzip") // set here, the client leaves the body compressed
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := resp.Header
		if h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Content-Encoding %q, Vary %q", path, h.Get("Content-Encoding"), h.Get("Vary"))
			continue
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: gzipped without the security headers: %v", path, h)
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimPrefix(path, "/")
		if name == "" {
			name = "index.html"
		}
		if want, err := fs.ReadFile(web.FS(), name); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: decompresses to %d bytes, not the file (%v)", path, len(got), err)
		}
	}
}
