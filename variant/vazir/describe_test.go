package vazir

import "testing"

// TestDescribe checks Vazir's description: every piece's rank as the
// label of its square, and where the turn stands.
func TestDescribe(t *testing.T) {
	v := newVariant(t, nil)
	for _, tt := range []struct {
		rfen, turn string
	}{
		{"8/k07/8/3r93n1/8/8/8/3R02K0Q9 w - - 0 1 t0", ""},
		{"8/k07/8/3r93n1/8/8/8/3R02K0Q9 w - - 0 1 t1", "try 2 of 3 (1 failed)"},
	} {
		p := parse(t, v, tt.rfen)
		d := Face{}.Describe(p)
		if d.Turn != tt.turn {
			t.Errorf("%s: turn %q, want %q", tt.rfen, d.Turn, tt.turn)
		}
		labels := map[string]string{}
		for _, s := range d.Squares {
			labels[s.Square] = s.Label + " " + s.Mark
		}
		want := map[string]string{"a7": "0 rank-black", "d5": "9 rank-black", "h5": "1 rank-black",
			"d1": "0 rank-white", "g1": "0 rank-white", "h1": "9 rank-white"}
		if len(labels) != len(want) {
			t.Errorf("%s: %d squares marked, want %d: %v", tt.rfen, len(labels), len(want), labels)
		}
		for sq, w := range want {
			if labels[sq] != w {
				t.Errorf("%s: %s is %q, want %q", tt.rfen, sq, labels[sq], w)
			}
		}
	}
}
