package eval_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestFeaturesDotWeights: the weights times the features, plus the offset,
// is the evaluation up to the rounding of whole centipawns, for the hand-set
// weights and for changed ones.
func TestFeaturesDotWeights(t *testing.T) {
	for name, ps := range playouts(t, 60) {
		v, err := catalog.MustDefault().Get(name)
		if err != nil {
			t.Fatal(err)
		}
		changed := eval.Defaults(v)
		for n := range changed {
			changed[n] *= 1.3
		}
		changed["tempo"] = 25
		for n := range changed {
			switch {
			case strings.HasSuffix(n, ".mobility.mg") || strings.HasSuffix(n, ".mobility.eg"):
				changed[n] = 3
			case strings.Contains(n, ".mobility.safe."):
				changed[n] = 2
			case strings.Contains(n, ".check."):
				changed[n] = 9
			}
		}
		for n := range changed {
			if strings.Contains(n, ".square.") {
				changed[n] = float64(len(n)%7*5 - 15) // -15 to 15 by square and type
			}
		}
		for n, x := range map[string]float64{"pair.mg": 30, "pair.eg": 50, "file.open.mg": 25, "file.open.eg": 10, "file.halfopen.mg": 12, "file.halfopen.eg": 6, "king.attack.mg": 9, "king.attack.eg": 4,
			"pawn.phalanx.mg": 7, "pawn.phalanx.eg": 5, "pawn.supported.mg": 6, "pawn.supported.eg": 4,
			"pawn.passed.blocked.mg": -8, "pawn.passed.blocked.eg": -15, "pawn.passed.king.own.mg": -1, "pawn.passed.king.own.eg": -4,
			"pawn.passed.king.enemy.mg": 1, "pawn.passed.king.enemy.eg": 5,
			"threat.pawn.mg": 40, "threat.pawn.eg": 30, "threat.lesser.mg": 35, "threat.lesser.eg": 25,
			"threat.hanging.mg": 15, "threat.hanging.eg": 20, "king.openfile.mg": -20, "king.openfile.eg": 3, "king.storm.mg": -6, "king.storm.eg": 1} {
			changed[n] = x
		}
		for _, tt := range []struct {
			what string
			e    *eval.Evaluator
		}{
			{"hand-set", eval.NewWeights(v, v.Spec().Weights)}, // the weights alone, without a network
			{"changed", eval.NewWeights(v, changed)},
		} {
			w := tt.e.Weights()
			f := make([]float64, len(w))
			for i, p := range ps {
				off := tt.e.Features(p, f)
				dot := off
				for j := range w {
					dot += w[j] * f[j]
				}
				got := float64(tt.e.Evaluate(p))
				if p.Turn() == rules.Black {
					got = -got
				}
				// The tables hold whole centipawns: each piece's entry
				// and each passed pawn's bonus lose less than one, the
				// final divisions less than one each.
				pieces := len(p.Pieces(rules.White)) + len(p.Pieces(rules.Black))
				if math.Abs(got-dot) > float64(2*pieces+3) {
					t.Errorf("%s %s position %d: evaluation %v, weights times features %v", name, tt.what, i, got, dot)
				}
			}
		}
	}
}

// TestNewWeightsChangesEvaluation: a named weight reaches the evaluation.
func TestNewWeightsChangesEvaluation(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/3NK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	base := eval.NewWeights(v, nil).Evaluate(p)
	n := eval.Defaults(v)["N.value.mg"]
	for _, tt := range []struct {
		w    map[string]float64
		diff int
	}{
		{map[string]float64{"tempo": 30}, 20},
		{map[string]float64{"N.value.mg": n + 100, "N.value.eg": n + 100}, 100},
		{map[string]float64{"no.such.weight": 5}, 0},
	} {
		if got := eval.NewWeights(v, tt.w).Evaluate(p) - base; got != tt.diff {
			t.Errorf("%v: evaluation moved by %d, want %d", tt.w, got, tt.diff)
		}
	}
	if err := eval.CheckWeights(v, map[string]float64{"no.such.weight": 5}); err == nil {
		t.Error("an unknown weight passed the check")
	}
	if err := eval.CheckWeights(v, map[string]float64{"tempo": math.NaN()}); err == nil {
		t.Error("NaN passed the check")
	}
	if err := eval.CheckWeights(v, eval.Defaults(v)); err != nil {
		t.Error(err)
	}
}

// TestBuiltinWeightsKnown: every weight a built-in variant carries is one
// of the evaluation's.
func TestBuiltinWeightsKnown(t *testing.T) {
	for _, v := range catalog.MustDefault().Variants() {
		if err := eval.CheckWeights(v, v.Spec().Weights); err != nil {
			t.Error(err)
		}
	}
}

// TestVariantTermsAreWeights: Crazy Chess's and csipgs's own terms are weights of their
// evaluations; changing one moves the evaluation by that weight's change
// times the term.
func TestVariantTermsAreWeights(t *testing.T) {
	ps := playouts(t, 60)
	for _, tt := range []struct {
		variant, weight string
		delta           float64
	}{
		{"crazy", "crazy.passenger", -50},
		{"crazy", "crazy.holder", 40},
		{"crazy", "crazy.risen", 100},
		{"csipgs", "csipgs.zorkmid", 10},
		{"csipgs", "csipgs.reserve", -30},
		{"csipgs", "csipgs.push", 2},
	} {
		v, err := catalog.MustDefault().Get(tt.variant)
		if err != nil {
			t.Fatal(err)
		}
		names := eval.Names(v)
		at := -1
		for i, n := range names {
			if n == tt.weight {
				at = i
			}
		}
		if at < 0 {
			t.Fatalf("%s: no weight %s in %v", tt.variant, tt.weight, names)
		}
		w := eval.Defaults(v)
		w[tt.weight] += tt.delta
		if err := eval.CheckWeights(v, w); err != nil {
			t.Fatal(err)
		}
		base, changed := eval.NewWeights(v, nil), eval.NewWeights(v, w)
		f := make([]float64, len(names))
		seen := 0
		for i, p := range ps[v.Name()] {
			base.Features(p, f)
			if f[at] == 0 {
				continue
			}
			seen++
			got := float64(changed.Evaluate(p) - base.Evaluate(p))
			want := tt.delta * f[at]
			if p.Turn() == rules.Black {
				want = -want
			}
			// Both evaluations round the terms to whole centipawns (the
			// hand-set one each passenger).
			if pieces := len(p.Pieces(rules.White)) + len(p.Pieces(rules.Black)); math.Abs(got-want) > float64(pieces+1) {
				t.Errorf("%s position %d %s: evaluation moved by %v, want %v", tt.weight, i, p.FEN(), got, want)
			}
		}
		if seen == 0 {
			t.Errorf("%s: no position of the sample has the term", tt.weight)
		}
	}
}

// TestRankWeights: in Vazir the weight rank.R adds that percentage of a
// type's hand-set value to each piece of rank R, and nothing to the
// other ranks.
func TestRankWeights(t *testing.T) {
	v, err := catalog.MustDefault().Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	def := eval.Defaults(v)
	base := eval.NewWeights(v, nil)
	for _, tt := range []struct {
		rank    int
		percent float64
	}{
		{1, 10}, {5, 50}, {9, -20},
	} {
		name := "rank." + strconv.Itoa(tt.rank)
		w := map[string]float64{name: tt.percent}
		if err := eval.CheckWeights(v, w); err != nil {
			t.Fatal(err)
		}
		e := eval.NewWeights(v, w)
		for ty := rules.Type(1); int(ty) <= v.NumTypes(); ty++ {
			if v.PieceSpec(ty).Royal {
				continue
			}
			hand := def[string(v.PieceSpec(ty).Letter)+".value.mg"]
			for r := 0; r <= 9; r++ {
				pc := rules.MakePiece(rules.White, ty).WithAttr(uint16(r))
				want := 0
				if r == tt.rank {
					want = int(math.Round(hand * tt.percent / 100))
				}
				if got := e.PieceValue(pc) - base.PieceValue(pc); math.Abs(float64(got-want)) > 1 {
					t.Errorf("%s=%v: %c of rank %d gains %d, want %d", name, tt.percent, v.PieceSpec(ty).Letter, r, got, want)
				}
			}
		}
	}
}

// TestPieceTerms checks the features of the piece terms, from White's
// point of view: the pair of colour-bound pieces (two Bishops on one
// colour are no pair) and the file riders (Rooks and Queens) on open and
// half-open files, each White's count less Black's, and that their weights
// move the evaluation by the weight times the feature.
func TestPieceTerms(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name             string
		fen              string
		pair, open, half float64
	}{
		{"start", "", 0, 0, 0},
		{"white's pair against bishops on one colour", "2b1k3/8/b7/8/8/8/8/2B1KB2 w - - 0 1", 1, 0, 0},
		{"black's pair", "2b1kb2/8/8/8/8/8/8/3BKB2 w - - 0 1", -1, 0, 0},
		{"both pairs", "2b1kb2/8/8/8/8/8/8/2B1KB2 b - - 0 1", 0, 0, 0},
		{"rook on an open file, queen behind own pawn", "4k3/1p6/8/8/8/8/3P4/R2QK3 w - - 0 1", 0, 1, 0},
		{"rook on a half-open file against one on an open file", "2r1k3/1p6/8/8/8/8/P7/1R2K3 w - - 0 1", 0, -1, 1},
	}
	names := eval.Names(v)
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	e := eval.NewWeights(v, v.Spec().Weights) // the weights alone, without a network
	f := make([]float64, len(names))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := v.Start()
			if tt.fen != "" {
				if p, err = v.ParseFEN(tt.fen); err != nil {
					t.Fatal(err)
				}
			}
			e.Features(p, f)
			mg := func(n string) float64 { return f[at[n+".mg"]] + f[at[n+".eg"]] } // the phases' shares add to 1
			for _, c := range []struct {
				name string
				want float64
			}{{"pair", tt.pair}, {"file.open", tt.open}, {"file.halfopen", tt.half}} {
				if got := mg(c.name); math.Abs(got-c.want) > 1e-9 {
					t.Errorf("%s = %v, want %v", c.name, got, c.want)
				}
			}
			w := map[string]float64{} // the variant's own weights
			for i, x := range e.Weights() {
				w[names[i]] = x
			}
			if got, want := eval.NewWeights(v, w).Evaluate(p), e.Evaluate(p); got != want {
				t.Errorf("with the terms' weights 0: %d, want %d", got, want)
			}
			for _, n := range []string{"pair", "file.open", "file.halfopen"} {
				w[n+".mg"], w[n+".eg"] = 0, 0
			}
			off := eval.NewWeights(v, w)
			for _, n := range []string{"pair", "file.open", "file.halfopen"} {
				w[n+".mg"], w[n+".eg"] = 40, 40
			}
			diff := eval.NewWeights(v, w).Evaluate(p) - off.Evaluate(p)
			if p.Turn() == rules.Black {
				diff = -diff
			}
			if want := 40 * (tt.pair + tt.open + tt.half); math.Abs(float64(diff)-want) > 1 {
				t.Errorf("weights 40: evaluation moved by %d, want %v", diff, want)
			}
		})
	}
}

// TestMobility checks the mobility features of chess pieces, White's count
// less Black's by type: a square counts if the piece moves there (empty)
// or captures there (an enemy piece); own pieces and the board's edge stop
// it; pawns and kings have none. The attack on the king counts the squares
// next to the enemy king, and its own, that the pieces reach.
func TestMobility(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		fen  string
		want map[string]float64 // by letter
	}{
		{"start", "", map[string]float64{"N": 0, "B": 0, "R": 0, "Q": 0, "K": 0, "P": 0}},
		{"rook along its file and rank to its king", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{"R": 10, "K": 0}},
		{"knight: an empty square and a capture, not its own pawn", "4k3/8/8/8/8/2p5/3P4/1N2K3 w - - 0 1", map[string]float64{"N": 2, "P": 0}},
		{"black's bishop", "4k3/8/8/8/8/8/8/b3K3 w - - 0 1", map[string]float64{"B": -7}},
		{"queens", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", map[string]float64{"Q": 0}},
		{"rook on the king's neighbour file", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", map[string]float64{"R": 10, "attack": 2}},
		{"rook through to the king", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", map[string]float64{"R": 11, "attack": 2}},
		{"no attack from afar", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{"attack": 0}},
	}
	names := eval.Names(v)
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	e := eval.New(v)
	f := make([]float64, len(names))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := v.Start()
			if tt.fen != "" {
				if p, err = v.ParseFEN(tt.fen); err != nil {
					t.Fatal(err)
				}
			}
			e.Features(p, f)
			for l, want := range tt.want {
				n := l + ".mobility"
				if l == "attack" {
					n = "king.attack"
				}
				got := f[at[n+".mg"]] + f[at[n+".eg"]] // the phases' shares add to 1
				if math.Abs(got-want) > 1e-9 {
					t.Errorf("%s mobility %v, want %v", l, got, want)
				}
			}
		})
	}
}

// TestSquareTables: a per-square weight is added for the piece on that
// square seen from its owner's side, the files mirrored: White's knight
// on c2 or f2 and Black's on c7 or f7 take the weight of c2.
func TestSquareTables(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	w := map[string]float64{}
	for r := 1; r <= 8; r++ {
		for f := 'a'; f <= 'd'; f++ {
			x := float64(10*r + int(f-'a') + 1)
			w["N.square.mg."+string(f)+strconv.Itoa(r)] = x
			w["N.square.eg."+string(f)+strconv.Itoa(r)] = x
		}
	}
	if err := eval.CheckWeights(v, w); err != nil {
		t.Fatal(err)
	}
	with, without := eval.NewWeights(v, w), eval.NewWeights(v, nil)
	for _, tt := range []struct {
		fen  string
		want int // the change, from White's side
	}{
		{"4k3/8/8/8/8/8/2N5/4K3 w - - 0 1", 23},
		{"4k3/8/8/8/8/8/5N2/4K3 w - - 0 1", 23},
		{"4k3/8/8/8/8/8/5N2/4K3 b - - 0 1", 23},
		{"4k3/2n5/8/8/8/8/8/4K3 w - - 0 1", -23},
		{"4k3/5n2/8/8/8/8/8/4K3 b - - 0 1", -23},
		{"N3k3/8/8/8/8/8/8/4K3 w - - 0 1", 81},
		{"4k2n/8/8/8/8/8/8/4K3 w - - 0 1", -11},
		{"4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", 54},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
	} {
		p, err := v.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		got := with.Evaluate(p) - without.Evaluate(p)
		if p.Turn() == rules.Black {
			got = -got
		}
		// The tables hold whole centipawns, cut toward 0: the hand-set
		// entry's fraction may move the sum by one.
		if got < tt.want-1 || got > tt.want+1 {
			t.Errorf("%s: evaluation moved by %d, want %d", tt.fen, got, tt.want)
		}
	}
}

// TestCheckTables: a per-square table names every square of its half of
// the board or none.
func TestCheckTables(t *testing.T) {
	whole := func(key string, files, ranks int) map[string]float64 {
		w := map[string]float64{}
		for r := 1; r <= ranks; r++ {
			for f := range files {
				w[key+"."+string(rune('a'+f))+strconv.Itoa(r)] = 1
			}
		}
		return w
	}
	for _, tt := range []struct {
		variant string
		w       map[string]float64
		want    string // "" for none
	}{
		{"chess", whole("N.square.mg", 4, 8), ""},
		{"chess", map[string]float64{"N.value.mg": 300, "tempo": 3}, ""},
		{"greatshatranj", whole("N.square.eg", 5, 8), ""},
		{"chess", whole("N.square.mg", 4, 7), "N.square.mg: 28 squares reaching 7 ranks and 4 files, want 8 ranks of 4 files (a to d"},
		{"chess", whole("N.square.mg", 8, 8), "N.square.mg: 64 squares reaching 8 ranks and 8 files, want 8 ranks of 4 files"},
		{"chess", whole("N.square.mg", 4, 9), "reaching 9 ranks"},
		{"chess", map[string]float64{"N.square.mg.a1": 1}, "N.square.mg: 1 squares"},
		{"chess", whole("Z.square.mg", 4, 8), "Z.square.mg: chess has no piece \"Z\""},
		{"chess", map[string]float64{"N.square.mg.a0": 1}, "\"a0\" is not a square"},
		{"chess", map[string]float64{"N.square.eg.z": 1}, "\"z\" is not a square"},
	} {
		v, err := catalog.MustDefault().Get(tt.variant)
		if err != nil {
			t.Fatal(err)
		}
		err = eval.CheckTables(v, tt.w)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %v: %v", tt.variant, tt.w, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.variant, err, tt.want)
		}
	}
}

// TestVazirWeights: Vazir carries learned weights for position (chess's
// terms) and none for values, so that every piece keeps its hand-set
// value times its rank's durability.
func TestVazirWeights(t *testing.T) {
	v, err := catalog.MustDefault().Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	w := v.Spec().Weights
	for _, n := range []string{"N.mobility.mg", "B.square.eg.d4", "tempo"} {
		if _, ok := w[n]; !ok {
			t.Errorf("vazir's weights lack %s", n)
		}
	}
	for n := range w {
		if strings.Contains(n, ".value.") || strings.HasPrefix(n, "rank.") {
			t.Errorf("vazir's weights set %s", n)
		}
	}
	learned, hand := eval.New(v), eval.NewWeights(v, nil)
	for ty := rules.Type(1); int(ty) <= v.NumTypes(); ty++ {
		for r := 0; r <= 9; r++ {
			pc := rules.MakePiece(rules.White, ty).WithAttr(uint16(r))
			if got, want := learned.PieceValue(pc), hand.PieceValue(pc); got != want {
				t.Errorf("%c of rank %d is worth %d, want the hand-set %d", v.PieceSpec(ty).Letter, r, got, want)
			}
		}
	}
}
