package variant_test

// Test vectors of the Chatrang (Ludii 6) specification
// (the rules specification chatrang.md, rules CH-1..CH-11, vectors in CH-4, CH-7
// and B.9). Letters: K king, Q Ferz (an Amazon), R rook, B Elephant,
// N knight, P pawn. Expected values come from the spec text.

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

const chStart = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

// CH-1, CH-2 (B.2, B.9): the start position and its 24 moves.
func TestSpecCHStart(t *testing.T) {
	v := specVariant(t, "chatrang")
	if b := v.Board(); b.Files != 8 || b.Ranks != 8 {
		t.Errorf("CH-1: board is %dx%d, want 8x8", b.Files, b.Ranks)
	}
	if got := v.StartFEN(); got != chStart {
		t.Errorf("CH-2: StartFEN = %q, want %q", got, chStart)
	}
	p := v.Start()
	if p.Turn() != rules.White {
		t.Errorf("CH-1: %v moves first, want white", p.Turn())
	}
	want := moveList("a2a3 b1a3 b1c3 b2b3 c1a3 c1e3 c1f4 c1g5 c1h6 c2c3 d1c3 d1e3 d2d3 e2e3 f1a6 f1b5 f1c4 f1d3 f1h3 f2f3 g1f3 g1h3 g2g3 h2h3")
	if len(want) != 24 {
		t.Fatalf("test data: %d start moves, want 24", len(want))
	}
	wantMoves(t, "B.9 start", legal(t, p), want)
}

// CH-4: the Ferz is an Amazon (queen + knight).
func TestSpecCHAmazon(t *testing.T) {
	v := specVariant(t, "chatrang")
	p := mustFEN(t, v, "8/7k/8/8/8/8/8/3Q3K w - - 0 1")
	want := prefixed("d1", "d2 d3 d4 d5 d6 d7 d8 a1 b1 c1 e1 f1 g1 c2 b3 a4 e2 f3 g4 h5 b2 c3 e3 f2")
	if len(want) != 24 {
		t.Fatalf("test data: %d Amazon moves, want 24", len(want))
	}
	wantMoves(t, "CH-4 Amazon d1", legalFrom(t, p, "d1"), want)

	// It slides to capture the first enemy piece on a line and no further,
	// and captures by a knight jump.
	p = mustFEN(t, v, "7k/8/8/8/3n4/5n2/3r4/3Q3K w - - 0 1")
	want = prefixed("d1", "a1 b1 c1 e1 f1 g1 c2 b3 a4 e2 f3 d2 b2 c3 e3 f2")
	wantMoves(t, "CH-4 Amazon d1 with captures", legalFrom(t, p, "d1"), want)
}

// CH-7: the Elephant's six tests, with their exact move lists.
func TestSpecCHElephant(t *testing.T) {
	v := specVariant(t, "chatrang")
	for _, tc := range []struct {
		name, fen, from, want string
	}{
		{"enemy pawn on square 1 blocks", "7k/8/8/8/8/8/3p4/2B4K w - - 0 1", "c1", "c1a3"},
		{"jumps its own pawn", "7k/8/8/8/8/8/3P4/2B4K w - - 0 1", "c1", "c1a3 c1e3 c1f4 c1g5 c1h6"},
		{"jumps an enemy Elephant", "7k/8/8/8/8/8/3b4/2B4K w - - 0 1", "c1", "c1a3 c1e3 c1f4 c1g5 c1h6"},
		{"enemy Elephant at distance 2 blocks", "7k/8/8/8/8/4b3/8/2B4K w - - 0 1", "c1", "c1a3"},
		{"captures a knight at distance 3", "7k/8/8/8/5n2/8/8/2B4K w - - 0 1", "c1", "c1a3 c1e3 c1f4"},
		{"never stops next to itself", "8/7k/8/8/3B4/8/8/K7 w - - 0 1", "d4", "d4a7 d4b2 d4b6 d4f2 d4f6 d4g1 d4g7 d4h8"},
		// B.9, second position.
		{"B.9 position 2", "r2kq1nr/ppp2ppp/2np4/4p3/2B1P1b1/3P1N2/PPP2PPP/RN1QKB1R w - - 0 1", "c4", "c4a6 c4e2 c4e6 c4f7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			wantMoves(t, "CH-7 "+tc.name, legalFrom(t, p, tc.from), moveList(tc.want))
		})
	}

	// The K h1 test: the e3 Elephant attacks g1 via f2, so h1g1 is illegal.
	p := mustFEN(t, v, "7k/8/8/8/8/4b3/8/2B4K w - - 0 1")
	if isLegal(p, "h1g1") {
		t.Errorf("CH-7: h1g1 is legal, but the e3 Elephant attacks g1")
	}
	wantMoves(t, "CH-7 K h1 test, all moves", legal(t, p), moveList("c1a3 h1g2 h1h2"))

	// B.9 second position: 28 moves.
	p = mustFEN(t, v, "r2kq1nr/ppp2ppp/2np4/4p3/2B1P1b1/3P1N2/PPP2PPP/RN1QKB1R w - - 0 1")
	if n := len(legal(t, p)); n != 28 {
		t.Errorf("B.9 position 2: %d moves, want 28", n)
	}
}

// CH-7(c): an Elephant never captures an Elephant; an enemy Elephant at
// distance 2 behind an empty square 1 blocks the line.
func TestSpecCHElephantImmunity(t *testing.T) {
	v := specVariant(t, "chatrang")
	// The black Elephant e3 stands at distance 2 from c1 (d2 empty) and
	// shields the knight on f4 behind it.
	p := mustFEN(t, v, "7k/8/8/8/5n2/4b3/8/2B4K w - - 0 1")
	wantMoves(t, "CH-7(c) c1 with Elephant e3 and knight f4", legalFrom(t, p, "c1"), moveList("c1a3"))
	// Black to move: the f4 Elephant reaches d2 but not the White Elephant
	// on c1, at distance 3.
	p = mustFEN(t, v, "7k/8/8/8/5b2/8/8/2B4K b - - 0 1")
	wantMoves(t, "CH-7(c) black f4", legalFrom(t, p, "f4"), moveList("f4d2 f4d6 f4c7 f4b8 f4h6 f4h2"))
	// Nor at distance 2 with a piece between.
	p = mustFEN(t, v, "7k/8/8/8/8/3b4/2P5/1B5K w - - 0 1")
	wantMoves(t, "CH-7(c) b1 over own pawn to an Elephant", legalFrom(t, p, "b1"), nil)
}

// CH-8: promotion is automatic and only to a Ferz, by move and by capture,
// with no limit on the number of Ferzes.
func TestSpecCHPromotion(t *testing.T) {
	v := specVariant(t, "chatrang")
	for _, tc := range []struct {
		name, fen, from, want string
	}{
		{"white", "1n5k/P7/8/8/8/8/8/K7 w - - 0 1", "a7", "a7a8q a7b8q"},
		{"white with two Ferzes on board", "1n5k/P7/8/8/8/8/8/KQQ5 w - - 0 1", "a7", "a7a8q a7b8q"},
		{"black", "4k3/8/8/8/8/8/1p6/R6K b - - 0 1", "b2", "b2a1q b2b1q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			wantMoves(t, "CH-8 "+tc.name, legalFrom(t, p, tc.from), moveList(tc.want))
		})
	}
	p := mustFEN(t, v, "1n5k/P7/8/8/8/8/8/K7 w - - 9 30")
	play(t, p, "a7b8q")
	if got := fenBoardAndSide(p.FEN()); got != "1Q5k/8/8/8/8/8/8/K7 b" {
		t.Errorf("CH-8: after a7b8q the position is %q", got)
	}
}

// CH-9: Elephant checks follow its capture rule.
func TestSpecCHElephantCheck(t *testing.T) {
	v := specVariant(t, "chatrang")

	// A White knight on f4, the Elephant's first square towards e3, blocks
	// the check; it is therefore pinned: any knight move exposes the king.
	p := mustFEN(t, v, "7k/8/8/6b1/5N2/4K3/8/8 w - - 0 1")
	if p.InCheck() {
		t.Errorf("CH-9: the g5 Elephant checks e3 through a White knight on f4")
	}
	wantMoves(t, "CH-9 knight f4 shields the king", legalFrom(t, p, "f4"), nil)

	// A Black (friendly) knight on f4 does not block: check.
	p = mustFEN(t, v, "7k/8/8/6b1/5n2/4K3/8/8 w - - 0 1")
	if !p.InCheck() {
		t.Errorf("CH-9: the g5 Elephant does not check e3 over a Black knight on f4")
	}
	// Answers to that check: capturing the friendly blocker on f4 with the
	// rook puts an enemy non-Elephant on the Elephant's first square, which
	// blocks the line; the king may take f4 (the Elephant never attacks an
	// adjacent square) but not go to d2, further down the checking line.
	p = mustFEN(t, v, "7k/8/8/6b1/5n2/4K3/8/5R2 w - - 0 1")
	wantMoves(t, "CH-9 answers to an Elephant check", legal(t, p), moveList("e3d4 e3e4 e3f2 e3f3 e3f4 f1f4"))
	// An enemy (White) Elephant on f4 does not block either.
	p = mustFEN(t, v, "7k/8/8/6b1/5B2/4K3/8/8 w - - 0 1")
	if !p.InCheck() {
		t.Errorf("CH-9: the g5 Elephant does not check e3 over a White Elephant on f4")
	}
	// An adjacent Elephant does not check.
	p = mustFEN(t, v, "7k/8/8/8/5b2/4K3/8/8 w - - 0 1")
	if p.InCheck() {
		t.Errorf("CH-9: an Elephant on f4 checks the adjacent king on e3")
	}
	if !isLegal(p, "e3f4") {
		t.Errorf("CH-9: the king cannot capture the adjacent, undefended Elephant")
	}
}

// CH-10: end rules.
func TestSpecCHEnd(t *testing.T) {
	v := specVariant(t, "chatrang")

	// B.9: Black to move, not in check, no move: Black wins.
	p := mustFEN(t, v, "k7/p1K5/P7/8/8/8/8/8 b - - 0 1")
	wantStatus(t, p, rules.BlackWins, rules.ReasonStalemate)

	// B.9: 1.Kxe2 leaves Black a bare king: White wins at once.
	p = mustFEN(t, v, "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1")
	wantOngoing(t, p)
	play(t, p, "e1e2")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonBareKing)

	// B.9: a bare Black king to move: White has won.
	p = mustFEN(t, v, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonBareKing)

	// The bare side gets no return capture, even if it could take the
	// opponent's last piece.
	p = mustFEN(t, v, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
	wantStatus(t, p, rules.BlackWins, rules.ReasonBareKing)

	// Checkmate: the mating side wins.
	p = mustFEN(t, v, "7k/6pp/8/8/8/8/8/R3K3 w - - 0 1")
	wantOngoing(t, p)
	play(t, p, "a1a8")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonCheckmate)
	p = mustFEN(t, v, "r3k3/8/8/8/8/8/6PP/7K b - - 0 1")
	play(t, p, "a8a1")
	wantStatus(t, p, rules.BlackWins, rules.ReasonCheckmate)

	// Bare and stalemated at once (Black K a8: a7, b7 by the king, b8 by
	// the knight): the bare-king loss applies, not the stalemate win.
	p = mustFEN(t, v, "k7/3N4/1K6/8/8/8/8/8 b - - 0 1")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonBareKing)
}

// CH-11: no repetition or move-rule draw; a move cap of 2500 plies draws.
func TestSpecCHDrawRules(t *testing.T) {
	v := specVariant(t, "chatrang")

	p := v.Start()
	for range 5 {
		play(t, p, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	if n := p.Repetitions(); n < 3 {
		t.Errorf("CH-11: start position counted %d times after 5 cycles", n)
	}
	wantOngoing(t, p)

	p = mustFEN(t, v, "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 200 120")
	wantOngoing(t, p)
	play(t, p, "g1f3")
	wantOngoing(t, p)

	// ply = 2*(fullmove-1) + (1 if Black is to move), but the cap counts
	// the plies played in the game: a position read from FEN, whatever its
	// move number, starts the count.
	for _, tc := range []struct {
		fen string
		ply int
	}{
		{"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1250", 2498},
		{"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1250", 2499},
		{"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1251", 2500},
		{"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1251", 2501},
	} {
		p := mustFEN(t, v, tc.fen)
		if p.Ply() != tc.ply || p.Played() != 0 {
			t.Errorf("%s: ply %d, played %d, want %d and 0", tc.fen, p.Ply(), p.Played(), tc.ply)
		}
		wantOngoing(t, p)
	}
	// The 2500th ply played ends the game, from the start or from a FEN.
	for _, start := range []string{chStart, "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1251"} {
		p = mustFEN(t, v, start)
		for range 624 {
			play(t, p, "g1f3", "g8f6", "f3g1", "f6g8")
		}
		play(t, p, "g1f3", "g8f6", "f3g1")
		if p.Played() != 2499 {
			t.Errorf("CH-11: %d plies played", p.Played())
		}
		wantOngoing(t, p)
		play(t, p, "f6g8")
		wantStatus(t, p, rules.Draw, rules.ReasonMoveCap)
	}
}

// B.9: perft of the two positions.
func TestSpecCHPerft(t *testing.T) {
	v := specVariant(t, "chatrang")
	for _, tc := range []struct {
		fen    string
		counts []uint64
	}{
		{chStart, []uint64{24, 571, 14245}},
		{"r2kq1nr/ppp2ppp/2np4/4p3/2B1P1b1/3P1N2/PPP2PPP/RN1QKB1R w - - 0 1", []uint64{28, 767, 21998}},
	} {
		p := mustFEN(t, v, tc.fen)
		for i, want := range tc.counts {
			if n := rules.Perft(p, i+1); n != want {
				t.Errorf("B.9 %s: perft(%d) = %d, want %d", tc.fen, i+1, n, want)
			}
		}
	}
}
