package vazir

import (
	"math/big"
	"slices"
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestV1V2Probability checks P = (a+1)/(a+d+1) as exact fractions, and one
// certain outcome with no roll when d = 0 (VZ-4, VZ-5, VZ-6; V1, V2).
func TestV1V2Probability(t *testing.T) {
	v := newVariant(t, nil)
	tests := []struct {
		name     string
		a, d     int
		want     *big.Rat
		outcomes int
	}{
		{"V1 P(3,5)", 3, 5, big.NewRat(4, 9), 2},
		{"V2 P(0,9)", 0, 9, big.NewRat(1, 10), 2},
		{"V2 P(9,0)", 9, 0, big.NewRat(1, 1), 1},
		{"V2 P(0,0)", 0, 0, big.NewRat(1, 1), 1},
		{"V2 P(5,5)", 5, 5, big.NewRat(6, 11), 2},
		{"V2 P(9,9)", 9, 9, big.NewRat(10, 19), 2},
		{"V2 P(1,8)", 1, 8, big.NewRat(1, 5), 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A white rook of rank a on a1 takes a black rook of rank d on a8.
			rfen := "r" + string(rune('0'+tc.d)) + "6k0/8/8/8/8/8/8/R" + string(rune('0'+tc.a)) + "6K0 w - - 0 1 t0"
			p := parse(t, v, rfen)
			outs := p.Outcomes(mv(t, p, "a1a8"))
			if len(outs) != tc.outcomes {
				t.Fatalf("outcomes %v, want %d", outs, tc.outcomes)
			}
			if frac(outs[0]).Cmp(tc.want) != 0 {
				t.Errorf("P = %d/%d, want %v", outs[0].Num, outs[0].Den, tc.want)
			}
			if tc.outcomes == 2 {
				if outs[0].Num != uint32(tc.a+1) || outs[0].Den != uint32(tc.a+tc.d+1) {
					t.Errorf("hit = %d/%d, want the die form %d/%d (VZ-5)", outs[0].Num, outs[0].Den, tc.a+1, tc.a+tc.d+1)
				}
				if outs[0].Label != Hit || outs[1].Label != Miss || outs[0].Num+outs[1].Num != outs[0].Den || outs[1].Den != outs[0].Den {
					t.Errorf("outcomes %v are not hit and its complement", outs)
				}
				// A roller that must not be used panics through the test.
			} else {
				r := &script{rolls: []int{-1}}
				if k, err := rules.Choose(r, outs); err != nil || k != 0 || r.n != 0 {
					t.Errorf("a certain capture rolled the die (VZ-6): k=%d err=%v rolls=%d", k, err, r.n)
				}
			}
			if num, den := Probability(tc.a, tc.d); big.NewRat(int64(num), int64(den)).Cmp(tc.want) != 0 {
				t.Errorf("Probability(%d,%d) = %d/%d", tc.a, tc.d, num, den)
			}
		})
	}
}

// turnSuccess returns the exact probability that the side to move ends its
// turn with the capture m done, retrying m after each failure.
func turnSuccess(t *testing.T, p *rules.Position, m rules.Move, to string) *big.Rat {
	us := p.Turn()
	total := new(big.Rat)
	for k, o := range p.Outcomes(m) {
		p.MakeOutcome(m, k)
		switch {
		case p.Turn() != us:
			if k == 0 {
				total.Add(total, frac(o))
			}
		default:
			sub := turnSuccess(t, p, m, to)
			total.Add(total, sub.Mul(sub, frac(o)))
		}
		p.Unmake()
	}
	return total
}

// TestV3TurnProbability: with MPT = 3 and P = 4/9 retried, the turn ends
// with the capture with probability 1-(5/9)^3 = 604/729 (VZ-10, V3).
func TestV3TurnProbability(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0")
	got := turnSuccess(t, p, mv(t, p, "a1a8"), "a8")
	if got.Cmp(big.NewRat(604, 729)) != 0 {
		t.Errorf("P(turn captures) = %v, want 604/729", got)
	}
}

// TestV4toV8PromotionRank checks VZ-19/VZ-20 under both roundings.
func TestV4toV8PromotionRank(t *testing.T) {
	tests := []struct {
		name       string
		r          int
		piece      byte
		away, even int
	}{
		{"V4 r7 Q", 7, 'Q', 2, 3},
		{"V5 r7 R", 7, 'R', 4, 5},
		{"V5 r7 B", 7, 'B', 5, 5},
		{"V5 r7 N", 7, 'N', 5, 5},
		{"V6 r3 Q", 3, 'Q', 0, 0},
		{"V6 r3 R", 3, 'R', 0, 1},
		{"V6 r3 B", 3, 'B', 1, 1},
		{"V7 r9 Q", 9, 'Q', 4, 5},
		{"V7 r9 R", 9, 'R', 6, 7},
		{"V7 r9 N", 9, 'N', 7, 7},
		{"V8 r0 Q", 0, 'Q', 0, 0},
		{"V8 r0 R", 0, 'R', 0, 0},
		{"V8 r0 B", 0, 'B', 0, 0},
		{"V8 r0 N", 0, 'N', 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PromotionRank(tc.r, tc.piece, HalfAwayFromZero); got != tc.away {
				t.Errorf("half away: %d, want %d", got, tc.away)
			}
			if got := PromotionRank(tc.r, tc.piece, HalfEven); got != tc.even {
				t.Errorf("half even: %d, want %d", got, tc.even)
			}
		})
	}
}

// TestVZ19PromotionInGame plays quiet promotions and checks the new rank on
// the board, in the hash and after unmake (VZ-19, VZ-20).
func TestVZ19PromotionInGame(t *testing.T) {
	for _, tc := range []struct {
		rounding Rounding
		move     string
		want     string
	}{
		{HalfAwayFromZero, "a7a8q", "Q26k0/8/8/8/8/8/8/R06K0 b - - 0 1 t0"},
		{HalfAwayFromZero, "a7a8r", "R46k0/8/8/8/8/8/8/R06K0 b - - 0 1 t0"},
		{HalfAwayFromZero, "a7a8n", "N56k0/8/8/8/8/8/8/R06K0 b - - 0 1 t0"},
		{HalfEven, "a7a8q", "Q36k0/8/8/8/8/8/8/R06K0 b - - 0 1 t0"},
		{HalfEven, "a7a8r", "R56k0/8/8/8/8/8/8/R06K0 b - - 0 1 t0"},
	} {
		t.Run(tc.rounding.String()+" "+tc.move, func(t *testing.T) {
			v := newVariant(t, func(o *Options) { o.PromotionRounding = tc.rounding })
			start := "7k0/P77/8/8/8/8/8/R06K0 w - - 0 1 t0"
			p := parse(t, v, start)
			h, order := p.Hash(), p.LegalMoves(nil)
			p.Make(mv(t, p, tc.move))
			if got := RFEN(p); got != tc.want {
				t.Errorf("after %s: %s, want %s", tc.move, got, tc.want)
			}
			if q := parse(t, v, tc.want); q.Hash() != p.Hash() {
				t.Error("the promoted rank is not in the hash as read back")
			}
			p.Unmake()
			if RFEN(p) != start || p.Hash() != h {
				t.Errorf("unmake: %s", RFEN(p))
			}
			if !slices.Equal(p.LegalMoves(nil), order) {
				t.Error("the move order changed after make and unmake")
			}
		})
	}
}

// TestV9HundredPercent: the only legal king move captures the checking rook,
// so it is certain (VZ-14, V9); with another king move it is 1/10.
func TestV9HundredPercent(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0")
	if !p.InCheck() {
		t.Fatal("white is not in check")
	}
	if got := legal(p); !slices.Equal(got, []string{"h1g1"}) {
		t.Fatalf("legal moves %v, want only Kxg1", got)
	}
	if outs := p.Outcomes(mv(t, p, "h1g1")); len(outs) != 1 {
		t.Errorf("Kxg1 outcomes %v, want one certain outcome (VZ-14)", outs)
	}
	// Without the h2 pawn the king may also go to h2: no 100% rule.
	q := parse(t, v, "k07/8/8/8/8/8/6P31/6r9K0 w - - 0 1 t0")
	outs := q.Outcomes(mv(t, q, "h1g1"))
	if len(outs) != 2 || frac(outs[0]).Cmp(big.NewRat(1, 10)) != 0 {
		t.Errorf("Kxg1 with an escape: %v, want 1/10", outs)
	}
}

// TestVZ14Scope: a knight that can also take the checker does not matter
// under KingMovesOnly but removes the 100% under NoOtherEvasion, and the
// 100% never applies to the knight's capture.
func TestVZ14Scope(t *testing.T) {
	rfen := "k07/8/8/8/8/8/4N01P3P3/6r9K0 w - - 0 1 t0"
	for _, tc := range []struct {
		scope   HundredPercentScope
		certain bool
	}{{KingMovesOnly, true}, {NoOtherEvasion, false}} {
		t.Run(tc.scope.String(), func(t *testing.T) {
			v := newVariant(t, func(o *Options) { o.HundredPercentScope = tc.scope })
			p := parse(t, v, rfen)
			if got := len(p.Outcomes(mv(t, p, "h1g1"))) == 1; got != tc.certain {
				t.Errorf("Kxg1 certain = %v, want %v", got, tc.certain)
			}
			if outs := p.Outcomes(mv(t, p, "e2g1")); len(outs) != 2 || frac(outs[0]).Cmp(big.NewRat(1, 10)) != 0 {
				t.Errorf("Nxg1 outcomes %v, want 1/10", outs)
			}
		})
	}
}

// TestV10MateAtStart: the defended checker cannot be taken by the king and
// nothing else helps: checkmate at the start of the turn (VZ-16, V10).
func TestV10MateAtStart(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/8/8/2b55/8/8/6P3P3/6r9K0 w - - 0 1 t0")
	if got := legal(p); len(got) != 0 {
		t.Fatalf("legal moves %v, want none", got)
	}
	st := p.Status()
	if st.Result != rules.Win(rules.Black) || st.Reason != rules.ReasonCheckmate {
		t.Errorf("status %v, want black wins by checkmate", st)
	}
}

// TestVZ16CaptureAttemptPreventsMate: a checker that can be captured at all
// (here by a knight with P = 1/10) prevents immediate mate.
func TestVZ16CaptureAttemptPreventsMate(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/8/8/2b55/8/8/4N01P3P3/6r9K0 w - - 0 1 t0")
	if got := legal(p); !slices.Equal(got, []string{"e2g1"}) {
		t.Fatalf("legal moves %v, want only Nxg1", got)
	}
	if st := p.Status(); st.Over() {
		t.Errorf("status %v, want the game to go on", st)
	}
}

// TestV11ExtraMove: two scripted failures of Rxf2 with MPT = 2 leave the
// king in check with escapes: state t2K, only king moves (VZ-15b, V11).
func TestV11ExtraMove(t *testing.T) {
	v := newVariant(t, func(o *Options) { o.MPT = 2 })
	p := parse(t, v, "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0")
	rxf2 := mv(t, p, "f7f2")
	outs := p.Outcomes(rxf2)
	if len(outs) != 2 || frac(outs[0]).Cmp(big.NewRat(1, 10)) != 0 {
		t.Fatalf("Rxf2 outcomes %v, want 1/10", outs)
	}
	r := &script{rolls: []int{5, 9}} // u > a = 0: both fail
	for i := range 2 {
		k, err := rules.Choose(r, p.Outcomes(rxf2))
		if err != nil || k != 1 {
			t.Fatalf("try %d: outcome %d, %v", i+1, k, err)
		}
		p.MakeOutcome(rxf2, k)
	}
	if got, want := RFEN(p), "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t2K"; got != want {
		t.Errorf("after two failures: %s, want %s", got, want)
	}
	if p.Phase() != PhaseExtra || p.Turn() != rules.White {
		t.Errorf("phase %d turn %v", p.Phase(), p.Turn())
	}
	if got := legal(p); !slices.Equal(got, []string{"h1g1", "h1g2", "h1h2"}) {
		t.Errorf("extra move choices %v, want Kg1 Kg2 Kh2", got)
	}
	if q := parse(t, v, RFEN(p)); q.Hash() != p.Hash() || !slices.Equal(legal(q), legal(p)) {
		t.Error("t2K read back differs")
	}
	p.Make(mv(t, p, "h1g2"))
	if got, want := RFEN(p), "k07/5R02/8/8/8/8/5n9K01/8 b - - 1 1 t0"; got != want {
		t.Errorf("after the extra move: %s, want %s", got, want)
	}
}

// TestV12QuietAfterFail: after one failure the king may step away, which
// ends the turn (VZ-11, V12); with QuietAfterFail off it may not.
func TestV12QuietAfterFail(t *testing.T) {
	rfen := "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0"
	v := newVariant(t, func(o *Options) { o.MPT = 2 })
	p := parse(t, v, rfen)
	p.MakeOutcome(mv(t, p, "f7f2"), 1)
	if got := RFEN(p); got != "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t1" {
		t.Errorf("after one failure: %s", got)
	}
	p.Make(mv(t, p, "h1g2"))
	if p.Turn() != rules.Black || p.Counter() != 0 {
		t.Errorf("Kg2 did not end the turn: %s", RFEN(p))
	}

	strict := newVariant(t, func(o *Options) { o.MPT = 2; o.QuietAfterFail = false })
	q := parse(t, strict, rfen)
	q.MakeOutcome(mv(t, q, "f7f2"), 1)
	if got := legal(q); !slices.Equal(got, []string{"f7f2"}) {
		t.Errorf("QuietAfterFail=false: legal %v, want only captures", got)
	}
}

// TestV13PromotionCapture: exd8=Q by a pawn of rank 6 against a rook of
// rank 4 succeeds with 7/11 and gives a queen of rank 1; a failure changes
// nothing but the tries (VZ-19, VZ-21, V13).
func TestV13PromotionCapture(t *testing.T) {
	v := newVariant(t, nil)
	start := "3r43k0/4P63/8/8/8/8/8/4K03 w - - 0 1 t0"
	p := parse(t, v, start)
	m := mv(t, p, "e7d8q")
	outs := p.Outcomes(m)
	if len(outs) != 2 || outs[0].Num != 7 || outs[0].Den != 11 {
		t.Fatalf("exd8=Q outcomes %v, want 7/11", outs)
	}
	p.MakeOutcome(m, 0)
	if got, want := RFEN(p), "3Q13k0/8/8/8/8/8/8/4K03 b - - 0 1 t0"; got != want {
		t.Errorf("success: %s, want %s", got, want)
	}
	p.Unmake()
	p.MakeOutcome(m, 1)
	if got, want := RFEN(p), "3r43k0/4P63/8/8/8/8/8/4K03 w - - 0 1 t1"; got != want {
		t.Errorf("failure: %s, want %s", got, want)
	}
	p.Unmake()
	if RFEN(p) != start {
		t.Errorf("unmake: %s", RFEN(p))
	}
}
