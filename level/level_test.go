package level

import (
	"testing"
	"time"
)

// TestScale: the levels grow in depth, their Elo grows with them, and UCI_Elo finds the strongest level at or below
// it.
func TestScale(t *testing.T) {
	all := All()
	if len(all) != Max {
		t.Fatalf("levels %v", all)
	}
	for i, l := range all {
		if l.N != i+1 || l.Elo <= 0 || l.Margin <= 0 {
			t.Errorf("level %d: %+v", i+1, l)
		}
		if i > 0 && (l.Elo <= all[i-1].Elo || l.Depth <= all[i-1].Depth) {
			t.Errorf("level %d (%v) is not above level %d (%v)", i+1, l, i, all[i-1])
		}
	}
	if MinElo() != all[0].Elo || MaxElo() != all[Max-1].Elo {
		t.Errorf("Elo range %d..%d", MinElo(), MaxElo())
	}
	for _, tc := range []struct{ elo, want int }{
		{0, 1}, {all[0].Elo, 1}, {all[3].Elo, 4}, {all[3].Elo + 1, 4}, {all[4].Elo - 1, 4}, {MaxElo(), Max}, {5000, Max},
	} {
		if got := ForElo(tc.elo).N; got != tc.want {
			t.Errorf("ForElo(%d) = level %d, want %d", tc.elo, got, tc.want)
		}
	}
	if _, err := Get(0); err == nil {
		t.Error("level 0 accepted")
	}
	if _, err := Get(Max + 1); err == nil {
		t.Errorf("level %d accepted", Max+1)
	}
	if At(-3).N != 1 || At(99).N != Max {
		t.Errorf("At(-3) = %v, At(99) = %v", At(-3), At(99))
	}
}

// TestLimits: a level's own time cap and the caller's, whichever is
// shorter; the top level takes the caller's.
func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		n        int
		maxTime  time.Duration
		depth    int
		wantTime time.Duration
	}{
		{1, 2 * time.Second, 1, 20 * time.Millisecond},
		{6, 2 * time.Second, 6, 720 * time.Millisecond},
		{6, 100 * time.Millisecond, 6, 100 * time.Millisecond},
		{6, 0, 6, 720 * time.Millisecond},
		{Max, 2 * time.Second, 10, 2 * time.Second},
	} {
		lim := At(tc.n).Limits(tc.maxTime)
		if lim.Depth != tc.depth || lim.MoveTime != tc.wantTime {
			t.Errorf("level %d within %v: depth %d, time %v; want %d, %v", tc.n, tc.maxTime, lim.Depth, lim.MoveTime, tc.depth, tc.wantTime)
		}
	}
}
