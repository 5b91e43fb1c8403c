package csipgs

import (
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// X1: the start: credit 1, nothing affordable, five king moves.
func TestX1Start(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	want := "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	if got := p.FEN(); got != want {
		t.Fatalf("start FEN %s, want %s", got, want)
	}
	q := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 "+table)
	if q.FEN() != want || q.Hash() != p.Hash() {
		t.Errorf("the spec's start FEN reads as %s (hash %x vs %x)", q.FEN(), q.Hash(), p.Hash())
	}
	got := texts(p)
	slices.Sort(got)
	if w := []string{"Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2"}; !slices.Equal(got, w) {
		t.Errorf("start actions %v, want %v", got, w)
	}
	if Available(p) != 1 {
		t.Errorf("available %d, want 1", Available(p))
	}
	play(t, p, "Ke1-e2")
	if !DesignPhase(p) || p.Turn() != rules.White || p.Money(rules.White) != 1 {
		t.Fatalf("after the action: %s", p.FEN())
	}
	// Every slot may be changed.
	slots := map[int]bool{}
	for _, m := range p.LegalMoves(nil) {
		if KindOf(m) == Redesign {
			s, _, _ := designFields(m)
			slots[s] = true
		}
	}
	if len(slots) != Slots || !legal(p, "&-") {
		t.Errorf("design phase covers slots %v", slots)
	}
	play(t, p, "&-")
	if p.Turn() != rules.Black || DesignPhase(p) || p.Fullmove() != 1 {
		t.Errorf("after the design phase: %s", p.FEN())
	}
}

// X2: the second turn's credit pays for a pawn.
func TestX2BuyPawn(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 1/0 -/- PRNBKQ/PRNBKQ 0 2 "+table)
	if !legal(p, "$P") || legal(p, "$N") {
		t.Fatalf("$P legal %v, $N legal %v; want true, false", legal(p, "$P"), legal(p, "$N"))
	}
	play(t, p, "$P")
	if p.Money(rules.White) != 0 || p.Pocket(rules.White, v.TypeOf('P')) != 1 {
		t.Errorf("after $P: %s", p.FEN())
	}
	play(t, p, "&-")
	if got := p.FEN(); got != "4k3/8/8/8/8/8/8/4K3 b 0/0 P/- PRNBKQ/PRNBKQ 1 2 "+canonTable {
		t.Errorf("after $P &-: %s", got)
	}
}

const canonTable = "{B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"

// X3: 16 pieces: no buying.
func TestX3PieceLimit(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/PPPPPPP1/4K3 w 100/0 PPPPPPPP/- PRNBKQ/PRNBKQ 0 20 "+table)
	for _, s := range texts(p) {
		if strings.HasPrefix(s, "+") {
			t.Errorf("%s is legal with 16 pieces", s)
		}
	}
	// One piece fewer: buying is allowed, and royals count (A-f).
	p = mustFEN(t, v, "4k3/8/8/8/8/8/PPPPPP2/4K3 w 100/0 PPPPPPPP/- PRNBKQ/PRNBKQ 0 20 "+table)
	if !legal(p, "$Q") {
		t.Error("$Q illegal with 15 pieces")
	}
	play(t, p, "$Q", "&-")
	if _, err := v.ParseFEN("4k3/8/8/8/8/8/PPPPPPP1/4K3 w 100/0 PPPPPPPPP/- PRNBKQ/PRNBKQ 0 20 " + table); err == nil {
		t.Error("a FEN with 17 white pieces was accepted")
	}
}

// X4: a single king in check may only move out of check.
func TestX4Check(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/r3K3 w 50/0 N/- PRNBKQ/PRNBKQ 0 20 "+table)
	got := texts(p)
	slices.Sort(got)
	if w := []string{"Ke1-d2", "Ke1-e2", "Ke1-f2"}; !slices.Equal(got, w) {
		t.Errorf("in check: %v, want %v", got, w)
	}
	if !InCheck(p, rules.White) || InCheck(p, rules.Black) {
		t.Error("InCheck")
	}
}

// X5: two royals, one in check.
func TestX5TwoRoyals(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "r3k3/8/8/8/K7/8/8/4K3 w 10/0 N/- PRNBKQ/PRNBKQ 0 20 "+table)
	for _, tc := range []struct {
		move  string
		legal bool
	}{
		{"N@d2", true}, {"N@f1", true}, {"N@b4", false}, {"N@b3", false}, {"N@a5", false},
		{"$P", false}, {"$N", false}, {"Ke1-e2", true}, {"Ka4-b4", true}, {"Ka4-a5", true},
	} {
		if got := legal(p, tc.move); got != tc.legal {
			t.Errorf("%s legal = %v, want %v", tc.move, got, tc.legal)
		}
	}
}

// X6: stalemate is a loss (CS-7).
func TestX6Stalemate(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/1q6/8/K7 w 0/9 -/- PRNBKQ/PRNBKQ 0 30 "+table)
	st := p.Status()
	if st.Result != rules.BlackWins || st.Reason != rules.ReasonStalemate {
		t.Errorf("status %v, want 0-1 by no legal action", st)
	}
	p = mustFEN(t, v, "4k3/8/8/8/8/1q6/8/K7 w 1/9 -/- PRNBKQ/PRNBKQ 0 30 "+table)
	if st := p.Status(); st.Over() || !legal(p, "$P") {
		t.Errorf("with 2 zorkmids: %v, $P legal %v", st, legal(p, "$P"))
	}
}

// X7: a design made in the design phase can first be bought next turn.
func TestX7DesignTiming(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 3/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	if legal(p, "$Y") {
		t.Fatal("$Y before Y exists")
	}
	play(t, p, "Ke1-e2")
	if legal(p, "$Q") || legal(p, "$Y") {
		t.Error("a buy in the design phase")
	}
	play(t, p, "&Q>Y=FfR")
	if got := DesignSlots(p, rules.White); string(got[:]) != "PRNBKY" {
		t.Errorf("white slots %s", got[:])
	}
	if DesignOf(p, 'Y') != "FfR" || DesignOf(p, 'Q') != "Q" { // Q stays: black's slot
		t.Errorf("Y=%q Q=%q", DesignOf(p, 'Y'), DesignOf(p, 'Q'))
	}
	if legal(p, "$Y") {
		t.Error("$Y in black's turn")
	}
	play(t, p, "Ke8-e7", "&-")
	if !legal(p, "$Y") || Available(p) != 5 {
		t.Errorf("$Y illegal on the next turn with %d", Available(p))
	}
	if legal(p, "$Q") {
		t.Error("$Q legal after the Q slot was replaced")
	}
	play(t, p, "$Y")
	if p.Money(rules.White) != 1 {
		t.Errorf("after $Y (4): treasury %d, want 1", p.Money(rules.White))
	}
}

// X8: pieces keep their design.
func TestX8KeepDesign(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/3P4/8/8/4K3 w 3/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	play(t, p, "Ke1-e2", "&P>Y=FfR", "Ke8-e7", "&-")
	if got := texts(p); !has(got, "Pd4-d5") || has(got, "Pd4-c5") || has(got, "Pd4-d6") {
		t.Errorf("the pawn's moves after &P>Y: %v", got)
	}
	if DesignOf(p, 'P') != "fmWfcF" {
		t.Errorf("P is %q", DesignOf(p, 'P'))
	}
	if legal(p, "$P") {
		t.Error("$P legal with no slot holding P")
	}
	play(t, p, "Pd4-d5", "&Y>P")
	if DesignSlots(p, rules.White)[0] != 'P' {
		t.Errorf("slots %s", DesignSlots(p, rules.White))
	}
}

// CS-9: no promotion, no double step, no castling.
func TestCS9(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/3P4/8/8/8/8/4P3/R3K2R w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	got := texts(p)
	if has(got, "Pe2-e4") || !has(got, "Pe2-e3") {
		t.Errorf("double step: %v", got)
	}
	if has(got, "Ke1-g1") || has(got, "Ke1-c1") {
		t.Errorf("castling: %v", got)
	}
	play(t, p, "Pd7-d8", "&-")
	if DesignOf(p, 'P') != "fmWfcF" || !strings.HasPrefix(p.FEN(), "3Pk3/") {
		t.Errorf("after d8: %s", p.FEN())
	}
	play(t, p, "Ke8-f7", "&-")
	for _, s := range texts(p) {
		if strings.HasPrefix(s, "Pd8") {
			t.Errorf("a pawn on its last row moves: %s", s)
		}
	}
}

// CS-11: one royal may not move into check; pinned pieces stay.
func TestCS11(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/4r3/8/8/8/8/4R3/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	got := texts(p)
	if has(got, "Re2-d2") || !has(got, "Re2xe7") || !has(got, "Re2-e5") {
		t.Errorf("pinned rook: %v", got)
	}
	p = mustFEN(t, v, "4k3/8/8/8/8/8/3r4/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	got = texts(p)
	if has(got, "Ke1-e2") || has(got, "Ke1-d1") || !has(got, "Ke1xd2") || !has(got, "Ke1-f1") {
		t.Errorf("king moves: %v", got)
	}
}

// CS-12 and CS-13: with two royals check may be ignored and a royal
// captured; with one left the check rules apply again.
func TestCS12CS13(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/K3K2r w 0/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
	// Ke1 is attacked by h1 (through f1, g1): with two royals White may ignore it.
	if !legal(p, "Ka1-b1") || !legal(p, "Ka1-a2") {
		t.Fatalf("two royals: %v", texts(p))
	}
	if legal(p, "$P") {
		t.Error("a buy while a royal is in check")
	}
	play(t, p, "Ka1-a2", "&-")
	if !legal(p, "Rh1xe1") {
		t.Fatal("the royal cannot be captured")
	}
	play(t, p, "Rh1xe1", "&-")
	if st := p.Status(); st.Over() {
		t.Fatalf("after the capture: %v", st)
	}
	// One royal left: CS-11.
	got := texts(p)
	if has(got, "Ka2-b1") || has(got, "Ka2-a1") || !has(got, "Ka2-b3") {
		t.Errorf("one royal left: %v", got)
	}
	// Moving a royal into attack with two royals.
	p = mustFEN(t, v, "4k3/8/8/8/8/8/r7/K3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
	if !legal(p, "Ke1-d2") {
		t.Error("two royals: cannot move into attack")
	}
}

// CS-13, CS-14: checkmate of the last royal.
func TestCheckmate(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "1r2k3/8/8/8/8/8/1q6/K7 w 50/0 N/- PRNBKQ/PRNBKQ 0 30 "+table)
	if st := p.Status(); st.Result != rules.BlackWins || st.Reason != rules.ReasonCheckmate {
		t.Fatalf("checkmate with money and a reserve: %v", st)
	}
	p = mustFEN(t, v, "4k3/8/8/8/8/8/8/K1q5 w 50/0 N/- PRNBKQ/PRNBKQ 0 30 "+table)
	if st := p.Status(); st.Over() {
		t.Errorf("a king with escapes: %v", st)
	}
}

// A-j: transfers go next to a royal, pawns even to the last row.
func TestTransfers(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "3k4/8/8/8/8/8/8/4K3 b 0/0 -/P PRNBKQ/PRNBKQ 0 10 "+table)
	got := texts(p)
	n := 0
	for _, s := range got {
		if strings.HasPrefix(s, "P@") {
			n++
		}
	}
	if n != 5 || !has(got, "P@c8") || !has(got, "P@d7") {
		t.Errorf("transfers %v", got)
	}
	play(t, p, "P@c8", "&-")
	if p.Pocket(rules.Black, v.TypeOf('P')) != 0 || p.At(sq(t, v, "c8")) != rules.MakePiece(rules.Black, v.TypeOf('P')) {
		t.Errorf("after P@c8: %s", p.FEN())
	}
	if FiftyMoveCounter(p) != 0 {
		t.Errorf("a transfer did not reset the counter")
	}
}

// CS-6c: the price is paid, rounded up; buying needs money.
func TestBuyPrices(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 10/0 -/- PRNBKQ/PRNBKQ 0 10 "+table)
	play(t, p, "$Q")
	if p.Money(rules.White) != 2 {
		t.Errorf("11 - 9 = %d", p.Money(rules.White))
	}
	play(t, p, "&-", "Ke8-d8", "&-")
	if Available(p) != 3 || !legal(p, "$B") || !legal(p, "$P") || legal(p, "$R") {
		t.Errorf("with 3: %v", texts(p))
	}
}

// CS-10, A-e: royals in reserve count only with ReserveRoyalsCount.
func TestReserveRoyals(t *testing.T) {
	fen := "4k3/8/8/8/8/8/3r4/4K3 w 0/0 K/- PRNBKQ/PRNBKQ 0 4 " + table
	p := mustFEN(t, newVariant(t, DefaultOptions()), fen)
	if legal(p, "Ke1-e2") {
		t.Error("moving into check with a royal in reserve (default)")
	}
	o := DefaultOptions()
	o.ReserveRoyalsCount = true
	p = mustFEN(t, newVariant(t, o), fen)
	if !legal(p, "Ke1-e2") {
		t.Error("ReserveRoyalsCount: moving into check refused")
	}
}

// CS-15: the 50-move counter.
func TestFiftyMoves(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 99 60 "+table)
	play(t, p, "Ke1-e2", "&-")
	if st := p.Status(); st.Result != rules.Draw || st.Reason != rules.ReasonNMoveRule {
		t.Errorf("after 100 actions: %v", st)
	}
	p = mustFEN(t, v, "4k3/8/8/8/8/8/4P3/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 99 60 "+table)
	play(t, p, "Pe2-e3", "&-")
	if FiftyMoveCounter(p) != 0 || p.Status().Over() {
		t.Errorf("a pawn move: counter %d", FiftyMoveCounter(p))
	}
	o := DefaultOptions()
	o.MaxTurns = 2
	v = newVariant(t, o)
	p = v.Start()
	play(t, p, "Ke1-e2", "&-", "Ke8-e7", "&-", "Ke2-e1", "&-", "Ke7-e8", "&-")
	if st := p.Status(); st.Result != rules.Draw {
		t.Errorf("MaxTurns 2: %v", st)
	}
}

// RoyalCapture (CS-14, CS-M5): check does not restrict; losing the last
// royal loses.
func TestRoyalCapture(t *testing.T) {
	o := DefaultOptions()
	o.RoyalCapture = true
	v := newVariant(t, o)
	p := mustFEN(t, v, "4k3/8/8/8/8/8/3r4/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	if !legal(p, "Ke1-e2") {
		t.Fatal("royal capture: cannot move into attack")
	}
	play(t, p, "Ke1-e2", "&-", "Rd2xe2")
	if st := p.Status(); st.Result != rules.BlackWins || st.Reason != rules.ReasonNoRoyal {
		t.Errorf("after the capture of the king: %v", st)
	}
}

// Relay (A-g): a piece defended by a relay piece moves with its powers.
func TestRelay(t *testing.T) {
	fen := "4k3/8/8/8/8/8/8/4K2Y w 0/0 -/- PRNBKQ/PRNBKQ 0 4 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,Y=relay-W}"
	if _, err := newVariant(t, DefaultOptions()).ParseFEN(fen); err == nil {
		t.Error("a relay design without the Relay option")
	}
	o := DefaultOptions()
	o.Relay = true
	v := newVariant(t, o)
	// The knight on e1 is defended by the relay Wazir on d1: it also moves
	// as a Wazir; the Wazir is not defended by anything.
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/3YN2K w 0/0 -/- PRNBKQ/PRNBKQ 0 4 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,Y=relay-W}")
	got := texts(p)
	if !has(got, "Ne1-e2") || !has(got, "Ne1-f1") || !has(got, "Ne1-f3") || has(got, "Yd1-c2") {
		t.Errorf("relay moves: %v", got)
	}
	// Check through a relayed power: the black knight on d2, defended by
	// the relay Wazir on d3, attacks e2 as a Wazir.
	p = mustFEN(t, v, "4k3/8/8/8/8/3y4/3nK3/8 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,Y=relay-W}")
	if !InCheck(p, rules.White) {
		t.Error("no check by a relayed power")
	}
	got = texts(p)
	if !has(got, "Ke2-e1") || has(got, "Ke2-d1") || has(got, "Ke2-e3") || has(got, "Ke2xd2") || !has(got, "Ke2xd3") {
		t.Errorf("king moves against relay: %v", got)
	}
	if pi := mustPrice(t, "relay-W"); pi.Price != 3 {
		t.Errorf("relay-W costs %d", pi.Price)
	}
}

func TestOptionsTags(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	tags := map[string]string{}
	for _, o := range v.Options() {
		tags[o.Name] = o.Value
	}
	if tags["Relay"] != "0" || tags["Moderated"] != "0" || tags["MapSize"] != "8x8" {
		t.Errorf("tags %v", tags)
	}
	w, err := v.Configure(map[string]string{"Relay": "1", "Moderated": "1", "MapSize": "16x16", "Terrain": "c3,d5", "Visibility": "Radius(2)", "Event": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Board().Files != 16 || !strings.HasPrefix(w.StartFEN(), "8k7/") {
		t.Errorf("16x16: %s", w.StartFEN())
	}
	back := map[string]string{}
	for _, o := range w.Options() {
		back[o.Name] = o.Value
	}
	if back["Terrain"] != "c3,d5" || back["Visibility"] != "Radius(2)" || back["Relay"] != "1" {
		t.Errorf("tags back %v", back)
	}
	x, err := v.Configure(back)
	if err != nil {
		t.Fatal(err)
	}
	if x.StartFEN() != w.StartFEN() {
		t.Errorf("configured twice: %s vs %s", x.StartFEN(), w.StartFEN())
	}
	for _, bad := range []map[string]string{
		{"Relay": "maybe"}, {"MapSize": "20x20"}, {"Terrain": "e1"}, {"Terrain": "z9"},
		{"Visibility": "Radius(0)"}, {"GForwardMultiplier": "0.6"}, {"Plunder": "1"}, {"MaxTurns": "-1"},
		{"FiftyMoveResetDesigns": "R4"},
	} {
		if _, err := v.Configure(bad); err == nil {
			t.Errorf("Configure(%v) accepted", bad)
		}
	}
}

func TestNotation(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 10/0 N/- PRNBKQ/PRNBKQ 0 10 "+table)
	for _, s := range []string{"Ke1-e2", "e1e2", "Ke2", "N@d2", "$Q"} {
		m, err := notation.ParseMove(p, s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if s == "Ke2" {
			continue // SAN is the notation package's
		}
		if m2, err := ParseMove(p, s); err != nil || m2 != m {
			t.Errorf("csipgs.ParseMove(%s) = %v, %v", s, m2, err)
		}
	}
	m, _ := notation.ParseMove(p, "$Q")
	if c := notation.Coord(p, m); c != "+Q" {
		t.Errorf("Coord of a buy: %q", c)
	}
	if _, err := ParseMove(p, "$Z"); err == nil {
		t.Error("$Z read")
	}
	if _, err := ParseMove(p, "&-"); err == nil {
		t.Error("&- read in the action phase")
	}
	play(t, p, "Ke1-e2")
	for _, s := range []string{"&-", "&Q>Y=FfR", "&Q>Y=fsR", "&P>N", "&K>Z=royal-W"} {
		m, err := notation.ParseMove(p, s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if c := notation.Coord(p, m); c != s {
			t.Errorf("%s written back as %s", s, c)
		}
	}
	for _, s := range []string{"&Q>Y=R4", "&X>Y=W", "&Q>Q", "&Q>P=FfR", "Ke2-e3", "&Q>Y=relay-W"} {
		if _, err := notation.ParseMove(p, s); err == nil {
			t.Errorf("%s read", s)
		}
	}
	// The turn token as R-PGN writes it.
	q := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 10/0 N/- PRNBKQ/PRNBKQ 0 10 "+table)
	plies, err := notation.ParseTurn(q, "N@d2,&Q>Y=FfR")
	if err != nil || len(plies) != 2 {
		t.Fatalf("ParseTurn: %v", err)
	}
	if tok, err := notation.FormatTurn(q, plies[:1]); err == nil {
		t.Errorf("a turn without its design phase formats as %q", tok)
	}
}

func sq(t *testing.T, v *rules.Variant, name string) geom.Square {
	t.Helper()
	s, err := v.Board().ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// CS-M3: terrain blocks sliders and riders and cannot be entered; leapers
// jump over it.
func TestTerrain(t *testing.T) {
	o := DefaultOptions()
	o.Terrain = []geom.Square{geom.Sq(3, 1), geom.Sq(2, 2)} // d2, c3
	v := newVariant(t, o)
	p := mustFEN(t, v, "4k3/8/8/8/8/2*5/3*4/1N1DK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,D=D}")
	got := texts(p)
	for _, tc := range []struct {
		move string
		ok   bool
	}{
		{"Dd1-d3", true}, {"Nb1-d2", false}, {"Nb1-c3", false}, {"Nb1-a3", true}, {"Ke1-d2", false}, {"Ke1-e2", true},
	} {
		if has(got, tc.move) != tc.ok {
			t.Errorf("%s legal = %v, want %v: %v", tc.move, !tc.ok, tc.ok, got)
		}
	}
	p = mustFEN(t, v, "4k3/8/8/8/8/2*5/3*4/R2QK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	got = texts(p)
	if has(got, "Qd1-d2") || has(got, "Qd1-d3") || !has(got, "Qd1-b3") || !has(got, "Ra1-a8") {
		t.Errorf("sliders and terrain: %v", got)
	}
	if _, err := v.ParseFEN("4k3/8/8/8/8/2*5/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 " + table); err == nil {
		t.Error("a FEN without a hole of the map was read")
	}
}

// A game's catalogue is an option, so game records list every design.
func TestCatalogueOption(t *testing.T) {
	o := DefaultOptions()
	o.Catalogue = []string{"FfR"}
	v := newVariant(t, o)
	p := v.Start()
	play(t, p, "Ke1-e2")
	if n := len(p.LegalMoves(nil)); n != 1+6*(5+1) {
		t.Errorf("%d design moves with a catalogue of one", n)
	}
	if !legal(p, "&Q>Y=FfR") || !legal(p, "&Q>Y=WD") {
		t.Error("designs by name")
	}
	w, err := v.Configure(map[string]string{"DesignCatalogue": "WD,royal-W"})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range w.Options() {
		if opt.Name == "DesignCatalogue" && opt.Value != "WD,royal-W" {
			t.Errorf("DesignCatalogue tag %q", opt.Value)
		}
	}
}

// CS-M2: the visibility rules, and views outside moderated games.
func TestVisibility(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	if w := p.View(rules.White); w.Position.At(sq(t, v, "e8")).IsPiece() == false || w.Visible.Len() != 64 {
		t.Error("an unmoderated view hides something")
	}
	// Reach: the king's neighbours.
	if got := Visible(p, rules.White); strings.Join(got, ",") != "d1,e1,f1,d2,e2,f2" {
		t.Errorf("reach of the king: %v", got)
	}
	o := DefaultOptions()
	o.Moderated = true
	o.Radius = 2
	v = newVariant(t, o)
	p = v.Start()
	if got := Visible(p, rules.White); len(got) != 15 {
		t.Errorf("radius 2 around e1: %d squares %v", len(got), got)
	}
	w := p.View(rules.White)
	if w.Position.At(sq(t, v, "e8")).IsPiece() {
		t.Error("the black king is visible")
	}
	// A rider sees up to the first piece, and that piece.
	o.Radius = 0
	v = newVariant(t, o)
	p = mustFEN(t, v, "4k3/8/8/p7/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	got := Visible(p, rules.White)
	if !has(got, "a5") || has(got, "a6") || !has(got, "a4") {
		t.Errorf("rook's view: %v", got)
	}
	if w := p.View(rules.White); !w.Position.At(sq(t, v, "a5")).IsPiece() || w.Position.At(sq(t, v, "e8")).IsPiece() {
		t.Errorf("view: %s", w.Position.FEN())
	}
}

// CS-22: directions are the owner's: a black pawn goes down the board,
// and a black fR slides towards rank 1.
func TestBlackDirections(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v,
		"4k2y/8/8/3p4/2P1P3/8/8/4K3 b 0/0 -/- PRNBKQ/PRNBKQ 0 4 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,Y=fR}")
	got := texts(p)
	for _, tc := range []struct {
		move string
		ok   bool
	}{
		{"Pd5-d4", true}, {"Pd5xc4", true}, {"Pd5xe4", true}, {"Pd5-d6", false},
		{"Yh8-h1", true}, {"Yh8-h2", true}, {"Yh8-g8", false},
	} {
		if has(got, tc.move) != tc.ok {
			t.Errorf("%s legal = %v, want %v (%v)", tc.move, !tc.ok, tc.ok, got)
		}
	}
}
