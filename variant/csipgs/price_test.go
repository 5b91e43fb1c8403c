package csipgs

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPriceTable checks every price of the worked examples (3.10).
func TestPriceTable(t *testing.T) {
	tests := []struct {
		design string
		exact  string // reduced fraction
		bound  bool
		price  int
	}{
		{"FfR", "4", false, 4},
		{"fR", "5/2", false, 3},
		{"B", "297/100", true, 3},
		{"R", "5", false, 5},
		{"N", "3", false, 3},
		{"Q", "83/10", false, 9},
		{"RB", "83/10", false, 9},
		{"BR", "83/10", false, 9},
		{"royal-K", "12", false, 12},
		{"royal-WF", "12", false, 12},
		{"fmWfcF", "27/25", false, 2},
		{"fcFfmW", "27/25", false, 2},
		{"royal-fmG", "567/250", true, 3},
		{"NN", "11/2", false, 6},
		{"vN", "3/2", false, 2},
		{"sN", "3/2", false, 2},
		{"ffN", "21/20", false, 2},
		{"L", "297/100", true, 3},
		{"vL", "297/200", true, 2},
		{"D", "27/20", true, 2},
		{"W", "3/2", false, 2},
		{"H", "3/2", false, 2},
		{"FA", "27/10", true, 3},
		{"WD", "3", false, 3},
		{"BN", "63/10", false, 7},
		{"RN", "8", false, 8},
		{"bR", "1", false, 1},
		{"mR", "3", false, 3},
		{"cR", "3", false, 3},
		{"fmR", "3/2", false, 2},
		{"fB", "2079/1000", true, 3},
		{"cNN", "33/10", false, 4},
		{"bmW", "9/50", false, 1},
		{"royal-W", "6", false, 6},
		{"royal-F", "27/5", true, 6},
		{"royal-B", "297/25", true, 12},
		{"royal-bNbW", "6", false, 6},
		{"relay-bNbW", "3", false, 3},
		{"fsR", "5", false, 5},
		{"WW", "5", false, 5},
		{"FF", "297/100", true, 3},
	}
	for _, tc := range tests {
		t.Run(tc.design, func(t *testing.T) {
			pi := mustPrice(t, tc.design)
			if pi.Price != tc.price || pi.Exact != tc.exact || pi.ColorBound != tc.bound {
				t.Errorf("Price(%q) = %d exact %s bound %v; want %d exact %s bound %v",
					tc.design, pi.Price, pi.Exact, pi.ColorBound, tc.price, tc.exact, tc.bound)
			}
		})
	}
}

// TestFloatTrap shows the float64 rounding that CS-19 warns about, and
// that the exact price avoids it.
func TestFloatTrap(t *testing.T) {
	// The exact prices hold on every platform.
	for _, d := range []string{"royal-bNbW", "relay-bNbW"} {
		pi := mustPrice(t, d)
		if want := map[string]int{"royal-bNbW": 6, "relay-bNbW": 3}[d]; pi.Price != want {
			t.Errorf("%s costs %d, want %d", d, pi.Price, want)
		}
	}
	// Go constant arithmetic is exact, so the float64 values are computed
	// at run time.
	n, w, b, r, k := 3.0, 1.5, 0.4, 0.2, 4.0
	if f := (n*b + w*r) * k; math.Ceil(f) != 7 {
		t.Skipf("this platform computes %v exactly", f)
	}
	if f := (n*b + w*r) * 2; math.Ceil(f) != 4 {
		t.Skipf("this platform computes %v exactly", f)
	}
}

func TestGForwardOption(t *testing.T) {
	pi, err := PriceWith("royal-fmG", ParseOptions{GForwardHalf: true})
	if err != nil {
		t.Fatal(err)
	}
	if pi.Price != 2 || pi.Exact != "81/50" {
		t.Errorf("royal-fmG with f=0.5 on G: %d (%s), want 2 (81/50)", pi.Price, pi.Exact)
	}
	if _, err := PriceWith("vNN", ParseOptions{NoNarrowWideOnNightrider: true}); err == nil {
		t.Error("vNN accepted with NarrowWideOnNightrider=false")
	}
	if _, err := Price("vNN"); err != nil {
		t.Errorf("vNN rejected by default: %v", err)
	}
}

// TestDesignErrors checks that bad designs are rejected with the position
// of the fault and a reason.
func TestDesignErrors(t *testing.T) {
	tests := []struct {
		in   string
		pos  int
		frag string
	}{
		{"", 0, "at least one power"},
		{"royal-", 6, "at least one power"},
		{"R4", 1, "ranges"},
		{"nN", 0, "not priced"},
		{"jB", 0, "not priced"},
		{"RR", 1, "riders of R"},
		{"DD", 1, "riders of D"},
		{"mcW", 1, "at most one of m and c"},
		{"sF", 0, "only f and b"},
		{"lW", 0, "r and l go together"},
		{"ffW", 0, "twice"},
		{"fbsvN", 0, "oblique"},
		{"fm", 2, "without an atom"},
		{"Wx", 1, "not priced"},
		{"W-F", 1, "royal- and relay-"},
		{"relay-royal-W", 6, "royal- before relay-"},
		{"C", 0, "no price"},
		{"W?", 1, "unexpected"},
		{"sK", 0, "only f and b"},
		{"vR", 0, "v and h"},
	}
	for _, tc := range tests {
		_, err := ParseDesign(tc.in)
		var de *DesignError
		if !errors.As(err, &de) || !errors.Is(err, ErrDesign) {
			t.Errorf("ParseDesign(%q) = %v, want a *DesignError", tc.in, err)
			continue
		}
		if de.Pos != tc.pos || !strings.Contains(de.Msg, tc.frag) {
			t.Errorf("ParseDesign(%q): pos %d msg %q; want pos %d and %q", tc.in, de.Pos, de.Msg, tc.pos, tc.frag)
		}
	}
}

// TestCanonical checks equivalent spellings.
func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mfW", "fmW"},
		{"fmW", "fmW"},
		{"WW", "R"},
		{"FF", "B"},
		{"rlR", "sR"},
		{"lrR", "sR"},
		{"fsR", "fsR"},
		{"sfR", "fsR"},
		{"bsfW", "fbsW"},
		{"K", "K"},
		{"fK", "fK"},
		{"Q", "Q"},
		{"bfK", "fbK"},
		{"fhN", "fN"},
		{"hbN", "bN"},
		{"sfN", "fsN"},
		{"royal-relay-mK", "royal-relay-mK"},
	}
	for _, tc := range tests {
		d, err := ParseDesign(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := d.String(); got != tc.want {
			t.Errorf("canonical %q = %q, want %q", tc.in, got, tc.want)
		}
		if e, err := ParseDesign(d.String()); err != nil || e.String() != d.String() {
			t.Errorf("canonical form %q does not read back: %v", d.String(), err)
		}
	}
}

// TestObliqueDirections checks CS-21.
func TestObliqueDirections(t *testing.T) {
	tests := []struct {
		in   string
		want [][2]int8
	}{
		{"vN", [][2]int8{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}},
		{"sN", [][2]int8{{2, 1}, {-2, 1}, {2, -1}, {-2, -1}}},
		{"fN", [][2]int8{{1, 2}, {-1, 2}, {2, 1}, {-2, 1}}},
		{"bN", [][2]int8{{1, -2}, {-1, -2}, {2, -1}, {-2, -1}}},
		{"ffN", [][2]int8{{1, 2}, {-1, 2}}},
		{"fsN", [][2]int8{{2, 1}, {-2, 1}}},
		{"bbL", [][2]int8{{1, -3}, {-1, -3}}},
		{"bsL", [][2]int8{{3, -1}, {-3, -1}}},
		{"fF", [][2]int8{{1, 1}, {-1, 1}}},
		{"sW", [][2]int8{{1, 0}, {-1, 0}}},
		{"bD", [][2]int8{{0, -2}}},
	}
	for _, tc := range tests {
		d, err := ParseDesign(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		vs := d.Vectors()
		if len(vs) != len(tc.want) {
			t.Errorf("%s: %d vectors, want %d", tc.in, len(vs), len(tc.want))
			continue
		}
		for _, w := range tc.want {
			found := false
			for _, v := range vs {
				if v.DX == w[0] && v.DY == w[1] {
					found = true
				}
			}
			if !found {
				t.Errorf("%s lacks (%d,%d)", tc.in, w[0], w[1])
			}
		}
	}
}

var powerPool = []string{"W", "D", "H", "R", "F", "A", "G", "B", "N", "L", "NN", "fR", "sR", "bR", "fB", "bB",
	"vN", "sN", "ffN", "fsN", "bbN", "bsN", "fL", "bL", "mW", "cF", "fmW", "fcF", "cNN", "mR", "bmD", "fhN", "K", "Q", "sK"[1:]}

// randomPowers returns 1..5 powers.
func randomPowers(r *rand.Rand) []string {
	n := 1 + r.IntN(5)
	out := make([]string, n)
	for i := range out {
		out[i] = powerPool[r.IntN(len(powerPool))]
	}
	return out
}

// joinPowers writes powers one after the other; it fails where an atom
// would run into the next power's atom (W then W reads as the rider WW).
func joinPowers(ps []string) (string, bool) {
	for i := 0; i+1 < len(ps); i++ {
		if a, b := ps[i][len(ps[i])-1], ps[i+1][0]; a == b {
			return "", false
		}
	}
	return strings.Join(ps, ""), true
}

// TestPriceOrderIndependent checks that the price does not depend on the
// order in which the powers are written.
func TestPriceOrderIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ps := randomPowers(r)
		prefix := []string{"", "royal-", "relay-", "royal-relay-"}[r.IntN(4)]
		s1, ok1 := joinPowers(ps)
		r.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		s2, ok2 := joinPowers(ps)
		if !ok1 || !ok2 {
			continue
		}
		a, b := mustPrice(t, prefix+s1), mustPrice(t, prefix+s2)
		if a.Price != b.Price || a.Exact != b.Exact || a.ColorBound != b.ColorBound {
			t.Fatalf("%s and %s price differently: %v, %v", a.Design, b.Design, a, b)
		}
	}
}

// TestColorBoundFloodFill checks CS-20 against a flood fill of the piece's
// moves from one square of an empty 8x8 board.
func TestColorBoundFloodFill(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		s, ok := joinPowers(randomPowers(r))
		if !ok {
			continue
		}
		d, err := ParseDesign(s)
		if err != nil {
			t.Fatal(err)
		}
		// Moves of either colour: a black piece uses the vectors turned.
		var seen [8][8]bool
		stack := [][2]int{{3, 3}}
		seen[3][3] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range d.Vectors() {
				if !v.Move {
					continue // a capture-only move needs a victim; with one there it reaches the same squares
				}
				x, y := c[0], c[1]
				for {
					x += int(v.DX)
					y += int(v.DY)
					if x < 0 || y < 0 || x >= 8 || y >= 8 {
						break
					}
					if !seen[x][y] {
						seen[x][y] = true
						stack = append(stack, [2]int{x, y})
					}
					if !v.Rider {
						break
					}
				}
			}
		}
		// With capture-only vectors counted as well (a victim can stand anywhere).
		both := false
		for _, v := range d.Vectors() {
			if (int(v.DX)+int(v.DY))%2 != 0 {
				both = true
			}
		}
		other := false
		for x := range 8 {
			for y := range 8 {
				if seen[x][y] && (x+y)%2 != 0 {
					other = true
				}
			}
		}
		if d.ColorBound() == both {
			t.Fatalf("%s: ColorBound %v but vectors say %v", d, d.ColorBound(), !both)
		}
		if other && d.ColorBound() {
			t.Fatalf("%s: colour-bound, but the flood fill reaches both colours", d)
		}
		// A design with a move-capable odd vector that the fill can use
		// reaches both colours.
		odd := false
		for _, v := range d.Vectors() {
			if v.Move && (int(v.DX)+int(v.DY))%2 != 0 {
				odd = true
			}
		}
		if odd && !other {
			t.Fatalf("%s: an odd move vector, but the flood fill stays on one colour", d)
		}
	}
}

// TestPriceInfo checks the one-line summary, the decimal cost and the
// diagrams.
func TestPriceInfo(t *testing.T) {
	for _, tc := range []struct{ design, decimal, line string }{
		{"FfR", "4", "FfR: price 4 (exact 4), not colour-bound"},
		{"B", "2.97", "B: price 3 (exact 2.97), colour-bound"},
		{"fB", "2.079", "fB: price 3 (exact 2.079), colour-bound"},
		{"royal-fmG", "2.268", "royal-fmG: price 3 (exact 2.268), colour-bound, royal"},
		{"relay-N", "6", "relay-N: price 6 (exact 6), not colour-bound, relay"},
	} {
		pi := mustPrice(t, tc.design)
		if pi.Decimal() != tc.decimal || pi.String() != tc.line {
			t.Errorf("%s: %q %q; want %q %q", tc.design, pi.Decimal(), pi.String(), tc.decimal, tc.line)
		}
	}
	for _, tc := range []struct {
		design string
		size   int
		want   string
	}{
		{"FfR", 5, "..x..\n.xxx.\n..*..\n.x.x.\n.....\n"},
		{"fmWfcF", 3, "cmc\n.*.\n...\n"},
		{"mWcR", 5, "..c..\n..x..\ncx*xc\n..x..\n..c..\n"},
	} {
		if dg := mustPrice(t, tc.design).Diagram(tc.size); dg != tc.want {
			t.Errorf("diagram of %s:\n%s", tc.design, dg)
		}
	}
}

// FuzzDesign checks that the design parser never panics and that what it
// accepts prints back to itself.
func FuzzDesign(f *testing.F) {
	for _, s := range []string{"FfR", "royal-K", "fmWfcF", "royal-bNbW", "relay-Q", "ffN", "R4", "nN", "", "royal-", "fsR", "NNN", "WWW", "hfL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDesign(s)
		if err != nil {
			var de *DesignError
			if !errors.As(err, &de) || de.Pos < 0 || de.Pos > len(s) && len(s) <= MaxDesignLen {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		c := d.String()
		e, err := ParseDesign(c)
		if err != nil || e.String() != c {
			t.Fatalf("%q: canonical %q does not read back: %v", s, c, err)
		}
		if PriceOf(d, ParseOptions{}) < 1 {
			t.Fatalf("%q: price below 1", s)
		}
	})
}
