package search

import (
	"context"
	"testing"
	"time"
)

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

// TestSetTime checks the deadlines setTime draws from the limits: the
// budget left/movestogo (30 if not given) plus 3/4 of the increment, at
// most half of what is left above 30 ms; the soft deadline at 0.6 of it,
// the hard one at 3 budgets but at most 3/4 of what is left above 30 ms;
// a fixed time a move as both; none for an infinite search.
func TestSetTime(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	clock := func(left, inc time.Duration, mtg int) Limits {
		return Limits{Time: [2]time.Duration{left, left}, Inc: [2]time.Duration{inc, inc}, MovesToGo: mtg}
	}
	tests := []struct {
		name            string
		lim             Limits
		timed, flexible bool
		soft, hard      time.Duration
	}{
		{"3+0.03 at the start", clock(3*time.Second, ms(30), 0), true, true, ms(73.5), ms(367.5)},
		{"10+0.1 at the start", clock(10*time.Second, ms(100), 0), true, true, ms(245), ms(1225)},
		{"0.1 s left, 0.03 increment", clock(ms(100), ms(30), 0), true, true, ms(15.5), ms(52.5)},
		{"10 moves to go", clock(3*time.Second, ms(30), 10), true, true, ms(193.5), ms(967.5)},
		{"a fixed time a move", Limits{MoveTime: ms(500)}, true, false, ms(500), ms(500)},
		{"infinite", Limits{Infinite: true, Time: [2]time.Duration{time.Second, time.Second}}, false, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(1).newSearcher(context.Background(), threadsPos(t, "chess", ""), tt.lim)
			s.setTime()
			if s.timed != tt.timed || s.flexible != tt.flexible {
				t.Fatalf("timed %v, flexible %v; want %v, %v", s.timed, s.flexible, tt.timed, tt.flexible)
			}
			if !s.timed {
				return
			}
			soft, hard := s.soft.Sub(s.start), s.hard.Sub(s.start)
			if (soft-tt.soft).Abs() > time.Microsecond || (hard-tt.hard).Abs() > time.Microsecond {
				t.Errorf("soft %v, hard %v; want %v, %v", soft, hard, tt.soft, tt.hard)
			}
		})
	}
}
