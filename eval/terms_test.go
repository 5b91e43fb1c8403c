package eval_test

import (
	"maps"
	"math"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
)

// TestTerms: each term's feature, White's count less Black's, on small
// chess positions where it is known.
func TestTerms(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		term string
		fen  string
		want float64
	}{
		{"pawn.phalanx", "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", 2},
		{"pawn.phalanx", "4k3/8/8/8/8/8/2PPP3/4K3 w - - 0 1", 3},
		{"pawn.phalanx", "4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1", 0},
		{"pawn.phalanx", "4k3/3pp3/8/8/8/8/P7/4K3 w - - 0 1", -2},
		{"pawn.phalanx", "4k3/8/8/8/8/8/P6P/4K3 w - - 0 1", 0},
		{"pawn.supported", "4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1", 1},
		{"pawn.supported", "4k3/8/8/8/2P5/1P6/P7/4K3 w - - 0 1", 2},
		{"pawn.supported", "4k3/4p3/3p4/8/8/8/8/4K3 w - - 0 1", -1},
		{"pawn.supported", "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", 0},
		{"pawn.passed.blocked", "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", 0},
		{"pawn.passed.blocked", "4k3/8/4n3/4P3/8/8/8/4K3 w - - 0 1", 1},
		{"pawn.passed.blocked", "4k3/8/4B3/4P3/8/8/8/4K3 w - - 0 1", 1},
		{"pawn.passed.blocked", "4k3/8/8/8/4p3/4N3/8/4K3 w - - 0 1", -1},
		{"pawn.passed.blocked", "4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", 0}, // not passed
		{"pawn.passed.king.own", "8/8/8/4P3/8/8/8/K6k w - - 0 1", 10},
		{"pawn.passed.king.enemy", "8/8/8/4P3/8/8/8/K6k w - - 0 1", 10},
		{"pawn.passed.king.enemy", "8/8/2k5/4P3/8/8/8/K7 w - - 0 1", 4},
		{"pawn.passed.king.own", "k7/8/8/8/3p4/8/8/7K w - - 0 1", -10},
		{"pawn.passed.king.enemy", "k7/8/8/8/3p4/8/8/7K w - - 0 1", -8},
		{"pawn.passed.king.own", "4k3/8/8/8/8/4P3/8/K7 w - - 0 1", 0}, // too far back
		{"threat.pawn", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", 1},
		{"threat.hanging", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", 1},
		{"threat.lesser", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", 0},
		{"threat.pawn", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 0},
		{"threat.hanging", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 0},
		{"threat.lesser", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", 1},
		{"threat.hanging", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", 1},
		{"threat.lesser", "4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1", 0},
		{"threat.hanging", "4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1", 1},
		{"threat.lesser", "4k3/8/4p3/3q4/8/4N3/8/4K3 w - - 0 1", 1},
		{"threat.hanging", "4k3/8/4p3/3q4/8/4N3/8/4K3 w - - 0 1", 0},
		{"threat.lesser", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 0},
		{"threat.hanging", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 1},
		{"threat.pawn", "4k3/8/8/8/4p3/3N4/8/4K3 w - - 0 1", -1},
		{"threat.hanging", "4k3/8/8/8/4p3/3N4/8/4K3 w - - 0 1", -1},
		{"king.openfile", "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", -3},   // Black's three files are open
		{"king.openfile", "4k3/3p4/8/8/8/8/3P1P2/4K3 w - - 0 1", -1}, // e for White, e and f for Black
		{"king.openfile", "4k3/8/8/8/8/8/8/K7 w - - 0 1", -1},        // a and b against d, e and f
		{"king.storm", "4k3/8/8/8/8/5p2/8/6K1 w - - 0 1", 3},         // the f-pawn is three ranks beyond its third
		{"king.storm", "4k3/8/8/8/5p2/8/8/6K1 w - - 0 1", 2},
		{"king.storm", "6k1/8/8/8/8/8/5p2/K7 w - - 0 1", 0},  // not beside White's king
		{"king.storm", "6k1/8/6P1/8/8/8/8/K7 w - - 0 1", -3}, // g6 beside Black's king
		{"N.mobility.safe", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 2},
		{"N.mobility.safe", "4k3/8/8/8/2p5/8/8/N3K3 w - - 0 1", 1},  // b3 is attacked by the pawn
		{"N.mobility.safe", "4k3/8/8/8/2p5/8/8/N3K3 b - - 0 1", 1},  // whoever moves
		{"B.mobility.safe", "b3k3/8/8/1P6/8/8/8/4K3 w - - 0 1", -6}, // b7 to h1 but c6
		{"N.check", "4k3/8/8/5N2/8/8/8/4K3 w - - 0 1", 2},           // d6 and g7
		{"N.check", "4k3/4p3/8/5N2/8/8/8/4K3 w - - 0 1", 1},         // d6 defended by the pawn
		{"R.check", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", -1},           // a1; e2 is defended by the king
		{"R.check", "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1", 0},           // the queen blocks the rank
		{"B.check", "4k3/8/8/8/8/8/8/3BK3 w - - 0 1", 2},            // a4 and h5
		{"B.check", "4k3/8/2p5/8/8/8/8/3BK3 w - - 0 1", 1},          // h5: the pawn closes a4's line
	}
	names := eval.Names(v)
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	e := eval.New(v)
	f := make([]float64, len(names))
	for _, tt := range tests {
		t.Run(tt.term+" "+tt.fen, func(t *testing.T) {
			p, err := v.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			mg, ok1 := at[tt.term+".mg"]
			eg, ok2 := at[tt.term+".eg"]
			if !ok1 || !ok2 {
				t.Fatalf("%s.mg and %s.eg are not weights of chess", tt.term, tt.term)
			}
			e.Features(p, f)
			if got := f[mg] + f[eg]; math.Abs(got-tt.want) > 1e-9 { // the phases' shares add to 1
				t.Errorf("%s %v, want %v", tt.term, got, tt.want)
			}
		})
	}
}

// TestTermsAllocateNothing: with every term weighed, the evaluation of a
// middle-game position allocates nothing.
func TestTermsAllocateNothing(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	w := map[string]float64{"king.attack.mg": 5, "B.mobility.mg": 5, "R.mobility.safe.eg": 5, "N.check.eg": 5, "king.openfile.mg": -5, "king.storm.mg": -5}
	for _, n := range []string{"pawn.phalanx", "pawn.supported", "pawn.passed.blocked", "pawn.passed.king.own",
		"pawn.passed.king.enemy", "threat.pawn", "threat.lesser", "threat.hanging"} {
		w[n+".mg"], w[n+".eg"] = 10, 10
	}
	e := eval.NewWeights(v, w)
	p, err := v.ParseFEN("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9")
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { e.Evaluate(p) }); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
	}
	// the evaluation itself: Evaluate above finds p's score in the cache
	if n := testing.AllocsPerRun(100, func() { e.EvaluateUncached(p) }); n != 0 {
		t.Errorf("the evaluation without the cache allocates %v times", n)
	}
	// Great Shatranj's file, its pieces all leapers (mobilityLeaps)
	gs, err := catalog.MustDefault().Get("greatshatranj")
	if err != nil {
		t.Fatal(err)
	}
	p, err = gs.ParseFEN("w2gkm4/2p2ppp1p/pp1ppenhpw/10/4N1H3/3PE2P2/PPP1PP1PPP/W2GKM2W1 w - - 2 20")
	if err != nil {
		t.Fatal(err)
	}
	e = eval.New(gs)
	if n := testing.AllocsPerRun(100, func() { e.EvaluateUncached(p) }); n != 0 {
		t.Errorf("Great Shatranj's evaluation allocates %v times", n)
	}
}

// BenchmarkEvaluate: the evaluation of chess positions from random play
// with chess's weights file, with the terms of terms.go weighed too, and
// with the safe mobility, the safe checks and the king's files as well;
// and of Great Shatranj's positions with its file.
func BenchmarkEvaluate(b *testing.B) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		b.Fatal(err)
	}
	ps := playouts(b, 60)["chess"]
	with := map[string]float64{}
	for n, x := range v.Spec().Weights {
		with[n] = x
	}
	for _, n := range []string{"pawn.phalanx", "pawn.supported", "pawn.passed.blocked", "pawn.passed.king.own",
		"pawn.passed.king.enemy", "threat.pawn", "threat.lesser", "threat.hanging"} {
		with[n+".mg"], with[n+".eg"] = 10, 10
	}
	king := maps.Clone(with)
	for _, n := range []string{"N.mobility.safe", "B.mobility.safe", "R.mobility.safe", "Q.mobility.safe",
		"N.check", "B.check", "R.check", "Q.check", "king.openfile", "king.storm"} {
		king[n+".mg"], king[n+".eg"] = 10, 10
	}
	for _, bb := range []struct {
		name string
		e    *eval.Evaluator
	}{{"file", eval.New(v)}, {"terms", eval.NewWeights(v, with)}, {"king", eval.NewWeights(v, king)}} {
		b.Run(bb.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				bb.e.EvaluateUncached(ps[i%len(ps)]) // the positions come again: the cache would answer
			}
		})
	}
	// Great Shatranj's file: leapers only, every term of position weighed
	gs, err := catalog.MustDefault().Get("greatshatranj")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("greatshatranj", func(b *testing.B) {
		e, gps := eval.New(gs), playouts(b, 60)["greatshatranj"]
		for i := 0; b.Loop(); i++ {
			e.EvaluateUncached(gps[i%len(gps)])
		}
	})
	// a score the cache keeps (each position's after the first round)
	b.Run("cached", func(b *testing.B) {
		e := eval.New(v)
		for i := 0; b.Loop(); i++ {
			e.Evaluate(ps[i%len(ps)])
		}
	})
}
