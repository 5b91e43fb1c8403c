package eval_test

import (
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// TestPawnTable: on positions of every built-in variant from seeded random
// play, what the pawns give (their files, attacks, structure's scores,
// pawn terms' counts and passed files) is the same computed from the
// position as got through the pawn table: when first stored, when found
// again, and after every other position has been stored into the same
// table (slots taken by other structures, or found again).
func TestPawnTable(t *testing.T) {
	ps := playouts(t, 60)
	for _, v := range catalog.MustDefault().Variants() {
		e := eval.New(v)
		tab := eval.NewPawnTable()
		want := make([]string, len(ps[v.Name()]))
		for i, p := range ps[v.Name()] {
			want[i] = e.PawnInfo(p, nil)
			for _, pass := range []string{"stored", "found"} {
				if got := e.PawnInfo(p, tab); got != want[i] {
					t.Fatalf("%s, position %d (%s), %s:\n got %s\nwant %s", v.Name(), i, p.FEN(), pass, got, want[i])
				}
			}
		}
		for i, p := range ps[v.Name()] {
			if got := e.PawnInfo(p, tab); got != want[i] {
				t.Fatalf("%s, position %d (%s), the table full:\n got %s\nwant %s", v.Name(), i, p.FEN(), got, want[i])
			}
		}
	}
}

// TestPawnAttackSets: the squares the pawns attack, gathered by moving the
// pawns' set, are those walked pawn by pawn, on positions of every
// built-in variant from seeded random play.
func TestPawnAttackSets(t *testing.T) {
	for name, ps := range playouts(t, 60) {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		e := eval.New(v)
		for _, p := range ps {
			if got, want := e.PawnAttacks(p), e.PawnAttacksByPawn(p); got != want {
				t.Fatalf("%s %s: pawn attacks\n got %v %v\nwant %v %v", name, p.FEN(), &got[0], &got[1], &want[0], &want[1])
			}
		}
	}
}

// TestMobilitySets: for a type whose rays reach each square once, both
// moving and capturing, mobility counted on sets gives what it gives square
// by square (the moves, the attack on the king, the safe checks and safe
// moves, the hits, the squares of check listed), for every piece of such
// a type on positions of every built-in variant from seeded random play,
// every weight set.
func TestMobilitySets(t *testing.T) {
	n := 0
	everyPiece(t, func(name string, e *eval.Evaluator, p *rules.Position, s geom.Square, col rules.Color) {
		got, sets := e.MobilityWalk(p, s, col, false)
		if !sets {
			return
		}
		n++
		if want, _ := e.MobilityWalk(p, s, col, true); got != want {
			t.Fatalf("%s %s, the piece on %v:\n got %s\nwant %s", name, p.FEN(), s, got, want)
		}
	})
	if n == 0 {
		t.Fatal("no piece walked on sets")
	}
}

// everyPiece calls f for each piece of either side on the positions of
// every built-in variant from seeded random play (playouts), with the
// variant's evaluator of every weight set to 1.
func everyPiece(t *testing.T, f func(name string, e *eval.Evaluator, p *rules.Position, s geom.Square, col rules.Color)) {
	t.Helper()
	for name, ps := range playouts(t, 60) {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		w := map[string]float64{}
		for _, nm := range eval.Names(v) {
			w[nm] = 1
		}
		e := eval.NewWeights(v, w)
		for _, p := range ps {
			for _, col := range []rules.Color{p.Turn(), p.Turn().Other()} {
				for _, s := range p.Pieces(col) {
					f(name, e, p, s, col)
				}
			}
		}
	}
}

// TestReachesOnce: rays reach each square once unless two of them share a
// square from some square of the board.
func TestReachesOnce(t *testing.T) {
	b, err := geom.NewBoard(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	east, north, ne := geom.Offset(1, 0), geom.Offset(0, 1), geom.Offset(1, 1)
	tests := []struct {
		name        string
		offs, steps []int
		want        bool
	}{
		{"rook", []int{east, -east, north, -north}, []int{8, 8, 8, 8}, true},
		{"knight", []int{geom.Offset(1, 2), geom.Offset(2, 1), geom.Offset(-1, 2)}, []int{1, 1, 1}, true},
		{"wazir and rook east", []int{east, east}, []int{1, 8}, false},
		{"dabbaba and rook east", []int{2 * east, east}, []int{1, 8}, false},
		{"dabbaba and wazir", []int{2 * east, east}, []int{1, 1}, true},
		{"two steps of a diagonal and a rook", []int{ne, north, east}, []int{8, 8, 8}, true},
		{"a leap two files across and a rook", []int{geom.Offset(2, 0), east}, []int{1, 1}, true},
	}
	for _, tc := range tests {
		if got := eval.ReachesOnce(b, tc.offs, tc.steps); got != tc.want {
			t.Errorf("%s: ReachesOnce = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMobilityLeaps: for a leaper whose rays both move and capture,
// mobility counted on its table (mobilityLeaps) gives what the walk square
// by square gives (the moves, the attack on the king, the safe checks and
// safe moves, every hit, the squares of check listed), for every piece of
// such a type on positions of every built-in variant from seeded random
// play, every weight set; and the hits a leaper that threatens nothing
// (a royal piece) takes from its table are those its walk gives.
func TestMobilityLeaps(t *testing.T) {
	n, hn := 0, 0
	seen := map[string]bool{}
	everyPiece(t, func(name string, e *eval.Evaluator, p *rules.Position, s geom.Square, col rules.Color) {
		if got, want, table := e.HitLeaps(p, s, col); table {
			hn++
			if got != want {
				t.Fatalf("%s %s, the hits of the piece on %v:\n got %s\nwant %s", name, p.FEN(), s, got, want)
			}
		}
		got, leaps := e.MobilityLeaps(p, s, col)
		if !leaps {
			return
		}
		n++
		seen[name] = true
		if want, _ := e.MobilityWalk(p, s, col, true); got != want {
			t.Fatalf("%s %s, the piece on %v:\n got %s\nwant %s", name, p.FEN(), s, got, want)
		}
	})
	if n == 0 || hn == 0 || !seen["greatshatranj"] || !seen["chess"] {
		t.Fatalf("%d pieces counted on tables (%v), %d hits", n, seen, hn)
	}
}
