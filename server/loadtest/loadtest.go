package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config says what load to make.
type Config struct {
	// URL is the server, http://host:port, or several servers (the nodes
	// of a cluster) separated by commas: the games are created on them in
	// turn, and their players connect where Forward says.
	URL     string
	Games   int           // concurrent games
	Plies   int           // plies per game; then a player resigns
	Think   time.Duration // mean wait before each move
	Ramp    time.Duration // the games start spread over this time
	Timeout time.Duration // the whole run stops after this
	Variant string
	// Abuse adds one abusive client (Abuser) from its own address while
	// the games play.
	Abuse bool
	// EngineProbe adds one player of a level-1 engine game from an address
	// of its own, whose wait for each engine reply is reported.
	EngineProbe bool
	// Forward has each game's players connect to the server after the one
	// that created it in URL's list (the next, wrapping round), so that on
	// a cluster each of their moves goes through a node that does not own
	// the game: a node of a cluster loads a game, and takes its lease, at
	// the game's first hello, so a spectator's hello on the creating
	// server comes first, and the players connect once it is answered. It
	// needs at least two servers.
	Forward bool
}

// Targets splits a Config.URL into its servers' base URLs, each an
// http:// or https:// URL without a trailing slash.
func Targets(list string) ([]string, error) {
	var out []string
	for _, u := range strings.Split(list, ",") {
		u = strings.TrimSuffix(strings.TrimSpace(u), "/")
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return nil, fmt.Errorf("loadtest: server %q: want http://host:port", u)
		}
		out = append(out, u)
	}
	return out, nil
}

// Target is what one server of a run's list took.
type Target struct {
	URL string
	// Created is the games created on it, Players the players sent to
	// it (two a game).
	Created, Players int
	// GamesLivePeak is the most games it had loaded at once.
	GamesLivePeak int
	// Server holds its own measure from /api/stats at the end.
	Server stats
}

// Report is what a run measured.
type Report struct {
	Games, Finished, Failed int
	Held                    int // most games in play at once
	Moves                   int64
	Duration                time.Duration
	P50, P99, Max           time.Duration // move acknowledgement latency
	HeapBefore, HeapPeak    uint64        // the server's live heap before, and with HeapHeld games held
	HeapHeld                int
	GamesLivePeak           int
	Errors                  []string
	// Windows holds the p99 latency of each 10-second window of the run.
	Windows []time.Duration
	// Abuser is what the abusive client did, if Config.Abuse.
	Abuser *AbuseReport
	// EngineReplies are the engine probe's waits for the engine's reply
	// (from its move's ack to the engine's ply), if Config.EngineProbe.
	EngineReplies []time.Duration
	// Server holds the server's own measure (from a move frame read to its
	// ack queued, and one store write), from /api/stats at the end; the
	// first server's, when there are several.
	Server stats
	// Targets holds what each server took, in the order of Config.URL.
	Targets []Target
	// Forward is Config.Forward.
	Forward bool
}

// MovesPerSecond is the acknowledged moves per second over the run.
func (r *Report) MovesPerSecond() float64 { return float64(r.Moves) / r.Duration.Seconds() }

// BytesPerGame is the server's live heap growth per game held (a game,
// its two connections and its record).
func (r *Report) BytesPerGame() float64 {
	if r.HeapHeld == 0 || r.HeapPeak < r.HeapBefore {
		return 0
	}
	return float64(r.HeapPeak-r.HeapBefore) / float64(r.HeapHeld)
}

// String formats the report.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "games         %d (finished %d, failed %d)\n", r.Games, r.Finished, r.Failed)
	fmt.Fprintf(&b, "games held    %d at once (server had %d loaded)\n", r.Held, r.GamesLivePeak)
	fmt.Fprintf(&b, "moves         %d in %.1fs: %.0f moves/s\n", r.Moves, r.Duration.Seconds(), r.MovesPerSecond())
	fmt.Fprintf(&b, "ack latency   p50 %s  p99 %s  max %s\n", r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Max.Round(10*time.Microsecond))
	if len(r.Targets) > 1 {
		where := "the server that created it"
		if r.Forward {
			where = "the next server in the list"
		}
		fmt.Fprintf(&b, "servers       %d, games created in turn; each game's players on %s\n", len(r.Targets), where)
		for _, t := range r.Targets {
			fmt.Fprintf(&b, "  %s  created %d, players %d, loaded at most %d", t.URL, t.Created, t.Players, t.GamesLivePeak)
			if s := t.Server; s.AckP99us > 0 {
				fmt.Fprintf(&b, ", in the server p50 %s  p99 %s", time.Duration(s.AckP50us)*time.Microsecond, time.Duration(s.AckP99us)*time.Microsecond)
			}
			fmt.Fprintln(&b)
		}
	} else if s := r.Server; s.AckP99us > 0 {
		fmt.Fprintf(&b, "in the server p50 %s  p99 %s  (store write p50 %s  p99 %s)\n",
			time.Duration(s.AckP50us)*time.Microsecond, time.Duration(s.AckP99us)*time.Microsecond,
			time.Duration(s.StoreP50us)*time.Microsecond, time.Duration(s.StoreP99us)*time.Microsecond)
	}
	if len(r.Windows) > 1 {
		fmt.Fprintf(&b, "p99 by 10s   ")
		for _, w := range r.Windows {
			fmt.Fprintf(&b, " %s", w.Round(time.Millisecond))
		}
		fmt.Fprintln(&b)
	}
	if r.HeapHeld > 0 {
		fmt.Fprintf(&b, "memory        %.1f KiB per game (server live heap %d MiB -> %d MiB with %d games)\n", r.BytesPerGame()/1024, r.HeapBefore>>20, r.HeapPeak>>20, r.HeapHeld)
	}
	if r.Abuser != nil {
		fmt.Fprintf(&b, "abuser        %s\n", r.Abuser)
	}
	if n := len(r.EngineReplies); n > 0 {
		e := slices.Sorted(slices.Values(r.EngineReplies))
		fmt.Fprintf(&b, "engine probe  %d level-1 replies: p50 %s  p99 %s  max %s\n", n,
			e[n/2].Round(time.Millisecond), e[min(n*99/100, n-1)].Round(time.Millisecond), e[n-1].Round(time.Millisecond))
	}
	for i, e := range r.Errors {
		if i == 5 {
			fmt.Fprintf(&b, "... %d more errors\n", len(r.Errors)-5)
			break
		}
		fmt.Fprintf(&b, "error         %s\n", e)
	}
	return b.String()
}

type stats struct {
	HeapBytes  uint64 `json:"heap_bytes"`
	GamesLive  int    `json:"games_live"`
	AckP50us   int64  `json:"ack_p50_us"`
	AckP99us   int64  `json:"ack_p99_us"`
	StoreP50us int64  `json:"store_p50_us"`
	StoreP99us int64  `json:"store_p99_us"`
}

func getStats(ctx context.Context, base string, gc bool) (stats, error) {
	var s stats
	u := base + "/api/stats"
	if gc {
		u += "?gc=1&reset=1"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return s, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&s)
	return s, err
}

// Run plays cfg.Games scripted games at once against the server and
// measures it. Progress goes to logw.
func Run(ctx context.Context, cfg Config, logw io.Writer) (*Report, error) {
	if cfg.Games <= 0 || cfg.Plies <= 0 {
		return nil, fmt.Errorf("loadtest: want games and plies > 0")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Minute
	}
	if cfg.Variant == "" {
		cfg.Variant = "chess"
	}
	targets, err := Targets(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.Forward && len(targets) < 2 {
		return nil, fmt.Errorf("loadtest: forwarding needs at least two servers, got %d", len(targets))
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = 256
	rep := &Report{Games: cfg.Games, Forward: cfg.Forward}
	for _, t := range targets {
		before, err := getStats(ctx, t, true)
		if err != nil {
			return nil, fmt.Errorf("loadtest: stats of %s: %w", t, err)
		}
		rep.HeapBefore += before.HeapBytes
		rep.Targets = append(rep.Targets, Target{URL: t})
	}
	created := make([]atomic.Int64, len(targets))
	players := make([]atomic.Int64, len(targets))
	var (
		mu        sync.Mutex
		lats      []sample
		held, top atomic.Int64
		moves     atomic.Int64
		finished  atomic.Int64
		failed    atomic.Int64
	)
	fail := func(err error) {
		failed.Add(1)
		mu.Lock()
		if len(rep.Errors) < 100 {
			rep.Errors = append(rep.Errors, err.Error())
		}
		mu.Unlock()
	}
	// Sample the server's memory while the games run.
	sampleDone := make(chan struct{})
	go func() {
		defer close(sampleDone)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		measured := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// Once all games are held, the live heap is measured once.
				all := !measured && held.Load() >= int64(cfg.Games)
				var heap uint64
				live, ok := 0, true
				for i, t := range targets {
					s, err := getStats(ctx, t, all)
					if err != nil {
						ok = false
						continue
					}
					heap += s.HeapBytes
					live += s.GamesLive
					mu.Lock()
					rep.Targets[i].GamesLivePeak = max(rep.Targets[i].GamesLivePeak, s.GamesLive)
					mu.Unlock()
				}
				if !ok {
					continue
				}
				mu.Lock()
				if all {
					measured = true
					rep.HeapPeak = heap
					rep.HeapHeld = int(held.Load())
				}
				rep.GamesLivePeak = max(rep.GamesLivePeak, live)
				mu.Unlock()
				if finished.Load()+failed.Load() >= int64(cfg.Games) {
					return
				}
			}
		}
	}()
	start := time.Now()
	// from has ctx connect from ip when the servers are on loopback, where
	// the load generator has many addresses of its own.
	spread := true
	for _, t := range targets {
		spread = spread && loopback(t)
	}
	from := func(ctx context.Context, ip string) context.Context {
		if !spread {
			return ctx
		}
		return From(ctx, ip)
	}
	side, sideCancel := context.WithCancel(ctx)
	defer sideCancel()
	var sideWG sync.WaitGroup
	if cfg.Abuse {
		rep.Abuser = &AbuseReport{}
		sideWG.Add(1)
		go func() {
			defer sideWG.Done()
			abuse(from(side, "127.0.0.2"), targets[0], rep.Abuser)
		}()
	}
	if cfg.EngineProbe {
		sideWG.Add(1)
		go func() {
			defer sideWG.Done()
			lats, err := probeEngine(from(side, "127.0.0.3"), targets[0])
			if err != nil && side.Err() == nil {
				mu.Lock()
				rep.Errors = append(rep.Errors, "engine probe: "+err.Error())
				mu.Unlock()
			}
			mu.Lock()
			rep.EngineReplies = lats
			mu.Unlock()
		}()
	}
	var wg sync.WaitGroup
	for i := range cfg.Games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cfg.Ramp > 0 {
				select {
				case <-time.After(time.Duration(int64(cfg.Ramp) * int64(i) / int64(cfg.Games))):
				case <-ctx.Done():
					fail(ctx.Err())
					return
				}
			}
			// Each game's players come from an address of their own, as
			// players of a public server do, so the server's per-client
			// limits see many clients.
			ctx := from(ctx, fmt.Sprintf("127.1.%d.%d", i/250, i%250+1))
			// The games are created on the servers in turn; with Forward
			// their players go to the next one.
			maker, at := i%len(targets), i%len(targets)
			if cfg.Forward {
				at = (maker + 1) % len(targets)
			}
			g, err := CreateGame(ctx, targets[maker], map[string]any{"variant": cfg.Variant})
			if err != nil {
				fail(err)
				return
			}
			created[maker].Add(1)
			if cfg.Forward {
				if err := load(ctx, targets[maker], g["id"]); err != nil {
					fail(fmt.Errorf("game %s: %w", g["id"], err))
					return
				}
			}
			tokens := [2]string{g["token"], InviteToken(g["invite"])}
			gctx, gcancel := context.WithCancel(ctx)
			defer gcancel()
			var pw sync.WaitGroup
			errs := make([]error, 2)
			var ready sync.WaitGroup
			ready.Add(2)
			var once sync.Once
			for s := range 2 {
				pw.Add(1)
				go func() {
					defer pw.Done()
					var l []sample
					players[at].Add(1)
					errs[s] = play(gctx, cfg, targets[at], g["id"], tokens[s], start, &ready, &l, &moves, func() {
						once.Do(func() {
							n := held.Add(1)
							for {
								t := top.Load()
								if n <= t || top.CompareAndSwap(t, n) {
									break
								}
							}
						})
					})
					if errs[s] != nil {
						gcancel() // the other player stops too
					}
					mu.Lock()
					lats = append(lats, l...)
					mu.Unlock()
				}()
			}
			pw.Wait()
			held.Add(-1)
			for _, err := range errs {
				if err != nil {
					fail(fmt.Errorf("game %s: %w", g["id"], err))
					return
				}
			}
			finished.Add(1)
		}()
	}
	wg.Wait()
	rep.Duration = time.Since(start)
	sideCancel()
	sideWG.Wait()
	cancel()
	<-sampleDone
	for i, t := range targets {
		rep.Targets[i].Created = int(created[i].Load())
		rep.Targets[i].Players = int(players[i].Load())
		if s, err := getStats(context.Background(), t, false); err == nil {
			rep.Targets[i].Server = s
		}
	}
	rep.Server = rep.Targets[0].Server
	rep.Moves = moves.Load()
	rep.Finished = int(finished.Load())
	rep.Failed = int(failed.Load())
	rep.Held = int(top.Load())
	all := make([]time.Duration, len(lats))
	var windows [][]time.Duration
	for i, s := range lats {
		all[i] = s.lat
		w := int(s.at / (10 * time.Second))
		for len(windows) <= w {
			windows = append(windows, nil)
		}
		windows[w] = append(windows[w], s.lat)
	}
	slices.Sort(all)
	if n := len(all); n > 0 {
		rep.P50, rep.P99, rep.Max = all[n/2], all[min(n*99/100, n-1)], all[n-1]
	}
	for _, w := range windows {
		slices.Sort(w)
		var p time.Duration
		if n := len(w); n > 0 {
			p = w[min(n*99/100, n-1)]
		}
		rep.Windows = append(rep.Windows, p)
	}
	fmt.Fprintf(logw, "loadtest: done in %s\n", rep.Duration.Round(time.Millisecond))
	return rep, nil
}

// load has the server at base load game id, as a spectator's hello does,
// and returns once the server has answered it.
func load(ctx context.Context, base, id string) error {
	c, err := Watch(ctx, base, id, "")
	if err != nil {
		return err
	}
	defer c.Close()
	f, _, err := c.ReadUntil(ctx, func(f *Frame) bool { return f.T == "welcome" || f.T == "error" })
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if f.T == "error" {
		return fmt.Errorf("load: %s: %s", f.Code, f.Message)
	}
	return nil
}

// sample is one acknowledgement latency and when (since the run's start)
// its move was sent.
type sample struct {
	at, lat time.Duration
}

// play is one scripted player on the server at base: it moves at random
// among the legal moves after a random wait, and resigns when the game has
// cfg.Plies plies.
func play(ctx context.Context, cfg Config, base, id, token string, start time.Time, ready *sync.WaitGroup, lats *[]sample, moves *atomic.Int64, started func()) error {
	c, err := Join(ctx, base, id, token, 0)
	if err != nil {
		ready.Done()
		return err
	}
	defer c.CloseNow()
	ready.Done()
	ready.Wait()
	started()
	sent := map[int64]time.Time{}
	next := int64(1)
	plies := 0
	rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
	return c.follow(ctx, func(f *Frame, e Event, seat string) error {
		switch f.T {
		case "ack":
			if t, ok := sent[f.ID]; ok {
				*lats = append(*lats, sample{at: t.Sub(start), lat: time.Since(t)})
				delete(sent, f.ID)
				moves.Add(1)
			}
		case "event":
			if e.Kind == "ply" {
				plies = e.Ply
			}
		case "state":
			if f.Turn != seat || len(f.Legal) == 0 || f.Status.Result != "*" {
				return nil
			}
			if cfg.Think > 0 {
				sleep(ctx, time.Duration(float64(cfg.Think)*(0.5+rng.Float64())))
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			id := next
			next++
			msg := map[string]any{"t": "move", "id": id, "move": f.Legal[rng.IntN(len(f.Legal))]}
			if plies >= cfg.Plies {
				msg = map[string]any{"t": "resign", "id": id}
			}
			sent[id] = time.Now()
			return c.Send(ctx, msg)
		}
		return nil
	})
}

// loopback reports whether the server at base listens on IPv4 loopback,
// where the load generator can connect from many addresses of its own.
func loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return u.Hostname() == "localhost" || ip != nil && ip.To4() != nil && ip.IsLoopback()
}
