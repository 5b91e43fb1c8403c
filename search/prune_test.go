package search

import "testing"

// TestPruningSchedule checks the shape of the forward-pruning schedules
// to the depths they reach: margins and move counts that grow with depth,
// reverse futility more eager and late-move pruning more patient when the
// evaluation improves, and every schedule reaching past the old limit of
// three plies.
func TestPruningSchedule(t *testing.T) {
	tests := []struct {
		name     string
		maxDepth int
		at       func(depth int, improving bool) int
		// improvingUp: the value with improving is at least the one
		// without (a count to search); otherwise at most (a margin).
		improvingUp bool
	}{
		{"reverse futility margin", rfpDepth, rfpMargin, false},
		{"late-move count", lmpDepth, lmpCount, true},
		{"futility margin", futilityDepth, func(d int, _ bool) int { return futilityMargin(d) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.maxDepth <= 3 {
				t.Errorf("reaches depth %d, want more than 3", tt.maxDepth)
			}
			for _, imp := range []bool{false, true} {
				prev := -1
				for d := 1; d <= tt.maxDepth; d++ {
					v := tt.at(d, imp)
					if v < 0 || v <= prev {
						t.Errorf("improving %v: depth %d gives %d after %d, want growth from 0", imp, d, v, prev)
					}
					prev = v
				}
			}
			for d := 1; d <= tt.maxDepth; d++ {
				with, without := tt.at(d, true), tt.at(d, false)
				if tt.improvingUp && with < without || !tt.improvingUp && with > without {
					t.Errorf("depth %d: %d improving, %d not", d, with, without)
				}
			}
		})
	}
	if lmpCount(1, false) < 2 {
		t.Errorf("depth 1 searches %d moves before pruning, want at least 2", lmpCount(1, false))
	}
}

// TestWiden checks the aspiration window after a failed search: the side
// that failed moves past the score, the other stays, delta grows, and
// failing again and again reaches the whole range.
func TestWiden(t *testing.T) {
	tests := []struct {
		name               string
		alpha, beta, score int
	}{
		{"fail low at alpha", -15, 15, -15},
		{"fail low far below", -15, 15, -400},
		{"fail high at beta", 85, 115, 115},
		{"fail high far above", 85, 115, 900},
		{"fail high near mate", 85, 115, Mate - 10},
		{"fail low near mate", -115, -85, -(Mate - 10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b, d := widen(tt.alpha, tt.beta, tt.score, aspDelta)
			if !(a < tt.score && tt.score < b) {
				t.Errorf("window (%d, %d) does not hold the score %d", a, b, tt.score)
			}
			if low := tt.score <= tt.alpha; low && b != tt.beta || !low && a != tt.alpha {
				t.Errorf("window (%d, %d) from (%d, %d): the side that held moved", a, b, tt.alpha, tt.beta)
			}
			if d <= aspDelta {
				t.Errorf("delta %d after a fail, want more than %d", d, aspDelta)
			}
			fails := 0
			for a > -Infinity || b < Infinity {
				a, b, d = widen(a, b, a, d)
				if fails++; fails > 20 {
					t.Fatalf("after %d fails the window is (%d, %d)", fails, a, b)
				}
			}
		})
	}
	if aspDelta <= 0 || aspDelta >= 30 {
		t.Errorf("first window ±%d, want narrower than ±30", aspDelta)
	}
}

// TestLMRReduction checks the reduction by which futility and SEE
// pruning judge a quiet move: never negative, growing with the move's
// index, a ply more when the evaluation does not improve, a ply less for
// each histMax of history, and large enough at a late move of a deep node
// that the pruning depth falls below the node's.
func TestLMRReduction(t *testing.T) {
	tests := []struct {
		name                    string
		depth, i                int
		improving               bool
		hist                    int
		wantAtLeast, wantAtMost int
	}{
		{"first move", 7, 1, true, 0, 0, 0},
		{"late move, deep", 7, 20, true, 0, 2, 3},
		{"late move, deep, not improving", 7, 20, false, 0, 3, 4},
		{"late move, good history", 7, 20, true, 2 * histMax, 0, 1},
		{"late move, very good history", 7, 20, true, 8 * histMax, 0, 0},
		{"late move, bad history", 7, 20, true, -histMax, 3, 4},
		{"huge index and depth", 200, 500, false, 0, 7, 63},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lmrReduction(tt.depth, tt.i, tt.improving, tt.hist)
			if r < tt.wantAtLeast || r > tt.wantAtMost {
				t.Errorf("reduction %d, want %d to %d", r, tt.wantAtLeast, tt.wantAtMost)
			}
		})
	}
	for d := 1; d < 64; d++ {
		prev := 0
		for i := 1; i < 64; i++ {
			r := lmrReduction(d, i, true, 0)
			if r < prev || lmrReduction(d, i, false, 0) != r+1 {
				t.Fatalf("depth %d move %d: reduction %d after %d, %d not improving", d, i, r, prev, lmrReduction(d, i, false, 0))
			}
			prev = r
		}
	}
	if d := 7 - 1 - lmrReduction(7, 20, false, 0); d >= 6 || futilityMargin(d) >= futilityMargin(7) {
		t.Errorf("a late move at depth 7 is pruned as at depth %d", d)
	}
}
