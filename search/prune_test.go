package search

import "testing"

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
