package level

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/anychess/anychess/internal/elofit"
)

// fitDepths fits the matches of a file of testdata and returns each
// depth's Elo and margin, rounded, by depth (a player "depthD").
func fitDepths(t *testing.T, file string) map[int][2]int {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := elofit.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	fit, err := set.Fit()
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := map[int][2]int{}
	for _, r := range fit {
		var d int
		if _, err := fmt.Sscanf(r.Player, "depth%d", &d); err != nil {
			t.Fatalf("%s: player %q is not a depth", file, r.Player)
		}
		out[d] = [2]int{int(math.Round(r.Elo)), int(math.Round(r.Margin))}
	}
	return out
}

// TestEarlierFit: the fit of each earlier measurement's matches (the
// engines of bench 517221, 465769 and 279018) gives the table docs/strength.md
// kept from it, so that the earlier figures stay where they came from.
func TestEarlierFit(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[int][2]int
	}{
		{"testdata/matches-517221.txt", map[int][2]int{
			1: {1060, 205}, 2: {1197, 168}, 3: {1452, 97}, 4: {1615, 74},
			5: {1704, 78}, 6: {1746, 73}, 8: {1815, 67}, 10: {1942, 96},
		}},
		{"testdata/matches-465769.txt", map[int][2]int{
			1: {1145, 163}, 2: {1360, 100}, 3: {1572, 92}, 4: {1721, 84},
			5: {1789, 84}, 6: {1819, 73}, 8: {1847, 67}, 10: {1997, 63},
		}},
		{"testdata/matches-279018.txt", map[int][2]int{
			1: {1310, 153}, 2: {1380, 106}, 3: {1609, 87}, 4: {1671, 75},
			5: {1747, 80}, 6: {1785, 71}, 8: {1926, 73}, 10: {2066, 81},
		}},
	} {
		if got := fitDepths(t, tc.file); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: fit %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestTableIsFit: each level's Elo and margin are the fit of the matches
// of the current measurement (docs/strength.md, section "Levels"), so
// that the table the page, play and UCI show is the matches' and no one
// else's.
func TestTableIsFit(t *testing.T) {
	got := fitDepths(t, "testdata/matches-354725.txt")
	if len(got) != Max {
		t.Errorf("the matches place %d depths, want the %d levels' (%v)", len(got), Max, got)
	}
	for _, l := range All() {
		f, ok := got[l.Depth]
		if !ok {
			t.Errorf("level %d: no match of depth %d", l.N, l.Depth)
			continue
		}
		if l.Elo != f[0] || l.Margin != f[1] {
			t.Errorf("level %d (depth %d): Elo %d ± %d in the table, the matches' fit %d ± %d", l.N, l.Depth, l.Elo, l.Margin, f[0], f[1])
		}
	}
}
