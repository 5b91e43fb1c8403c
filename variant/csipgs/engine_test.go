package csipgs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestMovementValue checks the engine's values of designs against package
// eval's scale on 8x8 (knight 325, bishop 331, rook 502, queen 870).
func TestMovementValue(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	tests := []struct {
		design   string
		min, max int
	}{
		{"N", 320, 330},
		{"B", 325, 335},
		{"R", 497, 507},
		{"Q", 865, 875},
		{"fmWfcF", 80, 110},
		{"K", 400, 415},
		{"royal-K", 400, 415}, // royalty is in the price, not the movement
		{"fR", 100, 150},
		{"FfR", 300, 330},
		{"WDx", 0, 0}, // not a design
	}
	for _, tc := range tests {
		if got := Value(v, tc.design); got < tc.min || got > tc.max {
			t.Errorf("Value(%q) = %d, want %d..%d", tc.design, got, tc.min, tc.max)
		}
	}
}

// TestInCheckHook checks check as the search and SAN see it: a single
// royal attacked in the action phase; never in the design phase or under
// royal capture.
func TestInCheckHook(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	rc := newVariant(t, Options{RoyalCapture: true})
	tests := []struct {
		name string
		v    *rules.Variant
		fen  string
		want bool
	}{
		{"X4 single king in check", v, "4k3/8/8/8/8/8/8/r3K3 w 50/0 N/- PRNBKQ/PRNBKQ 0 20 " + table, true},
		{"not in check", v, "4k3/8/8/8/8/8/r7/4K3 w 50/0 N/- PRNBKQ/PRNBKQ 0 20 " + table, false},
		{"X5 one of two royals in check", v, "r3k3/8/8/8/K7/8/8/4K3 w 10/0 N/- PRNBKQ/PRNBKQ 0 20 " + table, true},
		{"design phase", v, "4k3/8/8/8/8/8/8/r3K3 w& 50/0 N/- PRNBKQ/PRNBKQ 0 20 " + table, false},
		{"royal capture", rc, "4k3/8/8/8/8/8/8/r3K3 w 50/0 N/- PRNBKQ/PRNBKQ 0 20 " + table, false},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.v, tc.fen)
		if got := p.InCheck(); got != tc.want {
			t.Errorf("%s: InCheck %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSANCheckMarks checks that SAN marks a check, and a mate, on the
// design decision that ends the turn (the opponent is then to move).
func TestSANCheckMarks(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	tests := []struct {
		name   string
		fen    string
		action string
		want   string // SAN of "&-" after the action
	}{
		{"check", "4k3/8/8/8/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 20 " + table, "a1a8", "&-+"},
		{"mate", "4k3/8/4K3/8/8/8/8/R7 w 0/0 -/- PRNBKQ/PRNBKQ 0 20 " + table, "a1a8", "&-#"},
		{"quiet", "4k3/8/8/8/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 20 " + table, "a1a2", "&-"},
	}
	for _, tc := range tests {
		p := mustFEN(t, v, tc.fen)
		play(t, p, tc.action)
		m, err := notation.ParseMove(p, "&-")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := notation.SAN(p, m); got != tc.want {
			t.Errorf("%s: SAN %q, want %q", tc.name, got, tc.want)
		}
		if back, err := notation.ParseMove(p, tc.want); err != nil || back != m {
			t.Errorf("%s: %q reads back as %v, %v", tc.name, tc.want, back, err)
		}
	}
}

// TestTactical checks the Tactical hook: captures win the victim's value,
// a royal whose capture ends the game wins royalWin, other moves are
// quiet.
func TestTactical(t *testing.T) {
	v := newVariant(t, Options{RoyalCapture: true})
	p := mustFEN(t, v, "4k3/8/8/8/8/8/r7/R3K2n w 5/0 N/- PRNBKQ/PRNBKQ 0 20 "+table)
	rook := Value(v, "R")
	tests := []struct {
		move string
		gain int
		ok   bool
	}{
		{"a1a2", rook, true},
		{"a1b1", 0, false},
		{"N@d2", 0, false},
		{"+P", 0, false},
	}
	for _, tc := range tests {
		m, err := notation.ParseMove(p, tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.move, err)
		}
		g, ok := p.Variant().Ext().(rules.Engine).Tactical(p, m)
		if g != tc.gain || ok != tc.ok || p.IsCapture(m) != tc.ok {
			t.Errorf("%s: gain %d, %v; want %d, %v", tc.move, g, ok, tc.gain, tc.ok)
		}
	}
	q := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K2r b 0/0 -/- PRNBKQ/PRNBKQ 0 20 "+table)
	m, err := notation.ParseMove(q, "h1e1")
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := q.Variant().Ext().(rules.Engine).Tactical(q, m); g != royalWin || !ok {
		t.Errorf("taking the last royal: %d, %v", g, ok)
	}
}

// TestEvaluation checks that the hand-set evaluation sees the designs,
// the reserves and the treasuries, and not the placeholder types.
func TestEvaluation(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	ev := eval.NewWeights(v, nil)
	rook := Value(v, "R")
	base := ev.Evaluate(v.Start())
	tests := []struct {
		name     string
		fen      string
		min, max int // White's advantage over the start
	}{
		{"start", "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table, 0, 0},
		{"rook on the board", "4k3/8/8/8/8/8/8/R3K3 w 0/0 P/P PRNBKQ/PRNBKQ 0 1 " + table, rook, rook + 60},
		{"rook in reserve", "4k3/8/8/8/8/8/8/4K3 w 0/0 R/- PRNBKQ/PRNBKQ 0 1 " + table, rook * reserveShare / 100, rook * reserveShare / 100},
		{"five zorkmids", "4k3/8/8/8/8/8/8/4K3 w 5/0 -/- PRNBKQ/PRNBKQ 0 1 " + table, 5 * zorkmidValue, 5 * zorkmidValue},
		{"black rook", "r3k3/8/8/8/8/8/8/4K3 w 0/0 P/P PRNBKQ/PRNBKQ 0 1 " + table, -rook - 60, -rook},
		// Against a lone king White is paid for driving it to the edge:
		// the same material with the king in the corner scores more.
		{"lone king centre", "8/8/8/3k4/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table, rook + 100, rook + 250},
		{"lone king corner", "7k/8/8/8/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table, rook + 230, rook + 400},
	}
	for _, tc := range tests {
		p := mustFEN(t, v, tc.fen)
		got := ev.Evaluate(p) - base
		if got < tc.min || got > tc.max {
			t.Errorf("%s: %d, want %d..%d", tc.name, got, tc.min, tc.max)
		}
		// The same position with Black to move scores the opposite.
		if b, err := v.ParseFEN(replaceSide(tc.fen)); err == nil {
			if gb := ev.Evaluate(b) - base; gb != -got {
				t.Errorf("%s: %d for Black, %d for White", tc.name, gb, got)
			}
		} else {
			t.Fatal(err)
		}
	}
}

// replaceSide gives Black the move in a csipgs-FEN.
func replaceSide(fen string) string {
	for i := 0; i+3 <= len(fen); i++ {
		if fen[i:i+3] == " w " {
			return fen[:i] + " b " + fen[i+3:]
		}
	}
	return fen
}

// TestChooseDesign checks the engine's design decision: from the start it
// brings a better value for money into its slots, each change raises the
// slots' score, the changes come to an end ("no change"), and it refuses
// the action phase.
func TestChooseDesign(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	if _, err := ChooseDesign(p); err != ErrNotDesignPhase {
		t.Errorf("action phase: %v", err)
	}
	z, _ := ensure(p)
	score := func() int { return z.slotScore(z.stateOf(p).slotDesigns(rules.White, -1, nil)) }
	first := true
	for round := 0; ; round++ {
		// White's action: a king move.
		play(t, p, firstOf(t, p, PieceMove))
		before := score()
		m, err := ChooseDesign(p)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Playable(m) {
			t.Fatalf("round %d: %s is not playable", round, FormatMove(p, m))
		}
		if first && KindOf(m) != Redesign {
			t.Fatalf("from the start: %s, want a design change", FormatMove(p, m))
		}
		first = false
		text := FormatMove(p, m)
		p.Make(m)
		if KindOf(m) == Pass {
			break
		}
		if after := z.slotScore(z.stateOf(p).slotDesigns(rules.White, -1, nil)); after <= before {
			t.Errorf("round %d: %s: score %d -> %d", round, text, before, after)
		}
		if round == 12 {
			t.Fatalf("still changing designs after %d rounds: %v", round, DesignSlots(p, rules.White))
		}
		// Black: a king move and no change.
		play(t, p, firstOf(t, p, PieceMove), "&-")
	}
	var got []string
	for _, l := range DesignSlots(p, rules.White) {
		got = append(got, DesignOf(p, l))
	}
	// What is left of the start's slots (pawn 45 a zorkmid, royal-K) has
	// made way, but for the strongest pieces.
	poor := 0
	for _, d := range got {
		if pi := mustPrice(t, d); !pi.Royal && Value(v, d)/pi.Price < 90 {
			poor++
		}
	}
	if poor > 1 || slices.Contains(got, "fmWfcF") {
		t.Errorf("slots after the changes: %v", got)
	}
	t.Logf("slots: %v", got)
}

// firstOf returns the text of the first legal move of kind k in p.
func firstOf(t *testing.T, p *rules.Position, k Kind) string {
	t.Helper()
	for _, m := range p.LegalMoves(nil) {
		if KindOf(m) == k {
			return notation.Coord(p, m)
		}
	}
	t.Fatalf("no move of kind %d in %s", k, p.FEN())
	return ""
}

// TestActionsOnly checks that the copy for a search offers "no change"
// alone in the design phase and leaves the original alone.
func TestActionsOnly(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	play(t, p, "e1e2")
	q, err := ActionsOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(q); len(got) != 1 || got[0] != "&-" {
		t.Errorf("actions only: %v", got)
	}
	if n := len(p.LegalMoves(nil)); n < 100 {
		t.Errorf("the original lists %d design moves", n)
	}
	if q.Hash() != p.Hash() {
		t.Error("the copy hashes differently")
	}
	other, err := rules.Compile(rules.Spec{Name: "x", Files: 8, Ranks: 8, Pieces: []rules.PieceSpec{{Letter: 'K', Betza: "K", Royal: true}}, Start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ActionsOnly(other.Start()); err != ErrNotCsipgs {
		t.Errorf("another variant: %v", err)
	}
}

// TestReserveValue checks that reserve pieces count less when the royals
// have no room to place them.
func TestReserveValue(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	rook, pawn := Value(v, "R"), Value(v, "fmWfcF")
	tests := []struct {
		name string
		fen  string
		want int
	}{
		{"room", "4k3/8/8/8/8/8/8/4K3 w 0/0 RP/- PRNBKQ/PRNBKQ 0 1 " + table, (rook + pawn) * reserveShare / 100},
		{"walled in", "4k3/8/8/8/8/8/PP6/KP6 w 0/0 RP/- PRNBKQ/PRNBKQ 0 1 " + table, (rook + pawn) * stuckShare / 100},
		{"one square", "4k3/8/8/8/8/8/P7/KP6 w 0/0 RP/- PRNBKQ/PRNBKQ 0 1 " + table, rook*reserveShare/100 + pawn*stuckShare/100},
		{"none", "4k3/8/8/8/8/8/8/4K3 w 0/0 -/RP PRNBKQ/PRNBKQ 0 1 " + table, 0},
	}
	for _, tc := range tests {
		p := mustFEN(t, v, tc.fen)
		z, _ := ensure(p)
		if got := z.reserveValue(p, z.stateOf(p), rules.White); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestDeterminizeHidden checks that a sample from a view holds the
// opponent's unseen pieces the public economy tells of (a view of the
// view too), on squares the viewer does not see, and that under
// HideEconomy only a royal is placed.
func TestDeterminizeHidden(t *testing.T) {
	for _, hide := range []bool{false, true} {
		v := newVariant(t, Options{Moderated: true, HideEconomy: hide})
		truth := mustFEN(t, v, "4k3/8/8/8/r7/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
		view := truth.View(rules.White)
		if n := len(view.Position.Pieces(rules.Black)); n != 0 {
			t.Fatalf("the view shows %d black pieces", n)
		}
		again := view.Position.View(rules.White)
		det := v.Ext().(rules.Determinizer).Determinize
		for seed := range uint64(20) {
			q := det(again, rand.New(rand.NewPCG(seed, 1)))
			var letters []byte
			for _, s := range q.Pieces(rules.Black) {
				if view.Visible.Has(s) {
					t.Errorf("a black piece on %v, which White sees", s)
				}
				letters = append(letters, q.Variant().PieceLetter(q.At(s)))
			}
			slices.Sort(letters)
			want := "kr"
			if hide {
				want = "k"
			}
			if string(letters) != want {
				t.Errorf("hide %v, seed %d: black pieces %q, want %q", hide, seed, letters, want)
			}
		}
	}
}

// TestRecurrences: with the credit every turn no csipgs position repeats,
// but the search must see the cycle of moves (Position.Recurrences, the
// treasuries left out), or the side ahead checks for ever.
func TestRecurrences(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	cycle := []string{"Ke2", "&-", "Ke7", "&-", "Ke1", "&-", "Ke8", "&-"}
	for round := 1; round <= 2; round++ {
		for _, s := range cycle {
			m, err := notation.ParseMove(p, s)
			if err != nil {
				t.Fatal(err)
			}
			p.Make(m)
		}
		if got := p.Repetitions(); got != 1 {
			t.Errorf("round %d: Repetitions = %d, want 1 (the treasuries differ)", round, got)
		}
		if got := p.Recurrences(); got != round+1 {
			t.Errorf("round %d: Recurrences = %d, want %d", round, got, round+1)
		}
	}
}
