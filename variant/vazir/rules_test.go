package vazir

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// TestVZ3RankInit checks the initial-rank generators and their seeding.
func TestVZ3RankInit(t *testing.T) {
	v := newVariant(t, nil)
	b := v.Board()
	counting := func(seed uint64) (*rules.Position, int, error) {
		p := v.Start()
		r := &countRoller{r: game.NewRoller(seed)}
		err := InitRanks(p, RandomMirrored, r)
		return p, r.n, err
	}
	p, n, err := counting(7)
	if err != nil {
		t.Fatal(err)
	}
	if n != 16 {
		t.Errorf("RandomMirrored rolled %d times, want 16 (one per white piece)", n)
	}
	for _, s := range b.Squares() {
		pc := p.At(s)
		if !pc.IsPiece() {
			continue
		}
		if pc.Attr() > MaxRank {
			t.Errorf("rank %d on %s", pc.Attr(), s)
		}
		if pc.Color() == rules.Black && p.At(b.Mirror(s)).Attr() != pc.Attr() {
			t.Errorf("%s rank %d, mirror %s rank %d", s, pc.Attr(), b.Mirror(s), p.At(b.Mirror(s)).Attr())
		}
	}
	q, _, _ := counting(7)
	if RFEN(p) != RFEN(q) || p.Hash() != q.Hash() {
		t.Error("the same seed gave different ranks")
	}
	if r, _, _ := counting(8); RFEN(r) == RFEN(p) {
		t.Error("two seeds gave the same 16 ranks")
	}
	if p.Hash() == v.Start().Hash() {
		t.Error("ranks are not in the hash")
	}
	if h := parse(t, v, RFEN(p)).Hash(); h != p.Hash() {
		t.Error("hash of the ranked start differs from its RFEN read back")
	}

	ind := v.Start()
	cr := &countRoller{r: game.NewRoller(3)}
	if err := InitRanks(ind, RandomIndependent, cr); err != nil || cr.n != 32 {
		t.Errorf("RandomIndependent: %v, %d rolls, want 32", err, cr.n)
	}

	fixed := v.Start()
	if err := InitRanks(fixed, Fixed(5), nil); err != nil {
		t.Fatal(err)
	}
	want := "r5n5b5q5k5b5n5r5/p5p5p5p5p5p5p5p5/8/8/8/8/P5P5P5P5P5P5P5P5/R5N5B5Q5K5B5N5R5 w KQkq - 0 1 t0"
	if got := RFEN(fixed); got != want {
		t.Errorf("Fixed(5): %s", got)
	}
	same := v.Start()
	if err := InitRanks(same, FromFEN, nil); err != nil || RFEN(same) != RFEN(v.Start()) {
		t.Errorf("FromFEN changed the ranks: %v", err)
	}
	if err := InitRanks(v.Start(), RandomMirrored, &script{rolls: []int{-3}}); err == nil {
		t.Error("a roller out of range was accepted")
	}
	if err := InitRanks(v.Start(), RandomMirrored, nil); err == nil {
		t.Error("random ranks without a roller were accepted")
	}
	if err := InitRanks(v.Start(), Fixed(10), nil); err == nil {
		t.Error("Fixed(10) was accepted")
	}
}

type countRoller struct {
	r rules.Roller
	n int
}

func (c *countRoller) Roll(n int) int { c.n++; return c.r.Roll(n) }

// TestSpecMirroredExample reads the ranked start position of section 1.9.
func TestSpecMirroredExample(t *testing.T) {
	v := newVariant(t, nil)
	rfen := "r3n5b1q9k4b6n2r7/p5p0p8p2p2p6p1p9/8/8/8/8/P5P0P8P2P2P6P1P9/R3N5B1Q9K4B6N2R7 w KQkq - 0 1 t0"
	p := parse(t, v, rfen)
	if got := RFEN(p); got != rfen {
		t.Errorf("written back as %s", got)
	}
	b := v.Board()
	for _, s := range b.Squares() {
		if pc := p.At(s); pc.IsPiece() && pc.Color() == rules.Black && p.At(b.Mirror(s)).Attr() != pc.Attr() {
			t.Errorf("%s is not mirrored", s)
		}
	}
	if len(legal(p)) != 20 {
		t.Errorf("%d legal moves at the start, want 20 (VZ-1)", len(legal(p)))
	}
}

// TestVZ4EnPassantDefender: the defender of an en-passant capture is the
// removed pawn (VZ-4), and a failed try keeps the right (VZ-8).
func TestVZ4EnPassantDefender(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "4k03/3p94/8/4P53/8/8/8/4K03 b - - 0 1 t0")
	p.Make(mv(t, p, "d7d5"))
	if got := RFEN(p); got != "4k03/8/8/3p9P53/8/8/8/4K03 w - d6 0 2 t0" {
		t.Fatalf("after d5: %s", got)
	}
	ep := mv(t, p, "e5d6")
	if ep.Kind() != rules.EnPassant {
		t.Fatalf("e5d6 is %v", ep.Kind())
	}
	outs := p.Outcomes(ep)
	if len(outs) != 2 || outs[0].Num != 6 || outs[0].Den != 15 {
		t.Fatalf("exd6 e.p. outcomes %v, want 6/15", outs)
	}
	h0 := p.Hash()
	p.MakeOutcome(ep, 1)
	if got := RFEN(p); got != "4k03/8/8/3p9P53/8/8/8/4K03 w - d6 0 2 t1" {
		t.Errorf("after a failed e.p.: %s", got)
	}
	if q := parse(t, v, RFEN(p)); q.Hash() != p.Hash() {
		t.Error("kept e.p. right: hash differs from the RFEN read back")
	}
	again := mv(t, p, "e5d6") // the right survives the failure
	if len(p.Outcomes(again)) != 2 {
		t.Error("the retried e.p. is not an attempt")
	}
	p.MakeOutcome(again, 0)
	if got := RFEN(p); got != "4k03/8/3P54/8/8/8/8/4K03 b - - 0 2 t0" {
		t.Errorf("after a successful e.p.: %s", got)
	}
	p.Unmake()
	p.Unmake()
	if p.Hash() != h0 || RFEN(p) != "4k03/8/8/3p9P53/8/8/8/4K03 w - d6 0 2 t0" {
		t.Errorf("unmake: %s", RFEN(p))
	}
}

// TestVZ8FailureChangesNothing: a failed try keeps board and castling
// rights (VZ-8); a success removes the defender (VZ-7).
func TestVZ8FailureChangesNothing(t *testing.T) {
	v := newVariant(t, nil)
	start := "r03k02r9/8/8/8/8/8/8/R03K02R0 w KQkq - 0 1 t0"
	p := parse(t, v, start)
	m := mv(t, p, "h1h8")
	p.MakeOutcome(m, 1)
	if got := RFEN(p); got != strings.Replace(start, "t0", "t1", 1) {
		t.Errorf("after a failure: %s", got)
	}
	p.Unmake()
	p.MakeOutcome(m, 0)
	if got := RFEN(p); got != "r03k02R0/8/8/8/8/8/8/R03K03 b Qq - 0 1 t0" {
		t.Errorf("after a success: %s", got)
	}
}

// TestVZ10VZ12TurnOfFailures: MPT failures end the turn, which counts for
// move numbering and the 50-move counter; a failure does not reset it
// (VZ-10, VZ-12, VZ-13).
func TestVZ10VZ12TurnOfFailures(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "r03k02r9/8/8/8/8/8/8/R03K02R0 w KQkq - 5 1 t0")
	m := mv(t, p, "h1h8")
	for i := 1; i <= 2; i++ {
		p.MakeOutcome(m, 1)
		if p.Turn() != rules.White || int(p.Counter()) != i || p.Halfmove() != 5 || p.Ply() != 0 {
			t.Fatalf("after failure %d: %s", i, RFEN(p))
		}
	}
	p.MakeOutcome(m, 1)
	if got := RFEN(p); got != "r03k02r9/8/8/8/8/8/8/R03K02R0 b KQkq - 6 1 t0" {
		t.Errorf("after MPT failures: %s", got)
	}
	p.Unmake()
	p.MakeOutcome(m, 0)
	if p.Halfmove() != 0 {
		t.Errorf("a successful capture after failures: halfmove %d", p.Halfmove())
	}
}

// TestVZ11SameTargetOnly: later tries must aim at the first failed target,
// which the RFEN and the hash carry; by default any target is allowed.
func TestVZ11SameTargetOnly(t *testing.T) {
	rfen := "3r93k0/8/8/8/8/8/8/n92R0K03 w - - 0 1 t0"
	def := newVariant(t, nil)
	p := parse(t, def, rfen)
	p.MakeOutcome(mv(t, p, "d1d8"), 1)
	if !slices.Contains(legal(p), "d1a1") {
		t.Error("default: Rxa1 not allowed after a failed Rxd8")
	}
	v := newVariant(t, func(o *Options) { o.SameTargetOnly = true })
	q := parse(t, v, rfen)
	q.MakeOutcome(mv(t, q, "d1d8"), 1)
	ms := legal(q)
	if slices.Contains(ms, "d1a1") || !slices.Contains(ms, "d1d8") || !slices.Contains(ms, "e1e2") {
		t.Errorf("SameTargetOnly: legal %v", ms)
	}
	if got := RFEN(q); got != "3r93k0/8/8/8/8/8/8/n92R0K03 w - - 0 1 t1@d8" {
		t.Errorf("RFEN %s", got)
	}
	back := parse(t, v, RFEN(q))
	if back.Hash() != q.Hash() || !slices.Equal(legal(back), ms) {
		t.Error("t1@d8 read back differs")
	}
	if back.Hash() == parse(t, v, "3r93k0/8/8/8/8/8/8/n92R0K03 w - - 0 1 t1").Hash() {
		t.Error("the target is not in the hash")
	}
}

// TestVZ13Repetition: repetition is counted at turn boundaries; a state in
// the middle of a turn does not repeat its turn's start.
func TestVZ13Repetition(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "r95n0k0/8/8/8/8/8/8/R05N0K0 w - - 0 1 t0")
	shuffle := func() {
		for _, c := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
			p.Make(mv(t, p, c))
		}
	}
	shuffle()
	if n := p.Repetitions(); n != 2 {
		t.Fatalf("repetitions %d, want 2", n)
	}
	p.MakeOutcome(mv(t, p, "a1a8"), 1)
	if n := p.Repetitions(); n != 1 {
		t.Errorf("mid-turn repetitions %d, want 1", n)
	}
	if st := p.Status(); st.Over() {
		t.Errorf("mid-turn status %v", st)
	}
	p.Unmake()
	shuffle()
	if st := p.Status(); st.Reason != rules.ReasonRepetition {
		t.Errorf("third occurrence: %v", st)
	}
}

// TestVZ15aMateAfterTries: the tries are spent on the knight and the king,
// still in check, has no move but the capture: checkmate (VZ-15a).
func TestVZ15aMateAfterTries(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/8/8/8/8/8/4N01P3P3/6r9K0 w - - 0 1 t0")
	n := mv(t, p, "e2g1")
	for range 3 {
		p.MakeOutcome(n, 1)
	}
	if got := RFEN(p); got != "k07/8/8/8/8/8/4N01P3P3/6r9K0 w - - 0 1 t3" {
		t.Errorf("after three failures: %s", got)
	}
	st := p.Status()
	if st.Result != rules.Win(rules.Black) || st.Reason != rules.ReasonCheckmate {
		t.Errorf("status %v, want black wins (VZ-15a)", st)
	}
	if parse(t, v, RFEN(p)).Status() != st {
		t.Error("status differs after reading the RFEN back")
	}
}

// TestVZ15bExtraCapture: whatever the failed tries aimed at, the extra
// move may capture; the capture is certain by default and an attempt
// without ExtraMoveCapturesCertain, whose failure loses (VZ-15b).
func TestVZ15bExtraCapture(t *testing.T) {
	rfen := "k07/5R02/8/8/8/8/5n9n91/7K0 w - - 0 1 t0"
	for _, tc := range []struct {
		name    string
		certain bool
		first   string
	}{{"certain", true, "f7f2"}, {"certain after king tries", true, "h1g2"}, {"attempt", false, "f7f2"}} {
		t.Run(tc.name, func(t *testing.T) {
			v := newVariant(t, func(o *Options) { o.MPT = 2; o.ExtraMoveCapturesCertain = tc.certain })
			p := parse(t, v, rfen)
			try := mv(t, p, tc.first)
			if len(p.Outcomes(try)) != 2 {
				t.Fatalf("%s is certain", tc.first)
			}
			p.MakeOutcome(try, 1)
			p.MakeOutcome(try, 1)
			if p.Phase() != PhaseExtra {
				t.Fatalf("not in the extra move: %s", RFEN(p))
			}
			if got := legal(p); !slices.Equal(got, []string{"h1g1", "h1g2", "h1h2"}) {
				t.Errorf("extra moves %v", got)
			}
			kxg2 := mv(t, p, "h1g2")
			outs := p.Outcomes(kxg2)
			if tc.certain {
				if len(outs) != 1 {
					t.Errorf("Kxg2 in the extra move: %v, want certain", outs)
				}
				return
			}
			if len(outs) != 2 || frac(outs[0]).Cmp(big.NewRat(1, 10)) != 0 {
				t.Fatalf("Kxg2 outcomes %v, want 1/10", outs)
			}
			p.MakeOutcome(kxg2, 1)
			if st := p.Status(); st.Result != rules.Win(rules.Black) {
				t.Errorf("failed extra capture: %v, want a loss", st)
			}
		})
	}
}

// TestVZ15AnyEvasion: with AnyEvasion the extra move may be any legal
// move (a block, a certain capture by another piece); with KingOnly only
// king moves.
func TestVZ15AnyEvasion(t *testing.T) {
	// Black Rh8 (rank 9) checks Kh1; White Nf7 fails against h8 (MPT 1).
	rfen := "k06r9/5N0R01/8/8/8/8/8/7K0 w - - 0 1 t0"
	for _, tc := range []struct {
		scope ExtraMoveScope
		want  []string
	}{
		{KingOnly, []string{"h1g1", "h1g2"}},
		{AnyEvasion, []string{"f7h6", "f7h8", "g7h7", "h1g1", "h1g2"}},
	} {
		t.Run(tc.scope.String(), func(t *testing.T) {
			v := newVariant(t, func(o *Options) { o.MPT = 1; o.ExtraMoveScope = tc.scope })
			p := parse(t, v, rfen)
			p.MakeOutcome(mv(t, p, "f7h8"), 1)
			if got := RFEN(p); got != "k06r9/5N0R01/8/8/8/8/8/7K0 w - - 0 1 t1K" {
				t.Errorf("after the failure: %s", got)
			}
			if got := legal(p); !slices.Equal(got, tc.want) {
				t.Errorf("extra moves %v, want %v", got, tc.want)
			}
			if tc.scope == AnyEvasion && len(p.Outcomes(mv(t, p, "f7h8"))) != 1 {
				t.Error("Nxh8 in the extra move is not certain")
			}
		})
	}
}

// TestVZ9LegalAsIfSuccess: a pinned knight may not attempt a capture off
// its line, though a failure would leave the king safe (VZ-9).
func TestVZ9LegalAsIfSuccess(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "4r92k0/8/8/8/8/6p91/4N03/4K03 w - - 0 1 t0")
	if slices.Contains(legal(p), "e2g3") {
		t.Error("the pinned knight may capture g3")
	}
}

// TestVZ17NoKingCapture: in a legal position no move captures a king.
func TestVZ17NoKingCapture(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0")
	for _, m := range p.LegalMoves(nil) {
		if s := victim(p, m); s != 0 && v.Royal(p.At(s).Type()) {
			t.Errorf("%s captures a king", coord(p, m))
		}
	}
}

// TestVZ22Stalemate: stalemate is a draw.
func TestVZ22Stalemate(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k07/2Q05/1K06/8/8/8/8/8 b - - 0 1 t0")
	if st := p.Status(); st.Result != rules.Draw || st.Reason != rules.ReasonStalemate {
		t.Errorf("status %v", st)
	}
}

// TestStartPosition: a seeded ranked start replays from its seed.
func TestStartPosition(t *testing.T) {
	v := newVariant(t, nil)
	a, err := StartPosition(v, RandomMirrored, game.NewRoller(42))
	if err != nil {
		t.Fatal(err)
	}
	b, err := StartPosition(v, RandomMirrored, game.NewRoller(42))
	if err != nil {
		t.Fatal(err)
	}
	if RFEN(a) != RFEN(b) {
		t.Errorf("seed 42 gave %s and %s", RFEN(a), RFEN(b))
	}
	if _, err := StartPosition(v, RankInit(-5), nil); err == nil {
		t.Error("a bad RankInit was accepted")
	}
}

// TestVZ22DeadMaterial: insufficient material draws whatever the ranks.
func TestVZ22DeadMaterial(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "k97/8/8/8/8/8/8/6N9K9 w - - 0 1 t0")
	if st := p.Status(); st.Result != rules.Draw || st.Reason != rules.ReasonDead {
		t.Errorf("status %v", st)
	}
}

// TestHandSetEvaluation: Vazir is built on chess's spec but does not carry
// chess's learned evaluation weights (learned without ranks and chance):
// only its own (data/weights/vazir.toml), if it has any.
func TestHandSetEvaluation(t *testing.T) {
	chess, err := variant.ChessSpec()
	if err != nil {
		t.Fatal(err)
	}
	if len(chess.Weights) == 0 {
		t.Fatal("chess carries no learned weights: the test shows nothing")
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	own, err := variant.BuiltinWeights("vazir")
	if err != nil {
		t.Fatal(err)
	}
	if w := v.Spec().Weights; len(w) != len(own) {
		t.Errorf("Vazir carries %d weights, want the %d of its own file", len(w), len(own))
	}
}
