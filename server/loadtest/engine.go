package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// enginePace is the least time between two moves of a player of RunEngine:
// under the server's default limit on a connection's frames (20 a second),
// so that a long game is not refused for its pace.
const enginePace = 60 * time.Millisecond

// EngineConfig says what engine load to make: Games engine games at once,
// whose player moves at random the moment it is its turn (but no more
// often than every 60 ms, under the server's limit on a connection's
// frames), so that the engine always has a search to make. To keep the
// engine busy at the low levels, where a search takes a few milliseconds,
// play many games at once.
type EngineConfig struct {
	// URL is the server, or several separated by commas (the games are
	// created on them in turn and played where they were created).
	URL      string
	Games    int           // engine games at once
	Level    int           // the engine's level, 1 to 8
	Duration time.Duration // how long to play; then the run stops
	Variant  string        // default chess
}

// EngineReport is what an engine run measured.
type EngineReport struct {
	Games    int // engine games at once
	Level    int
	Played   int // games started over the run
	Duration time.Duration
	// Replies are the waits for the engine's replies, from the ack of the
	// player's move to the engine's ply, in the order they came.
	Replies []time.Duration
	Errors  []string
}

// RepliesPerSecond is the engine's replies per second over the run.
func (r *EngineReport) RepliesPerSecond() float64 {
	return float64(len(r.Replies)) / r.Duration.Seconds()
}

// String formats the report.
func (r *EngineReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine games  %d at once at level %d (%d started)\n", r.Games, r.Level, r.Played)
	fmt.Fprintf(&b, "replies       %d in %.1fs: %.1f searches/s\n", len(r.Replies), r.Duration.Seconds(), r.RepliesPerSecond())
	if n := len(r.Replies); n > 0 {
		e := slices.Sorted(slices.Values(r.Replies))
		fmt.Fprintf(&b, "reply latency p50 %s  p99 %s  max %s\n", e[n/2].Round(10*time.Microsecond),
			e[min(n*99/100, n-1)].Round(10*time.Microsecond), e[n-1].Round(10*time.Microsecond))
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

// RunEngine plays cfg.Games engine games at once for cfg.Duration, each
// game followed by a new one when it ends, and measures the engine's
// replies. On loopback each game comes from an address of its own
// (127.2.x.y and up), so that the per-client limits on game creation and
// engine games do not bind where short games follow each other fast.
func RunEngine(ctx context.Context, cfg EngineConfig, logw io.Writer) (*EngineReport, error) {
	if cfg.Games <= 0 || cfg.Duration <= 0 {
		return nil, errors.New("loadtest: want engine games and a duration > 0")
	}
	if cfg.Level < 1 || cfg.Level > 8 {
		return nil, fmt.Errorf("loadtest: engine level %d: want 1 to 8", cfg.Level)
	}
	if cfg.Variant == "" {
		cfg.Variant = "chess"
	}
	targets, err := Targets(cfg.URL)
	if err != nil {
		return nil, err
	}
	spread := true
	for _, t := range targets {
		spread = spread && loopback(t)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	rep := &EngineReport{Games: cfg.Games, Level: cfg.Level}
	var mu sync.Mutex
	note := func(err error) {
		mu.Lock()
		if len(rep.Errors) < 100 {
			rep.Errors = append(rep.Errors, err.Error())
		}
		mu.Unlock()
	}
	start := time.Now()
	var wg sync.WaitGroup
	var clients atomic.Int64
	for i := range cfg.Games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				ctx, ip := ctx, ""
				if spread {
					k := clients.Add(1) - 1
					ip = fmt.Sprintf("127.%d.%d.%d", 2+k/62500, k/250%250, k%250+1)
					ctx = From(ctx, ip)
				}
				base := targets[(i+n)%len(targets)]
				err := playOneEngine(ctx, cfg, base, func() {
					mu.Lock()
					rep.Played++
					mu.Unlock()
				}, func(d time.Duration) {
					mu.Lock()
					rep.Replies = append(rep.Replies, d)
					mu.Unlock()
				})
				if ip != "" {
					forgetClient(ip)
				}
				if err != nil && ctx.Err() == nil {
					note(err)
					sleep(ctx, 100*time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	rep.Duration = time.Since(start)
	fmt.Fprintf(logw, "loadtest: engine games done in %s\n", rep.Duration.Round(time.Millisecond))
	return rep, nil
}

// playOneEngine creates an engine game on the server at base and plays it
// to its end, or until ctx ends; started is called once the game exists,
// and reply with each wait for the engine.
func playOneEngine(ctx context.Context, cfg EngineConfig, base string, started func(), reply func(time.Duration)) error {
	g, err := CreateGame(ctx, base, map[string]any{"variant": cfg.Variant, "opponent": "engine", "level": cfg.Level})
	if err != nil {
		return err
	}
	started()
	if err := playEngine(ctx, base, g["id"], g["token"], 0, enginePace, reply); err != nil {
		return fmt.Errorf("game %s: %w", g["id"], err)
	}
	return nil
}
