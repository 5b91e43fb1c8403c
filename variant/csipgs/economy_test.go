package csipgs

import (
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestHideEconomyDesigns checks that HideEconomy hides the opponent's
// design slots with its treasury and reserve (CS-M4): in the view, in the
// view's FEN (which reads back), in what the opponent may do there, and in
// the record of its design decisions; a design the viewer sees on the
// board stays known. Without the option everything stays public.
func TestHideEconomyDesigns(t *testing.T) {
	// Black designs in its design phase; its slots hold C=FA, which
	// nothing else uses, and A=WD, whose piece on d2 White sees next to
	// its King. Black's reserve holds a C.
	const fen = "4k3/8/8/8/8/8/3a4/4K3 b& 3/7 -/C PRNBKQ/ARNCKQ 0 10 {A=WD,B=B,C=FA,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	tests := []struct {
		hide       bool
		blackSlots string
		designs    string // the FEN's designs field
		fa         string // DesignOf(view, 'C')
		blackMoney int
		observed   string
	}{
		{false, "ARNCKQ", "PRNBKQ/ARNCKQ", "FA", 7, "&C>P"},
		{true, "??????", "PRNBKQ/??????", "", 0, ""},
	}
	for _, tc := range tests {
		v := newVariant(t, Options{Moderated: true, HideEconomy: tc.hide})
		p := mustFEN(t, v, fen)
		q := p.View(rules.White).Position
		if q == nil {
			t.Fatal("no view")
		}
		if got := DesignSlots(q, rules.Black); string(got[:]) != tc.blackSlots {
			t.Errorf("hide %v: Black's slots %q, want %q", tc.hide, got[:], tc.blackSlots)
		}
		if got := DesignSlots(q, rules.White); string(got[:]) != "PRNBKQ" {
			t.Errorf("hide %v: White's own slots %q", tc.hide, got[:])
		}
		if got := DesignOf(q, 'C'); got != tc.fa {
			t.Errorf("hide %v: C is %q in the view, want %q", tc.hide, got, tc.fa)
		}
		if got := DesignOf(q, 'A'); got != "WD" {
			t.Errorf("hide %v: the black WD White sees on d2 is %q in the view", tc.hide, got)
		}
		if q.Money(rules.Black) != tc.blackMoney {
			t.Errorf("hide %v: Black's treasury %d in the view", tc.hide, q.Money(rules.Black))
		}
		f := q.FEN()
		if fields := strings.Fields(f); fields[4] != tc.designs {
			t.Errorf("hide %v: view FEN %s, want designs %s", tc.hide, f, tc.designs)
		}
		back, err := q.Variant().ParseFEN(f)
		if err != nil || back.FEN() != f {
			t.Errorf("hide %v: the view FEN %s does not read back: %v", tc.hide, f, err)
		}
		if tc.hide && back != nil && !strings.Contains(back.FEN(), "/??????") {
			t.Errorf("hide %v: the hidden slots did not survive FEN: %s", tc.hide, back.FEN())
		}
		n := 0
		for _, m := range q.LegalMoves(nil) {
			if KindOf(m) == Redesign {
				n++
			}
		}
		if tc.hide && n != 0 || !tc.hide && n == 0 {
			t.Errorf("hide %v: Black has %d design changes in White's view", tc.hide, n)
		}
		m, err := ParseMove(p, "&C>P")
		if err != nil {
			t.Fatal(err)
		}
		text, note := Observed(p, m, rules.White)
		if text != tc.observed || tc.hide && note == "" {
			t.Errorf("hide %v: White observes Black's &C>P as %q (%q)", tc.hide, text, note)
		}
	}
}
