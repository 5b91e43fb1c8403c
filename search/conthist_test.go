package search

import (
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestContextsDistinct checks that every piece on every square of the
// board has its own continuation context, within the table.
func TestContextsDistinct(t *testing.T) {
	reg := testRegistry(t)
	for _, name := range []string{"chess", "greatshatranj", "chatrang"} {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		c := newContHist(v)
		if c == nil {
			t.Fatalf("%s: no continuation history", name)
		}
		seen := map[int32]bool{}
		for _, sq := range v.Board().Squares() {
			for _, col := range []rules.Color{rules.White, rules.Black} {
				for ty := rules.Type(1); int(ty) <= v.NumTypes(); ty++ {
					m := rules.NewMove(sq, sq, rules.Normal)
					x := c.context(rules.MakePiece(col, ty), m)
					if x < 0 || int(x) >= c.n || seen[x] {
						t.Fatalf("%s: context %d of %v%d on %v out of range or taken", name, x, col, ty, sq)
					}
					seen[x] = true
				}
			}
		}
	}
}

// TestContinuation checks that a bonus for a move after another raises its
// continuation score after that move only, and that drops and null moves
// have no context.
func TestContinuation(t *testing.T) {
	s := seeSearcher(t, "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	p := s.p
	mv := func(san string) rules.Move { return sanMove(t, p, san) }
	e4, d4 := mv("e4"), mv("d4")
	ce4, cd4 := s.contextOf(e4), s.contextOf(d4)
	p.Make(e4)
	e5 := mv("e5")
	ce5 := s.contextOf(e5)
	p.Unmake()

	s.cctx[0] = ce4
	s.updateCont(1, ce5, 1000)
	if got := s.contScore(1, ce5); got != 1000 {
		t.Errorf("after e4, e5 scores %d, want 1000", got)
	}
	s.cctx[0] = cd4
	if got := s.contScore(1, ce5); got != 0 {
		t.Errorf("after d4, e5 scores %d, want 0", got)
	}
	s.cctx[0] = -1 // a null move
	if got := s.contScore(1, ce5); got != 0 {
		t.Errorf("after a null move, e5 scores %d, want 0", got)
	}
	s.updateCont(1, ce5, 1000) // no context: nothing to update
	// Two decisions back counts too.
	s.cctx[0], s.cctx[1] = ce4, cd4
	if got := s.contScore(2, ce5); got != 1000 {
		t.Errorf("e4, d4, then e5 scores %d, want 1000", got)
	}
	// The scores stay within the bounds however often they are raised.
	for range 1000 {
		s.updateCont(1, ce5, histBonus(20))
	}
	if got := s.contScore(1, ce5); got > 2*histMax || got <= 0 {
		t.Errorf("after many bonuses e5 scores %d, want within (0, %d]", got, 2*histMax)
	}
}

// TestContHistSize checks which variants get a continuation history: not
// those whose table would be too large.
func TestContHistSize(t *testing.T) {
	reg := testRegistry(t)
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"chess", true}, {"greatshatranj", true}, {"chatrang", true}, {"vazir", true},
		{"csipgs", false},
	} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		c := newContHist(v)
		if (c != nil) != tt.want {
			t.Errorf("%s: continuation history %v, want %v", tt.name, c != nil, tt.want)
		}
		if c != nil && len(c.score) > maxContContexts*maxContContexts {
			t.Errorf("%s: %d entries", tt.name, len(c.score))
		}
	}
}

// TestCaptureHistory checks that captures of one victim on one square by
// different pieces have their own capture history, that a capture's
// cutoffs raise it in the move order above a capture with a cheaper
// attacker, and that the captures searched before it lose.
func TestCaptureHistory(t *testing.T) {
	s := seeSearcher(t, "chess", "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
	p := s.p
	mv := func(san string) rules.Move { return sanMove(t, p, san) }
	pawn, knight, quiet := mv("exd5"), mv("Nxd5"), mv("Kd2")
	ip, ik := s.cont.captureIndex(p, pawn), s.cont.captureIndex(p, knight)
	if ip < 0 || ik < 0 || ip == ik || int(ip) >= len(s.cont.capture) || int(ik) >= len(s.cont.capture) {
		t.Fatalf("indices %d and %d: want distinct, within %d", ip, ik, len(s.cont.capture))
	}
	first := func() rules.Move {
		moves := []rules.Move{pawn, knight, quiet}
		sc := s.orderMoves(0, moves, rules.NoMove)
		s.pick(0, moves, sc, 0)
		return moves[0]
	}
	if got := first(); got != pawn {
		t.Fatalf("without history %v is first, want the pawn's capture", got)
	}
	s.caps[0][0], s.caps[0][1] = ip, ik
	for range 4 {
		s.updateCaptures(0, 2, ik, 10)
	}
	if got := first(); got != knight {
		t.Errorf("after the knight's cutoffs %v is first, want the knight's capture", got)
	}
	if s.captureScore(pawn) >= 0 || s.captureScore(knight) <= 0 {
		t.Errorf("scores %d (tried first) and %d (cut off), want below and above 0", s.captureScore(pawn), s.captureScore(knight))
	}
}

// sanMove returns the move san names in p.
func sanMove(t *testing.T, p *rules.Position, san string) rules.Move {
	t.Helper()
	m, err := notation.ParseSAN(p, san)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestQuiescenceSetsContext checks that quiescence records the context of
// each move it makes, as negamax does, so that the nodes below it (check
// evasions, the counter move) read the move that led to them and not one
// left from another part of the tree.
func TestQuiescenceSetsContext(t *testing.T) {
	// Only one capture: Rxe5, which gives check.
	s := seeSearcher(t, "chess", "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1")
	if s.cont == nil {
		t.Fatal("chess has no continuation history")
	}
	const stale = int32(-7)
	for i := range s.cctx {
		s.cctx[i] = stale
	}
	m, err := notation.ParseMove(s.p, "Rxe5+")
	if err != nil {
		t.Fatal(err)
	}
	want := s.contextOf(m)
	s.quiesce(-Infinity, Infinity, 0)
	if got := s.cctx[0]; got != want {
		t.Errorf("context at ply 0 after quiescence = %d, want %d (Rxe5's)", got, want)
	}
}
