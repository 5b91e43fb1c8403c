package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// SeeksConfig says what load of seeks to make: Visitors open the lobby
// feed, half of them post a seek each and the other half accept one each.
type SeeksConfig struct {
	URL      string        // the server, http://host:port
	Visitors int           // visitors in all (posters and accepters)
	Ramp     time.Duration // the seeks are posted spread over this time
	Timeout  time.Duration // the whole run stops after this
	Variant  string
}

// SeeksReport is what a seeks run measured.
type SeeksReport struct {
	Visitors, Paired, Failed int
	Duration                 time.Duration
	// Pairing is the poster's wait from posting its seek to the paired
	// event on its feed; Accept an accepter's accepting request.
	PairP50, PairP99, PairMax time.Duration
	AcceptP50, AcceptP99      time.Duration
	// Notify is from the accepting request's start to the poster's
	// paired event: the server's part of a pairing.
	NotifyP50, NotifyP99 time.Duration
	Taken                int64 // accepts refused because another visitor took the seek first
	Errors               []string
}

// String formats the report.
func (r *SeeksReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "visitors      %d (%d pairs made, %d visitors failed) in %.1fs\n", r.Visitors, r.Paired, r.Failed, r.Duration.Seconds())
	fmt.Fprintf(&b, "pairing       p50 %s  p99 %s  max %s  (posting a seek to its paired event)\n",
		r.PairP50.Round(10*time.Microsecond), r.PairP99.Round(10*time.Microsecond), r.PairMax.Round(10*time.Microsecond))
	fmt.Fprintf(&b, "accepting     p50 %s  p99 %s  (%d accepts found the seek taken)\n",
		r.AcceptP50.Round(10*time.Microsecond), r.AcceptP99.Round(10*time.Microsecond), r.Taken)
	fmt.Fprintf(&b, "accept→paired p50 %s  p99 %s  (an accept's start to the poster's paired event)\n",
		r.NotifyP50.Round(10*time.Microsecond), r.NotifyP99.Round(10*time.Microsecond))
	for i, e := range r.Errors {
		if i == 10 {
			fmt.Fprintf(&b, "... and %d more errors\n", len(r.Errors)-10)
			break
		}
		fmt.Fprintf(&b, "error         %s\n", e)
	}
	return b.String()
}

// postJSON posts body to path and decodes a 2xx answer into out.
func postJSON(ctx context.Context, hc *http.Client, base, path string, body, out any) (int, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, &StatusError{Op: "POST " + path, Status: resp.StatusCode, Body: string(bytes.TrimSpace(b))}
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("POST %s: %w", path, err)
		}
	}
	return resp.StatusCode, nil
}

// RunSeeks runs the seeks load: every visitor opens the lobby feed from
// an address of its own (on a loopback server); then, spread over the
// ramp, each poster posts a seek and waits for its pairing, and each
// accepter accepts one of the seeks its feed shows (another at random if
// that one was taken).
func RunSeeks(ctx context.Context, cfg SeeksConfig, logw io.Writer) (*SeeksReport, error) {
	cfg.Visitors &^= 1 // as many posters as accepters
	if cfg.Visitors < 2 {
		return nil, errors.New("loadtest: at least 2 visitors")
	}
	if cfg.Variant == "" {
		cfg.Variant = "chess"
	}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	rep := &SeeksReport{Visitors: cfg.Visitors}
	var mu sync.Mutex
	var pairs, accepts, notifies []time.Duration
	var acceptedAt, pairedAt sync.Map // seek id → when its successful accept started, when its poster was told
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		rep.Failed++
		if len(rep.Errors) < 100 {
			rep.Errors = append(rep.Errors, err.Error())
		}
	}
	spread := loopback(cfg.URL)
	// Open every feed first, so that each seek is broadcast to all.
	lobbies := make([]*Lobby, cfg.Visitors)
	ctxs := make([]context.Context, cfg.Visitors)
	var open sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range cfg.Visitors {
		ctxs[i] = ctx
		if spread {
			ctxs[i] = From(ctx, fmt.Sprintf("127.2.%d.%d", i/250, i%250+1))
		}
		open.Add(1)
		go func() {
			defer open.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			l, err := OpenLobby(ctxs[i], cfg.URL, nil, "")
			if err != nil {
				fail(fmt.Errorf("visitor %d: %w", i, err))
				return
			}
			lobbies[i] = l
		}()
	}
	open.Wait()
	defer func() {
		for _, l := range lobbies {
			if l != nil {
				l.Close()
			}
		}
	}()
	fmt.Fprintf(logw, "loadtest: %d lobby feeds open\n", cfg.Visitors-rep.Failed)
	clock := map[string]int64{"initial_ms": 180000, "increment_ms": 2000}
	var taken atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for i, l := range lobbies {
		if l == nil {
			continue
		}
		at := time.Duration(int64(cfg.Ramp) * int64(i/2) / int64(max(1, cfg.Visitors/2)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-time.After(at):
			case <-ctx.Done():
				fail(ctx.Err())
				return
			}
			hc := httpClient(ctxs[i])
			if i%2 == 0 {
				d, id, err := poster(ctxs[i], hc, cfg, l, clock)
				if err != nil {
					fail(fmt.Errorf("poster %d: %w", i, err))
					return
				}
				pairedAt.Store(id, time.Now())
				mu.Lock()
				pairs = append(pairs, d)
				mu.Unlock()
				return
			}
			d, err := accepter(ctxs[i], hc, cfg, l, &taken, &acceptedAt)
			if err != nil {
				fail(fmt.Errorf("accepter %d: %w", i, err))
				return
			}
			mu.Lock()
			accepts = append(accepts, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	rep.Duration = time.Since(start)
	rep.Taken = taken.Load()
	rep.Paired = len(pairs)
	slices.Sort(pairs)
	slices.Sort(accepts)
	rep.PairP50, rep.PairP99 = quantile(pairs, 0.5), quantile(pairs, 0.99)
	if len(pairs) > 0 {
		rep.PairMax = pairs[len(pairs)-1]
	}
	rep.AcceptP50, rep.AcceptP99 = quantile(accepts, 0.5), quantile(accepts, 0.99)
	pairedAt.Range(func(id, at any) bool {
		if t0, ok := acceptedAt.Load(id); ok {
			notifies = append(notifies, at.(time.Time).Sub(t0.(time.Time)))
		}
		return true
	})
	slices.Sort(notifies)
	rep.NotifyP50, rep.NotifyP99 = quantile(notifies, 0.5), quantile(notifies, 0.99)
	return rep, nil
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// poster posts a seek and waits for its pairing; it returns the wait and
// the seek's id.
func poster(ctx context.Context, hc *http.Client, cfg SeeksConfig, l *Lobby, clock map[string]int64) (time.Duration, string, error) {
	var sk struct{ ID string }
	t0 := time.Now()
	if _, err := postJSON(ctx, hc, cfg.URL, "/api/seeks", map[string]any{"visitor": l.Visitor, "variant": cfg.Variant, "clock": clock, "color": "random"}, &sk); err != nil {
		return 0, "", err
	}
	for {
		ev, err := l.Next(ctx)
		if err != nil {
			return 0, "", err
		}
		if ev.Event != "paired" {
			continue
		}
		var p struct{ Seek, Game string }
		if json.Unmarshal(ev.Data, &p) == nil && p.Seek == sk.ID {
			return time.Since(t0), sk.ID, nil
		}
	}
}

// accepter accepts one of the seeks its feed shows.
func accepter(ctx context.Context, hc *http.Client, cfg SeeksConfig, l *Lobby, taken *atomic.Int64, acceptedAt *sync.Map) (time.Duration, error) {
	open := map[string]bool{}
	var ids []string
	apply := func(ev LobbyEvent) {
		switch ev.Event {
		case "seeks":
			var list []struct{ ID string }
			json.Unmarshal(ev.Data, &list)
			clear(open)
			for _, s := range list {
				open[s.ID] = true
			}
		case "seek":
			var s struct{ ID string }
			json.Unmarshal(ev.Data, &s)
			open[s.ID] = true
		case "unseek":
			var s struct{ ID string }
			json.Unmarshal(ev.Data, &s)
			delete(open, s.ID)
		}
	}
	for {
		// Take in what the feed has said so far.
	drain:
		for {
			select {
			case ev, ok := <-l.Events():
				if !ok {
					return 0, errors.New("lobby feed closed")
				}
				apply(ev)
			default:
				break drain
			}
		}
		if len(open) == 0 {
			ev, err := l.Next(ctx)
			if err != nil {
				return 0, err
			}
			apply(ev)
			continue
		}
		ids = ids[:0]
		for id := range open {
			ids = append(ids, id)
		}
		id := ids[rand.IntN(len(ids))]
		t0 := time.Now()
		st, err := postJSON(ctx, hc, cfg.URL, "/api/seeks/"+id+"/accept", map[string]any{"visitor": l.Visitor}, nil)
		if err == nil {
			acceptedAt.Store(id, t0)
			return time.Since(t0), nil
		}
		if st == http.StatusNotFound {
			taken.Add(1)
			delete(open, id)
			continue
		}
		return 0, err
	}
}
