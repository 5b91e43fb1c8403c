package crazy

import (
	"slices"
	"testing"

	"github.com/anychess/anychess/rules"
)

func TestStart(t *testing.T) { // CC-1
	v := newVariant(t, nil)
	if got, want := v.StartFEN(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0"; got != want {
		t.Errorf("start %s, want %s", got, want)
	}
	p := v.Start()
	if p.Turn() != rules.White || DenialOf(p).Holder != rules.Black {
		t.Errorf("start: %v to move, %v holds the right", p.Turn(), DenialOf(p).Holder)
	}
	if q := parse(t, v, v.StartFEN()); q.Hash() != p.Hash() {
		t.Errorf("the start read from FEN hashes %x, the compiled start %x", q.Hash(), p.Hash())
	}
	// 16 pawn steps, 4 knight moves and Qd1* (which loses at once); every
	// disguise there swaps pawns alike or moves onto the first row.
	if n := len(p.LegalMoves(nil)); n != 21 {
		t.Errorf("%d moves at the start, want 21", n)
	}
	if got := Stack(p, sq(t, "e1")); len(got) != 1 || got[0].Type() != v.TypeOf('K') {
		t.Errorf("e1 holds %v", got)
	}
}

// TestKnightImmune: a Knight move without a path capture cannot be denied
// under the default KnightDenial=Immune, whether it moves, enters a Rook or
// captures at its destination; a path capture can, and under Replayable
// every Knight move can (CC-7, A10).
func TestKnightImmune(t *testing.T) { // CC-7
	replayable := newVariant(t, func(o *Options) { o.KnightDenial = KnightReplayable })
	for _, c := range []struct {
		name, fen, move string
		v               *rules.Variant
		deny            bool
	}{
		{"a quiet knight move", "", "Ng1-f3", nil, false},
		{"a knight captures", "7k/8/8/8/8/2p5/8/1N5K w - - 0 1 b - 0", "Nb1xc3", nil, false},
		{"a knight enters a rook", "7k/8/8/8/8/2R5/8/1N5K w - - 0 1 b - 0", "Nb1^c3", nil, false},
		{"a knight takes a passenger", "7k/8/8/8/8/2(rp)5/8/1N5K w - - 0 1 b - 0", "Nb1xc3/1", nil, false},
		{"a path capture", "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0", "Nb1-c3(xb3)", nil, true},
		{"a bishop move", "7k/8/8/8/8/8/8/1B5K w - - 0 1 b - 0", "Bb1-c2", nil, true},
		{"a quiet knight move, Replayable", "", "Ng1-f3", replayable, true},
	} {
		v := c.v
		if v == nil {
			v = newVariant(t, nil)
		}
		p := v.Start()
		if c.fen != "" {
			p = parse(t, v, c.fen)
		}
		play(t, p, c.move)
		if got := isLegal(p, "DENY"); got != c.deny {
			t.Errorf("%s: DENY legal %v, want %v", c.name, got, c.deny)
		}
		if c.deny {
			continue
		}
		// The right stays, nothing is counted, and the game goes on with
		// the next move deniable again.
		if d := DenialOf(p); d.Holder != rules.Black || d.Used != 0 {
			t.Errorf("%s: holder %v, used %d", c.name, d.Holder, d.Used)
		}
	}
	p := newVariant(t, nil).Start()
	play(t, p, "Ng1-f3", "Ng8-f6", "e2-e3")
	if !isLegal(p, "DENY") {
		t.Error("after two knight moves a pawn move cannot be denied")
	}
}

// TestDisguiseNoOp: a disguise or chain that leaves the board as it was is
// not a move (CC-29); one that changes a square is, whatever it swaps.
func TestDisguiseNoOp(t *testing.T) { // CC-29
	for _, c := range []struct {
		fen, move string
		legal     bool
	}{
		{"7k/8/8/8/8/8/3PP3/4K3 w - - 0 1 b - 0", "Dd2:e2", false},
		{"7k/8/8/8/8/8/3PP3/4K3 w - - 0 1 b - 0", "De2:d2", false},
		{"7k/8/8/8/8/3P4/3P4/4K3 w - - 0 1 b - 0", "Dd3:d2", false},
		{"7k/8/8/8/8/8/2PPP3/4K3 w - - 0 1 b - 0", "Dc2:d2,e2", false},
		{"7k/8/8/8/8/4N3/3PP3/4K3 w - - 0 1 b - 0", "De3:e2", true},
		{"7k/8/8/8/8/4N3/3PP3/4K3 w - - 0 1 b - 0", "De3:e2,d2", true},
		{"7k/8/8/8/8/4p3/4P3/4K3 w - - 0 1 b - 0", "De3:e2", true},
		{"7k/8/8/8/8/4(RP)3/4P3/4K3 w - - 0 1 b - 0", "De3/1:e2", false},
		{"7k/8/8/8/8/4(RN)3/4P3/4K3 w - - 0 1 b - 0", "De3/1:e2", true},
	} {
		p := parse(t, newVariant(t, nil), c.fen)
		if got := isLegal(p, c.move); got != c.legal {
			t.Errorf("%s %s: legal %v, want %v (moves %v)", c.fen, c.move, got, c.legal, legal(p))
		}
	}
}

func TestKnightDenialReplay(t *testing.T) { // CC-7
	v := newVariant(t, func(o *Options) { o.KnightDenial = KnightReplayable })
	p := v.Start()
	play(t, p, "Ng1-f3", "DENY")
	if !isLegal(p, "Ng1-f3") {
		t.Error("a knight move without path capture cannot be replayed after its denial")
	}
	p = parse(t, v, "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0")
	play(t, p, "Nb1-c3(xb3)", "DENY")
	if isLegal(p, "Nb1-c3(xb3)") {
		t.Error("a denied path capture is playable again")
	}
	if !isLegal(p, "Nb1-c3") || !isLegal(p, "Nb1-a3(xb3)") {
		t.Errorf("the other moves are gone: %v", legal(p))
	}
}

func TestDenyOnlyMove(t *testing.T) { // CC-10
	// White is in check with one way out: the queen blocks on f1.
	fen := "5Q2/8/8/8/7k/8/8/1r5K w - - 22 12 b - 0"
	p := parse(t, newVariant(t, nil), fen)
	if got := legal(p); !slices.Equal(got, []string{"Qf8-f1"}) {
		t.Fatalf("white's moves %v, want only Qf8-f1", got)
	}
	play(t, p, "Qf8-f1", "DENY")
	if st := p.Status(); st.Result != rules.BlackWins || st.Reason != rules.ReasonCheckmate {
		t.Errorf("after denying the only move: %v, want checkmate", st)
	}
	if got, want := p.FEN(), "5Q2/8/8/8/7k/8/8/1r5K w - - 22 12 w b 1"; got != want {
		t.Errorf("after DENY: %s, want %s", got, want)
	}
	p = parse(t, newVariant(t, func(o *Options) { o.DenyLastMoveAllowed = false }), fen)
	play(t, p, "Qf8-f1")
	if isLegal(p, "DENY") {
		t.Error("DenyLastMoveAllowed=false: the only move was denied")
	}
	p = parse(t, newVariant(t, func(o *Options) { o.DenyLastMoveAllowed = false }), "4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - 0")
	play(t, p, "Ke1-e2-e1")
	if !isLegal(p, "DENY") {
		t.Error("DenyLastMoveAllowed=false: a move with alternatives cannot be denied")
	}
}

func TestDenialModes(t *testing.T) { // CC-11
	cases := []struct {
		mode              DenialMode
		kingDeny, rookDen bool
	}{
		{Hard, true, true},
		{Soft, false, true},
		{DenialOff, false, false},
	}
	for _, c := range cases {
		v := newVariant(t, func(o *Options) { o.Denial = c.mode })
		p := parse(t, v, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 b - 0")
		play(t, p, "Ke1-e2-e1")
		if got := isLegal(p, "DENY"); got != c.kingDeny {
			t.Errorf("mode %d: denying a king move: %v, want %v", c.mode, got, c.kingDeny)
		}
		p.Unmake()
		play(t, p, "O-O-O,c1^d1")
		if got := isLegal(p, "DENY"); got != c.kingDeny {
			t.Errorf("mode %d: denying castling: %v, want %v", c.mode, got, c.kingDeny)
		}
		p.Unmake()
		play(t, p, "Ra1-a2")
		if got := isLegal(p, "DENY"); got != c.rookDen {
			t.Errorf("mode %d: denying a rook move: %v, want %v", c.mode, got, c.rookDen)
		}
	}
}

func TestDenialDrawRule(t *testing.T) { // CC-12
	fen := "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 w - 3"
	p := parse(t, newVariant(t, nil), fen)
	if isLegal(p, "DRAW") {
		t.Error("DRAW without the option")
	}
	v := newVariant(t, func(o *Options) { o.DenialDrawRule = true })
	p = parse(t, v, fen)
	play(t, p, "DRAW")
	if st := p.Status(); st.Result != rules.Draw || len(p.LegalMoves(nil)) != 0 {
		t.Errorf("after DRAW: %v with %d moves", st, len(p.LegalMoves(nil)))
	}
	for _, f := range []string{
		"4k3/8/8/8/8/8/8/R3K3 w - - 0 1 w - 2",  // two denials
		"4k3/8/8/8/8/8/8/R3K3 w - - 0 1 b - 3",  // black holds the right
		"4k3/8/8/8/8/8/8/R3Kr2 w - - 0 1 w - 3", // white is in check
	} {
		if isLegal(parse(t, v, f), "DRAW") {
			t.Errorf("%s: DRAW is legal", f)
		}
	}
}

func TestCheck(t *testing.T) { // CC-43
	v := newVariant(t, nil)
	mao := newVariant(t, func(o *Options) { o.KnightPath = PathMao })
	for _, c := range []struct {
		name, fen string
		check     bool
		v         *rules.Variant
	}{
		{"a knight reaches the king inside a rook", "7K/8/8/4(rk)3/8/3N4/8/8 b - - 0 1 w - 0", true, nil},
		{"a queen's all-round capture next to the king", "7K/8/8/3Qk3/8/8/8/8 b - - 0 1 w - 0", true, nil},
		{"revenge of a capturable queen next to her own king", "4r2k/8/8/8/8/8/4Q3/4K3 w - - 0 1 b - 0", true, nil},
		{"a queen next to her king that cannot be captured", "7k/8/8/8/8/8/4Q3/4K3 w - - 0 1 b - 0", false, nil},
		{"a chain of queens", "r6k/8/8/8/8/8/Q7/1QK5 w - - 0 1 b - 0", true, nil},
		{"a king two steps away", "8/8/8/8/2k5/8/2K5/8 w - - 0 1 b - 0", true, nil},
		{"a king three steps away", "8/8/8/2k5/8/8/2K5/8 w - - 0 1 b - 0", false, nil},
		{"a knight path capture", "7k/8/8/8/8/8/1K6/1n6 w - - 0 1 b - 0", true, nil},
		{"a knight path capture on an L-route", "7k/8/8/8/8/1K6/8/1n6 w - - 0 1 b - 0", true, nil},
		{"not on a Mao route", "7k/8/8/8/8/1K6/8/1n6 w - - 0 1 b - 0", false, mao},
	} {
		if c.v == nil {
			c.v = v
		}
		p := parse(t, c.v, c.fen)
		if got := InCheck(p, p.Turn()); got != c.check {
			t.Errorf("%s: InCheck = %v, want %v", c.name, got, c.check)
		}
	}
}

func TestSelfDestructionWithBothKings(t *testing.T) { // CC-45
	p := parse(t, newVariant(t, nil), "8/8/8/8/8/3k4/3Q4/3K4 w - - 0 1 b - 0")
	play(t, p, "Qd2*")
	if st := p.Status(); st.Result != rules.BlackWins {
		t.Errorf("a move that removes both kings: %v, want 0-1", st)
	}
}

func TestCheckmateOnlyWithoutDenial(t *testing.T) { // CC-46
	for _, c := range []struct {
		fen    string
		result rules.Result
		moves  []string
	}{
		{"7k/1R6/2R5/8/8/8/8/R6K w - - 0 1 b - 0", rules.Ongoing, []string{"DENY"}},
		{"7k/1R6/2R5/8/8/8/8/R6K w - - 0 1 w - 0", rules.WhiteWins, nil},
	} {
		p := parse(t, newVariant(t, nil), c.fen)
		play(t, p, "Ra1-a8")
		if st := p.Status(); st.Result != c.result {
			t.Errorf("%s Ra1-a8: %v, want %v", c.fen, st, c.result)
		}
		if got := legal(p); !slices.Equal(got, c.moves) {
			t.Errorf("%s Ra1-a8: moves %v, want %v", c.fen, got, c.moves)
		}
	}
}

func TestDraws(t *testing.T) { // CC-47
	v := newVariant(t, nil)
	fide := newVariant(t, func(o *Options) { o.InsufficientMaterial = FIDE })
	for _, c := range []struct {
		name   string
		v      *rules.Variant
		fen    string
		reason rules.Reason
	}{
		{"stalemate", v, "R5nk/6nn/8/8/8/8/8/B3K2R b - - 0 1 b - 0", rules.ReasonStalemate},
		{"king against king", v, "7k/8/8/8/8/8/8/K7 w - - 0 1 b - 0", rules.ReasonDead},
		{"king and knight, KvKOnly", v, "7k/8/8/8/8/8/8/KN6 w - - 0 1 b - 0", rules.ReasonNone},
		{"king and knight, FIDE", fide, "7k/8/8/8/8/8/8/KN6 w - - 0 1 b - 0", rules.ReasonDead},
		{"a rook with a passenger is material", fide, "7k/8/8/8/8/8/8/K(Rn)6 w - - 0 1 b - 0", rules.ReasonNone},
		{"50 moves", v, "7k/8/8/8/8/8/8/KR6 w - - 100 80 b - 0", rules.ReasonNMoveRule},
	} {
		st := parse(t, c.v, c.fen).Status()
		if st.Reason != c.reason || c.reason != rules.ReasonNone && st.Result != rules.Draw {
			t.Errorf("%s: %v, want a draw by %q", c.name, st, c.reason)
		}
	}
	// Repetition: the key holds the state.
	// The start position is not repeated: White may deny in the others.
	p := parse(t, v, "4k3/8/8/8/8/8/8/4K2R w - - 0 1 w - 0")
	for range 2 {
		play(t, p, "Ke1-d1-e1", "Ke8-d8-e8")
	}
	if n, st := p.Repetitions(), p.Status(); n != 2 || st.Over() {
		t.Errorf("after repeating twice: %d repetitions, %v", n, st)
	}
	play(t, p, "Ke1-d1-e1")
	if st := p.Status(); st.Reason != rules.ReasonRepetition {
		t.Errorf("after repeating three times: %v, want a draw by repetition", st)
	}
}

// TestNoEndWhileDeniable: a move that makes a draw by dead material, the
// 50-move rule or repetition does not end the game while the opponent may
// still deny it (CC-46); once the window is closed the draw stands.
func TestNoEndWhileDeniable(t *testing.T) { // CC-46, CC-47
	for _, c := range []struct {
		name, fen string
		moves     []string
		reason    rules.Reason // rules.ReasonNone: the game goes on, DENY legal
	}{
		{"dead material, deniable", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 b - 0", []string{"Ra4xe4"}, rules.ReasonNone},
		{"dead material, denied", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 b - 0", []string{"Ra4xe4", "DENY"}, rules.ReasonNone},
		{"dead material, no right", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 w - 0", []string{"Ra4xe4"}, rules.ReasonDead},
		{"dead material, immune", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 b w 1", []string{"Ra4xe4"}, rules.ReasonDead},
		{"50 moves, deniable", "7k/8/8/8/8/8/8/KR6 w - - 99 80 b - 0", []string{"Rb1-b2"}, rules.ReasonNone},
		{"50 moves, no right", "7k/8/8/8/8/8/8/KR6 w - - 99 80 w - 0", []string{"Rb1-b2"}, rules.ReasonNMoveRule},
		{"50 moves, accepted", "7k/8/8/8/8/8/8/KR6 w - - 98 80 b - 0", []string{"Rb1-b2", "Kh8-g8-h8"}, rules.ReasonNMoveRule},
		{"repetition, deniable", "4k3/8/8/8/8/8/8/4K2R w - - 0 1 w - 0",
			[]string{"Ke1-d1-e1", "Ke8-d8-e8", "Ke1-d1-e1", "Ke8-d8-e8", "Ke1-d1-e1", "Ke8-d8-e8"}, rules.ReasonNone},
		{"repetition, no right", "4k3/8/8/8/8/8/8/4K2R w - - 0 1 w - 0",
			[]string{"Ke1-d1-e1", "Ke8-d8-e8", "Ke1-d1-e1", "Ke8-d8-e8", "Ke1-d1-e1"}, rules.ReasonRepetition},
	} {
		p := parse(t, newVariant(t, nil), c.fen)
		play(t, p, c.moves...)
		st := p.Status()
		if c.reason == rules.ReasonNone {
			if st.Over() {
				t.Errorf("%s: %v, want the game to go on", c.name, st)
			}
			continue
		}
		if st.Reason != c.reason || st.Result != rules.Draw {
			t.Errorf("%s: %v, want a draw by %q", c.name, st, c.reason)
		}
	}
}

func TestHalfmoveResets(t *testing.T) { // CC-36, CC-47
	v := newVariant(t, nil)
	for _, c := range []struct {
		fen, move string
		want      int
	}{
		{"7k/8/8/8/8/8/8/4K2R w - - 7 9 b - 0", "Ke1-e2-e1", 8},
		{"7k/8/8/8/8/8/4P3/4K3 w - - 7 9 b - 0", "e2-e3", 0},
		{"7k/8/8/8/8/4N3/4P3/4K3 w - - 7 9 b - 0", "De3:e2", 0},
		{"k7/8/8/8/8/8/1b6/K7 w - - 7 9 b - 0", "Ka1xb2-b1", 0},
		{"7k/8/8/8/3n4/3(RP)4/8/4K3 b - - 7 9 w - 0", "Nd4-c2(xd3)", 0},
	} {
		p := parse(t, v, c.fen)
		play(t, p, c.move)
		if got := p.Halfmove(); got != c.want {
			t.Errorf("%s %s: halfmove %d, want %d", c.fen, c.move, got, c.want)
		}
	}
}

func TestEnPassantLifetime(t *testing.T) { // CC-37
	p := parse(t, newVariant(t, nil), "7k/8/8/8/8/4p3/2P5/7K w - - 0 1 b - 0")
	play(t, p, "c2-e2", "Kh8-g8-h8", "Kh1-g1-h1")
	if isLegal(p, "e3xd2") {
		t.Error("en passant one move too late")
	}
	p = parse(t, newVariant(t, nil), "7k/8/8/8/8/2p5/4P3/7K w - - 0 1 b - 0")
	play(t, p, "e2-c2")
	if got, want := p.FEN(), "7k/8/8/8/8/2p5/2P5/7K b - d2:c2 0 1 b - 0"; got != want {
		t.Errorf("after e2-c2: %s, want %s", got, want)
	}
}

func TestRisenBishopVanishes(t *testing.T) { // CC-40
	p := parse(t, newVariant(t, nil), "k7/8/3pbp2/4q3/5N2/8/1B6/7K w - - 0 1 b - 0")
	play(t, p, "Bb2xe5", "Ka8-a7-a8")
	if got, want := p.FEN(), "k7/8/8/4B*3/8/8/8/7K w - - 0 2 b - 0"; got != want {
		t.Errorf("after black's turn: %s, want %s (b* vanished)", got, want)
	}
	if r := Removals(p); len(r) != 1 || r[0].Cause != Vanished {
		t.Errorf("removals %v", r)
	}
	play(t, p, "Kh1-g1-h1")
	if got, want := p.FEN(), "k7/8/8/8/8/8/8/7K b - - 0 2 b - 0"; got != want {
		t.Errorf("after white's turn: %s, want %s (B* vanished)", got, want)
	}
}

// TestCheckFromTheSameStack: a king inside the enemy king's stack checks
// it by stepping out and back to capture the rook under both: the enemy
// king falls onto it, and the knight that rode above falls onto the king.
func TestCheckFromTheSameStack(t *testing.T) { // CC-43
	p := parse(t, newVariant(t, nil), "8/8/8/8/3(rkKN)4/8/8/8 b - - 0 1 w - 0")
	if !InCheck(p, rules.Black) {
		t.Error("the white king in the same stack does not check")
	}
	n := nFromFEN(t, DefaultOptions(), "8/8/8/8/3(rkKN)4/8/8/8 b - - 0 1 w - 0")
	if !n.inCheck(1, true) {
		t.Error("the naive check disagrees")
	}
}
