package server

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/search"
)

// TestEngineFairOrder checks the engine pool's order: with the engines
// busy, a client that queued many searches and a client that queued one
// after them, the engines go to the clients in turn, so the second
// client's search is the second to run, not the last.
func TestEngineFairOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		queued  []string // the clients of the waiting searches, in the order they queue
		wantPos int      // where client "b"'s first search runs, from 0
	}{
		{"one flooding client", []string{"a", "a", "a", "a", "a", "b"}, 1},
		{"alone", []string{"b"}, 0},
		{"three clients", []string{"a", "a", "a", "c", "c", "c", "b"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newEnginePool(1, 1, 1, time.Second)
			ctx := context.Background()
			busy, err := p.acquire(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			spare, err := p.acquire(ctx, "s") // a client with nothing running takes the spare
			if err != nil || spare != p.spare {
				t.Fatalf("client s: %v, spare %v", err, spare == p.spare)
			}
			order := make(chan string, len(tc.queued))
			for i, key := range tc.queued {
				go func() {
					e, err := p.acquire(ctx, key)
					if err != nil {
						t.Error(err)
						return
					}
					order <- key
					p.release(key, e)
				}()
				for p.waiting() != i+1 { // queued in this order
					time.Sleep(time.Millisecond)
				}
			}
			p.release("a", busy)
			pos := -1
			for i := range tc.queued {
				if k := <-order; k == "b" && pos < 0 {
					pos = i
				}
			}
			if pos != tc.wantPos {
				t.Errorf("client b's search ran at %d, want %d", pos, tc.wantPos)
			}
		})
	}
}

// TestEngineWaitCancelled checks that a search that stops waiting leaves
// the queue, and the engine goes to the next.
func TestEngineWaitCancelled(t *testing.T) {
	p := newEnginePool(1, 1, 1, time.Second)
	busy, _ := p.acquire(context.Background(), "a")
	spare, _ := p.acquire(context.Background(), "s")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := p.acquire(ctx, "b"); errc <- err }()
	for p.waiting() != 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a cancelled wait got an engine")
	}
	if n := p.waiting(); n != 0 {
		t.Errorf("%d waiting after the cancel", n)
	}
	p.release("a", busy)
	p.release("s", spare)
	if _, err := p.acquire(context.Background(), "c"); err != nil {
		t.Fatal(err)
	}
}

// TestEngineSpare checks the spare engine: while one client's searches
// take every engine, a client with no search running starts at once on
// the spare, and the spare, when freed, goes to a waiting client with
// nothing running before one that has a search running.
func TestEngineSpare(t *testing.T) {
	p := newEnginePool(1, 1, 1, time.Second)
	ctx := context.Background()
	a1, _ := p.acquire(ctx, "a")
	got := make(chan string, 2)
	wait := func(key string) {
		go func() {
			if _, err := p.acquire(ctx, key); err != nil {
				t.Error(err)
				return
			}
			got <- key
		}()
	}
	wait("a") // a has a search running: it waits
	for p.waiting() != 1 {
		time.Sleep(time.Millisecond)
	}
	b, err := p.acquire(ctx, "b") // nothing running: the spare, at once
	if err != nil || b != p.spare {
		t.Fatalf("client b: %v, spare %v", err, b == p.spare)
	}
	wait("c") // the spare is busy: c waits, after a
	for p.waiting() != 2 {
		time.Sleep(time.Millisecond)
	}
	p.release("b", b)
	if k := <-got; k != "c" {
		t.Errorf("the spare went to %s, want c (a has a search running)", k)
	}
	p.release("a", a1)
	if k := <-got; k != "a" {
		t.Errorf("the engine went to %s, want a", k)
	}
}

// waiting returns the number of searches waiting for an engine.
func (p *enginePool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, q := range p.queues {
		n += len(q)
	}
	return n
}

// TestEngineThreads checks Config.EngineThreads: each engine of the pool
// and the spare search with that many threads (one by default), the
// default number of workers shares half the CPUs among them, and more
// threads than the machine's CPUs are refused.
func TestEngineThreads(t *testing.T) {
	cpus := search.CPUs()
	tests := []struct {
		threads, want, workers int
	}{
		{0, 1, max(runtime.NumCPU()/2, 1)},
		{1, 1, max(runtime.NumCPU()/2, 1)},
		{cpus, cpus, max(runtime.NumCPU()/2/cpus, 1)},
	}
	for _, tc := range tests {
		ts := newTestServer(t, "", func(c *Config) { c.EngineThreads, c.EngineWorkers = tc.threads, 0 })
		p := ts.engines
		if len(p.free) != tc.workers {
			t.Errorf("EngineThreads %d: %d workers, want %d", tc.threads, len(p.free), tc.workers)
		}
		for _, e := range append([]*search.Engine{p.spare}, p.free...) {
			if got := e.Threads(); got != tc.want {
				t.Errorf("EngineThreads %d: an engine with %d threads, want %d", tc.threads, got, tc.want)
			}
		}
		ts.stop()
	}
	st := openStore(t, filepath.Join(t.TempDir(), "games.db"))
	defer st.Close()
	if _, err := New(Config{Store: st, EngineThreads: cpus + 1, Logf: t.Logf}); err == nil || !strings.Contains(err.Error(), "CPUs") {
		t.Errorf("EngineThreads %d: error %v, want one about the CPUs", cpus+1, err)
	}
}
