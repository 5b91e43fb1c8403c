package csipgs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
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
	terrain := newVariant(t, Options{Moderated: true, Terrain: []geom.Square{geom.Sq(4, 1)}})
	seen := terrain.Start().View(rules.White).Position.Variant() // the view's board: the terrain White has seen
	configured, err := v.Configure(map[string]string{"Moderated": "1"})
	if err != nil {
		t.Fatal(err)
	}
	// a variant named csipgs that New did not build
	impostor, err := rules.Compile(rules.Spec{Name: Name, Files: 8, Ranks: 8,
		Pieces: []rules.PieceSpec{{Letter: 'K', Betza: "K", Royal: true}}, Start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		v              *rules.Variant
		csipgs, hidden bool
	}{
		{"default", v, true, false},
		{"moderated", mod, true, true},
		{"a view's board", seen, true, true},
		{"configured", configured, true, true},
		{"another variant", other, false, false},
		{"not built by New", impostor, false, false},
		{"nil", nil, false, false},
	}
	if seen == terrain {
		t.Fatal("the view has the game's variant; want the variant of the terrain White has seen")
	}
	for _, tc := range tests {
		if IsCsipgs(tc.v) != tc.csipgs || Moderated(tc.v) != tc.hidden {
			t.Errorf("%s: IsCsipgs %v, Moderated %v", tc.name, IsCsipgs(tc.v), Moderated(tc.v))
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

// TestBuyRefusal checks the reasons a buy is refused (CS-6c), which the
// notation and the CLI's shop give, against the moves the rules list.
func TestBuyRefusal(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	const table = " {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	tests := []struct {
		name, fen string
		letter    byte
		want      string // a part of the reason; "" for a legal buy
	}{
		{"affordable", "4k3/8/8/8/8/8/8/4K3 w 1/0 -/- PRNBKQ/PRNBKQ 0 1" + table, 'P', ""},
		{"too dear", "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1" + table, 'P', "1 short"},
		{"not a design", "4k3/8/8/8/8/8/8/4K3 w 9/0 -/- PRNBKQ/PRNBKQ 0 1" + table, 'Z', "not one of white's designs"},
		{"in check", "4k3/8/8/8/8/8/4r3/4K3 w 9/0 -/- PRNBKQ/PRNBKQ 0 1" + table, 'P', "royal is in check"},
		{"design phase", "4k3/8/8/8/8/8/8/4K3 w& 9/0 -/- PRNBKQ/PRNBKQ 0 2" + table, 'P', "design phase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := v.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			err = BuyRefusal(p, tt.letter)
			_, perr := notation.ParseMove(p, "+"+string(tt.letter))
			if tt.want == "" {
				if err != nil || perr != nil {
					t.Errorf("BuyRefusal = %v, ParseMove = %v; want a legal buy", err, perr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("BuyRefusal = %v, want %q", err, tt.want)
			}
			if perr == nil || !strings.Contains(perr.Error(), tt.want) {
				t.Errorf("ParseMove(+%c) = %v, want the reason %q", tt.letter, perr, tt.want)
			}
		})
	}
}

// TestChecked: the squares of the royals in check (CS-11, CS-12), none in
// the design phase, and none in the moderated mode, where royals are
// captured rather than checked.
func TestChecked(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	tests := []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/4r3/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + canonTable, "[e1]"},
		{"4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + canonTable, "[]"},
		{"4k3/8/8/8/8/8/4r3/K3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + canonTable, "[e1]"},
	}
	for _, tt := range tests {
		p := mustFEN(t, v, tt.fen)
		if got := fmt.Sprint(p.Checked(nil)); got != tt.want {
			t.Errorf("%s: Checked = %s, want %s", tt.fen, got, tt.want)
		}
	}
	o := DefaultOptions()
	o.Moderated = true
	m := mustFEN(t, newVariant(t, o), "4k3/8/8/8/8/8/4r3/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 "+canonTable)
	if got := m.Checked(nil); len(got) != 0 {
		t.Errorf("moderated: Checked = %v, want none", got)
	}
}

// TestReach checks the squares a piece reaches by its design: a rider up
// to the first piece in its way (that square included), a leaper wherever
// it lands, a pawn's moves by its colour, whether the piece stands there
// or not; nothing for a type the table does not know.
func TestReach(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/r2P4/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
	sq := func(s string) geom.Square {
		x, err := v.Board().ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	tests := []struct {
		name string
		from string
		pc   rules.Piece
		want string
	}{
		{"rook, blocked", "a4", rules.MakePiece(rules.Black, rules.Type('R'-'A'+1)), "a1 a2 a3 a5 a6 a7 a8 b4 c4 d4"},
		{"knight, elsewhere", "b1", rules.MakePiece(rules.White, rules.Type('N'-'A'+1)), "a3 c3 d2"},
		{"white pawn", "e2", rules.MakePiece(rules.White, rules.Type('P'-'A'+1)), "d3 e3 f3"},
		{"black pawn", "e7", rules.MakePiece(rules.Black, rules.Type('P'-'A'+1)), "d6 e6 f6"},
		{"unknown type", "e4", rules.MakePiece(rules.White, rules.Type('Z'-'A'+1)), ""},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range Reach(p, sq(tc.from), tc.pc) {
			got = append(got, s.String())
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, got, tc.want)
		}
	}
}
