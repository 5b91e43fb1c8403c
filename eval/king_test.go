package eval_test

import (
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestAttackedBy: whether a side attacks a square, walked back from the
// square, agrees with the squares its pieces' capturing rays reach walked
// forward, on every square of positions from seeded random play.
func TestAttackedBy(t *testing.T) {
	for _, name := range []string{"chess", "shogi", "xiangqi", "capablanca"} {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		e := eval.New(v)
		rng := rand.New(rand.NewPCG(3, 5))
		buf := make([]rules.Move, 0, rules.MaxMoves)
		p := v.Start()
		attacked := 0
		for ply := 0; ply < 80 && !p.Status().Over(); ply++ {
			for c := rules.White; c <= rules.Black; c++ {
				at := e.AttackedSquares(p, c)
				attacked += at.Len()
				for _, q := range v.Board().Squares() {
					if got, want := e.AttackedBy(p, q, c), at.Has(q); got != want {
						t.Fatalf("%s ply %d: AttackedBy(%v, %v) = %v, want %v", name, ply, q, c, got, want)
					}
				}
			}
			ms := p.LegalMoves(buf[:0])
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			p.MakeOutcome(m, rng.IntN(len(p.Outcomes(m))))
		}
		if attacked == 0 {
			t.Errorf("%s: no square attacked", name)
		}
	}
}
