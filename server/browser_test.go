package server

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/web"
)

// updateShots keeps the browser tests' screenshots in docs/screenshots,
// where readers see them; without it they go to a temporary folder.
var updateShots = flag.Bool("update-screenshots", false, "write the browser tests' screenshots to docs/screenshots")

// restartPath is the path of the browser tests' restart hook: a POST to
// it stops the server and starts another on the same database, behind the
// same address, as a server restarted by its operator.
const restartPath = "/__e2e/restart"

// restartable is a server for the browser tests at a fixed address,
// whose server behind it can be restarted (restartPath).
type restartable struct {
	URL string

	t    *testing.T
	path string
	mu   sync.Mutex
	ts   *testServer
}

// newRestartable starts a server on a new database behind a fixed address.
func newRestartable(t *testing.T) *restartable {
	r := &restartable{t: t, path: filepath.Join(t.TempDir(), "games.db")}
	r.ts = r.start()
	hs := httptest.NewServer(r)
	t.Cleanup(hs.Close)
	r.URL = hs.URL
	return r
}

func (r *restartable) start() *testServer {
	return newTestServer(r.t, r.path, func(c *Config) {
		c.Web = web.Handler()
		c.Logf = func(string, ...any) {}
		// Every page of the browser tests is the one client of the
		// loopback address, which creates games (and posts seeks, which
		// count as creations) much faster than any visitor may.
		c.Limits.CreateBurst = 1000
	})
}

// ServeHTTP passes a request to the server of the moment, and restarts it
// on a POST to restartPath.
func (r *restartable) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == restartPath && req.Method == http.MethodPost {
		r.mu.Lock()
		r.ts.stop()
		r.ts = r.start()
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	r.mu.Lock()
	h := r.ts.Server.Handler()
	r.mu.Unlock()
	h.ServeHTTP(w, req)
}

// TestBrowser runs the page's browser tests (web/e2e/run.mjs, Playwright
// on Debian's chromium) against a server on a loopback port, which the
// tests may restart on the same database (restartPath); with
// -update-screenshots their screenshots replace those in docs/screenshots.
// It fails when node, chromium or the e2e packages are missing: ./test.sh
// installs them.
func TestBrowser(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run ./test.sh, which installs it")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("chromium is missing (%v): run ./test.sh, which installs it", err)
	}
	e2e, err := filepath.Abs(filepath.Join("..", "web", "e2e"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e2e, "node_modules", "playwright-core")); err != nil {
		t.Fatal("web/e2e/node_modules is missing: run ./test.sh (npm ci in web/e2e)")
	}
	front := newRestartable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	shots := t.TempDir()
	if *updateShots {
		if shots, err = filepath.Abs(filepath.Join("..", "docs", "screenshots")); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(e2e, "run.mjs"), front.URL, shots)
	cmd.Dir = e2e
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	t.Logf("browser tests:\n%s", out)
	if err != nil {
		t.Fatalf("browser tests failed: %v", err)
	}
}
