package eval_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// TestAttackedBy: whether a side attacks a square, walked back from the
// square, agrees with the squares its pieces' capturing rays reach walked
// forward, on every square of positions from seeded random play; and the
// squares the hits gather are those.
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
				if got := e.Attacks(p, c); got != at {
					t.Fatalf("%s ply %d: %v attacks %v, want %v", name, ply, c, got.Squares(), at.Squares())
				}
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

// TestFromUnions: the squares from which a piece would attack the enemy
// royal piece, taken for a type whose rays are two other types' together
// (a queen: a rook and a bishop) as theirs together, are those walked for
// the type alone, whatever order the types come in, on positions from
// seeded random play.
func TestFromUnions(t *testing.T) {
	for _, tt := range []struct {
		name   string
		unions int // the types that are two others together
	}{{"chess", 1}, {"capablanca", 3}, {"greatshatranj", 3}, {"courier", 1}, {"xiangqi", 0}} {
		v, err := catalog.MustDefault().Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		e := eval.New(v)
		var types []rules.Type
		unions := 0
		for ty := rules.Type(1); int(ty) <= v.NumTypes(); ty++ {
			types = append(types, ty)
			if e.Union(ty) != [2]rules.Type{} {
				unions++
			}
		}
		if unions != tt.unions {
			t.Errorf("%s: %d types are two others together, want %d", tt.name, unions, tt.unions)
		}
		rng := rand.New(rand.NewPCG(11, 13))
		buf := make([]rules.Move, 0, rules.MaxMoves)
		p := v.Start()
		for ply := 0; ply < 80 && !p.Status().Over(); ply++ {
			for c := rules.White; c <= rules.Black; c++ {
				k, ok := royal(v, p, c.Other())
				if !ok {
					continue
				}
				for _, order := range [][]rules.Type{types, reversed(types)} {
					got, want := e.FromSquares(p, order, c, k)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s ply %d: type %d's squares %v, want %v", tt.name, ply, order[i], got[i].Squares(), want[i].Squares())
						}
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
	}
}

// royal returns the square of c's royal piece.
func royal(v *rules.Variant, p *rules.Position, c rules.Color) (geom.Square, bool) {
	for _, s := range p.Pieces(c) {
		if v.PieceSpec(p.At(s).Type()).Royal {
			return s, true
		}
	}
	return geom.NoSquare, false
}

func reversed(ts []rules.Type) []rules.Type {
	r := slices.Clone(ts)
	slices.Reverse(r)
	return r
}

// TestManyChecks: where one side has more squares of safe checks than
// the evaluation lists (eval.MaxChecks), the evaluation still weighs
// each of them: it is the weights times the features, which count the
// checks piece by piece.
func TestManyChecks(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	e := eval.NewWeights(v, map[string]float64{"Q.check.mg": 100, "Q.check.eg": 100})
	names := eval.Names(v)
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	for _, fen := range []string{
		"5Q2/4Q3/QQ4Q1/3k4/Q7/7Q/4Q3/1Q3Q1K w - - 0 1", // 60 checks
		"5Q2/4Q3/QQ4Q1/3k4/Q7/7Q/4Q3/1Q3Q1K b - - 0 1",
	} {
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		w := e.Weights()
		f := make([]float64, len(w))
		dot := e.Features(p, f)
		if n := f[at["Q.check.mg"]] + f[at["Q.check.eg"]]; n <= eval.MaxChecks {
			t.Fatalf("%s: %v checks, want more than %d", fen, n, eval.MaxChecks)
		}
		for j := range w {
			dot += w[j] * f[j]
		}
		got := float64(e.Evaluate(p))
		if p.Turn() == rules.Black {
			got = -got
		}
		if math.Abs(got-dot) > 30 { // the rounding of whole centipawns
			t.Errorf("%s: evaluation %v, weights times features %v", fen, got, dot)
		}
	}
}
