package vazir

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

// TestRandomGameInvariants plays seeded random games with random outcomes
// under several option sets and checks at every position: make and unmake
// of every legal move with every outcome restore RFEN and hash; the hash
// equals the hash of the position read back from its RFEN; no move captures
// a king (VZ-17); a turn in progress keeps the side to move; the move
// order is the same after make and unmake.
func TestRandomGameInvariants(t *testing.T) {
	sets := []struct {
		name string
		edit func(*Options)
	}{
		{"default", nil},
		{"strict", func(o *Options) {
			o.MPT, o.QuietAfterFail, o.SameTargetOnly, o.ExtraMoveCapturesCertain = 2, false, true, false
		}},
		{"loose", func(o *Options) {
			o.MPT, o.HundredPercentScope, o.ExtraMoveScope, o.PromotionRounding = 1, NoOtherEvasion, AnyEvasion, HalfEven
		}},
	}
	games, plies := 6, 160
	if testing.Short() {
		games, plies = 2, 60
	}
	for si, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			v := newVariant(t, set.edit)
			for g := range games {
				seed := uint64(1000*si + g)
				moves := rand.New(rand.NewPCG(seed, 1))
				dice := game.NewRoller(seed)
				p := v.Start()
				if err := InitRanks(p, RandomMirrored, dice); err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply < plies && !p.Status().Over(); ply++ {
					checkPosition(t, v, p)
					ms := p.LegalMoves(nil)
					m := ms[moves.IntN(len(ms))]
					k, err := rules.Choose(dice, p.Outcomes(m))
					if err != nil {
						t.Fatal(err)
					}
					p.MakeOutcome(m, k)
				}
				checkPosition(t, v, p)
			}
		})
	}
}

func checkPosition(t *testing.T, v *rules.Variant, p *rules.Position) {
	t.Helper()
	rf, h := RFEN(p), p.Hash()
	q, err := ParseRFEN(v, rf)
	if err != nil {
		t.Fatalf("RFEN %q does not parse: %v", rf, err)
	}
	if q.Hash() != h || RFEN(q) != rf {
		t.Fatalf("%s read back: hash %x vs %x, %s", rf, q.Hash(), h, RFEN(q))
	}
	order := p.LegalMoves(nil)
	defer func() {
		if !slices.Equal(p.LegalMoves(nil), order) {
			t.Fatalf("%s: make/unmake changed the move order", rf)
		}
	}()
	for _, m := range order {
		if s := victim(p, m); s != 0 && v.Royal(p.At(s).Type()) {
			t.Fatalf("%s: %s captures a king", rf, coord(p, m))
		}
		outs := p.Outcomes(m)
		var sum, den uint32
		for k, o := range outs {
			if den == 0 {
				den = o.Den
			}
			if o.Den != den || o.Num == 0 {
				t.Fatalf("%s: %s outcomes %v", rf, coord(p, m), outs)
			}
			sum += o.Num
			us := p.Turn()
			p.MakeOutcome(m, k)
			if k == 1 && p.Turn() == us && p.Counter() == 0 {
				t.Fatalf("%s: failed %s kept the turn without a try", rf, coord(p, m))
			}
			p.Unmake()
			if RFEN(p) != rf || p.Hash() != h {
				t.Fatalf("%s: make/unmake of %s outcome %d gave %s", rf, coord(p, m), k, RFEN(p))
			}
		}
		if sum != den {
			t.Fatalf("%s: %s outcomes %v do not add up to 1", rf, coord(p, m), outs)
		}
	}
}
