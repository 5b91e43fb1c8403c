package csipgs

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestDesignMove checks the design move the editor and the engine build
// from a text, and the reasons the rules refuse one.
func TestDesignMove(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	designFEN := "4k3/8/8/8/8/8/8/4K3 w& 0/0 -/- PRNBKQ/PRNBKQ 0 2 {A=FfR,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	tests := []struct {
		name   string
		fen    string
		slot   byte
		design string
		want   string // the move's text, or a part of the error
		isErr  bool
	}{
		{"new design", designFEN, 'Q', "WDA", "&Q>C=WDA", false},
		{"lower-case slot", designFEN, 'q', "WDA", "&Q>C=WDA", false},
		{"re-adopt by text", designFEN, 'Q', "FfR", "&Q>A", false},
		{"canonical text", designFEN, 'R', "WW", "holds R already", true},
		{"same design", designFEN, 'R', "R", "holds R already", true},
		{"no such slot", designFEN, 'Z', "N", `no slot of white holds the letter "Z"`, true},
		{"fault", designFEN, 'Q', "FfX", "at 3 ('X')", true},
		{"relay", designFEN, 'Q', "relay-N", "Relay option", true},
		{"action phase", "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 2 " + table, 'Q', "WDA", "not the design phase", true},
	}
	for _, tc := range tests {
		p := mustFEN(t, v, tc.fen)
		m, err := DesignMove(p, tc.slot, tc.design)
		switch {
		case tc.isErr && err == nil:
			t.Errorf("%s: %s accepted", tc.name, FormatMove(p, m))
		case tc.isErr && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: error %q, want %q", tc.name, err, tc.want)
		case !tc.isErr && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !tc.isErr:
			if got := FormatMove(p, m); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			}
			if !p.Playable(m) {
				t.Errorf("%s: %s is not playable", tc.name, FormatMove(p, m))
			}
		}
	}
	p := mustFEN(t, v, designFEN)
	if _, err := DesignMove(p, 'Q', "FfX"); !errors.Is(err, ErrDesign) {
		t.Errorf("a bad design: %v does not wrap ErrDesign", err)
	}
}

// TestUnlisted checks that a design outside the catalogue is playable
// though not listed, and that other unlisted moves are not.
func TestUnlisted(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	play(t, p, "e1e2")
	m, err := notation.ParseMove(p, "&Q>A=WDA")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range p.LegalMoves(nil) {
		if l == m {
			t.Fatal("WDA is in the catalogue")
		}
	}
	if !p.Playable(m) {
		t.Error("&Q>A=WDA is not playable")
	}
	q := v.Start()
	if q.Playable(m) {
		t.Error("a design move is playable in the action phase")
	}
	if q.Playable(buyMove('Q' - 'A' + 1)) {
		t.Error("an unaffordable buy is playable")
	}
}

// TestAPI checks the small functions the commands and the match use.
func TestAPI(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	mod := newVariant(t, Options{Moderated: true})
	other, err := rules.Compile(rules.Spec{Name: "x", Files: 8, Ranks: 8,
		Pieces: []rules.PieceSpec{{Letter: 'K', Betza: "K", Royal: true}}, Start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		v              *rules.Variant
		csipgs, hidden bool
	}{
		{v, true, false},
		{mod, true, true},
		{other, false, false},
	}
	for _, tc := range tests {
		if IsCsipgs(tc.v) != tc.csipgs || Moderated(tc.v) != tc.hidden {
			t.Errorf("%s: IsCsipgs %v, Moderated %v", tc.v.Name(), IsCsipgs(tc.v), Moderated(tc.v))
		}
	}
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 8/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
	costs := map[string]int{"+Q": 9, "+R": 5, "+P": 2, "e1e2": 0}
	for text, want := range costs {
		m, err := notation.ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		if got := Cost(p, m); got != want {
			t.Errorf("Cost(%s) = %d, want %d", text, got, want)
		}
	}
	if Cost(p, rules.NewMove(0, 0, rules.Special).WithPayload(marker|kBuy|31)) != 0 {
		t.Error("a buy of letter 31 has a cost")
	}
	gen := GeneratedDesigns(v)
	if len(gen) < 10 {
		t.Fatalf("%d generated designs", len(gen))
	}
	for i, pi := range gen {
		if i > 0 && pi.Price < gen[i-1].Price {
			t.Errorf("generated designs out of price order: %v", gen)
		}
		back, err := Price(pi.Design)
		if err != nil || back.Price != pi.Price || pi.Royal {
			t.Errorf("generated %s: %v, %v", pi.Design, back, err)
		}
	}
	if GeneratedDesigns(other) != nil {
		t.Error("designs generated for another variant")
	}
}

// TestDesignAnyLetter: "&Q>?=design" names a new design without its
// letter; the rules give it the free one, as DesignMove does.
func TestDesignAnyLetter(t *testing.T) {
	v, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	p.Make(p.LegalMoves(nil)[0]) // the action; now the design phase
	want, err := DesignMove(p, 'Q', "FfR")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseMove(p, "&Q>?=FfR")
	if err != nil || got != want {
		t.Fatalf("&Q>?=FfR: %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"&Q>?=", "&Q>?=XYZ", "&Z>?=FfR", "&Q>?FfR"} {
		if _, err := ParseMove(p, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
