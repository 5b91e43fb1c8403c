package eval_test

import (
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

func TestDerivedValues(t *testing.T) {
	reg := variant.MustDefault()
	chess, _ := reg.Get("chess")
	// The chess file gives values; strip them to test the derivation.
	s := chess.Spec()
	s.Name = "chess-derived"
	pieces := append([]rules.PieceSpec(nil), s.Pieces...)
	for i := range pieces {
		pieces[i].Value = 0
	}
	s.Pieces = pieces
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	e := eval.New(v)
	for _, tt := range []struct {
		letter   byte
		min, max int
	}{
		{'N', 300, 350}, {'B', 300, 360}, {'R', 470, 540}, {'Q', 820, 950}, {'P', 100, 100}, {'K', 0, 0},
	} {
		if got := e.Value(v.TypeOf(tt.letter)); got < tt.min || got > tt.max {
			t.Errorf("%c = %d, want %d..%d", tt.letter, got, tt.min, tt.max)
		}
	}
	// Great Shatranj: the three compound pieces outrank the Woody, Knight
	// and Elephant, which is colour-bound and weakest.
	gs, _ := reg.Get("greatshatranj")
	g := eval.New(gs)
	val := func(l byte) int { return g.Value(gs.TypeOf(l)) }
	for _, big := range []byte("GMH") {
		for _, small := range []byte("WNE") {
			if val(big) <= val(small) {
				t.Errorf("%c (%d) <= %c (%d)", big, val(big), small, val(small))
			}
		}
	}
	if val('E') >= val('N') {
		t.Errorf("elephant %d >= knight %d", val('E'), val('N'))
	}
	// Chatrang: the Amazon is worth more than a queen.
	ch, _ := reg.Get("chatrang")
	if a := eval.New(ch).Value(ch.TypeOf('Q')); a < 1000 {
		t.Errorf("amazon = %d", a)
	}
}

func TestEvaluateSymmetry(t *testing.T) {
	reg := variant.MustDefault()
	for _, v := range reg.Variants() {
		e := eval.New(v)
		p := v.Start()
		// The start is symmetric: only the tempo separates the sides.
		if got := e.Evaluate(p); got != 10 {
			t.Errorf("%s start = %d, want the tempo 10", v.Name(), got)
		}
	}
	chess, _ := reg.Get("chess")
	e := eval.New(chess)
	up, _ := chess.ParseFEN("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
	down, _ := chess.ParseFEN("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
	if e.Evaluate(up) < 800 || e.Evaluate(down) > -800 {
		t.Errorf("a queen up: %d, %d", e.Evaluate(up), e.Evaluate(down))
	}
	// Mop-up: the lone king is better cornered.
	corner, _ := chess.ParseFEN("7k/8/8/8/8/8/8/3QK3 w - - 0 1")
	centre, _ := chess.ParseFEN("8/8/8/4k3/8/8/8/3QK3 w - - 0 1")
	if e.Evaluate(corner) <= e.Evaluate(centre) {
		t.Errorf("cornered king %d <= central king %d", e.Evaluate(corner), e.Evaluate(centre))
	}
	// An advanced pawn is worth more.
	a2, _ := chess.ParseFEN("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
	a7, _ := chess.ParseFEN("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	if e.Evaluate(a7) <= e.Evaluate(a2) {
		t.Errorf("pawn on a7 %d <= pawn on a2 %d", e.Evaluate(a7), e.Evaluate(a2))
	}
}

func TestPawnStructure(t *testing.T) {
	chess, _ := variant.MustDefault().Get("chess")
	e := eval.New(chess)
	score := func(fen string) int {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return e.Evaluate(p)
	}
	// White's e5 pawn is passed against a black a7 pawn and stopped by a
	// black d7 pawn (which is then not passed either).
	if passed, stopped := score("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1"), score("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1"); passed <= stopped {
		t.Errorf("passed %d <= stopped %d", passed, stopped)
	}
	// Doubled pawns are worse than pawns side by side.
	if doubled, side := score("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1"), score("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"); doubled >= side {
		t.Errorf("doubled %d >= side by side %d", doubled, side)
	}
	// A king behind its pawns is safer in the middle game.
	const rest = "r2q1rk1/ppp2ppp/2n5/8/8/2N5/PPP2PPP/R2Q1RK1 w - - 0 1"
	if sheltered, open := score(rest), score("r2q1rk1/ppp2ppp/2n5/8/8/2N3PP/PPP2P2/R2Q1RK1 w - - 0 1"); sheltered <= open-15 {
		t.Errorf("sheltered %d, pawns pushed %d", sheltered, open)
	}
}
