package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/server"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
	"github.com/anychess/anychess/variant"
	"github.com/anychess/anychess/web"
)

// defaultDataDir returns the folder for the server's data: anychess in the
// user's data directory ($XDG_DATA_HOME or ~/.local/share on Unix).
func defaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "anychess")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "anychess")
	}
	return "anychess-data"
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serve runs the server until ctx is done.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", "", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "host:port to listen on (port 0 picks a free port)")
	data := fs.String("data", defaultDataDir(), "folder for the games database (one server at a time) and the ACME cache")
	db := fs.String("db", "", "database URL: postgres://user:pass@host/db, or sqlite:PATH (default: games.db in -data)")
	engines := fs.Int("engines", 0, "engine searches that may run at once (default: half the CPUs divided by -engine-threads), and one more for a client with none running")
	engineThreads := fs.Int("engine-threads", 1, "threads of each engine search (at most the CPUs)")
	hosts := fs.String("host", "", "the site's names, separated by commas: requests for other names get 421 (default: localhost only when -addr is loopback, else any)")
	var to tlsOptions
	fs.StringVar(&to.cert, "tls-cert", "", "serve HTTPS with this certificate file (PEM, with its chain)")
	fs.StringVar(&to.key, "tls-key", "", "the private key file (PEM) of -tls-cert")
	fs.BoolVar(&to.acme, "acme", false, "serve HTTPS with certificates from Let's Encrypt for the -host names (-addr must be reachable on port 443)")
	fs.StringVar(&to.email, "acme-email", "", "contact address for the ACME account (optional)")
	diag := fs.Bool("diagnostics", false, "let loopback peers use /api/stats?gc=1&reset=1 (for load tests; not behind a proxy)")
	lim := server.DefaultLimits()
	proxies := fs.String("trusted-proxies", "", "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client (default: none; the header is ignored)")
	fs.Float64Var(&lim.RequestRate, "rate", lim.RequestRate, "HTTP requests per second one client may make on average (negative: no limit)")
	fs.Float64Var(&lim.RequestBurst, "burst", lim.RequestBurst, "burst of HTTP requests one client may make")
	fs.Float64Var(&lim.CreateRate, "create-rate", lim.CreateRate, "games per second one client may create on average (negative: no limit)")
	fs.Float64Var(&lim.CreateBurst, "create-burst", lim.CreateBurst, "burst of games one client may create")
	fs.Float64Var(&lim.LoadRate, "load-rate", lim.LoadRate, "games not in memory per second one client's WebSockets may load on average (negative: no limit)")
	fs.Float64Var(&lim.LoadBurst, "load-burst", lim.LoadBurst, "burst of games one client's WebSockets may load")
	fs.Float64Var(&lim.GlobalCreateRate, "create-rate-all", lim.GlobalCreateRate, "games per second all clients together may create (burst ten times that; negative: no limit)")
	fs.IntVar(&lim.EngineGames, "engine-games", lim.EngineGames, "unfinished engine games one client may play at once: from creation, and while one of its seats is connected (negative: no limit)")
	fs.IntVar(&lim.MaxLiveGames, "max-games", lim.MaxLiveGames, "games held in memory at most (negative: no limit)")
	fs.Int64Var(&lim.MaxBody, "max-body", lim.MaxBody, "largest request body in bytes")
	fs.IntVar(&lim.ConnsPerClient, "ws-per-client", lim.ConnsPerClient, "WebSockets one client may hold open (negative: no limit)")
	fs.DurationVar(&lim.HelloTimeout, "hello-timeout", lim.HelloTimeout, "time a new WebSocket has to say hello")
	fs.DurationVar(&lim.PingInterval, "ping", lim.PingInterval, "interval of the server's WebSocket pings (a connection that does not answer within half of it is closed)")
	connsPerAddr := fs.Int("conns-per-addr", 128, "TCP connections one address may hold open (trusted proxies excepted; negative: no limit)")
	natsURL := fs.String("nats", "", "NATS URL (nats://host:4222): send the engine's searches to the anychess worker processes there (with none free, search here); with a PostgreSQL -db, also join the cluster of the nodes on that database and bus (docs/scale.md)")
	node := fs.String("node", "", "this node's name in its cluster (letters, digits, '-', '_'; default: random)")
	lease := fs.Duration("lease", 3*time.Second, "in a cluster, how long a node owns a game after its last renewal: a dead node's games are taken over within it")
	drainTime := fs.Duration("drain", 20*time.Second, "in a cluster, how long SIGTERM waits for the node's games to be handed over")
	drainWait := fs.Duration("drain-wait", time.Second, "in a cluster, how long SIGTERM keeps the node's games after /healthz turns 503, so that the load balancer stops sending clients here first")
	variantsPath := fs.String("variants", "", "a directory of variant files (*.toml), or files and directories separated by '"+string(os.PathListSeparator)+"', loaded at start; a file that is broken or beyond the limits of a user's variant stops the start")
	logFormat := fs.String("log", "text", "format of the log on standard error: text (key=value lines) or json (one object a line)")
	maxConns := fs.Int("max-conns", 0, "TCP connections held open at most (default: the descriptor limit less 100; negative: no limit)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	logger, err := newLogger(*logFormat, stderr)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "serve", err)
	}
	if *variantsPath != "" {
		if _, err := reg.LoadPathChecked(*variantsPath, variant.Limits{}.Check); err != nil {
			return fail(stderr, "serve", fmt.Errorf("-variants: %w", err))
		}
	}
	if to.hosts, err = hostList(*hosts); err != nil {
		return fail(stderr, "serve", err)
	}
	to.data = *data
	tlsCfg, _, err := to.config()
	if err != nil {
		return fail(stderr, "serve", err)
	}
	names := to.hosts
	if len(names) == 0 && loopbackAddr(*addr) {
		names = []string{"localhost"} // and loopback addresses: no other site's pages reach it by name
	}
	if lim.TrustedProxies, err = server.ParsePrefixes(strings.Split(*proxies, ",")); err != nil {
		return fail(stderr, "serve", err)
	}
	lim.PingTimeout = lim.PingInterval / 2
	if *maxConns == 0 {
		*maxConns = descriptorBudget()
	}
	url := *db
	if url == "" {
		url = "sqlite:" + filepath.Join(*data, "games.db")
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	defer st.Close()
	var bus server.RemoteEngine
	var cluster *server.ClusterConfig
	if *natsURL != "" {
		nc, err := nats.Connect(*natsURL, nats.Name("anychess serve"), nats.MaxReconnects(-1))
		if err != nil {
			return fail(stderr, "serve", fmt.Errorf("NATS %s: %w", *natsURL, err))
		}
		defer nc.Close()
		bus = &enginebus.Client{NC: nc}
		if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
			cluster = &server.ClusterConfig{NATS: nc, Node: *node, Lease: *lease, DrainWait: *drainWait}
		}
	}
	if cluster == nil && *node != "" {
		return fail(stderr, "serve", errors.New("-node names a node of a cluster: it needs -nats and a PostgreSQL -db"))
	}
	srv, err := server.New(server.Config{Store: st, Registry: reg, Web: web.Handler(), EngineWorkers: *engines,
		EngineThreads: *engineThreads, EngineBus: bus, Cluster: cluster,
		Hosts: names, Diagnostics: *diag, Limits: lim, Logger: logger})
	if err != nil {
		return fail(stderr, "serve", err)
	}
	if err := srv.Start(ctx); err != nil {
		return fail(stderr, "serve", err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	ln = srv.LimitListener(ln, *connsPerAddr, *maxConns)
	hs := srv.HTTPServer()
	hs.TLSConfig = tlsCfg
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tlsCfg)
	}
	fmt.Fprintf(stdout, "anychess serve: open %s://%s/ (games in %s)\n", scheme, ln.Addr(), redact(url))
	if cluster != nil {
		fmt.Fprintf(stdout, "anychess serve: node %s of the cluster on %s\n", srv.Node(), *natsURL)
	}
	if f, ok := stdout.(*os.File); ok {
		f.Sync()
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return fail(stderr, "serve", err)
		}
	case <-ctx.Done():
		// Stop taking connections, let the requests under way end, then
		// close every game (its moves are stored before they are
		// acknowledged, and the store's writer finishes what it holds).
		if cluster != nil {
			// Hand the games over first: the balancer stops sending
			// clients here (/healthz says 503), each game's lease is
			// released and its clients reconnect to another node.
			fmt.Fprintln(stdout, "anychess serve: draining: handing the games over to the other nodes")
			dctx, cancel := context.WithTimeout(context.Background(), *drainTime)
			if err := srv.Drain(dctx); err != nil {
				logger.Error("anychess serve: drain", "err", err)
			}
			cancel()
		}
		fmt.Fprintln(stdout, "anychess serve: stopping: closing the listener and the games")
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			logger.Error("anychess serve: shutdown", "err", err)
		}
		srv.Close()
		if err := st.Close(); err != nil {
			return fail(stderr, "serve", err)
		}
		fmt.Fprintln(stdout, "anychess serve: stopped")
	}
	return 0
}

// redact hides a database URL's password.
func redact(url string) string {
	for i := 0; i+3 < len(url); i++ {
		if url[i:i+3] == "://" {
			rest := url[i+3:]
			for j := 0; j < len(rest) && rest[j] != '/'; j++ {
				if rest[j] == '@' {
					return url[:i+3] + "…@" + rest[j+1:]
				}
			}
		}
	}
	return url
}

func runLoadtest(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("loadtest", "", stderr)
	var cfg loadtest.Config
	fs.StringVar(&cfg.URL, "url", "", "a running server to test, e.g. http://127.0.0.1:8080, served with -diagnostics for its heap and latency figures, or several separated by commas (the nodes of a cluster: games are created on each in turn), or a balancer's (default: start one as a subprocess on loopback)")
	fs.BoolVar(&cfg.Forward, "forward", false, "with several -url servers: each game's players connect to the server after the one that created it, so that on a cluster their moves are forwarded to the game's owner")
	fs.IntVar(&cfg.Games, "games", 1000, "concurrent games")
	fs.IntVar(&cfg.Plies, "plies", 40, "plies per game")
	fs.DurationVar(&cfg.Think, "think", 2*time.Second, "mean time a scripted player waits before each move")
	fs.DurationVar(&cfg.Ramp, "ramp", 10*time.Second, "time over which the games are started")
	fs.DurationVar(&cfg.Timeout, "timeout", 10*time.Minute, "stop after this long")
	fs.StringVar(&cfg.Variant, "variant", "chess", "variant of the games")
	fs.BoolVar(&cfg.Abuse, "abuse", false, "add one abusive client (from 127.0.0.2) that creates games, asks for summaries and keeps level-8 engine games busy as fast as the server lets it")
	fs.BoolVar(&cfg.EngineProbe, "engine-probe", false, "add one player of level-1 engine games (from 127.0.0.3) and report its waits for the engine's replies")
	engineGames := fs.Int("engine-games", 0, "instead of games: this many engine games at once, whose player moves the moment it is its turn (at most every 60 ms, under the server's frame rate limit), for -duration; reports the engine's searches per second and its reply latency")
	engineLevel := fs.Int("engine-level", 1, "the engine's level (1 to 8) in -engine-games")
	duration := fs.Duration("duration", 30*time.Second, "how long -engine-games plays")
	seeks := fs.Int("seeks", 0, "instead of games: this many visitors open the lobby, half post a seek each over -ramp and half accept one each; reports the pairing latency")
	dbURL := fs.String("db", "", "the database of the server it starts (postgres://... or sqlite:PATH; default a fresh SQLite database)")
	pidList := fs.String("pids", "", "with -url: the process ids of the servers (and workers) whose CPU time to report, separated by commas")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	pids, err := parsePids(*pidList)
	if err != nil {
		return fail(stderr, "loadtest", err)
	}
	if cfg.URL != "" && *dbURL != "" {
		return fail(stderr, "loadtest", errors.New("-db is for the server loadtest starts; give a running server's database to that server"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var sub *loadtest.Sub
	if cfg.URL == "" {
		exe, err := os.Executable()
		if err != nil {
			return fail(stderr, "loadtest", err)
		}
		dir, err := os.MkdirTemp("", "anychess-loadtest-")
		if err != nil {
			return fail(stderr, "loadtest", err)
		}
		defer os.RemoveAll(dir)
		extra := []string{"-diagnostics"}
		if *dbURL != "" {
			extra = append(extra, "-db", *dbURL)
		}
		sub, err = loadtest.StartServer(ctx, exe, dir, stderr, extra...)
		if err != nil {
			return fail(stderr, "loadtest", err)
		}
		defer sub.Stop()
		cfg.URL = sub.URL
		pids = []int{sub.Pid()}
	}
	cpu := newCPUMeter(pids)
	if *engineGames > 0 {
		return runEngineLoad(ctx, loadtest.EngineConfig{URL: cfg.URL, Games: *engineGames, Level: *engineLevel, Duration: *duration, Variant: cfg.Variant}, cpu, stdout, stderr)
	}
	if *seeks > 0 {
		return runSeeksLoad(ctx, loadtest.SeeksConfig{URL: cfg.URL, Visitors: *seeks, Ramp: cfg.Ramp, Timeout: cfg.Timeout, Variant: cfg.Variant}, cpu, stdout, stderr)
	}
	rep, err := loadtest.Run(ctx, cfg, stderr)
	if err != nil {
		return fail(stderr, "loadtest", err)
	}
	fmt.Fprint(stdout, rep)
	cpu.report(stdout, rep.Moves, "move", "moves", rep.Duration)
	return 0
}

// runSeeksLoad runs the seeks load (loadtest -seeks) and prints its report
// with the servers' CPU time.
func runSeeksLoad(ctx context.Context, cfg loadtest.SeeksConfig, cpu *cpuMeter, stdout, stderr io.Writer) int {
	rep, err := loadtest.RunSeeks(ctx, cfg, stderr)
	if err != nil {
		return fail(stderr, "loadtest", err)
	}
	fmt.Fprint(stdout, rep)
	cpu.report(stdout, 0, "", "", rep.Duration)
	return 0
}

// runEngineLoad runs the engine load (loadtest -engine-games) and prints
// its report with the servers' CPU time.
func runEngineLoad(ctx context.Context, cfg loadtest.EngineConfig, cpu *cpuMeter, stdout, stderr io.Writer) int {
	rep, err := loadtest.RunEngine(ctx, cfg, stderr)
	if err != nil {
		return fail(stderr, "loadtest", err)
	}
	fmt.Fprint(stdout, rep)
	cpu.report(stdout, int64(len(rep.Replies)), "reply", "replies", rep.Duration)
	return 0
}
