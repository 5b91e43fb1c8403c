package variant_test

// Test vectors of the Great Shatranj specification
// (the rules specification great-shatranj.md, rules GS-1..GS-16, vectors in A.7,
// GS-7 and GS-13). Expected values come from the spec text.

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/rules"
)

const gsNormalisedStart = "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1"

// GS-1, GS-2, GS-15 (A.1): board size, start position, the seed FEN.
func TestSpecGSStart(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	if b := v.Board(); b.Files != 10 || b.Ranks != 8 {
		t.Errorf("GS-1: board is %dx%d, want 10x8", b.Files, b.Ranks)
	}
	if got := v.StartFEN(); got != gsNormalisedStart {
		t.Errorf("GS-2: StartFEN = %q, want %q", got, gsNormalisedStart)
	}
	start := v.Start()
	if start.Turn() != rules.White {
		t.Errorf("GS-1: %v moves first, want white", start.Turn())
	}
	play(t, start, "e2e3")
	if start.Turn() != rules.Black {
		t.Errorf("GS-1: after a white move %v is to move, want black", start.Turn())
	}

	// The normalised FEN round trips.
	p := mustFEN(t, v, gsNormalisedStart)
	if got := p.FEN(); got != gsNormalisedStart {
		t.Errorf("GS-2: FEN() = %q, want %q", got, gsNormalisedStart)
	}
	// GS-15: the seed FEN with KQkq is accepted, the field is ignored and
	// written as "-".
	seed := "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w KQkq - 0 1"
	q, err := v.ParseFEN(seed)
	if err != nil {
		t.Fatalf("GS-15: seed FEN rejected: %v", err)
	}
	if got := q.FEN(); got != gsNormalisedStart {
		t.Errorf("GS-15: seed FEN written as %q, want %q", got, gsNormalisedStart)
	}
	if q.Castling() != 0 {
		t.Errorf("GS-15: castling rights %b after reading KQkq, want none", q.Castling())
	}
	if q.Hash() != v.Start().Hash() {
		t.Errorf("GS-15: seed FEN hashes differently from the start position")
	}
}

// GS-3, GS-5, GS-15, GS-16 (A.7): the 30 moves of the start position.
func TestSpecGSStartMoves(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	want := moveList("a1a3 a2a3 b1a3 b1c3 b2b3 c1a3 c1e3 c2c3 d1b3 d1d3 d1f3 d2d3 e2e3 f1e3 f1f3 f1g3 f2f3 g1e3 g1f3 g1h3 g1i3 g2g3 h1f3 h1j3 h2h3 i1h3 i1j3 i2i3 j1j3 j2j3")
	if len(want) != 30 {
		t.Fatalf("test data: %d start moves, want 30", len(want))
	}
	wantMoves(t, "A.7 start", legal(t, v.Start()), want)
}

// GS-3 (A.2, A.7): each piece alone on e4 (White K a1, Black K e8).
func TestSpecGSPieceMoves(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	for _, tc := range []struct {
		piece   string
		targets string
	}{
		{"G", "c2 c4 c6 d3 d4 d5 e2 e3 e5 e6 f3 f4 f5 g2 g4 g6"},
		{"M", "c3 c4 c5 d2 d4 d6 e2 e3 e5 e6 f2 f4 f6 g3 g4 g5"},
		{"H", "c2 c3 c5 c6 d2 d3 d5 d6 f2 f3 f5 f6 g2 g3 g5 g6"},
		{"E", "c2 c6 d3 d5 f3 f5 g2 g6"},
		{"W", "c4 d4 e2 e3 e5 e6 f4 g4"},
		{"N", "c3 c5 d2 d6 f2 f6 g3 g5"},
		{"S", "d3 d4 d5 e3 e5 f3 f4 f5"},
	} {
		t.Run(tc.piece, func(t *testing.T) {
			p := mustFEN(t, v, "4k5/10/10/10/4"+tc.piece+"5/10/10/K9 w - - 0 1")
			wantMoves(t, "A.7 "+tc.piece+" on e4", legalFrom(t, p, "e4"), prefixed("e4", tc.targets))
		})
	}
}

// GS-3: a jump of 2 passes over whatever stands between, for moves and for
// captures; the pieces are never blocked.
func TestSpecGSJumpsNotBlocked(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	// A General on e4 surrounded by friendly pawns on all 8 adjacent
	// squares still jumps to all 8 squares at distance 2, and captures on
	// one of them.
	p := mustFEN(t, v, "4k5/10/4n5/3PPP4/3PGP4/3PPP4/10/K9 w - - 0 1")
	wantMoves(t, "GS-3 G jumps over a ring of pawns", legalFrom(t, p, "e4"), prefixed("e4", "c2 c4 c6 e2 e6 g2 g4 g6"))
}

// GS-4, GS-5: one-step pawn, no double step, no en passant.
func TestSpecGSPawns(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	p := v.Start()
	if isLegal(p, "a2a4") {
		t.Errorf("GS-5: a2a4 is legal from the start")
	}
	if !isLegal(p, "a2a3") {
		t.Errorf("GS-5: a2a3 is not legal from the start")
	}
	play(t, p, "a2a3")
	if isLegal(p, "j7j5") {
		t.Errorf("GS-5: j7j5 is legal for Black")
	}
	if !isLegal(p, "j7j6") {
		t.Errorf("GS-5: j7j6 is not legal for Black")
	}
	if f := fenField(p.FEN(), 3); f != "-" {
		t.Errorf("GS-5: en-passant field %q after a pawn move, want -", f)
	}

	// GS-4: forward onto an empty square only; diagonal captures only.
	q := mustFEN(t, v, "4k5/10/10/10/1np7/1P8/10/4K5 w - - 0 1")
	wantMoves(t, "GS-4 pawn b3 (blocked ahead, capture c4)", legalFrom(t, q, "b3"), moveList("b3c4"))

	// GS-5: there is no en passant, so an en-passant field is not
	// accepted (here Black could seemingly just have played b7-b5).
	_, err := parseFENSafe(v, "4k5/10/10/Pp8/10/10/10/4K5 w - b6 0 1")
	if err == nil || !errors.Is(err, rules.ErrFEN) {
		t.Errorf("GS-5: FEN with en-passant square b6: err = %v, want an ErrFEN", err)
	}
}

// GS-6, GS-7: mandatory promotion and its choices. The three vectors are
// literally those of GS-7.
func TestSpecGSPromotionVectors(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	for _, tc := range []struct {
		fen   string
		pawn  string
		perft uint64
	}{
		{"1k8/P9/10/10/10/10/10/WNEGKMHENW w - - 0 1", "a7a8s a7b8s", 43},
		{"1k8/P9/10/10/10/10/10/W1EGKMHE1W w - - 0 1", "a7a8n a7a8s a7b8n a7b8s", 42},
		{"1k8/P9/10/10/10/10/10/4K5 w - - 0 1", "a7a8g a7a8m a7a8h a7a8e a7a8n a7a8w a7a8s a7b8g a7b8m a7b8h a7b8e a7b8n a7b8w a7b8s", 19},
	} {
		t.Run(tc.fen, func(t *testing.T) {
			p, err := parseFENSafe(v, tc.fen)
			if err != nil {
				// The vector has the Black king on b8 attacked by the a7 pawn
				// with White to move; GS-7 counts a7b8 (capturing the king).
				t.Errorf("GS-7 vector rejected by ParseFEN: %v", err)
				return
			}
			wantMoves(t, "GS-7 pawn moves", legalFrom(t, p, "a7"), moveList(tc.pawn))
			if n := rules.Perft(p, 1); n != tc.perft {
				t.Errorf("GS-7 perft(1) = %d, want %d", n, tc.perft)
			}
		})
	}
}

// GS-6, GS-7: the same three vectors in legal form: the Black king moves
// from b8 to e8 and a Black knight stands on b8 to be captured. The pawn
// moves and perft(1) are those of GS-7, since the Black pieces touch no
// White move but a7b8.
func TestSpecGSPromotion(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	for _, tc := range []struct {
		name  string
		fen   string
		pawn  string
		perft uint64
	}{
		{"full army: Soldier only", "1n2k5/P9/10/10/10/10/10/WNEGKMHENW w - - 0 1", "a7a8s a7b8s", 43},
		{"knights lost", "1n2k5/P9/10/10/10/10/10/W1EGKMHE1W w - - 0 1", "a7a8n a7a8s a7b8n a7b8s", 42},
		{"bare king: all seven", "1n2k5/P9/10/10/10/10/10/4K5 w - - 0 1", "a7a8g a7a8m a7a8h a7a8e a7a8n a7a8w a7a8s a7b8g a7b8m a7b8h a7b8e a7b8n a7b8w a7b8s", 19},
		// One knight left: 1 < 2, so N is allowed.
		{"one knight on board", "1n2k5/P9/10/10/10/10/10/WNEGKMHE1W w - - 0 1", "a7a8n a7a8s a7b8n a7b8s", 0},
		// A Soldier on board does not limit Soldiers.
		{"soldiers uncapped", "1n2k5/P9/10/10/10/10/10/SS2K1SSSS w - - 0 1", "a7a8g a7a8m a7a8h a7a8e a7a8n a7a8w a7a8s a7b8g a7b8m a7b8h a7b8e a7b8n a7b8w a7b8s", 0},
		// Black promotes on rank 1.
		{"black on rank 1", "4k5/10/10/10/10/10/p9/4K5 b - - 0 1", "a2a1g a2a1m a2a1h a2a1e a2a1n a2a1w a2a1s", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			from := "a7"
			if p.Turn() == rules.Black {
				from = "a2"
			}
			got := legalFrom(t, p, from)
			wantMoves(t, "GS-7 pawn moves", got, moveList(tc.pawn))
			// GS-6: no move reaches the last rank without promoting.
			for _, plain := range []string{"a7a8", "a7b8", "a2a1"} {
				if isLegal(p, plain) {
					t.Errorf("GS-6: non-promoting move %s is legal", plain)
				}
			}
			if tc.perft > 0 {
				if n := rules.Perft(p, 1); n != tc.perft {
					t.Errorf("GS-7 perft(1) = %d, want %d", n, tc.perft)
				}
			}
		})
	}

	// The promoted piece stands on the last rank and the move-rule clock
	// resets (GS-12: promotions included).
	p := mustFEN(t, v, "1n2k5/P9/10/10/10/10/10/4K5 w - - 57 40")
	play(t, p, "a7b8h")
	if got := fenBoardAndSide(p.FEN()); got != "1H2k5/10/10/10/10/10/10/4K5 b" {
		t.Errorf("GS-6: after a7b8h the position is %q", got)
	}
	if p.Halfmove() != 0 {
		t.Errorf("GS-12: halfmove clock %d after a promotion, want 0", p.Halfmove())
	}
}

// GS-8: the king may not be left attacked; every piece checks the way it
// captures.
func TestSpecGSCheck(t *testing.T) {
	v := specVariant(t, "greatshatranj")

	// The king may not step onto e2, which the knight on d4 attacks.
	p := mustFEN(t, v, "4k5/10/10/10/3n6/10/10/4K5 w - - 0 1")
	wantMoves(t, "GS-8 king next to a knight's reach", legal(t, p), moveList("e1d1 e1d2 e1f1 e1f2"))

	// In check by the knight on d3: the Woody must capture it (d1d3, a
	// jump over d2); its other moves leave the king attacked.
	p = mustFEN(t, v, "4k5/10/10/10/10/3n6/10/3WK5 w - - 0 1")
	if !p.InCheck() {
		t.Errorf("GS-8: knight d3 does not check the king on e1")
	}
	wantMoves(t, "GS-8 answers to a knight check", legal(t, p), moveList("d1d3 e1d2 e1e2 e1f1"))

	// A General checks by a D jump over a piece between (GS-3).
	p = mustFEN(t, v, "4k5/10/10/10/10/4g5/4P5/4K5 w - - 0 1")
	if !p.InCheck() {
		t.Errorf("GS-8: General e3 does not check e1 over the pawn on e2")
	}
	wantMoves(t, "GS-8 answers to a General check", legal(t, p), moveList("e1d1 e1f1"))

}

// GS-9, GS-10: checkmate loses, stalemate draws.
func TestSpecGSMateAndStalemate(t *testing.T) {
	v := specVariant(t, "greatshatranj")

	// Black mates: G a4-a3 (D check on a1; W covers a2; the king covers b1, b2).
	p := mustFEN(t, v, "10/10/10/10/g9/10/2k7/K9 b - - 0 1")
	wantOngoing(t, p)
	play(t, p, "a4a3")
	wantStatus(t, p, rules.BlackWins, rules.ReasonCheckmate)

	// White mates: G a5-a6.
	p = mustFEN(t, v, "k9/2K7/10/G9/10/10/10/10 w - - 0 1")
	wantOngoing(t, p)
	play(t, p, "a5a6")
	wantStatus(t, p, rules.WhiteWins, rules.ReasonCheckmate)
	if n := len(legal(t, p)); n != 0 {
		t.Errorf("GS-9: checkmated side has %d moves", n)
	}

	// GS-10: Black K a8 is not in check and has no move (W a5 covers a7).
	p = mustFEN(t, v, "k9/2K7/10/W9/10/10/10/10 b - - 0 1")
	wantStatus(t, p, rules.Draw, rules.ReasonStalemate)
}

// GS-11: threefold repetition draws at the third occurrence.
func TestSpecGSRepetition(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	p := v.Start()
	cycle := []string{"b1c3", "b8c6", "c3b1", "c6b8"}
	play(t, p, cycle...)
	if n := p.Repetitions(); n != 2 {
		t.Errorf("GS-11: start position seen %d times after one cycle, want 2", n)
	}
	wantOngoing(t, p)
	play(t, p, cycle[:3]...)
	wantOngoing(t, p)
	play(t, p, cycle[3])
	if n := p.Repetitions(); n != 3 {
		t.Errorf("GS-11: start position seen %d times after two cycles, want 3", n)
	}
	wantStatus(t, p, rules.Draw, rules.ReasonRepetition)
}

// GS-12: 100 plies without capture or pawn move draw, but a mate on the
// 100th ply stands.
func TestSpecGSMoveRule(t *testing.T) {
	v := specVariant(t, "greatshatranj")

	p := mustFEN(t, v, "k9/10/10/10/10/10/10/K8W w - - 98 60")
	play(t, p, "j1j2")
	if p.Halfmove() != 99 {
		t.Errorf("GS-12: halfmove %d, want 99", p.Halfmove())
	}
	wantOngoing(t, p)
	play(t, p, "a8b8")
	if p.Halfmove() != 100 {
		t.Errorf("GS-12: halfmove %d, want 100", p.Halfmove())
	}
	wantStatus(t, p, rules.Draw, rules.ReasonNMoveRule)

	// A pawn move or a capture at 99 resets the clock.
	p = mustFEN(t, v, "k9/10/10/10/10/10/9P/K9 w - - 99 60")
	play(t, p, "j2j3")
	if p.Halfmove() != 0 {
		t.Errorf("GS-12: halfmove %d after a pawn move, want 0", p.Halfmove())
	}
	wantOngoing(t, p)
	p = mustFEN(t, v, "k9/10/10/10/10/9n/10/K8W w - - 99 60")
	play(t, p, "j1j3")
	if p.Halfmove() != 0 {
		t.Errorf("GS-12: halfmove %d after a capture, want 0", p.Halfmove())
	}
	wantOngoing(t, p)

	// The 100th ply mates: the checkmate stands.
	p = mustFEN(t, v, "k9/2K7/10/G9/10/10/10/10 w - - 99 70")
	play(t, p, "a5a6")
	if p.Halfmove() != 100 {
		t.Errorf("GS-12: halfmove %d, want 100", p.Halfmove())
	}
	wantStatus(t, p, rules.WhiteWins, rules.ReasonCheckmate)
}

// GS-13: K v K, K+N v K and K+E v K (either square colour, either side) are
// dead; K+W, K+S, K+G, K+M, K+H v K are not, nor any other material.
func TestSpecGSDeadMaterial(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	wantDeadTable(t, v, []deadCase{
		{"K v K", "k9/10/10/10/10/10/10/K9 w - - 0 1", true},
		{"KN v K", "k9/10/10/10/10/10/10/K2N6 w - - 0 1", true},
		{"K v KN", "k2n6/10/10/10/10/10/10/K9 w - - 0 1", true},
		{"KE(d1, light) v K", "k9/10/10/10/10/10/10/K2E6 w - - 0 1", true},
		{"KE(c1, dark) v K", "k9/10/10/10/10/10/10/K1E7 w - - 0 1", true},
		{"K v KE(d8, dark)", "k2e6/10/10/10/10/10/10/K9 b - - 0 1", true},
		{"K v KE(e8, light)", "k3e5/10/10/10/10/10/10/K9 b - - 0 1", true},
		{"KW v K", "k9/10/10/10/10/10/10/K2W6 w - - 0 1", false},
		{"KS v K", "k9/10/10/10/10/10/10/K2S6 w - - 0 1", false},
		{"KG v K", "k9/10/10/10/10/10/10/K2G6 w - - 0 1", false},
		{"KM v K", "k9/10/10/10/10/10/10/K2M6 w - - 0 1", false},
		{"KH v K", "k9/10/10/10/10/10/10/K2H6 w - - 0 1", false},
		{"K v KH", "k2h6/10/10/10/10/10/10/K9 w - - 0 1", false},
		{"KNN v K (not listed)", "k9/10/10/10/10/10/10/K2NN5 w - - 0 1", false},
		{"KN v KN (not listed)", "k2n6/10/10/10/10/10/10/K2N6 w - - 0 1", false},
		{"KP v K", "k9/10/10/10/10/10/3P6/K9 w - - 0 1", false},
	})

	// A capture that leaves K v K+W does not end the game; one that leaves
	// K+N v K does.
	p := mustFEN(t, v, "k9/10/10/10/10/10/10/KN1w6 w - - 0 1")
	play(t, p, "b1d2")
	wantOngoing(t, p)
	play(t, p, "d1d2")
	wantOngoing(t, p) // K v K+W: not dead
	p = mustFEN(t, v, "k9/10/10/10/10/10/3w6/KN8 w - - 0 1")
	play(t, p, "b1d2")
	wantStatus(t, p, rules.Draw, rules.ReasonDead) // K+N v K
}

// GS-14: a bare king does not lose.
func TestSpecGSBareKing(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	p := mustFEN(t, v, "k9/10/10/10/10/10/10/KG8 b - - 0 1")
	wantOngoing(t, p)
	p = mustFEN(t, v, "k9/10/10/10/10/10/10/K8g w - - 0 1")
	wantOngoing(t, p)
	// Capturing the last Black piece does not end the game.
	p = mustFEN(t, v, "k9/10/10/10/10/10/n9/KG8 w - - 0 1")
	play(t, p, "b1a2")
	wantOngoing(t, p)
	if n := len(legal(t, p)); n == 0 {
		t.Errorf("GS-14: the bare Black king has no moves")
	}
}

// A.7: perft of the second position.
func TestSpecGSPerft(t *testing.T) {
	v := specVariant(t, "greatshatranj")
	p := mustFEN(t, v, "w1egkmh1nw/pp1ppp1ppp/2n3e3/2p3p3/3P2P3/2N1E5/PP2PP1PPP/W2GKMHENW b - - 0 1")
	for d, want := range []uint64{1: 40, 2: 1680, 3: 69984} {
		if d == 0 {
			continue
		}
		if n := rules.Perft(p, d); n != want {
			t.Errorf("A.7 perft(%d) = %d, want %d", d, n, want)
		}
	}
	start := v.Start()
	for d, want := range []uint64{1: 30, 2: 900, 3: 29010} {
		if d == 0 {
			continue
		}
		if n := rules.Perft(start, d); n != want {
			t.Errorf("A.7 start perft(%d) = %d, want %d", d, n, want)
		}
	}
}
