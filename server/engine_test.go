package server

import (
	"context"
	"testing"
	"time"
)

// TestEngineFairOrder checks the engine pool's order: with one engine busy,
// a client that queued many searches and a client that queued one after
// them, the engines go to the clients in turn, so the second client's
// search is the second to run, not the last.
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
			p := newEnginePool(1, 1, time.Second)
			ctx := context.Background()
			busy, err := p.acquire(ctx, "a")
			if err != nil {
				t.Fatal(err)
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
					p.release(e)
				}()
				for p.waiting() != i+1 { // queued in this order
					time.Sleep(time.Millisecond)
				}
			}
			p.release(busy)
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
	p := newEnginePool(1, 1, time.Second)
	busy, _ := p.acquire(context.Background(), "a")
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
	p.release(busy)
	if _, err := p.acquire(context.Background(), "c"); err != nil {
		t.Fatal(err)
	}
}
