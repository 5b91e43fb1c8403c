package crazy

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

func TestParseFENErrors(t *testing.T) {
	v := newVariant(t, nil)
	for _, c := range []struct{ fen, msg string }{
		{"", "fields"},
		{"8/8/8/8/8/8/8/8 w", "kings"},
		{"4k3/8/8/8/8/8/8/4K3 x", "side"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 b", "fields"},
		{"4k3/8/8/8/8/8/8/3(PR)K3 w - - 0 1 b - 0", "not a Rook"},
		{"4k3/8/8/8/8/8/8/3(RP4K3 w - - 0 1 b - 0", "not closed"},
		{"4k3/8/8/8/8/8/8/3()K3 w - - 0 1 b - 0", "empty stack"},
		{"4k3/8/8/8/8/8/8/3N*K3 w - - 0 1 b - 0", "only a Bishop"},
		{"4k3/8/8/8/8/8/8/4K2P w - - 0 1 b - 0", "first row"},
		{"4k2P/8/8/8/8/8/8/4K3 w - - 0 1 b - 0", "last row"},
		{"4k3/8/8/8/8/8/8/4K4 w - - 0 1 b - 0", "files"},
		{"4k3/8/8/8/8/8/8/4K3 w K - 0 1 b - 0", "no white rook"},
		{"4k3/8/8/8/8/8/8/4K2R w KK - 0 1 b - 0", "repeats"},
		{"4k3/8/8/8/8/8/8/4K3 w - e4 0 1 b - 0", "double step"},
		{"4k3/8/8/8/8/8/PP6/4K3 b - a2:b2 0 1 b - 0", "double step"},
		{"4k3/8/8/8/8/8/8/4K3 w - - x 1 b - 0", "halfmove"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 x - 0", "holder"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 b b 0", "immune side"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - -1", "denials"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - 0 extra", "fields"},
		{"(RPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP)k6/8/8/8/8/8/8/4K3 w - - 0 1 b - 0", "more than"},
	} {
		_, err := v.ParseFEN(c.fen)
		if err == nil || !errors.Is(err, rules.ErrFEN) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want an error about %q", c.fen, err, c.msg)
		}
	}
}

func TestFENForms(t *testing.T) {
	v := newVariant(t, nil)
	for _, c := range []struct{ in, out string }{
		{"4k3/8/8/8/8/8/8/4K3 w", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - 0"},
		{"4k3/8/8/8/8/8/8/4K3 b - - 3 7", "4k3/8/8/8/8/8/8/4K3 b - - 3 7 b - 0"},
		{"4k3/8/8/8/3p4/8/8/4K3 b - - 0 1 w b 2", "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1 w b 2"},
		// The FIDE form of the en-passant field; an unusable record is dropped.
		{"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1 b - 0", "4k3/8/8/8/3pP3/8/8/4K3 b - e3:e4 0 1 b - 0"},
		{"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1 b - 0", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1 b - 0"},
		{"4k3/8/8/8/8/8/8/3(R)K3 w - - 0 1 b - 0", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1 b - 0"},
		// After a chain disguise the double step's origin holds the swapped piece.
		{"4k3/1pp1p3/4P3/8/8/8/8/4K3 w - d7:e7 0 1 b - 0", "4k3/1pp1p3/4P3/8/8/8/8/4K3 w - d7:e7 0 1 b - 0"},
		{"4k3/8/8/8/8/8/8/3(Rb*Q)K3 w - - 0 1 b - 0", "4k3/8/8/8/8/8/8/3(Rb*Q)K3 w - - 0 1 b - 0"},
	} {
		p, err := v.ParseFEN(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := p.FEN(); got != c.out {
			t.Errorf("%q reads as %s, want %s", c.in, got, c.out)
		}
	}
	p := parse(t, v, "4k3/8/8/8/8/8/8/3(Rb*Q)K3 w - - 0 1 b - 0")
	st := Stack(p, sq(t, "d1"))
	if len(st) != 3 || !Risen(st[1]) || Risen(st[2]) || p.At(sq(t, "d1")) != st[0] {
		t.Errorf("d1 holds %v; the core board %v", st, p.At(sq(t, "d1")))
	}
	if _, err := ParseFEN(v, "4k3/8/8/8/8/8/8/4K3 w"); err != nil {
		t.Error(err)
	}
}

func TestMoveTextForms(t *testing.T) {
	v := newVariant(t, nil)
	for _, c := range []struct{ fen, in, canonical string }{
		{"7k/8/8/8/8/8/4P3/7K w - - 0 1 b - 0", "Pe2-e4", "e2-e4"},
		{"7k/8/8/8/8/8/4P3/7K w - - 0 1 b - 0", "e2/0-e4", "e2-e4"},
		{"7k/8/8/8/8/8/4P3/7K w - - 0 1 b - 0", " e2-e4 ", "e2-e4"},
		{"7k/4P3/8/8/8/8/8/7K w - - 0 1 b - 0", "e7-e8[e8=n]", "e7-e8=N"},
		{"7k/4P3/8/8/8/8/8/7K w - - 0 1 b - 0", "e7-e8=q", "e7-e8=Q"},
		{"(rP)6k/8/8/8/8/8/8/R6K w - - 0 1 b - 0", "Ra1xa8=R", "Ra1xa8&a8=R"},
		{"(rP)6k/8/8/8/8/8/8/R6K w - - 0 1 b - 0", "Ra1xa8[a8=R]", "Ra1xa8&a8=R"},
		{"7k/8/8/4(rrrrp)3/4N3/8/8/7K w - - 0 1 b - 0", "Ne4-f6(xe5/2)", "Ne4-f6xe5/2"},
	} {
		p := parse(t, v, c.fen)
		m, err := ParseMove(p, c.in)
		if err != nil {
			t.Errorf("%s: %q: %v", c.fen, c.in, err)
			continue
		}
		if got := FormatMove(p, m); got != c.canonical {
			t.Errorf("%q is written %q, want %q", c.in, got, c.canonical)
		}
		// The notation package reads and writes it through the hooks.
		if m2, err := notation.ParseMove(p, c.canonical); err != nil || m2 != m {
			t.Errorf("notation.ParseMove(%q) = %v, %v", c.canonical, m2, err)
		}
		if got := notation.Coord(p, m); got != c.canonical {
			t.Errorf("notation.Coord = %q, want %q", got, c.canonical)
		}
	}
	p := v.Start()
	for _, c := range []struct {
		in  string
		err error
	}{
		{"e2e4", notation.ErrSyntax},
		{"e2-e5", notation.ErrIllegal},
		{"Ke1-e2", notation.ErrIllegal},
		{"e2-e4=Q=Q", notation.ErrSyntax},
		{"Ng1-f3(x", notation.ErrSyntax},
		{"DENY", notation.ErrIllegal},
		{"O-O", notation.ErrSyntax},
		{"Dd3:e2,", notation.ErrSyntax},
		{"e2-e4[e8=Q,e8=R]", notation.ErrSyntax},
		{"e2/99-e4", notation.ErrSyntax},
		{strings.Repeat("x", 200), notation.ErrSyntax},
	} {
		_, err := ParseMove(p, c.in)
		var me *notation.MoveError
		if !errors.Is(err, c.err) || !errors.As(err, &me) {
			t.Errorf("%q: %v, want %v", c.in, err, c.err)
		}
	}
}

// TestFormatIllegal: a move that is not legal has no text (and does not
// break the position).
func TestFormatIllegal(t *testing.T) {
	v := newVariant(t, nil)
	p := v.Start()
	q := parse(t, v, "8/8/8/8/7K/4(rk)3/2PPP3/8 w - - 0 1 b - 0")
	fen := p.FEN()
	start := p.LegalMoves(nil)
	for _, m := range q.LegalMoves(nil) {
		if s := FormatMove(p, m); s != "" && !slices.Contains(start, m) {
			t.Errorf("%#v is written %q in the start position", m, s)
		}
	}
	for _, m := range []rules.Move{rules.NoMove, rules.NewMove(sq(t, "e2"), sq(t, "e4"), rules.Normal), rules.Move(^uint64(0))} {
		if s := FormatMove(p, m); s != "" {
			t.Errorf("%#v is written %q", m, s)
		}
	}
	if p.FEN() != fen {
		t.Errorf("the position changed: %s", p.FEN())
	}
}

// TestPGNRoundTrip: a game with a denial goes through the notation
// package's PGN writer and reader, which use the move hooks.
func TestPGNRoundTrip(t *testing.T) {
	v := newVariant(t, func(o *Options) { o.KnightPath = PathMao })
	g := game.New(v, nil)
	for _, s := range []string{"e2-e4", "DENY", "d2-d4", "d7-d5", "Ng1-f3", "Dd4:d5"} {
		m, err := notation.ParseMove(g.Position(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	var sb strings.Builder
	if err := pgn.Write(&sb, notation.WriteGame(g)); err != nil {
		t.Fatal(err)
	}
	text := sb.String()
	// A denial gives the move back: the replacement keeps the denied
	// move's number (2.11, C10).
	for _, want := range []string{`[Variant "crazychess"]`, `[Denial "Hard"]`, `[KnightPath "Mao"]`, "1. e2-e4 DENY d2-d4 d7-d5 2. Ng1-f3 Dd4:d5"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PGN lacks %q:\n%s", want, text)
		}
	}
	reg := variant.NewRegistry()
	if err := reg.Register(v, nil); err != nil {
		t.Fatal(err)
	}
	// The spec's own tag spelling reads too.
	for _, text := range []string{text, strings.Replace(text, `[Variant "crazychess"]`, `[Variant "CrazyChess"]`, 1)} {
		games, err := pgn.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		back, err := notation.ReadGame(reg, games[0])
		if err != nil {
			t.Fatal(err)
		}
		if got, want := back.Position().FEN(), g.Position().FEN(); got != want {
			t.Errorf("read back: %s, want %s", got, want)
		}
	}
}

func TestOptions(t *testing.T) {
	o := DefaultOptions()
	if got := o.Tags(); len(got) != 1 || got[0] != [2]string{"Denial", "Hard"} {
		t.Errorf("default tags %v, want only Denial", got)
	}
	tags := map[string]string{
		"Denial": "Soft", "KnightPath": "Mao", "StackExit": "TopOnly", "KingStep1Immunity": "None",
		"OffTurnPromotion": "OwnerChoosesNextTurn", "SelfDestruct": "Illegal", "InsufficientMaterial": "FIDE",
		"DenialDrawRule": "true", "DenyLastMoveAllowed": "false", "CastleLandingMayBeAttacked": "0",
		"AllRoundHitsPassengers": "1", "AllRoundRequiresVictim": "false", "Event": "ignored",
	}
	o, err := OptionsFromTags(tags)
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Denial: Soft, KnightPath: PathMao, StackExit: TopOnly, KingStep1Immunity: NoImmunity,
		OffTurnPromotion: OwnerChoosesNextTurn, SelfDestruct: IllegalMove, InsufficientMaterial: FIDE,
		DenialDrawRule: true, AllRoundHitsPassengers: true}
	if o != want {
		t.Errorf("options %+v, want %+v", o, want)
	}
	back := map[string]string{}
	for _, kv := range o.Tags() {
		back[kv[0]] = kv[1]
	}
	if o2, err := OptionsFromTags(back); err != nil || o2 != o {
		t.Errorf("tags %v read back as %+v, %v", back, o2, err)
	}
	for _, bad := range []map[string]string{{"Denial": "Medium"}, {"Bait": "true"}, {"DenialDrawRule": "yes"}} {
		if _, err := OptionsFromTags(bad); !errors.Is(err, ErrOption) {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if _, err := New(Options{Bait: true}); !errors.Is(err, ErrOption) {
		t.Errorf("New with Bait: %v", err)
	}
	// Configure makes a variant with the options; Options gives them back.
	v := newVariant(t, nil)
	w, err := v.Configure(map[string]string{"KnightPath": "Mao"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, op := range w.Options() {
		got[op.Name] = op.Value
	}
	if got["KnightPath"] != "Mao" || got["Denial"] != "Hard" || len(got) != 2 {
		t.Errorf("configured options %v", got)
	}
	p := parse(t, w, "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0")
	if isLegal(p, "Nb1-c3(xb3)") {
		t.Error("the configured variant does not use KnightPath=Mao")
	}
}

// FuzzFEN: no input makes ParseFEN panic; what it reads writes back to a
// FEN that reads as the same position.
func FuzzFEN(f *testing.F) {
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"8/7k/8/3(rrp)4/8/8/7K/3(RP)4 w - - 0 1 b - 0",
		"k7/8/4b*3/4B*3/8/8/8/7K b - - 0 1 b - 0",
		"7k/8/8/8/8/4p3/4P3/7K b - d2:e2 0 1 b - 0",
		"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1 w b 3",
		"4k3/8/8/8/8/8/8/4K2R w K",
	} {
		f.Add(s)
	}
	v, err := New(DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := v.ParseFEN(s)
		if err != nil {
			if !errors.Is(err, rules.ErrFEN) {
				t.Fatalf("%q: error %v does not wrap ErrFEN", s, err)
			}
			return
		}
		out := p.FEN()
		q, err := v.ParseFEN(out)
		if err != nil {
			t.Fatalf("%q wrote %q, which does not read: %v", s, out, err)
		}
		if q.FEN() != out || q.Hash() != p.Hash() {
			t.Fatalf("%q: %q reads back as %q", s, out, q.FEN())
		}
		p.LegalMoves(nil)
	})
}

// FuzzMove: no text makes ParseMove panic; a text it accepts names a legal
// move whose canonical text reads back to the same move.
func FuzzMove(f *testing.F) {
	positions := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"8/8/8/8/7K/4(rk)3/2PPP3/8 w - - 0 1 b - 0",
		"(rP)6k/4P3/8/8/4(rrrrp)3/4N3/8/R3K2R w KQ - 0 1 b - 0",
	}
	for i, s := range []string{"e2-e4", "De3/1:e2,d2,c2", "Ne4-f6(xe5/2)", "Ne4-f6xe5/2", "Ra1xa8[a8=Q]", "Ra1xa8&a8=Q", "e7-e8=N", "O-O,g1^f1", "Ke1-e2-e1", "Qd1*", "DENY", "Ng1xf3/1"} {
		f.Add(uint8(i), s)
	}
	v, err := New(DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pos uint8, s string) {
		p, err := v.ParseFEN(positions[int(pos)%len(positions)])
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMove(p, s)
		if err != nil {
			var me *notation.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%q: error %v is not a MoveError", s, err)
			}
			return
		}
		text := FormatMove(p, m)
		if m2, err := ParseMove(p, text); err != nil || m2 != m {
			t.Fatalf("%q: %q reads back as %v, %v", s, text, m2, err)
		}
	})
}

// TestPGNRandomGames: random games, with their disguise chains (commas),
// path captures and promotions of fallen pawns, are written as PGN (every
// move one PGN symbol) and read back move for move.
func TestPGNRandomGames(t *testing.T) {
	v := newVariant(t, nil)
	reg := variant.NewRegistry()
	if err := reg.Register(v, nil); err != nil {
		t.Fatal(err)
	}
	starts := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0",
		"r3k2r/p1(rq)1pp1p/1n2b3/2p1Q3/3(RK)4/2N2B2/PP1P1PPP/R6R w kq - 0 1 b - 0",
		"(rP)6k/4P3/8/8/4(rrrrp)3/4N3/8/R3K2R w KQ - 0 1 b - 0",
	}
	rng := rand.New(rand.NewPCG(7, 8))
	commas, paths := 0, 0
	for g := range 30 {
		start := parse(t, v, starts[g%len(starts)])
		gm := game.New(v, start)
		for range 80 {
			p := gm.Position()
			ms := p.LegalMoves(nil)
			if len(ms) == 0 || p.Status().Over() {
				break
			}
			m := ms[rng.IntN(len(ms))]
			text := FormatMove(p, m)
			commas += strings.Count(text, ",")
			if d, _ := decode(m); d.kind == kPiece && d.path != none {
				paths++
			}
			if err := gm.Play(m, 0); err != nil {
				t.Fatal(err)
			}
		}
		var sb strings.Builder
		if err := pgn.Write(&sb, notation.WriteGame(gm)); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		games, err := pgn.Parse(sb.String())
		if err != nil {
			t.Fatalf("game %d: %v\n%s", g, err, sb.String())
		}
		back, err := notation.ReadGame(reg, games[0])
		if err != nil {
			t.Fatalf("game %d: %v\n%s", g, err, sb.String())
		}
		if len(back.Plies) != len(gm.Plies) || back.Position().FEN() != gm.Position().FEN() {
			t.Fatalf("game %d read back to %d plies, %s; want %d, %s", g, len(back.Plies), back.Position().FEN(), len(gm.Plies), gm.Position().FEN())
		}
		for i := range gm.Plies {
			if back.Plies[i].Move != gm.Plies[i].Move {
				t.Fatalf("game %d ply %d differs", g, i+1)
			}
		}
	}
	if commas == 0 || paths == 0 {
		t.Errorf("the games held %d commas and %d path captures; want some of each", commas, paths)
	}
}
