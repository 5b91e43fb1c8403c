// Package clustertest runs a cluster of anychess nodes for end-to-end
// tests: several `anychess serve` processes on loopback sharing one
// PostgreSQL schema and one NATS server (Debian's nats-server, from
// internal/natstest), with Debian's haproxy in front as the load balancer.
// Its tests kill, pause and drain nodes while robust players (Player) play
// through the balancer, then check the store: every acknowledged move is
// stored, every player saw every event, and no game had two owners at once.
//
// The cluster needs PostgreSQL: ANYCHESS_TEST_PG holds its URL (test.sh
// sets it with tools/pg-test.sh); without it the tests are skipped, as the
// store's PostgreSQL tests are left out.
package clustertest

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of database/sql
)

// HAProxy is Debian's haproxy, which test.sh installs.
const HAProxy = "/usr/sbin/haproxy"

var (
	buildOnce sync.Once
	buildDir  string
	buildExe  string
	buildErr  error
)

// Main runs the package's tests (m.Run) and then removes the anychess
// binary they built; call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// Binary builds the anychess command once per test binary and returns its
// path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "clustertest-bin-")
		if buildErr != nil {
			return
		}
		buildExe = filepath.Join(buildDir, "anychess")
		cmd := exec.Command("go", "build", "-o", buildExe, "github.com/anychess/anychess/cmd/anychess")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildExe
}

// PostgresURL returns a URL of a fresh PostgreSQL schema for the test, in
// the database ANYCHESS_TEST_PG names, which is dropped when the test
// ends; its name holds the test's and the process id, so that test runs
// at once on one database keep apart. Without that variable the test is
// skipped.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("ANYCHESS_TEST_PG")
	if url == "" {
		t.Skip("ANYCHESS_TEST_PG is not set: a cluster needs PostgreSQL (test.sh sets it with tools/pg-test.sh)")
	}
	name := fmt.Sprintf("anychess_cluster_%d_%s", os.Getpid(), schemaName(t.Name()))
	u, err := store.PostgresSchema(context.Background(), url, name, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", url)
		if err != nil {
			t.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer db.Close()
		if _, err := db.Exec(`DROP SCHEMA IF EXISTS ` + name + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return u
}

// schemaName turns a test's name into a schema name (a-z, 0-9 and _).
func schemaName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Options say what cluster to start.
type Options struct {
	// Nodes is the number of anychess nodes (default 3).
	Nodes int
	// Lease is each node's lease on the games it owns (default 2s).
	Lease time.Duration
	// Single starts the nodes without -nats, -node and -lease: each a
	// server of its own on the shared store, which the balancer checks
	// with GET /api/stats rather than /healthz.
	Single bool
	// Extra are more flags for every node.
	Extra []string
}

// Cluster is a running cluster: its nodes, NATS, the schema and the
// balancer. Everything stops when the test ends; the logs of the nodes
// and of haproxy are printed if it failed.
type Cluster struct {
	t     testing.TB
	dir   string
	opts  Options
	db    *sql.DB
	pgURL string
	// NATS is the URL of the cluster's NATS server.
	NATS  string
	nodes []*Node

	lb      *exec.Cmd
	lbURL   string
	lbLog   string
	lbDone  chan struct{}
	cleanup []func()
}

// Node is one anychess serve process of the cluster.
type Node struct {
	// Name is the node's name in the cluster (-node).
	Name string
	// URL is where it listens, http://127.0.0.1:PORT.
	URL string
	// Log is the file its standard error goes to.
	Log string
	sub *loadtest.Sub
}

// Start starts a cluster for the test: the nodes, then haproxy in front of
// them, and returns once the balancer passes requests to every node.
func Start(t testing.TB, opts Options) *Cluster {
	t.Helper()
	if opts.Nodes <= 0 {
		opts.Nodes = 3
	}
	if opts.Lease <= 0 {
		opts.Lease = 2 * time.Second
	}
	c := &Cluster{t: t, dir: t.TempDir(), opts: opts}
	c.pgURL = PostgresURL(t) // its schema is dropped after the nodes stop
	t.Cleanup(c.stop)
	db, err := sql.Open("pgx", c.pgURL)
	if err != nil {
		t.Fatal(err)
	}
	c.db = db
	if !opts.Single {
		c.NATS = natstest.Start(t)
	}
	exe := Binary(t)
	for i := range opts.Nodes {
		n, err := c.startNode(exe, i)
		if err != nil {
			t.Fatal(err)
		}
		c.nodes = append(c.nodes, n)
	}
	if err := c.startBalancer(); err != nil {
		t.Fatal(err)
	}
	return c
}

// startNode starts node i.
func (c *Cluster) startNode(exe string, i int) (*Node, error) {
	n := &Node{Name: fmt.Sprintf("node%d", i), Log: filepath.Join(c.dir, fmt.Sprintf("node%d.log", i))}
	logf, err := os.Create(n.Log)
	if err != nil {
		return nil, err
	}
	c.cleanup = append(c.cleanup, func() { logf.Close() })
	data := filepath.Join(c.dir, n.Name)
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	// haproxy connects from 127.0.0.1 and names the client in
	// X-Forwarded-For; the tests' clients connect from other loopback
	// addresses (loadtest.From), each a client of its own.
	args := []string{"-db", c.pgURL, "-trusted-proxies", "127.0.0.1"}
	if !c.opts.Single {
		args = append(args, "-nats", c.NATS, "-node", n.Name, "-lease", c.opts.Lease.String())
	}
	args = append(args, c.opts.Extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sub, err := loadtest.StartServer(ctx, exe, data, logf, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (log:\n%s)", n.Name, err, readFile(n.Log))
	}
	n.sub, n.URL = sub, sub.URL
	return n, nil
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// haproxyConfig is the balancer's configuration for the nodes at addrs
// (host:port), listening on port. A node is taken out after two failed
// health checks (GET path, which must answer 200) 300 ms apart,
// which also closes the connections it served, and back after one good
// one; a request whose node cannot be reached goes to another
// (redispatch); a WebSocket lives as long as its client and node keep it.
func haproxyConfig(port int, addrs []string, path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
	maxconn 4096

defaults
	mode http
	timeout connect 1s
	timeout client 60s
	timeout server 60s
	timeout tunnel 1h
	timeout http-request 10s
	option redispatch
	retries 3
	option forwardfor

frontend anychess
	bind 127.0.0.1:%d
	default_backend nodes

backend nodes
	balance roundrobin
	option httpchk
	http-check send meth GET uri %s ver HTTP/1.1 hdr Host localhost
	http-check expect status 200
	default-server inter 300ms fastinter 300ms downinter 300ms fall 2 rise 1 on-marked-down shutdown-sessions
`, port, path)
	for i, a := range addrs {
		fmt.Fprintf(&b, "\tserver node%d %s check\n", i, a)
	}
	return b.String()
}

// healthPath is what the balancer asks a node to see that it is up.
func (c *Cluster) healthPath() string {
	if c.opts.Single {
		return "/api/stats"
	}
	return "/healthz"
}

// startBalancer starts haproxy in front of the nodes and waits until it
// has seen every node up.
func (c *Cluster) startBalancer() error {
	var addrs []string
	for _, n := range c.nodes {
		addrs = append(addrs, strings.TrimPrefix(n.URL, "http://"))
	}
	var lastErr error
	for range 3 { // the free port may be taken before haproxy binds it
		port, err := freePort()
		if err != nil {
			return err
		}
		cfg := filepath.Join(c.dir, "haproxy.cfg")
		if err := os.WriteFile(cfg, []byte(haproxyConfig(port, addrs, c.healthPath())), 0o644); err != nil {
			return err
		}
		c.lbLog = filepath.Join(c.dir, "haproxy.log")
		logf, err := os.Create(c.lbLog)
		if err != nil {
			return err
		}
		c.cleanup = append(c.cleanup, func() { logf.Close() })
		cmd := exec.Command(HAProxy, "-db", "-f", cfg)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("haproxy (install Debian's haproxy, as test.sh does): %w", err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		c.lb, c.lbDone, c.lbURL = cmd, done, fmt.Sprintf("http://127.0.0.1:%d", port)
		if lastErr = c.waitBalanced(done); lastErr == nil {
			return nil
		}
		cmd.Process.Kill()
		<-done
		if !errors.Is(lastErr, errExited) {
			break
		}
	}
	return fmt.Errorf("haproxy: %w (log:\n%s)", lastErr, readFile(c.lbLog))
}

// errExited is haproxy's exit before it balanced (its port may have been
// taken).
var errExited = errors.New("haproxy exited")

// waitBalanced waits until requests through the balancer have reached
// every node (by the node each /healthz names), or haproxy exits.
func (c *Cluster) waitBalanced(exited chan struct{}) error {
	seen := map[string]bool{}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errExited
		default:
		}
		if c.opts.Single {
			if err := get(c.lbURL + c.healthPath()); err == nil {
				return nil
			}
		} else if h, err := Health(context.Background(), c.lbURL); err == nil && h.Status == http.StatusOK {
			seen[h.Node] = true
			if len(seen) == len(c.nodes) {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the balancer reached only %d of %d nodes", len(seen), len(c.nodes))
}

// get asks for url and wants 200 OK.
func get(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return nil
}

// HealthAnswer is a node's /healthz answer.
type HealthAnswer struct {
	Status   int    `json:"-"`
	Node     string `json:"node"`
	Draining bool   `json:"draining"`
	Games    int    `json:"games"`
}

// Health asks base (a node or the balancer) for /healthz.
func Health(ctx context.Context, base string) (HealthAnswer, error) {
	var h HealthAnswer
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return h, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	h.Status = resp.StatusCode
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return h, err
	}
	if err := json.Unmarshal(body, &h); err != nil {
		return h, fmt.Errorf("healthz: %d %q: %w", resp.StatusCode, body, err)
	}
	return h, nil
}

// stop ends haproxy and every node, and shows their logs if the test
// failed.
func (c *Cluster) stop() {
	if c.lb != nil {
		c.lb.Process.Kill()
		<-c.lbDone
	}
	for _, n := range c.nodes {
		n.sub.Signal(syscall.SIGCONT) // a paused node cannot die
		n.sub.Kill()
	}
	if c.db != nil {
		c.db.Close()
	}
	if c.t.Failed() {
		for _, n := range c.nodes {
			c.t.Logf("log of %s (%s):\n%s", n.Name, n.URL, tail(readFile(n.Log), 200))
		}
		if c.lbLog != "" {
			c.t.Logf("log of haproxy:\n%s", tail(readFile(c.lbLog), 50))
		}
	}
	for _, f := range c.cleanup {
		f()
	}
}

// readFile returns a file's text, or why it cannot.
func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... %d lines before", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// BalancerURL returns the balancer's URL, http://127.0.0.1:PORT.
func (c *Cluster) BalancerURL() string { return c.lbURL }

// NodeURL returns node i's own URL.
func (c *Cluster) NodeURL(i int) string { return c.nodes[i].URL }

// Node returns node i.
func (c *Cluster) Node(i int) *Node { return c.nodes[i] }

// Nodes returns the number of nodes.
func (c *Cluster) Nodes() int { return len(c.nodes) }

// Index returns the index of the node named name, or -1.
func (c *Cluster) Index(name string) int {
	for i, n := range c.nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

// Kill ends node i at once with SIGKILL, as a crash would.
func (c *Cluster) Kill(i int) {
	c.t.Helper()
	if err := c.nodes[i].sub.Kill(); err != nil {
		c.t.Fatalf("kill %s: %v", c.nodes[i].Name, err)
	}
}

// Stop pauses node i with SIGSTOP, and returns once every thread of the
// process has stopped (the signal reaches them one by one, and a thread
// still running could take a frame sent meanwhile).
func (c *Cluster) Stop(i int) {
	c.t.Helper()
	n := c.nodes[i]
	if err := n.sub.Signal(syscall.SIGSTOP); err != nil {
		c.t.Fatalf("stop %s: %v", n.Name, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		running, err := runningThreads(n.sub.Pid())
		if err != nil {
			c.t.Fatalf("stop %s: %v", n.Name, err)
		}
		if running == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("stop %s: %d threads still run 5s after SIGSTOP", n.Name, running)
		}
		time.Sleep(time.Millisecond)
	}
}

// runningThreads returns how many threads of process pid are not stopped,
// from Linux's /proc.
func runningThreads(pid int) (int, error) {
	stats, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
	if err != nil || len(stats) == 0 {
		return 0, fmt.Errorf("threads of %d: none in /proc (%v)", pid, err)
	}
	running := 0
	for _, name := range stats {
		b, err := os.ReadFile(name)
		if err != nil {
			continue // a thread that ended
		}
		// The state follows the command name, which is in parentheses.
		j := strings.LastIndexByte(string(b), ')')
		if j < 0 || j+2 >= len(b) {
			return 0, fmt.Errorf("%s: %q", name, b)
		}
		if st := b[j+2]; st != 'T' && st != 't' {
			running++
		}
	}
	return running, nil
}

// Cont resumes node i, paused by Stop, with SIGCONT.
func (c *Cluster) Cont(i int) {
	c.t.Helper()
	if err := c.nodes[i].sub.Signal(syscall.SIGCONT); err != nil {
		c.t.Fatalf("continue %s: %v", c.nodes[i].Name, err)
	}
}

// Term asks node i to drain and stop with SIGTERM; Wait(i) returns how
// it exited.
func (c *Cluster) Term(i int) {
	c.t.Helper()
	if err := c.nodes[i].sub.Signal(syscall.SIGTERM); err != nil {
		c.t.Fatalf("terminate %s: %v", c.nodes[i].Name, err)
	}
}

// Wait waits up to d for node i to exit and returns its exit error (nil
// for status 0); a node still running after d is an error.
func (c *Cluster) Wait(i int, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- c.nodes[i].sub.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("%s still running after %s", c.nodes[i].Name, d)
	}
}

// DB returns the cluster's store as a database/sql handle on its schema.
func (c *Cluster) DB() *sql.DB { return c.db }

// Lease is an owner of a game as the leases table records it.
type Lease struct {
	Node    string
	Epoch   int64
	Expires time.Time // by the database's clock
}

// Owner returns the lease of game id; a game with no lease row gives
// sql.ErrNoRows (wrapped).
func (c *Cluster) Owner(ctx context.Context, id string) (Lease, error) {
	var l Lease
	var ms int64
	err := c.db.QueryRowContext(ctx, `SELECT node, epoch, expires_ms FROM leases WHERE game_id = $1`, id).Scan(&l.Node, &l.Epoch, &ms)
	if err != nil {
		return l, fmt.Errorf("owner of %s: %w", id, err)
	}
	l.Expires = time.UnixMilli(ms)
	return l, nil
}

// Owners returns how many games each node holds a lease on.
func (c *Cluster) Owners(ctx context.Context) (map[string]int, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT node, count(*) FROM leases GROUP BY node`)
	if err != nil {
		return nil, fmt.Errorf("owners: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var n string
		var k int
		if err := rows.Scan(&n, &k); err != nil {
			return nil, fmt.Errorf("owners: %w", err)
		}
		out[n] = k
	}
	return out, rows.Err()
}

// StoredEvent is one event of a game as the store holds it.
type StoredEvent struct {
	Version int64
	Kind    string
	Move    string // a ply's move in coordinates
	Epoch   int64
}

// Events returns game id's stored events in version order. With epochs
// false the epoch column is not read (a store without it).
func (c *Cluster) Events(ctx context.Context, id string, epochs bool) ([]StoredEvent, error) {
	q := `SELECT version, kind, data, 0 FROM events WHERE game_id = $1 ORDER BY version`
	if epochs {
		q = `SELECT version, kind, data, epoch FROM events WHERE game_id = $1 ORDER BY version`
	}
	rows, err := c.db.QueryContext(ctx, q, id)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", id, err)
	}
	defer rows.Close()
	var out []StoredEvent
	for rows.Next() {
		var e StoredEvent
		var data string
		if err := rows.Scan(&e.Version, &e.Kind, &data, &e.Epoch); err != nil {
			return nil, fmt.Errorf("events of %s: %w", id, err)
		}
		var body struct {
			Move string `json:"move"`
		}
		if err := json.Unmarshal([]byte(data), &body); err != nil {
			return nil, fmt.Errorf("events of %s: version %d: %w", id, e.Version, err)
		}
		e.Move = body.Move
		out = append(out, e)
	}
	return out, rows.Err()
}

// CheckEpochs checks that game id never had two owners at once, as its
// stored events show: their versions run 1, 2, 3, ... without gaps, their
// epochs never decrease with the version, so each epoch's events are
// contiguous.
func CheckEpochs(events []StoredEvent) error {
	for i, e := range events {
		if e.Version != int64(i+1) {
			return fmt.Errorf("event %d has version %d", i+1, e.Version)
		}
		if i > 0 && e.Epoch < events[i-1].Epoch {
			return fmt.Errorf("version %d written under epoch %d after version %d under epoch %d", e.Version, e.Epoch, events[i-1].Version, events[i-1].Epoch)
		}
	}
	return nil
}
