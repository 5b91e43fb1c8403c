package crazy

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// recomputedHash returns the key of p computed from scratch: the position
// read back from its FEN, plus what FEN does not carry (the move a
// replacement must differ from, a claimed draw, and the position a denial
// would return to).
func recomputedHash(t testing.TB, p *rules.Position) uint64 {
	t.Helper()
	q := parse(t, p.Variant(), p.FEN())
	h := q.Hash()
	s := p.State().(*state)
	if d := s.v.denied; d != rules.NoMove {
		h ^= rules.Mix64(keyDenied ^ uint64(d))
	}
	if s.v.drawn {
		h ^= keyDrawn
	}
	if n := len(s.frames); n > 0 && s.deniable(&s.frames[n-1]) {
		h ^= rules.Mix64(keyDeny ^ s.frames[n-1].prevHash)
	}
	return h
}

// bothKings reports whether both kings are on the board (a FEN without one
// does not read).
func bothKings(p *rules.Position) bool {
	s := view(p)
	w := s.findKing(rules.White, s.z.king)
	b := s.findKing(rules.Black, s.z.king)
	return w != none && b != none
}

// pieces counts the pieces of p, passengers included.
func pieces(p *rules.Position) int {
	s := view(p)
	n := 0
	for b := range 64 {
		n += int(s.height[b])
	}
	return n
}

// checkInvariants checks, in p and for every legal move of p: make and
// unmake restore FEN, key and the move list; the incremental key equals the
// recomputed one; FEN reads back to itself; every move's text reads back to
// the move; pieces are conserved but for removals and rises; stacks keep a
// Rook base; the core board holds the bases.
func checkInvariants(t *testing.T, p *rules.Position) {
	t.Helper()
	fen, h := p.FEN(), p.Hash()
	if r := recomputedHash(t, p); r != h {
		t.Fatalf("%s: incremental key %x, recomputed %x", fen, h, r)
	}
	if got := parse(t, p.Variant(), fen).FEN(); got != fen {
		t.Fatalf("FEN %s reads back as %s", fen, got)
	}
	s := p.State().(*state)
	for b := range 64 {
		if s.height[b] > 1 && s.cells[b][0].Type() != s.z.rook {
			t.Fatalf("%s: the stack on %v has no Rook base", fen, sqOf(b))
		}
		if got := p.At(sqOf(b)); got != s.cells[b][0] {
			t.Fatalf("%s: core board %v holds %v, the stack base is %v", fen, sqOf(b), got, s.cells[b][0])
		}
	}
	order := p.LegalMoves(nil)
	before := pieces(p)
	for _, m := range order {
		text := FormatMove(p, m)
		if back, err := ParseMove(p, text); err != nil || back != m {
			t.Fatalf("%s: %s reads back as %#v, %v", fen, text, back, err)
		}
		p.Make(m)
		if d, _ := decode(m); d.kind != kDeny {
			rises := 0
			for _, r := range Removals(p) {
				if r.Piece.Type() == s.z.bishop && !Risen(r.Piece) && r.Cause == Captured {
					rises++
				}
			}
			if got := pieces(p); got != before-len(Removals(p))+rises {
				t.Fatalf("%s: %s leaves %d pieces of %d, %d removed, %d risen", fen, text, got, before, len(Removals(p)), rises)
			}
		}
		if bothKings(p) {
			if r := recomputedHash(t, p); r != p.Hash() {
				t.Fatalf("%s: after %s: incremental key %x, recomputed %x", fen, text, p.Hash(), r)
			}
		}
		p.Unmake()
		if p.FEN() != fen || p.Hash() != h {
			t.Fatalf("%s: make/unmake of %s gave %s", fen, text, p.FEN())
		}
	}
	s.sc.cacheOK = false // generate again, not from the kept list
	if got := p.LegalMoves(nil); !slices.Equal(got, order) {
		t.Fatalf("%s: the move list changed after make/unmake", fen)
	}
}

// TestRandomGameInvariants plays seeded random games under several option
// sets and checks the invariants in every position.
func TestRandomGameInvariants(t *testing.T) {
	sets := []struct {
		name string
		edit func(*Options)
	}{
		{"default", nil},
		{"variants", func(o *Options) {
			o.Denial, o.KnightPath, o.StackExit, o.KingStep1Immunity = Soft, PathMao, TopOnly, NoImmunity
			o.AllRoundHitsPassengers, o.AllRoundRequiresVictim, o.CastleLandingMayBeAttacked = true, false, false
			o.DenialDrawRule, o.DenyLastMoveAllowed, o.SelfDestruct = true, false, IllegalMove
			o.OffTurnPromotion = OwnerChoosesNextTurn
		}},
	}
	starts := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0",
		"2k5/1pp1(rpn)3/2b1q3/8/3BN3/2(RQP)5/1KP5/8 w - - 0 1 b - 0",
	}
	plies := 50
	if testing.Short() || !*long {
		plies = 25
	}
	for si, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			v := newVariant(t, set.edit)
			for g, start := range starts {
				rng := rand.New(rand.NewPCG(uint64(si), uint64(g)))
				p := parse(t, v, start)
				for ply := 0; ply < plies && !p.Status().Over(); ply++ {
					checkInvariants(t, p)
					ms := p.LegalMoves(nil)
					p.Make(ms[rng.IntN(len(ms))])
				}
				if bothKings(p) {
					checkInvariants(t, p)
				}
			}
		})
	}
}

// TestNoAllocation: once buffers exist, generating, making and unmaking
// moves does not allocate.
func TestNoAllocation(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0")
	buf := make([]rules.Move, 0, rules.MaxMoves)
	ms := p.LegalMoves(nil)
	s := p.State().(*state)
	run := func() {
		for _, m := range ms {
			p.Make(m)
			s.sc.cacheOK = false
			buf = p.LegalMoves(buf[:0])
			p.Unmake()
		}
		s.sc.cacheOK = false
		buf = p.LegalMoves(buf[:0])
	}
	run()
	if n := testing.AllocsPerRun(3, run); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

// TestSearchHooksNoAllocation: once buffers exist, the hooks a search
// calls at every node (the End hook, the check test, the generator, the
// legality test, a capture's gain, the evaluation's terms) allocate
// nothing, in positions with stacks, where pawns may promote, and where
// they may not.
func TestSearchHooksNoAllocation(t *testing.T) {
	v := newVariant(t, nil)
	z := v.Ext().(*crazy)
	for _, fen := range []string{
		"r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0",
		"rn3(rKk)2/1pp2p2/p1qpb3/6P1/1P2P3/P1N5/1PP2P2/R1Q2B1R w - - 3 17 w - 1",
		"rnb*q2kr/p1p1pp1p/3n3Q/3p4/5P2/8/PPPP1P1K/RNB3NR b - - 0 14 b - 4",
	} {
		p := parse(t, v, fen)
		buf := make([]rules.Move, 0, rules.MaxMoves)
		ms := p.LegalMoves(nil)
		s := p.State().(*state)
		run := func() {
			for _, m := range ms {
				p.Make(m)
				s.sc.cacheOK, s.sc.memoOK, s.sc.gainOK, s.sc.promoOK = false, false, false, false
				z.End(p)
				p.InCheck()
				buf = p.PseudoLegalMoves(buf[:0])
				for _, r := range buf {
					p.IsLegal(r)
					z.Tactical(p, r)
				}
				z.Eval(p)
				p.Unmake()
			}
		}
		run()
		if n := testing.AllocsPerRun(3, run); n != 0 {
			t.Errorf("%s: %v allocations per run", fen, n)
		}
	}
}

// TestCellIndex: the index of the cells (the count of each colour and type
// by square, the squares occupied, the risen Bishops), kept with every
// change, equals the index built from scratch after every move and its
// unmaking in random games.
func TestCellIndex(t *testing.T) {
	v := newVariant(t, nil)
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(p *rules.Position, when string) {
		t.Helper()
		s := p.State().(*state)
		c := *s
		c.reindex()
		if c.count != s.count || c.occ != s.occ || c.risen != s.risen {
			t.Fatalf("%s %s: the index kept differs from the index rebuilt", p.FEN(), when)
		}
	}
	for _, start := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0",
		"2k5/1pp1(rpn)3/2b1q3/8/3BN3/2(RQP)5/1KP5/8 w - - 0 1 b - 0",
	} {
		p := parse(t, v, start)
		for range 60 {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 || p.Status().Over() {
				break
			}
			for _, m := range ms {
				p.Make(m)
				check(p, "after "+FormatMove(p, m))
				p.Unmake()
			}
			check(p, "after make and unmake")
			p.Make(ms[rng.IntN(len(ms))])
		}
	}
}

// randomFEN returns a random position with stacks: kings anywhere (in
// stacks too), rooks as the bases of stacks, queens and bishops (risen or
// not) among the passengers.
func randomFEN(rng *rand.Rand) string {
	var board [64][]byte
	put := func(b int, l byte) { board[b] = append(board[b], l) }
	letters := "QRBNPqrbnp"
	for range 4 + rng.IntN(6) {
		b := rng.IntN(64)
		if len(board[b]) > 0 {
			continue
		}
		put(b, "Rr"[rng.IntN(2)])
		for range 1 + rng.IntN(3) {
			put(b, letters[rng.IntN(len(letters))])
		}
	}
	for range 4 + rng.IntN(10) {
		b := rng.IntN(64)
		if len(board[b]) == 0 {
			l := letters[rng.IntN(len(letters))]
			if (l == 'P' || l == 'p') && (b < 8 || b >= 56) {
				continue
			}
			put(b, l)
		}
	}
	for _, k := range []byte{'K', 'k'} {
		for {
			b := rng.IntN(64)
			if len(board[b]) == 0 || board[b][0] == 'R' || board[b][0] == 'r' {
				put(b, k)
				break
			}
		}
	}
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			st := board[r*8+f]
			if len(st) == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			if len(st) > 1 {
				sb.WriteByte('(')
			}
			for _, l := range st {
				sb.WriteByte(l)
				if (l == 'B' || l == 'b') && rng.IntN(3) == 0 {
					sb.WriteByte('*')
				}
			}
			if len(st) > 1 {
				sb.WriteByte(')')
			}
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString([]string{" w - - 0 1 b - 0", " b - - 0 1 w - 0"}[rng.IntN(2)])
	return sb.String()
}

// TestCheckFilter compares the check test, which resolves only the replies
// that can reach the King, with resolving every pseudo-legal reply, on
// random positions with stacks, under two option sets.
func TestCheckFilter(t *testing.T) {
	n := 2000
	if *long {
		n = 20000
	}
	for _, edit := range []func(*Options){nil, func(o *Options) {
		o.AllRoundHitsPassengers, o.KingStep1Immunity, o.KnightPath, o.AllRoundRequiresVictim = true, NoImmunity, PathMao, false
	}} {
		v := newVariant(t, edit)
		rng := rand.New(rand.NewPCG(1, 2))
		checks := 0
		for range n {
			fen := randomFEN(rng)
			p, err := v.ParseFEN(fen)
			if err != nil {
				continue
			}
			z, _ := hooksOf(p)
			e := z.newEngine(p)
			for _, c := range []rules.Color{rules.White, rules.Black} {
				want := false
				buf := e.genAll(c.Other(), nil)
				for _, m := range buf {
					d, _ := decode(m)
					if e.removes(&d, c.Other(), c) {
						want = true
						break
					}
				}
				if got := e.inCheck(c); got != want {
					t.Fatalf("%s: inCheck(%v) = %v, resolving every reply says %v", fen, c, got, want)
				}
				if want {
					checks++
				}
			}
		}
		if checks < n/10 {
			t.Errorf("only %d checks in %d positions", checks, n)
		}
	}
}

// TestLazyLegality: the moves are generated pseudo-legal (where a pawn may
// promote, mayPromote, with every combination of promotion choices) and the
// Legal hook tests each; the list must be the one the full generator
// gives, the End hook's search for a legal move must agree with it, and
// mayPromote must never miss a promotion. Checked on random positions with
// stacks and on positions of random games.
func TestLazyLegality(t *testing.T) {
	n := 1500
	if *long {
		n = 15000
	}
	v := newVariant(t, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	var positions []*rules.Position
	for range n {
		if p, err := v.ParseFEN(randomFEN(rng)); err == nil {
			positions = append(positions, p)
		}
	}
	p := v.Start()
	for range 200 {
		positions = append(positions, p.Clone())
		ms := p.LegalMoves(nil)
		if len(ms) == 0 || p.Status().Over() {
			p = v.Start()
			continue
		}
		p.Make(ms[rng.IntN(len(ms))])
	}
	lazy := 0
	for _, p := range positions {
		z, _ := hooksOf(p)
		e := z.newEngine(p)
		us := p.Turn()
		if !e.mayPromote(us) {
			lazy++
			buf := e.genAll(us, nil)
			for _, m := range buf {
				d, _ := decode(m)
				e.try(&d, us)
				if e.sc.nPromo != 0 {
					t.Fatalf("%s: %s promotes, but mayPromote said no", p.FEN(), FormatMove(p, m))
				}
			}
		}
		e.sc.cacheOK, e.sc.memoOK = false, false
		got := p.LegalMoves(nil)
		e.sc.cacheOK = false
		want := e.legalMoves(nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: lazy legal moves %d, full %d", p.FEN(), len(got), len(want))
		}
		e.sc.memoOK = false
		if has := e.hasLegal(); has != (len(want) > 0) {
			t.Fatalf("%s: hasLegal %v with %d legal moves", p.FEN(), has, len(want))
		}
	}
	if lazy < len(positions)/5 { // about a quarter do
		t.Errorf("only %d of %d positions took the lazy path", lazy, len(positions))
	}
}
