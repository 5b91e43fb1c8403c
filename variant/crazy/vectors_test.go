package crazy

import (
	"errors"
	"slices"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// The worked examples C1-C13 of the specification, section 2.10.

// TestResolutionVectors plays C1, C2, C3, C5 and C12 and checks, step by
// step, the resident stack of the square where the effects happen, the
// pieces removed in order, and the position after.
func TestResolutionVectors(t *testing.T) {
	cases := []struct {
		name, fen, move, square string
		steps                   []string // the stack on square after each step
		removed                 []string
		after                   string
	}{
		{
			name: "C1 rook-stack fall chain",
			fen:  "8/7k/8/3(rrp)4/8/8/7K/3(RP)4 w - - 0 1 b - 0", move: "Rd1xd5", square: "d5",
			steps:   []string{"RP", "rp", "P", "p"},
			removed: []string{"r@d5", "R@d5", "r@d5", "P@d5"},
			after:   "8/7k/8/3p4/8/8/7K/8 b - - 0 1 b - 0",
		},
		{
			name: "C2 knight path capture in a 4-rook stack",
			fen:  "7k/8/8/4(rrrrp)3/4N3/8/8/7K w - - 0 1 b - 0", move: "Ne4-f6(xe5/2)", square: "e5",
			steps:   []string{"rr", "rp", "r", "p"},
			removed: []string{"r@e5", "r@e5", "r@e5", "r@e5"},
			after:   "7k/8/5N2/4p3/8/8/8/7K b - - 0 1 b - 0",
		},
		{
			name: "C3 rook with pawn captures a bishop",
			fen:  "7k/8/b7/8/8/(RP)7/8/7K w - - 0 1 b - 0", move: "Ra3xa6", square: "a6",
			steps:   []string{"RP", "b*", "P"},
			removed: []string{"b@a6", "R@a6", "b*@a6"},
			after:   "7k/8/P7/8/8/8/8/7K b - - 0 1 b - 0",
		},
		{
			name: "C5 queen revenge",
			fen:  "k7/8/3pbp2/4q3/5N2/8/1B6/7K w - - 0 1 b - 0", move: "Bb2xe5", square: "e5",
			steps:   []string{"B", "", "B*"},
			removed: []string{"q@e5", "b@e6", "p@f6", "N@f4", "p@d6", "B@e5"},
			after:   "k7/8/4b*3/4B*3/8/8/8/7K b - - 0 1 b - 0",
		},
		{
			name: "C12 a pawn falls onto its own first row",
			fen:  "r6k/8/8/8/8/8/8/(RP)6K b - - 0 1 w - 0", move: "Ra8xa1", square: "a1",
			steps:   []string{"r", "P"},
			removed: []string{"R@a1", "r@a1", "P@a1"},
			after:   "7k/8/8/8/8/8/8/7K w - - 0 2 w - 0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newVariant(t, nil)
			p := parse(t, v, c.fen)
			if got := traceMove(t, p, c.move, c.square); !slices.Equal(got, c.steps) {
				t.Errorf("stacks on %s step by step = %q, want %q", c.square, got, c.steps)
			}
			if got := removed(p); !slices.Equal(got, c.removed) {
				t.Errorf("removed %q, want %q", got, c.removed)
			}
			if got := p.FEN(); got != c.after {
				t.Errorf("after %s:\n got %s\nwant %s", c.move, got, c.after)
			}
			p.Unmake()
			if got := p.FEN(); got != c.fen {
				t.Errorf("unmake: %s", got)
			}
		})
	}
}

// TestC1BlackMayDeny: after C1, Black still holds the right.
func TestC1BlackMayDeny(t *testing.T) {
	v := newVariant(t, nil)
	p := parse(t, v, "8/7k/8/3(rrp)4/8/8/7K/3(RP)4 w - - 0 1 b - 0")
	play(t, p, "Rd1xd5")
	if !isLegal(p, "DENY") {
		t.Fatalf("DENY is not legal after C1: %v", legal(p))
	}
	play(t, p, "DENY")
	if got, want := p.FEN(), "8/7k/8/3(rrp)4/8/8/7K/3(RP)4 w - - 0 1 w b 1"; got != want {
		t.Errorf("after DENY: %s, want %s", got, want)
	}
}

// TestC4BishopChecksKingInRook: CC-43 through a fall and a rise.
func TestC4BishopChecksKingInRook(t *testing.T) {
	v := newVariant(t, nil)
	for _, c := range []struct {
		fen   string
		check bool
	}{
		{"7K/8/8/4(rk)3/8/2B5/8/8 b - - 0 1 w - 0", true},
		{"7K/8/8/4(rk)3/8/8/8/4R3 b - - 0 1 w - 0", false},
	} {
		p := parse(t, v, c.fen)
		if got := InCheck(p, rules.Black); got != c.check {
			t.Errorf("%s: InCheck(black) = %v, want %v", c.fen, got, c.check)
		}
		if InCheck(p, rules.White) {
			t.Errorf("%s: white is in check", c.fen)
		}
	}
}

// TestC6KingDoubleStepAndDenial: capture and return, then its denial.
func TestC6KingDoubleStepAndDenial(t *testing.T) {
	v := newVariant(t, nil)
	start := "k7/8/5p2/4n3/3K4/8/8/8 w - - 0 1 b - 0"
	p := parse(t, v, start)
	play(t, p, "Kd4xe5-d4")
	if got, want := p.FEN(), "k7/8/5p2/8/3K4/8/8/8 b - - 0 1 b - 0"; got != want {
		t.Fatalf("after Kd4xe5-d4: %s, want %s", got, want)
	}
	play(t, p, "DENY")
	if got, want := p.FEN(), "k7/8/5p2/4n3/3K4/8/8/8 w - - 0 1 w b 1"; got != want {
		t.Fatalf("after DENY: %s, want %s", got, want)
	}
	if _, err := ParseMove(p, "Kd4xe5-d4"); !errors.Is(err, notation.ErrIllegal) {
		t.Errorf("the denied Kd4xe5-d4 is still playable (err %v)", err)
	}
	play(t, p, "Kd4xe5-e4")
	d := DenialOf(p)
	if d.Holder != rules.White || !d.Immune || d.ImmuneSide != rules.Black || d.Used != 1 {
		t.Errorf("after the replacement: %+v, want holder w, immune b, used 1", d)
	}
	if got, want := p.FEN(), "k7/8/5p2/8/4K3/8/8/8 b - - 0 1 w b 1"; got != want {
		t.Errorf("after Kd4xe5-e4: %s, want %s", got, want)
	}
	if isLegal(p, "DENY") {
		t.Error("black denies again without the right")
	}
}

// TestFENVectors plays C7, C8 and C9: FEN before, moves, FEN after each.
func TestFENVectors(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		line [][2]string // move, FEN after
	}{
		{"C7 castling into the rook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 b - 0",
			[][2]string{{"O-O,g1^f1", "4k3/8/8/8/8/8/8/5(RK)2 b - - 1 1 b - 0"}}},
		{"C8 sideways double step and en passant", "7k/8/8/8/8/4p3/2P5/7K w - - 0 1 b - 0",
			[][2]string{
				{"c2-e2", "7k/8/8/8/8/4p3/4P3/7K b - d2:e2 0 1 b - 0"},
				{"e3xd2", "7k/8/8/8/8/8/3p4/7K w - - 0 2 b - 0"},
			}},
		{"C9 chain disguise of the enemy king", "8/8/8/8/7K/4(rk)3/2PPP3/8 w - - 0 1 b - 0",
			[][2]string{{"De3/1:e2,d2,c2", "8/8/8/8/7K/4(rP)3/2kPP3/8 b - - 0 1 b - 0"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newVariant(t, nil)
			p := parse(t, v, c.fen)
			for _, step := range c.line {
				play(t, p, step[0])
				if got := p.FEN(); got != step[1] {
					t.Fatalf("after %s:\n got %s\nwant %s", step[0], got, step[1])
				}
			}
		})
	}
}

// TestC10DenialBookkeeping: 1. e4 DENY d4 d5, then the right comes back.
func TestC10DenialBookkeeping(t *testing.T) {
	v := newVariant(t, nil)
	p := v.Start()
	play(t, p, "e2-e4", "DENY")
	if got, want := p.FEN(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w b 1"; got != want {
		t.Fatalf("after e4 DENY: %s, want %s", got, want)
	}
	if isLegal(p, "e2-e4") {
		t.Error("the denied e2-e4 is playable again")
	}
	play(t, p, "d2-d4")
	if isLegal(p, "DENY") {
		t.Error("black may deny the replacement without the right")
	}
	if d := DenialOf(p); !d.Immune || d.ImmuneSide != rules.Black {
		t.Errorf("after d4: %+v, want black immune", d)
	}
	play(t, p, "d7-d5")
	if isLegal(p, "DENY") {
		t.Error("white may deny black's immune move")
	}
	if got, want := p.FEN(), "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 w - 1"; got != want {
		t.Errorf("after d5: %s, want %s (immune side cleared)", got, want)
	}
	play(t, p, "e2-e3") // not a Knight move, which could not be denied (CC-7)
	if isLegal(p, "DENY") {
		t.Error("black denies without the right")
	}
	play(t, p, "e7-e6")
	if !isLegal(p, "DENY") {
		t.Error("white may not deny black's second move")
	}
}

// TestC11SelfDestruction: the all-round capture next to one's own king.
func TestC11SelfDestruction(t *testing.T) {
	fen := "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1 b - 0"
	p := parse(t, newVariant(t, nil), fen)
	play(t, p, "Qe2*")
	if st := p.Status(); st.Result != rules.BlackWins {
		t.Errorf("after Qe2*: %v, want 0-1", st)
	}
	if ms := p.LegalMoves(nil); len(ms) != 0 {
		t.Errorf("the game goes on with %d moves", len(ms))
	}
	p = parse(t, newVariant(t, func(o *Options) { o.SelfDestruct = IllegalMove }), fen)
	if isLegal(p, "Qe2*") {
		t.Error("Qe2* is legal under SelfDestruct=Illegal")
	}
}

// TestC13KnightPathOption: b3 is on an L-route of b1-c3, not a Mao route.
func TestC13KnightPathOption(t *testing.T) {
	fen := "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0"
	runRuleCases(t, []ruleCase{
		{rule: "C13", name: "KnightPath=L", fen: fen, legal: []string{"Nb1-c3(xb3)"}},
		{rule: "C13", name: "KnightPath=Mao", fen: fen, illegal: []string{"Nb1-c3(xb3)"},
			edit: func(o *Options) { o.KnightPath = PathMao }},
	})
}
