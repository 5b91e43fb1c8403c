package variant_test

// Chess under the FIDE Laws (the rules specification README: plain chess must
// be exact): castling, en passant, promotion, check, checkmate, stalemate,
// the 50-move rule, threefold repetition, dead positions, and FEN input.

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/internal/corpus"

	"github.com/anychess/anychess/rules"
)

const chessCastleBase = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

// FIDE 3.8.2: castling and when it is not allowed.
func TestSpecChessCastling(t *testing.T) {
	v := specVariant(t, "chess")
	for _, tc := range []struct {
		name      string
		fen       string
		king      bool // e1g1 legal
		queen     bool // e1c1 legal
		blackKing bool // (black to move) e8g8 legal
	}{
		{"normal case", chessCastleBase, true, true, false},
		{"in check (Bb4)", "r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1", false, false, false},
		{"f1 attacked (Bc4)", "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", false, true, false},
		{"d1 attacked (Bg4)", "r3k2r/8/8/8/6b1/8/8/R3K2R w KQkq - 0 1", true, false, false},
		{"g1 attacked (Bc5)", "r3k2r/8/8/2b5/8/8/8/R3K2R w KQkq - 0 1", false, true, false},
		{"c1 attacked (Bf4)", "r3k2r/8/8/8/5b2/8/8/R3K2R w KQkq - 0 1", true, false, false},
		{"only b1 attacked (Rb8)", "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", true, true, false},
		{"g1 occupied", "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", false, true, false},
		{"f1 occupied", "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", false, true, false},
		{"b1 occupied", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", true, false, false},
		{"b1 occupied by an enemy", "r3k2r/8/8/8/8/8/8/Rn2K2R w KQkq - 0 1", true, false, false},
		{"d1 occupied", "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1", true, false, false},
		{"no rights", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			if got := isLegal(p, "e1g1"); got != tc.king {
				t.Errorf("e1g1 legal = %v, want %v", got, tc.king)
			}
			if got := isLegal(p, "e1c1"); got != tc.queen {
				t.Errorf("e1c1 legal = %v, want %v", got, tc.queen)
			}
		})
	}

	// Black castles too.
	p := mustFEN(t, v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
	if !isLegal(p, "e8g8") || !isLegal(p, "e8c8") {
		t.Errorf("black castling: e8g8 %v, e8c8 %v, want both legal", isLegal(p, "e8g8"), isLegal(p, "e8c8"))
	}

	// Castling moves king and rook.
	p = mustFEN(t, v, chessCastleBase)
	play(t, p, "e1g1")
	if got := p.FEN(); got != "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1" {
		t.Errorf("after e1g1: %q", got)
	}
	play(t, p, "e8c8")
	if got := p.FEN(); got != "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2" {
		t.Errorf("after e8c8: %q", got)
	}

	// The king moved and came back: no castling for White; Black, whose
	// a8 rook moved and came back, keeps only the kingside.
	p = mustFEN(t, v, chessCastleBase)
	play(t, p, "e1f1", "a8b8", "f1e1", "b8a8")
	if f := fenField(p.FEN(), 2); f != "k" {
		t.Errorf("castling field %q after Kf1 Rb8 Ke1 Ra8, want k", f)
	}
	if isLegal(p, "e1g1") || isLegal(p, "e1c1") {
		t.Errorf("White may castle after the king moved and came back")
	}
	play(t, p, "a1b1")
	if !isLegal(p, "e8g8") {
		t.Errorf("Black may not castle kingside though neither king nor h8 rook moved")
	}
	if isLegal(p, "e8c8") {
		t.Errorf("Black may castle queenside after the a8 rook moved and came back")
	}

	// The h1 rook moved and came back: queenside only.
	p = mustFEN(t, v, chessCastleBase)
	play(t, p, "h1h2", "a8a7", "h2h1", "a7a8")
	if f := fenField(p.FEN(), 2); f != "Qk" {
		t.Errorf("castling field %q after Rh2 Ra7 Rh1 Ra8, want Qk", f)
	}
	if isLegal(p, "e1g1") {
		t.Errorf("e1g1 legal after the h1 rook moved")
	}
	play(t, p, "e1c1")
	if got := p.FEN(); got != "r3k2r/8/8/8/8/8/8/2KR3R b k - 5 3" {
		t.Errorf("after e1c1: %q", got)
	}

	// The h8 rook is captured; another rook reaching h8 gives no right.
	p = mustFEN(t, v, "r3k2r/5N2/8/8/8/8/7r/R3K2R w KQkq - 0 1")
	play(t, p, "f7h8")
	if f := fenField(p.FEN(), 2); f != "KQq" {
		t.Errorf("castling field %q after Nxh8, want KQq", f)
	}
	play(t, p, "h2h8", "a1b1")
	if isLegal(p, "e8g8") {
		t.Errorf("e8g8 legal after the h8 rook was captured")
	}
	if !isLegal(p, "e8c8") {
		t.Errorf("e8c8 not legal, though only b8 is attacked")
	}
}

// FIDE 3.7.4: en passant.
func TestSpecChessEnPassant(t *testing.T) {
	v := specVariant(t, "chess")

	// Right after the double step only.
	p := mustFEN(t, v, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
	play(t, p, "d7d5")
	if f := fenField(p.FEN(), 3); f != "d6" {
		t.Errorf("en-passant field %q after d7d5, want d6", f)
	}
	m, ok := findMove(p, "e5d6")
	if !ok || m.Kind() != rules.EnPassant {
		t.Fatalf("e5d6 en passant not legal after d7d5 (found %v)", ok)
	}
	q := p.Clone()
	play(t, q, "e5d6")
	// The captured pawn is the one on d5, not anything on d6.
	if got := q.FEN(); got != "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2" {
		t.Errorf("after e5xd6 e.p.: %q", got)
	}
	if q.Halfmove() != 0 {
		t.Errorf("halfmove %d after en passant, want 0", q.Halfmove())
	}
	// Not one move later.
	play(t, p, "e1e2", "e8f7")
	if isLegal(p, "e5d6") {
		t.Errorf("e5d6 legal one move after d7d5")
	}
	if f := fenField(p.FEN(), 3); f != "-" {
		t.Errorf("en-passant field %q one move later, want -", f)
	}

	// Two single steps give no en passant.
	p = mustFEN(t, v, "4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1")
	play(t, p, "c7c6", "e1e2", "c6c5")
	if isLegal(p, "b5c6") {
		t.Errorf("b5c6 legal after c7c6, c6c5")
	}

	// Illegal when it exposes the king along the rank: the field is
	// dropped and the capture is not legal.
	p = mustFEN(t, v, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1")
	if f := fenField(p.FEN(), 3); f != "-" {
		t.Errorf("en-passant field %q in the rank-pin position, want -", f)
	}
	if isLegal(p, "b5c6") {
		t.Errorf("b5c6 e.p. legal though it exposes the king on a5 to the h5 rook")
	}
	p = mustFEN(t, v, "8/2p5/8/KP5r/8/8/8/7k b - - 0 1")
	play(t, p, "c7c5")
	if isLegal(p, "b5c6") {
		t.Errorf("b5c6 e.p. legal after c7c5 though it exposes the king")
	}
	if f := fenField(p.FEN(), 3); f != "-" {
		t.Errorf("en-passant field %q after c7c5 with the capture illegal, want -", f)
	}
	// Without the rook it is legal and the field is kept.
	p = mustFEN(t, v, "8/8/8/KPp5/8/8/8/7k w - c6 0 1")
	if f := fenField(p.FEN(), 3); f != "c6" {
		t.Errorf("en-passant field %q, want c6", f)
	}
	if !isLegal(p, "b5c6") {
		t.Errorf("b5c6 e.p. not legal")
	}

	// An en-passant capture that removes a pawn giving check.
	p = mustFEN(t, v, "8/4p3/8/3P4/5K2/8/8/7k b - - 0 1")
	play(t, p, "e7e5")
	if !p.InCheck() {
		t.Errorf("e7e5 does not check the king on f4")
	}
	if !isLegal(p, "d5e6") {
		t.Errorf("d5xe6 e.p., capturing the checking pawn, is not legal")
	}
	if isLegal(p, "d5d6") {
		t.Errorf("d5d6 legal while in check")
	}

	// An en-passant capture that gives check.
	p = mustFEN(t, v, "8/3pk3/8/4P3/8/8/8/K7 b - - 0 1")
	play(t, p, "d7d5", "e5d6")
	if !p.InCheck() {
		t.Errorf("e5xd6 e.p. does not check the king on e7")
	}
	if got := fenBoardAndSide(p.FEN()); got != "8/4k3/3P4/8/8/8/8/K7 b" {
		t.Errorf("after e5xd6 e.p.: %q", got)
	}
	wantOngoing(t, p)
}

// FIDE 3.7.5: promotion to Q, R, B or N, by move or capture.
func TestSpecChessPromotion(t *testing.T) {
	v := specVariant(t, "chess")
	p := mustFEN(t, v, "8/P6k/8/8/8/8/8/K7 w - - 0 1")
	wantMoves(t, "promotion", legalFrom(t, p, "a7"), moveList("a7a8q a7a8r a7a8b a7a8n"))
	p = mustFEN(t, v, "1r6/P6k/8/8/8/8/8/K7 w - - 0 1")
	wantMoves(t, "promotion with capture", legalFrom(t, p, "a7"), moveList("a7a8q a7a8r a7a8b a7a8n a7b8q a7b8r a7b8b a7b8n"))
	play(t, p, "a7b8n")
	if got := p.FEN(); got != "1N6/7k/8/8/8/8/8/K7 b - - 0 1" {
		t.Errorf("after a7xb8=N: %q", got)
	}
	p = mustFEN(t, v, "7k/8/8/8/8/8/p7/7K b - - 0 1")
	wantMoves(t, "black promotion", legalFrom(t, p, "a2"), moveList("a2a1q a2a1r a2a1b a2a1n"))

	// Underpromotion to a knight gives check; to a queen it does not (the
	// h2 pawn keeps the material alive).
	for _, tc := range []struct {
		move  string
		check bool
	}{{"e7e8n", true}, {"e7e8q", false}, {"e7e8r", false}, {"e7e8b", false}} {
		p := mustFEN(t, v, "8/4P3/5k2/8/8/8/7P/K7 w - - 0 1")
		play(t, p, tc.move)
		if p.InCheck() != tc.check {
			t.Errorf("%s: black in check = %v, want %v", tc.move, p.InCheck(), tc.check)
		}
		wantOngoing(t, p)
	}

	// Promotion on g8 with Black K a1, White K c2: a bishop (or queen)
	// covers a2 and stalemates; a rook or knight does not (the h2 pawn
	// keeps the material alive).
	for _, tc := range []struct {
		move      string
		stalemate bool
	}{{"g7g8b", true}, {"g7g8q", true}, {"g7g8r", false}, {"g7g8n", false}} {
		p := mustFEN(t, v, "8/6P1/8/8/8/8/2K4P/k7 w - - 0 1")
		play(t, p, tc.move)
		if tc.stalemate {
			wantStatus(t, p, rules.Draw, rules.ReasonStalemate)
		} else {
			wantOngoing(t, p)
		}
	}
}

// FIDE 3.9, 3.10: check, pins, double check, defended pieces.
func TestSpecChessCheck(t *testing.T) {
	v := specVariant(t, "chess")
	for _, tc := range []struct {
		name, fen, from, want string
	}{
		{"pinned rook moves along the pin", "4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2", "e2e3 e2e4 e2e5 e2e6 e2e7 e2e8"},
		{"pinned bishop moves along the pin", "7k/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "d2", "d2c3 d2b4"},
		{"pinned knight cannot move", "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2", ""},
		{"pinned pawn captures the pinner", "7k/8/8/8/8/5b2/4P3/3K4 w - - 0 1", "e2", "e2f3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			wantMoves(t, tc.name, legalFrom(t, p, tc.from), moveList(tc.want))
		})
	}

	// Double check (Re8, Nd3): only king moves, though the queen could
	// capture the knight or block the file.
	p := mustFEN(t, v, "4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1")
	if !p.InCheck() {
		t.Fatalf("double check position: not in check")
	}
	wantMoves(t, "double check", legal(t, p), moveList("e1d2 e1f1"))

	// Single check by the knight alone: the queen may capture it.
	p = mustFEN(t, v, "7k/8/8/8/8/3n4/8/3QK3 w - - 0 1")
	if !isLegal(p, "d1d3") {
		t.Errorf("single check: d1xd3 not legal")
	}

	// The king may not capture a defended piece (Nf2 defended by Bh4).
	p = mustFEN(t, v, "7k/8/8/8/7b/8/5n2/4K3 w - - 0 1")
	wantMoves(t, "king next to a defended knight", legal(t, p), moveList("e1d2 e1e2 e1f1"))
	p = mustFEN(t, v, "7k/8/8/8/8/8/5n2/4K3 w - - 0 1")
	if !isLegal(p, "e1f2") {
		t.Errorf("the king cannot capture an undefended knight")
	}
	// Nor step along the line of a checking slider.
	p = mustFEN(t, v, "7k/8/8/8/8/8/8/r3K3 w - - 0 1")
	wantMoves(t, "king in check from a rook", legal(t, p), moveList("e1d2 e1e2 e1f2"))
}

// FIDE 5, 9: checkmate, stalemate, 50-move rule, threefold repetition.
func TestSpecChessGameEnd(t *testing.T) {
	v := specVariant(t, "chess")

	// Fool's mate.
	p := v.Start()
	play(t, p, "f2f3", "e7e5", "g2g4")
	wantOngoing(t, p)
	play(t, p, "d8h4")
	wantStatus(t, p, rules.BlackWins, rules.ReasonCheckmate)

	// Scholar's mate.
	p = v.Start()
	play(t, p, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6")
	wantOngoing(t, p)
	play(t, p, "h5f7")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonCheckmate)

	// Stalemate.
	p = mustFEN(t, v, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	wantStatus(t, p, rules.Draw, rules.ReasonStalemate)

	// 50-move rule: drawn at 100 plies without capture or pawn move.
	p = mustFEN(t, v, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
	wantOngoing(t, p)
	play(t, p, "a1a2")
	wantStatus(t, p, rules.Draw, rules.ReasonNMoveRule)
	p = mustFEN(t, v, "4k3/8/8/8/8/8/8/R3K3 b - - 100 80")
	wantStatus(t, p, rules.Draw, rules.ReasonNMoveRule)
	// A checkmate on the 100th ply stands.
	p = mustFEN(t, v, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80")
	play(t, p, "a1a8")
	if p.Halfmove() != 100 {
		t.Errorf("halfmove %d, want 100", p.Halfmove())
	}
	wantStatus(t, p, rules.WhiteWins, rules.ReasonCheckmate)

	// Threefold repetition: a draw at the third occurrence, not before.
	p = v.Start()
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	play(t, p, cycle...)
	if n := p.Repetitions(); n != 2 {
		t.Errorf("start seen %d times after one cycle, want 2", n)
	}
	wantOngoing(t, p)
	play(t, p, cycle[:3]...)
	wantOngoing(t, p)
	play(t, p, cycle[3])
	wantStatus(t, p, rules.Draw, rules.ReasonRepetition)

	// Positions that differ in castling rights are different: after
	// Rh2 Rh7 Rh1 Rh8 the board is the start again, but without the
	// kingside rights, so the third occurrence comes one cycle later.
	repeat := func(name, fen string, first []string, cycle []string, drawAfter int) {
		t.Run(name, func(t *testing.T) {
			p := mustFEN(t, v, fen)
			play(t, p, first...)
			for i := 1; i <= drawAfter; i++ {
				play(t, p, cycle...)
				if i < drawAfter {
					wantOngoing(t, p)
				} else {
					wantStatus(t, p, rules.Draw, rules.ReasonRepetition)
				}
			}
		})
	}
	repeat("castling rights", chessCastleBase, nil, []string{"h1h2", "h8h7", "h2h1", "h7h8"}, 3)
	// Without rights the same shuffle repeats from the first position.
	repeat("no castling rights", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", nil, []string{"h1h2", "h8h7", "h2h1", "h7h8"}, 2)
	// An en-passant right that can be used makes a position different...
	repeat("usable en passant", "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1", []string{"d7d5"}, []string{"g1f3", "e8e7", "f3g1", "e7e8"}, 3)
	// ...one that cannot be used does not.
	repeat("unusable en passant", "4k3/3p4/8/7P/8/8/8/4K1N1 b - - 0 1", []string{"d7d5"}, []string{"g1f3", "e8e7", "f3g1", "e7e8"}, 2)
}

// FIDE 5.2.2 / 9.6.2: dead positions.
func TestSpecChessDeadPosition(t *testing.T) {
	v := specVariant(t, "chess")
	wantDeadTable(t, v, []deadCase{
		{"K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"KB v K", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"K v KB", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"KN v K", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true},
		{"K v KN", "1n2k3/8/8/8/8/8/8/4K3 b - - 0 1", true},
		{"KB v KB same colour (c1, f8 dark)", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"KB v KB same colour (f1, c8 light)", "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
		{"KBB v K bishops on one colour", "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true},
		{"KB v KB opposite colours", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"KNN v K", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", false},
		{"KB v KN", "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"KBB v K opposite colours", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false},
		{"KR v K", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},
		{"KP v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
	})
	// A capture that leaves K+N v K ends the game.
	p := mustFEN(t, v, "4k3/8/8/8/8/8/3r4/1N2K3 w - - 0 1")
	wantOngoing(t, p)
	play(t, p, "b1d2")
	wantStatus(t, p, rules.Draw, rules.ReasonDead)
}

// Bad FENs are errors wrapping rules.ErrFEN, never panics.
// TestSpecChessOppositeCheck: a position in which the side not to move is in
// check cannot arise. It is read (the Great Shatranj vectors of GS-7 are such
// positions, and Fairy-Stockfish reads them too), but Validate reports it,
// and taking the king ends the game.
func TestSpecChessOppositeCheck(t *testing.T) {
	v := specVariant(t, "chess")
	p, err := v.ParseFEN("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatalf("the position is not read: %v", err)
	}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "not to move (black) is in check") {
		t.Errorf("Validate() = %v, want the opposite check reported", err)
	}
	if err := v.Start().Validate(); err != nil {
		t.Errorf("Validate() of the start = %v", err)
	}
	play(t, p, "e7e8")
	if st := p.Status(); st.Result != rules.WhiteWins || st.Reason != rules.ReasonNoRoyal {
		t.Errorf("after taking the king: %v", st)
	}
}

func TestSpecChessFENErrors(t *testing.T) {
	v := specVariant(t, "chess")
	for _, tc := range []struct{ name, fen string }{
		{"empty", ""},
		{"board only", "4k3/8/8/8/8/8/8/4K3"},
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1"},
		{"no black king", "8/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"two white kings", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"},
		{"white pawn on rank 8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"black pawn on rank 1", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1"},
		{"white pawn on rank 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"},
		{"7 ranks", "4k3/8/8/8/8/8/4K3 w - - 0 1"},
		{"9 ranks", "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"9 files (pieces)", "4k4/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"9 files (count)", "4k3/9/8/8/8/8/8/4K3 w - - 0 1"},
		{"7 files", "4k2/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"unknown letter", "4k3/8/8/8/8/8/8/4K2X w - - 0 1"},
		{"bad side", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"},
		{"castling without rook", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"},
		{"black castling without rook", "4k3/8/8/8/8/8/8/R3K2R w KQq - 0 1"},
		{"castling garbage", "4k3/8/8/8/8/8/8/R3K2R w KX - 0 1"},
		{"ep square off the board", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1"},
		{"ep square garbage", "4k3/8/8/8/8/8/8/4K3 w - zz 0 1"},
		{"ep square on the wrong rank", "4k3/8/8/8/4p3/8/8/4K3 w - e3 0 1"},
		{"ep square without a pawn that passed it", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1"},
		{"bad halfmove", "4k3/8/8/8/8/8/8/4K3 w - - x 1"},
		{"bad fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 y"},
		{"too many fields", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseFENSafe(v, tc.fen)
			switch {
			case errors.Is(err, errPanic):
				t.Errorf("ParseFEN(%q) panicked: %v", tc.fen, err)
			case err == nil:
				t.Errorf("ParseFEN(%q) accepted it: %s", tc.fen, p.FEN())
			case !errors.Is(err, rules.ErrFEN):
				t.Errorf("ParseFEN(%q): error %v does not wrap ErrFEN", tc.fen, err)
			}
		})
	}
}

// Every position of the chess perft file round trips through FEN.
func TestSpecChessFENRoundTrip(t *testing.T) {
	v := specVariant(t, "chess")
	fens, err := corpus.FENs("chess.epd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fen := range fens {
		n++
		p := mustFEN(t, v, fen)
		out := p.FEN()
		q := mustFEN(t, v, out)
		if q.FEN() != out {
			t.Errorf("%q: written %q, read back and written %q", fen, out, q.FEN())
		}
		if q.Hash() != p.Hash() {
			t.Errorf("%q: hash changes through FEN %q", fen, out)
		}
		// Board, side, castling and move counters are kept as written; the
		// en-passant field is kept only with a legal capture.
		in, got := strings.Fields(fen), strings.Fields(out)
		for i := range in {
			if i == 3 {
				continue
			}
			if i < len(got) && in[i] != got[i] {
				t.Errorf("%q: field %d written as %q", fen, i, got[i])
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d positions in chess.epd", n)
	}
}
