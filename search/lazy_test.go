package search

import (
	"context"
	"testing"
)

// TestLazyCaptures checks which variants ask for lazy legality in
// quiescence: Crazy Chess alone.
func TestLazyCaptures(t *testing.T) {
	reg := testRegistry(t)
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"chess", false}, {"greatshatranj", false}, {"vazir", false}, {"crazy", true}, {"csipgs", false},
	} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := lazyCaptures(v); got != tt.want {
			t.Errorf("lazyCaptures(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLazyQuiescenceExact: searched exactly (no pruning, no cutoffs from
// the table, so the order of moves cannot change a value), quiescence with
// lazy legality gives Crazy Chess positions the values that testing every
// capture first gives: it searches no illegal capture and misses no legal
// one, in check or not.
func TestLazyQuiescenceExact(t *testing.T) {
	reg := testRegistry(t)
	v, err := reg.Get("crazy")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, fen string
		depth     int
	}{
		// a pinned knight's capture is illegal; the queen's is not
		{"pin", "4k3/4r3/8/8/3p4/4N3/8/4K2Q w - - 0 1 w - 0", 2},
		// in check: only the King's steps and the capture of the rook
		{"check", "4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1 w - 0", 2},
		{"stacks", "r4r2/pk1b1p1Q/5p2/1p1(Rn)p3/8/2P5/2P4K/6R1 w - - 0 26 w b 3", 2},
		{"middle game", "r1q1kb1r/p2pppp1/1p2n3/7p/6n1/1PNK4/P1P1PP2/R1B1QB1R w kq - 0 15 w - 1", 2},
		{"rook with king", "rn3(rKk)2/1pp2p2/p1qpb3/6P1/1P2P3/P1N5/1PP2P2/R1Q2B1R w - - 3 17 w - 1", 2},
		{"queen", "(rq)4b1r/p1p1Q1p1/2np3k/1p4p1/8/3P1P1N/PP2PKPP/RN3B1R w - - 1 16 w - 1", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := v.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			var scores [2]int
			for i, eager := range []bool{true, false} {
				e := New(8)
				e.exact, e.eagerQ = true, eager
				res := e.Search(context.Background(), p, Limits{Depth: tt.depth}, nil)
				scores[i] = res.Info.Score
			}
			if scores[0] != scores[1] {
				t.Errorf("every capture tested first %d, lazily %d", scores[0], scores[1])
			}
		})
	}
}
