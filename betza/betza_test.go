package betza

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// vecs parses "dx,dy dx,dy ..." into sorted vectors.
func vecs(t *testing.T, s string) []Vector {
	t.Helper()
	var out []Vector
	for _, f := range strings.Fields(s) {
		var dx, dy int
		if _, err := fmtSscanf(f, &dx, &dy); err != nil {
			t.Fatalf("bad vector %q", f)
		}
		out = append(out, Vector{int8(dx), int8(dy)})
	}
	sortVecs(out)
	return out
}

func sortVecs(v []Vector) {
	slices.SortFunc(v, func(a, b Vector) int {
		if a.DY != b.DY {
			return int(a.DY) - int(b.DY)
		}
		return int(a.DX) - int(b.DX)
	})
}

func modeVecs(m Movement, mode Mode) []Vector {
	v := m.Vectors(mode)
	sortVecs(v)
	return v
}

func TestDirections(t *testing.T) {
	tests := []struct {
		betza string
		mode  Mode
		want  string
	}{
		{"W", Move, "0,-1 -1,0 1,0 0,1"},
		{"fW", Move, "0,1"},
		{"fsW", Move, "-1,0 1,0 0,1"},    // orthogonal pairs add up
		{"fsR", Capture, "-1,0 1,0 0,1"}, // CS-17
		{"vW", Move, "0,-1 0,1"},
		{"sW", Move, "-1,0 1,0"},
		{"rlW", Move, "-1,0 1,0"},
		{"F", Move, "-1,-1 1,-1 -1,1 1,1"},
		{"fF", Move, "-1,1 1,1"},
		{"flF", Move, "-1,1"},
		{"lfF", Move, "-1,1"},
		{"fbF", Move, "-1,-1 1,-1 -1,1 1,1"},
		{"fcF", Capture, "-1,1 1,1"},
		{"fcF", Move, ""},
		{"fN", Move, "-2,1 2,1 -1,2 1,2"}, // CS-21: f = the four forward moves
		{"ffN", Move, "-1,2 1,2"},         // forward narrow
		{"fsN", Move, "-2,1 2,1"},         // forward wide (S11)
		{"bbN", Move, "-1,-2 1,-2"},
		{"bsN", Move, "-2,-1 2,-1"},
		{"vN", Move, "-1,-2 1,-2 -1,2 1,2"}, // narrow
		{"sN", Move, "-2,-1 2,-1 -2,1 2,1"}, // wide
		{"llN", Move, "-2,-1 -2,1"},
		{"lvN", Move, "-1,-2 -1,2"},
		{"frN", Move, "2,1 1,2"},
		{"fhN", Move, "-2,1 2,1 -1,2 1,2"},
		{"vL", Move, "-1,-3 1,-3 -1,3 1,3"},
		{"mN", Capture, ""},
		{"cN", Capture, "-1,-2 1,-2 -2,-1 2,-1 -2,1 2,1 -1,2 1,2"},
		{"K", Move, "-1,-1 0,-1 1,-1 -1,0 1,0 -1,1 0,1 1,1"},
		{"fK", Move, "-1,1 0,1 1,1"},
		{"D", Move, "0,-2 -2,0 2,0 0,2"},
		{"G", Move, "-3,-3 3,-3 -3,3 3,3"},
		{"H", Move, "0,-3 -3,0 3,0 0,3"},
		{"C", Move, "-1,-3 1,-3 -3,-1 3,-1 -3,1 3,1 -1,3 1,3"},
		{"Z", Move, "-2,-3 2,-3 -3,-2 3,-2 -3,2 3,2 -2,3 2,3"},
	}
	for _, tt := range tests {
		t.Run(tt.betza, func(t *testing.T) {
			m, err := Parse(tt.betza)
			if err != nil {
				t.Fatal(err)
			}
			got := modeVecs(m, tt.mode)
			if want := vecs(t, tt.want); !slices.Equal(got, want) {
				t.Errorf("%s mode %d: got %v, want %v", tt.betza, tt.mode, got, want)
			}
		})
	}
}

func TestRangesAndFlags(t *testing.T) {
	tests := []struct {
		betza string
		leg   Leg // one leg that must be present
		count int // number of legs
	}{
		{"R", Leg{Vector{0, 1}, 0, Move, 0}, 8},
		{"WW", Leg{Vector{0, 1}, 0, Capture, 0}, 8},
		{"R4", Leg{Vector{1, 0}, 4, Move, 0}, 8},
		{"W4", Leg{Vector{1, 0}, 4, Move, 0}, 8},
		{"NN", Leg{Vector{1, 2}, 0, Move, 0}, 16},
		{"N2", Leg{Vector{1, 2}, 2, Move, 0}, 16},
		{"NNN2", Leg{Vector{1, 2}, 2, Move, 0}, 32},
		{"KK", Leg{Vector{1, 1}, 0, Move, 0}, 16},
		{"Q", Leg{Vector{1, 1}, 0, Capture, 0}, 16},
		{"R12", Leg{Vector{0, -1}, 12, Capture, 0}, 8},
		{"ifmnD", Leg{Vector{0, 2}, 1, Move, Initial | Lame}, 1},
		{"nN", Leg{Vector{2, 1}, 1, Move, Lame}, 16},
		{"jB", Leg{Vector{1, 1}, 0, Capture, Skip}, 8},
		{"mRcpR", Leg{Vector{0, 1}, 0, Capture, Hop}, 8},
		{"fmWfcF", Leg{Vector{-1, 1}, 1, Capture, 0}, 3},
		{"", Leg{}, 0},
	}
	for _, tt := range tests {
		m, err := Parse(tt.betza)
		if err != nil {
			t.Fatalf("%s: %v", tt.betza, err)
		}
		if len(m.Legs) != tt.count {
			t.Errorf("%s: %d legs, want %d: %v", tt.betza, len(m.Legs), tt.count, m.Legs)
		}
		if tt.count > 0 && !slices.Contains(m.Legs, tt.leg) {
			t.Errorf("%s: missing leg %+v in %v", tt.betza, tt.leg, m.Legs)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in  string
		pos int
		msg string
	}{
		{"X", 0, "unknown atom"},
		{"fmx", 2, "unknown modifier"},
		{"gR", 0, "grasshoppers"},
		{"pW", 0, "p (hop) needs a rider"},
		{"pjR", 0, "cannot be combined"},
		{"mafsW", 1, "multi-leg"},
		{"fm", 2, "without an atom"},
		{"RR", 1, "cannot be doubled"},
		{"4", 0, "range without an atom"},
		{"R0", 1, "range must be"},
		{"R16", 1, "range must be"},
		{"jW", 0, "needs a rider"},
		{"nW", 0, "no path"},
		{"nL", 0, "defined for N, D, A, H and G only"},
		{"nR", 0, "leapers only"},
		{"N3x", 2, "unknown modifier"},
		{"feN", 1, "en passant"},
		{"NN2", 2, "range without an atom"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a SyntaxError", tt.in, err)
			continue
		}
		if se.Pos != tt.pos || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: got pos %d %q, want pos %d %q", tt.in, se.Pos, se.Msg, tt.pos, tt.msg)
		}
		if !strings.Contains(se.Error(), tt.in) {
			t.Errorf("%q: message %q does not quote the input", tt.in, se.Error())
		}
	}
}

func TestPrint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"WFDA", "KDA"},
		{"WF", "K"},
		{"RB", "Q"},
		{"QN", "QN"},
		{"NWD", "WDN"},
		{"fmWfcF", "fmWfcF"},
		{"fmWfcFifmnD", "fmWfcFifmnD"},
		{"WW", "R"},
		{"R4", "R4"},
		{"NN", "NN"},
		{"NNN", "NNN"},
		{"N2N", "N2N"},
		{"NNN2N", "N2NNN"},
		{"B2B", "B2B"},
		{"jB", "jB"},
		{"mRcpR", "mRcpR"},
		{"fR", "fR"},
		{"FfR", "fRF"},
		{"ffN", "ffN"},
		{"lvN", "lvN"},
		{"fsN", "fsN"},
		{"vN", "vN"},
		{"fsW", "sfW"},
		{"mNcB", "cBmN"},
		{"K2", "Q2"},
		{"flFbrF", "flbrF"},
		{"fFlF", "fFlF"},
		{"", ""},
	}
	for _, tt := range tests {
		m, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		got := m.String()
		if got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := Parse(got)
		if err != nil {
			t.Fatalf("reparse %q: %v", got, err)
		}
		if !back.Equal(m) {
			t.Errorf("%q -> %q does not round-trip", tt.in, got)
		}
	}
}

func TestAtom(t *testing.T) {
	for v, want := range map[Vector]byte{{1, 0}: 'W', {-1, -1}: 'F', {1, -2}: 'N', {0, 3}: 'H', {3, 1}: 'L', {-2, 3}: 'J', {4, 0}: 0} {
		if got := Atom(v); got != want {
			t.Errorf("Atom(%v) = %q, want %q", v, got, want)
		}
	}
}

func FuzzBetza(f *testing.F) {
	for _, s := range []string{"WFDA", "fmWfcFifmnD", "N2", "flbrF", "fsN", "jB", "QN", "vL", "ffrNbbF", "i", "mcK3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(s) {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		out := m.String()
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) ok, String %q does not parse: %v", s, out, err)
		}
		if !back.Equal(m) {
			t.Fatalf("Parse(%q) -> %q does not round-trip", s, out)
		}
		if back.String() != out {
			t.Fatalf("String is not canonical: %q -> %q", out, back.String())
		}
	})
}

func fmtSscanf(s string, dx, dy *int) (int, error) { return fmt.Sscanf(s, "%d,%d", dx, dy) }
