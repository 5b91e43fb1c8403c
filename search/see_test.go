package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// seeSearcher returns a searcher of the position fen of the named variant.
func seeSearcher(t *testing.T, name, fen string) *searcher {
	t.Helper()
	v, err := vtest.Builtins().Get(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return New(1).newSearcher(context.Background(), p, Limits{})
}

// TestSEE checks static exchange values against hand computations in the
// variant's piece values: seeGE must hold at the value and fail one above.
func TestSEE(t *testing.T) {
	type vals func(letter byte) int
	tests := []struct {
		name, variant, fen, move string
		want                     func(v vals) int
	}{
		{"undefended pawn", "chess", "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') }},
		{"pawn defended by a pawn", "chess", "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') - v('R') }},
		{"rook behind rook (x-ray)", "chess", "4r1k1/8/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('N') }},
		{"defender's x-ray: queen behind rook", "chess", "4q1k1/4r3/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return min(v('N'), v('N')-v('R')+v('R')-v('R')) }},
		{"king may recapture", "chess", "8/8/3k4/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') - v('R') }},
		{"king may not recapture into an attack", "chess", "8/8/3k4/4p3/8/2B5/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') }},
		{"quiet move to an attacked square", "chess", "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "Qd5",
			func(v vals) int { return -v('Q') }},
		{"quiet move to a safe square", "chess", "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "Qd4",
			func(v vals) int { return 0 }},
		{"great shatranj leapers", "greatshatranj", "9k/4w5/10/4g5/10/2EN6/10/K9 w - - 0 1", "Nxe5",
			func(v vals) int { return min(v('G'), v('G')-v('N')+v('W')) }},
		{"great shatranj: general defended by a pawn", "greatshatranj", "9k/10/3p6/4g5/10/3N6/10/K9 w - - 0 1", "Nxe5",
			func(v vals) int { return min(v('G'), v('G')-v('N')) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := seeSearcher(t, tt.variant, tt.fen)
			p := s.p
			val := func(letter byte) int {
				ty := p.Variant().TypeOf(letter)
				if ty == 0 {
					t.Fatalf("no piece %c", letter)
				}
				return s.ev.Value(ty)
			}
			m, err := notation.ParseSAN(p, tt.move)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want(val)
			fen, hash := p.FEN(), p.Hash()
			lists := [2][]geom.Square{slices.Clone(p.Pieces(rules.White)), slices.Clone(p.Pieces(rules.Black))}
			if !s.seeGE(m, want) {
				t.Errorf("seeGE(%s, %d) = false, want true", tt.move, want)
			}
			if s.seeGE(m, want+1) {
				t.Errorf("seeGE(%s, %d) = true, want false", tt.move, want+1)
			}
			if p.FEN() != fen || p.Hash() != hash {
				t.Errorf("position changed: %s, want %s", p.FEN(), fen)
			}
			// The piece lists keep their order (move generation follows it).
			if !slices.Equal(p.Pieces(rules.White), lists[0]) || !slices.Equal(p.Pieces(rules.Black), lists[1]) {
				t.Errorf("piece lists %v %v, want %v %v", p.Pieces(rules.White), p.Pieces(rules.Black), lists[0], lists[1])
			}
		})
	}
}

// TestPlainCaptures checks which variants get static exchange evaluation.
func TestPlainCaptures(t *testing.T) {
	reg := testRegistry(t)
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"chess", true}, {"greatshatranj", true}, {"chatrang", true},
		{"vazir", false}, {"crazy", false}, {"csipgs", false},
	} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := plainCaptures(v); got != tt.want {
			t.Errorf("plainCaptures(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSEENoAlloc pins static exchange evaluation, which runs for captures
// at every node, allocation-free.
func TestSEENoAlloc(t *testing.T) {
	s := seeSearcher(t, "chess", "4q1k1/4r3/8/4n3/8/8/4R3/4R1K1 w - - 0 1")
	m, err := notation.ParseSAN(s.p, "Rxe5")
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { s.seeGE(m, 0) }); n != 0 {
		t.Errorf("seeGE allocates %v times", n)
	}
}

// TestLazySEEOrder: the moves pick gives, each capture's exchange tested
// only when it would be picked, come in the order (ties included) and with
// the scores of the eager order, every exchange tested before the first
// pick, on positions from seeded random play of five variants with plain
// captures, with and without a hash move and killers. A capture known to
// win at 0 wins at the negative margins of SEE pruning too, which the
// search takes without testing it again.
func TestLazySEEOrder(t *testing.T) {
	for _, name := range []string{"chess", "greatshatranj", "chatrang", "capablanca", "shatranj"} {
		v, err := vtest.Builtins().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if !plainCaptures(v) {
			t.Fatalf("%s: no plain captures, so no SEE in its move order", name)
		}
		t.Run(name, func(t *testing.T) {
			s := New(1).newSearcher(context.Background(), v.Start(), Limits{})
			p := s.p
			rng := rand.New(rand.NewPCG(19, uint64(len(name))))
			positions, captures := 0, 0
			for range 6 {
				ply := 0
				for ; ply < 80 && !p.Status().Over(); ply++ {
					all := p.LegalMoves(nil)
					if len(all) == 0 {
						break
					}
					hash := rules.NoMove
					if ply%2 == 1 {
						hash = all[rng.IntN(len(all))]
						s.killers[0][0], s.killers[0][1] = all[rng.IntN(len(all))], all[rng.IntN(len(all))]
					}
					captures += checkLazySEE(t, s, all, hash)
					positions++
					p.Make(all[rng.IntN(len(all))])
				}
				for range ply {
					p.Unmake() // back to the start for the next game
				}
			}
			if captures < 100 {
				t.Errorf("%d positions, %d captures tested: too few", positions, captures)
			}
		})
	}
}

// checkLazySEE compares the lazy order with the eager one on the moves of
// s's position and returns the number of captures whose exchange it
// compared.
func checkLazySEE(t *testing.T, s *searcher, all []rules.Move, hash rules.Move) int {
	t.Helper()
	eager := slices.Clone(all)
	es := slices.Clone(s.orderMoves(0, eager, hash))
	captures := 0
	for k, st := range s.seeOf[0] {
		if st != seeDue {
			continue
		}
		captures++
		wins := s.seeGE(eager[k], 0)
		if !wins {
			es[k] -= seeLoss
			continue
		}
		for _, margin := range []int{-1, -30, -100, -120, -270, -300, -480, -600, -750, -1080} {
			if !s.seeGE(eager[k], margin) {
				t.Fatalf("%s: %v wins at 0, not at %d", s.p.FEN(), eager[k], margin)
			}
		}
	}
	for i := range eager {
		b := i
		for j := i + 1; j < len(eager); j++ {
			if es[j] > es[b] {
				b = j
			}
		}
		eager[i], eager[b] = eager[b], eager[i]
		es[i], es[b] = es[b], es[i]
	}
	lazy := slices.Clone(all)
	ls := s.orderMoves(0, lazy, hash)
	for i := range lazy {
		s.pick(0, lazy, ls, i)
		if st := s.seeOf[0][i]; st == seeDue || (st == seeWins) != (st != seeNone && s.seeGE(lazy[i], 0)) {
			t.Fatalf("%s: %v picked with SEE state %d", s.p.FEN(), lazy[i], st)
		}
	}
	if !slices.Equal(eager, lazy) || !slices.Equal(es, ls) {
		t.Fatalf("%s: lazy order %v %v, eager %v %v", s.p.FEN(), lazy, ls, eager, es)
	}
	return captures
}
