package search

import "testing"

// TestSoftScale checks how the soft deadline follows the search: longer
// after changes of the best move or a falling score, shorter once the
// best move has stood, and within bounds.
func TestSoftScale(t *testing.T) {
	tests := []struct {
		name        string
		changes     float64
		stable      int
		prev, score int
		depth       int
		lo, hi      float64 // the scale must lie in [lo, hi]
	}{
		{"neutral", 0, 2, 20, 20, 10, 1, 1},
		{"best move just changed", 1, 0, 20, 20, 10, 2.4, 2.6},
		{"stable for long", 0, 8, 20, 20, 10, 0.69, 0.71},
		{"score falling", 0, 2, 100, 0, 10, 1.49, 1.51},
		{"score falling, shallow", 0, 2, 100, 0, 3, 1, 1},
		{"score rising", 0, 2, 0, 300, 10, 0.84, 0.86},
		{"many changes", 3, 0, 100, -500, 12, 2.5, 2.5},
		{"mate found", 0, 8, 0, Mate - 5, 12, 0.69, 0.71},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := softScale(tt.changes, tt.stable, tt.prev, tt.score, tt.depth)
			if got < tt.lo || got > tt.hi {
				t.Errorf("softScale = %.3f, want in [%.2f, %.2f]", got, tt.lo, tt.hi)
			}
		})
	}
}
