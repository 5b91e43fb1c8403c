package csipgs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// overlapDesigns are designs whose powers give some moves twice: a leaper
// and a rider in the same direction (WR, FB, KQ, NNN), with directions
// (WfR: only the forward W is the R's) and modes (mWcR: the W's move and
// the R's capture are different moves), and leaps that are further steps
// of a rider (RD, BA, RH, BG). R, Q and bWfR are controls without
// overlap.
var overlapDesigns = []string{
	"R", "Q", "bWfR",
	"WR", "FB", "KQ", "WfR", "WsR", "mWcR", "cWR", "WmR", "WcR", "FfB", "fFB", "fmWfcFfR",
	"RD", "WWD", "mRD", "RmD", "RcD", "mRcD", "BA", "RH", "BG", "QKDAHG",
	"NNN", "cNNN", "NNmN", "NNcN", "fNNN", "vNNN",
}

// bruteTargets returns the squares a piece of colour c on from with the
// design may go to in p, found square by square from the powers one by
// one (not from the design's merged move set): a leap lands on its square,
// a rider's k-th step needs the k-1 squares before it empty, and the
// square must be empty for a move and hold an enemy piece for a capture.
func bruteTargets(t *testing.T, p *rules.Position, from geom.Square, design string, c rules.Color) []geom.Square {
	t.Helper()
	d, err := ParseDesign(design)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Variant().Board()
	var out []geom.Square
	for _, to := range b.Squares() {
		q := p.At(to)
		if to == from || q == rules.Wall || q.IsPiece() && q.Color() == c {
			continue
		}
		found := false
		for _, w := range d.Powers {
			for _, v := range w.Vectors() {
				if q == rules.Empty && !v.Move || q.IsPiece() && !v.Capture {
					continue
				}
				found = found || slices.Contains(ray(p, from, v, c), to)
			}
		}
		if found {
			out = append(out, to)
		}
	}
	return out
}

// overlapFEN writes a position with the kings on a1 and h8, the design X
// on from for colour c, c to move, and the given pawns.
func overlapFEN(design string, from geom.Square, c rules.Color, pawns map[geom.Square]rules.Color) string {
	var rows []string
	for r := 7; r >= 0; r-- {
		row, empty := "", 0
		for f := range 8 {
			s := geom.Sq(f, r)
			var ch byte
			switch {
			case s == geom.Sq(0, 0):
				ch = 'K'
			case s == geom.Sq(7, 7):
				ch = 'k'
			case s == from:
				ch = 'X'
				if c == rules.Black {
					ch = 'x'
				}
			default:
				if pc, ok := pawns[s]; ok {
					ch = 'P'
					if pc == rules.Black {
						ch = 'p'
					}
				}
			}
			if ch == 0 {
				empty++
				continue
			}
			if empty > 0 {
				row += fmt.Sprint(empty)
				empty = 0
			}
			row += string(ch)
		}
		if empty > 0 {
			row += fmt.Sprint(empty)
		}
		rows = append(rows, row)
	}
	return fmt.Sprintf("%s %c 0/0 -/- PRNBKQ/PRNBKQ 0 1 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,X=%s}",
		strings.Join(rows, "/"), c.Letter(), design)
}

// TestMovesListedOnce checks that a design whose powers overlap lists each
// move once, and exactly the moves a square-by-square reading of its
// powers gives (for overlapDesigns and for random designs): on an empty
// board and among pawns of both colours, for either colour. No pawn
// stands next to a king, and the enemy has no rider to pin with, so the
// mover is never in check and every move found is legal.
func TestMovesListedOnce(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	rng := rand.New(rand.NewPCG(11, 12))
	var layouts []map[geom.Square]rules.Color
	layouts = append(layouts, nil) // an empty board
	for range 12 {
		pawns := map[geom.Square]rules.Color{}
		for range 14 {
			f, r := rng.IntN(8), rng.IntN(8)
			if max(f, r) <= 1 || min(f, r) >= 6 {
				continue // next to a king
			}
			pawns[geom.Sq(f, r)] = rules.Color(rng.IntN(2))
		}
		layouts = append(layouts, pawns)
	}
	froms := []geom.Square{geom.Sq(3, 3), geom.Sq(4, 4), geom.Sq(2, 5), geom.Sq(5, 2)}
	designs := slices.Clone(overlapDesigns)
	for len(designs) < len(overlapDesigns)+150 { // and designs drawn from the pricing tests' powers
		if d, ok := joinPowers(randomPowers(rng)); ok {
			if _, err := ParseDesign(d); err == nil {
				designs = append(designs, d)
			}
		}
	}
	for _, design := range designs {
		for _, c := range []rules.Color{rules.White, rules.Black} {
			for li, pawns := range layouts {
				for _, from := range froms {
					if _, ok := pawns[from]; ok {
						continue
					}
					name := fmt.Sprintf("%s/%s/layout%d/%s", design, c, li, from)
					p := mustFEN(t, v, overlapFEN(design, from, c, pawns))
					var got []geom.Square
					for _, m := range p.LegalMoves(nil) {
						if KindOf(m) == PieceMove && m.From() == from {
							got = append(got, m.To())
						}
					}
					want := bruteTargets(t, p, from, design, c)
					slices.Sort(got)
					if i := firstRepeat(got); i >= 0 {
						t.Errorf("%s: the move to %s is listed twice (%d moves, %d distinct squares)\n%s",
							name, got[i], len(got), len(want), p.FEN())
						continue
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s: moves to %v, want %v\n%s", name, got, want, p.FEN())
					}
				}
			}
		}
	}
}

// firstRepeat returns the index of the first square of a sorted list
// that repeats the one before it, or -1.
func firstRepeat(s []geom.Square) int {
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return i
		}
	}
	return -1
}

// TestVectorsSubsume checks the move set of designs with overlapping
// powers: a leaper under a rider of the same vector keeps only the modes
// the rider lacks.
func TestVectorsSubsume(t *testing.T) {
	tests := []struct {
		design                string
		riders, leapers       int // vectors of each kind
		moveOnly, captureOnly int // leaper vectors with one mode
	}{
		{"R", 4, 0, 0, 0},
		{"WR", 4, 0, 0, 0},
		{"KQ", 8, 0, 0, 0},
		{"WfR", 1, 3, 0, 0},
		{"mWcR", 4, 4, 4, 0},
		{"WcR", 4, 4, 4, 0},
		{"WmR", 4, 4, 0, 4},
		{"cWR", 4, 0, 0, 0},
		{"fmWfcFfR", 1, 2, 0, 2},
		{"RD", 4, 4, 0, 0}, // the D leaps over a blocked first step
		{"NNN", 8, 0, 0, 0},
		{"fNNN", 4, 4, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.design, func(t *testing.T) {
			d, err := ParseDesign(tc.design)
			if err != nil {
				t.Fatal(err)
			}
			var riders, leapers, mo, co int
			for _, v := range d.Vectors() {
				switch {
				case v.Rider:
					riders++
				default:
					leapers++
					if v.Move && !v.Capture {
						mo++
					}
					if v.Capture && !v.Move {
						co++
					}
				}
			}
			if riders != tc.riders || leapers != tc.leapers || mo != tc.moveOnly || co != tc.captureOnly {
				t.Errorf("%d riders, %d leapers (%d move-only, %d capture-only); want %d, %d (%d, %d)",
					riders, leapers, mo, co, tc.riders, tc.leapers, tc.moveOnly, tc.captureOnly)
			}
		})
	}
}
