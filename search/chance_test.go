package search

import (
	"context"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

// vazirPos returns a Vazir position with the given options read from
// RFEN, or a seeded start for an empty rfen.
func vazirPos(t testing.TB, opts map[string]string, rfen string, seed uint64) *rules.Position {
	t.Helper()
	v, err := testRegistry(t).Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = v.Configure(opts); err != nil {
		t.Fatal(err)
	}
	if rfen == "" {
		p, err := v.Setup(game.NewRoller(seed))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p, err := v.ParseFEN(rfen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// chancePositions are Vazir positions with capture attempts near the root.
var chancePositions = []struct {
	name  string
	opts  map[string]string
	rfen  string
	seed  uint64
	depth int
}{
	{"hanging rook", nil, "k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t0", 0, 5},
	{"after a failed try", nil, "k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t1", 0, 5},
	{"check by a rank-9 knight, MPT 2", map[string]string{"MPT": "2"}, "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", 0, 5},
	{"check by a rank-9 rook, no escape", nil, "4R03/8/k07/8/8/8/6P0P0/4r92K0 w - - 0 1 t0", 0, 4},
	{"minor pieces", nil, "4k03/p33p5b22/2n75/3P5N23/8/8/P34P22/4K33 w - - 0 1 t0", 0, 4},
	{"random mirrored start", nil, "", 1, 3},
}

// TestStarMatchesExpectimax: with forward pruning off, Star1 and Star1
// with probes give the root value of plain expectimax (every outcome
// searched with a full window), with fewer nodes.
func TestStarMatchesExpectimax(t *testing.T) {
	for _, tt := range chancePositions {
		p := vazirPos(t, tt.opts, tt.rfen, tt.seed)
		fen := p.FEN()
		var scores [3]int
		var nodes [3]int64
		for i, mode := range []chanceMode{modePlain, modeStar1, modeProbe} {
			e := New(8)
			e.mode, e.exact = mode, true
			res := e.Search(context.Background(), p, Limits{Depth: tt.depth}, nil)
			scores[i], nodes[i] = res.Info.Score, res.Info.Nodes
			if p.FEN() != fen {
				t.Fatalf("%s: the search changed the position", tt.name)
			}
		}
		t.Logf("%s, depth %d: score %d; nodes plain %d, Star1 %d, probes %d", tt.name, tt.depth, scores[0], nodes[0], nodes[1], nodes[2])
		if scores[1] != scores[0] || scores[2] != scores[0] {
			t.Errorf("%s: plain %d, Star1 %d, probes %d", tt.name, scores[0], scores[1], scores[2])
		}
		if nodes[1] > nodes[0] {
			t.Errorf("%s: Star1 searched %d nodes, plain expectimax %d", tt.name, nodes[1], nodes[0])
		}
	}
}

// TestCertainCaptures: with SetCertainCaptures the engine takes a capture
// of a rank-9 queen by a rank-0 rook (1 chance in 10 a try) to succeed and
// scores it as a won queen; weighing the outcomes, it scores it far lower.
func TestCertainCaptures(t *testing.T) {
	const rfen = "k07/8/8/3q94/8/8/8/3R03K0 w - - 0 1 t0"
	p := vazirPos(t, nil, rfen, 0)
	e := New(8)
	if e.CertainCaptures() {
		t.Fatal("certain captures on by default")
	}
	chance := e.Search(context.Background(), p, Limits{Depth: 4}, nil)
	e.SetCertainCaptures(true)
	if !e.CertainCaptures() {
		t.Fatal("SetCertainCaptures(true) did not stick")
	}
	sure := e.Search(context.Background(), p, Limits{Depth: 4}, nil)
	t.Logf("chance %d (%v), certain %d (%v)", chance.Info.Score, chance.Best, sure.Info.Score, sure.Best)
	if sure.Best.From().String() != "d1" || sure.Best.To().String() != "d5" {
		t.Errorf("certain captures: best %v, want Rxd5", sure.Best)
	}
	ev := e.Evaluator(p.Variant())
	queen, rook := ev.PieceValue(p.At(sure.Best.To())), ev.PieceValue(p.At(sure.Best.From()))
	if sure.Info.Score < rook-100 {
		t.Errorf("certain captures scored %d: not a rook up after winning the queen", sure.Info.Score)
	}
	if chance.Info.Score > sure.Info.Score-queen/2 {
		t.Errorf("weighing the outcomes scored %d, certain captures %d", chance.Info.Score, sure.Info.Score)
	}
	if p.FEN() != rfen {
		t.Error("the search changed the position")
	}
}

// TestExpectedGainOrder: captures are ordered by expected gain, the
// chance of success times the victim's value: a sure capture of a knight
// before a capture of a queen that succeeds once in ten tries.
func TestExpectedGainOrder(t *testing.T) {
	// White: Rd1 (rank 0) attacks the rank-9 queen on d5, Pe4 (rank 0)
	// the rank-0 knight on f5 and the queen.
	p := vazirPos(t, nil, "k07/8/8/3q91n02/4P03/8/8/3R02K01 w - - 0 1 t0", 0)
	s := New(1).newSearcher(context.Background(), p, Limits{})
	moves := p.LegalMoves(nil)
	scores := s.orderMoves(0, moves, rules.NoMove)
	rank := map[string]int32{}
	for i, m := range moves {
		rank[m.From().String()+m.To().String()] = scores[i]
	}
	if !(rank["e4f5"] > rank["e4d5"] && rank["e4f5"] > rank["d1d5"]) {
		t.Errorf("ordering scores: exf5 %d, exd5 %d, Rxd5 %d", rank["e4f5"], rank["e4d5"], rank["d1d5"])
	}
	if rank["e4d5"] <= rank["d1d5"] {
		t.Errorf("of two captures of the queen, the cheaper attacker should come first: exd5 %d, Rxd5 %d", rank["e4d5"], rank["d1d5"])
	}
}

// TestQuiescenceRetries: quiescence values a capture attempt out of check
// as success within the turn's remaining tries (the value after the
// capture, h) or else standing pat: a rank-0 rook takes a hanging rank-9
// rook with chance 1/10 a try, so with k tries left the attempt mixes h
// and the static evaluation with the chances 1-(9/10)^k and (9/10)^k.
func TestQuiescenceRetries(t *testing.T) {
	for _, tt := range []struct {
		rfen  string
		tries int
	}{
		{"k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0", 3},
		{"k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t1", 2},
		{"k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t2", 1},
	} {
		p := vazirPos(t, nil, tt.rfen, 0)
		s := New(1).newSearcher(context.Background(), p, Limits{})
		moves := p.LegalCaptures(nil)
		if len(moves) != 1 {
			t.Fatalf("%s: captures %v", tt.rfen, moves)
		}
		m := moves[0]
		if got := s.triesLeft(m); got != tt.tries {
			t.Errorf("%s: %d tries left, want %d", tt.rfen, got, tt.tries)
		}
		stand := s.ev.Evaluate(p)
		p.Make(m)
		h := -s.quiesce(-Infinity, Infinity, 1)
		p.Unmake()
		den, miss := 1.0, 1.0
		for range tt.tries {
			den, miss = den*10, miss*9
		}
		u := ((den-miss)*utility(float64(h)) + miss*utility(float64(stand))) / den
		want := score(u, nearMate)
		got := s.quiesce(-Infinity, Infinity, 0)
		t.Logf("%s: stand %d, after the capture %d, quiescence %d", tt.rfen, stand, h, got)
		if got != want || got <= stand || got >= h {
			t.Errorf("%s: quiescence %d, want %d", tt.rfen, got, want)
		}
		if p.FEN() != tt.rfen {
			t.Errorf("%s: quiescence left %s", tt.rfen, p.FEN())
		}
	}
}

// TestMixScore: the value of a mean utility is the nearest score, a mix
// of equal values is that value, and a mix with a small chance of mate
// does not outweigh a likely loss.
func TestMixScore(t *testing.T) {
	for v := -3000; v <= 3000; v += 7 {
		if got := score(utility(float64(v)), nearMate); got != v {
			t.Fatalf("score(utility(%d)) = %d", v, got)
		}
	}
	mx := mix{n: 2, w: [maxOutcomes]float64{18, 82}, den: 100}
	mean := func(v [maxOutcomes]int) float64 {
		u := mx.utilities(&v)
		return mx.mean(&u, -1, 0)
	}
	if got := score(mean([maxOutcomes]int{Mate - 5, -1300}), nearMate); got > -300 {
		t.Errorf("18%% mate, 82%% a queen down: %d", got)
	}
	if got := score(mean([maxOutcomes]int{Mate - 5, Mate - 7}), nearMate); got != nearMate {
		t.Errorf("mate either way: %d, want %d", got, nearMate)
	}
	if got := score(mean([maxOutcomes]int{300, -100}), nearMate); got < -40 || got > -10 {
		t.Errorf("18%% +300, 82%% -100: %d", got)
	}
}

// TestVazirDeterministic: a Vazir search visits the same nodes twice.
func TestVazirDeterministic(t *testing.T) {
	p := vazirPos(t, nil, "", 7)
	a := New(8).Search(context.Background(), p, Limits{Depth: 6}, nil)
	b := New(8).Search(context.Background(), p, Limits{Depth: 6}, nil)
	if a.Info.Nodes != b.Info.Nodes || a.Best != b.Best || a.Info.Score != b.Info.Score {
		t.Errorf("%d nodes %v %d, then %d nodes %v %d", a.Info.Nodes, a.Best, a.Info.Score, b.Info.Nodes, b.Best, b.Info.Score)
	}
}
