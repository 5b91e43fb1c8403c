package notation_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/anychess/anychess/internal/corpus"
	"github.com/anychess/anychess/internal/vtest"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

var reg = vtest.Builtins()

func mustVariant(t testing.TB, name string) *rules.Variant {
	t.Helper()
	v, err := reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustFEN(t testing.TB, v *rules.Variant, fen string) *rules.Position {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// epdFENs returns the positions of a reference perft file.
func epdFENs(t testing.TB, name string) []string {
	t.Helper()
	fens, err := corpus.FENs(name)
	if err != nil {
		t.Fatal(err)
	}
	return fens
}

// positions returns reference positions plus positions reached from them
// by seeded random play, so that castling, en passant and promotions occur.
func positions(t testing.TB, v *rules.Variant, file string) []*rules.Position {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []*rules.Position
	for _, fen := range epdFENs(t, file) {
		p := mustFEN(t, v, fen)
		out = append(out, p.Clone())
		for range 40 {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			p.Make(ms[rng.IntN(len(ms))])
			out = append(out, p.Clone())
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct{ variant, file string }{
		{"chess", "chess.epd"}, {"greatshatranj", "greatshatranj.epd"}, {"chatrang", "chatrang.epd"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			v := mustVariant(t, tc.variant)
			kinds := map[rules.MoveKind]int{}
			for _, p := range positions(t, v, tc.file) {
				legal := p.LegalMoves(nil)
				seenSAN := map[string]bool{}
				seenCoord := map[string]bool{}
				for _, m := range legal {
					kinds[m.Kind()]++
					c := notation.Coord(p, m)
					if seenCoord[c] {
						t.Errorf("%s: two moves write as %s", p.FEN(), c)
					}
					seenCoord[c] = true
					if got, err := notation.ParseCoord(p, c); err != nil || got != m {
						t.Errorf("%s: ParseCoord(%s) = %#v, %v; want %#v", p.FEN(), c, got, err, m)
					}
					s := notation.SAN(p, m)
					if seenSAN[s] {
						t.Errorf("%s: two moves write as %s", p.FEN(), s)
					}
					seenSAN[s] = true
					if got, err := notation.ParseSAN(p, s); err != nil || got != m {
						t.Errorf("%s: ParseSAN(%s) = %#v, %v; want %#v", p.FEN(), s, got, err, m)
					}
					if got, err := notation.ParseMove(p, s); err != nil || got != m {
						t.Errorf("%s: ParseMove(%s) = %v", p.FEN(), s, err)
					}
				}
			}
			if tc.variant == "chess" {
				for _, k := range []rules.MoveKind{rules.Normal, rules.Promotion, rules.EnPassant, rules.Castle} {
					if kinds[k] == 0 {
						t.Errorf("no move of kind %d was tested", k)
					}
				}
			}
		})
	}
}

func TestSAN(t *testing.T) {
	tests := []struct {
		variant, fen, coord, san string
	}{
		{"chess", "", "g1f3", "Nf3"},
		{"chess", "", "e2e4", "e4"},
		{"chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "b1c3", "Nc3"},
		// file, rank and square disambiguation
		{"chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2"},
		{"chess", "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"chess", "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"},
		{"chess", "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h1e1", "Q1e1"},
		{"chess", "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h1h2", "Q1h2+"},
		{"chess", "1k6/8/8/8/Q6Q/8/8/4K3 w - - 0 1", "h4e4", "Qhe4"},
		// pawns: capture, en passant, promotion with capture and check
		{"chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"},
		{"chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"},
		{"chess", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"},
		{"chess", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N"},
		{"chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "Qxf7#"},
		// Great Shatranj: ten files, and promotion to a Soldier
		{"greatshatranj", "", "j2j3", "j3"},
		{"greatshatranj", "", "i1j3", "Nj3"},
		{"greatshatranj", "1k8/P9/10/10/10/10/10/WNEGKMHENW w - - 0 1", "a7a8s", "a8=S+"},
		// Chatrang: the only promotion is to the Ferz
		{"chatrang", "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"chatrang", "", "c1e3", "Be3"},
	}
	for _, tt := range tests {
		v := mustVariant(t, tt.variant)
		p := v.Start()
		if tt.fen != "" {
			p = mustFEN(t, v, tt.fen)
		}
		m, err := notation.ParseCoord(p, tt.coord)
		if err != nil {
			t.Errorf("%s: %v", tt.coord, err)
			continue
		}
		if got := notation.SAN(p, m); got != tt.san {
			t.Errorf("%s %s: SAN = %q, want %q", tt.fen, tt.coord, got, tt.san)
		}
		if got := notation.Coord(p, m); got != tt.coord {
			t.Errorf("%s %s: Coord = %q", tt.fen, tt.coord, got)
		}
	}
}

func TestParseLenient(t *testing.T) {
	v := mustVariant(t, "chess")
	tests := []struct{ fen, text, coord string }{
		{"", "Nf3+", "g1f3"},
		{"", "Nf3!?", "g1f3"},
		{"", "Ng1f3", "g1f3"},
		{"", "Ng1-f3", "g1f3"},
		{"", "e2-e4", "e2e4"},
		{"", "e2e4", "e2e4"},
		{"", " e4 ", "e2e4"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O+", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1"},
		{"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8Q", "e7d8q"},
		{"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8Q", "e7d8q"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6e.p.", "e5f6"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "ef6", "e5f6"},
	}
	for _, tt := range tests {
		p := v.Start()
		if tt.fen != "" {
			p = mustFEN(t, v, tt.fen)
		}
		m, err := notation.ParseMove(p, tt.text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tt.text, err)
			continue
		}
		if got := notation.Coord(p, m); got != tt.coord {
			t.Errorf("ParseMove(%q) = %s, want %s", tt.text, got, tt.coord)
		}
	}
	// Chatrang: a promotion without its letter is the only choice.
	c := mustVariant(t, "chatrang")
	p := mustFEN(t, c, "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1")
	for _, text := range []string{"b8", "b7b8"} {
		if m, err := notation.ParseMove(p, text); err != nil || m.Kind() != rules.Promotion {
			t.Errorf("chatrang %q: %v, %#v", text, err, m)
		}
	}
}

func TestParseErrors(t *testing.T) {
	v := mustVariant(t, "chess")
	tests := []struct {
		fen, text string
		want      error
		reason    string // a part of the message, if not empty
	}{
		{"", "e2-e9", notation.ErrSyntax, "rank 9"},
		{"", "e2e9", notation.ErrSyntax, "rank 9"},
		{"", "Qxz1", notation.ErrSyntax, "no target square"},
		{"", "Zf3", notation.ErrSyntax, ""},
		{"", "N", notation.ErrSyntax, ""},
		{"", "", notation.ErrSyntax, ""},
		{"", "e9", notation.ErrSyntax, ""},
		{"", "Nf4", notation.ErrIllegal, ""},
		{"", "e5", notation.ErrIllegal, ""},
		{"", "O-O", notation.ErrIllegal, ""},
		{"", "e2e5", notation.ErrIllegal, ""},
		{"", "e2e4x", notation.ErrSyntax, ""},
		{"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", notation.ErrAmbiguous, ""},
		{"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=Q", notation.ErrIllegal, ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8", notation.ErrAmbiguous, ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", notation.ErrAmbiguous, ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=K", notation.ErrIllegal, ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=", notation.ErrSyntax, ""},
	}
	for _, tt := range tests {
		p := v.Start()
		if tt.fen != "" {
			p = mustFEN(t, v, tt.fen)
		}
		before := p.FEN()
		_, err := notation.ParseMove(p, tt.text)
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseMove(%q) error = %v, want %v", tt.text, err, tt.want)
		}
		if err != nil && !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("ParseMove(%q) error = %v, want it to say %q", tt.text, err, tt.reason)
		}
		if p.FEN() != before {
			t.Errorf("ParseMove(%q) changed the position", tt.text)
		}
	}
}

// explainFunc is a rules.MoveText that explains refused texts and writes
// and reads no move of its own.
type explainFunc func(p *rules.Position, s string) error

func (explainFunc) EncodeMove(*rules.Position, rules.Move) (string, bool) { return "", false }
func (explainFunc) DecodeMove(*rules.Position, string) (rules.Move, bool) { return rules.NoMove, false }
func (f explainFunc) ExplainMove(p *rules.Position, s string) error       { return f(p, s) }

// TestExplainMove checks that a variant's ExplainMove gives the
// reason for a text no notation reads, and is not asked about moves.
func TestExplainMove(t *testing.T) {
	spec := mustVariant(t, "chess").Spec()
	asked := 0
	spec.Ext = explainFunc(func(p *rules.Position, s string) error {
		asked++
		if s == "+Q" {
			return errors.New("a queen costs more than the treasury holds")
		}
		return nil
	})
	v, err := rules.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	if _, err := notation.ParseMove(p, "+Q"); !errors.Is(err, notation.ErrIllegal) || !strings.Contains(err.Error(), "treasury") {
		t.Errorf("ParseMove(+Q) = %v, want the variant's reason", err)
	}
	if _, err := notation.ParseMove(p, "e2e5"); !errors.Is(err, notation.ErrIllegal) || strings.Contains(err.Error(), "treasury") {
		t.Errorf("ParseMove(e2e5) = %v, want the core's illegal move", err)
	}
	n := asked
	if _, err := notation.ParseMove(p, "e4"); err != nil {
		t.Fatal(err)
	}
	if asked != n {
		t.Errorf("the hook was asked about a legal move")
	}
}

// bigVariant is a 12x16 test variant with holes, two-digit ranks, and a
// piece letter that is also a file letter in lower case.
const bigVariant = `
name = "bigtest"
start = "r10k/12/12/12/12/12/12/12/12/4*7/12/12/12/12/12/B10K w - - 0 1"
[board]
files = 12
ranks = 16
holes = ["e7"]
[[piece]]
letter = "K"
name = "king"
betza = "K"
royal = true
[[piece]]
letter = "R"
name = "rook"
betza = "R"
[[piece]]
letter = "B"
name = "bishop"
betza = "B"
`

func TestBigBoard(t *testing.T) {
	v, err := reg.Compile([]byte(bigVariant), "bigtest.toml")
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	if got := p.FEN(); got != "r10k/12/12/12/12/12/12/12/12/4*7/12/12/12/12/12/B10K w - - 0 1" {
		t.Errorf("FEN = %s", got)
	}
	// The hole is e7; the a1 bishop's diagonal passes e5 and reaches l12.
	for _, tt := range []struct{ text, coord string }{
		{"Bl12", "a1l12"},
		{"Bf6", "a1f6"},
		{"Kl2", "l1l2"},
	} {
		m, err := notation.ParseSAN(p, tt.text)
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if c := notation.Coord(p, m); c != tt.coord {
			t.Errorf("%s = %s, want %s", tt.text, c, tt.coord)
		}
	}
	p.Make(mustParse(t, p, "Kl2"))
	// The black rook on a16 goes down the a-file and along rank 16; on
	// rank 2 it checks the king on l2.
	for _, tt := range []struct{ text, san string }{
		{"Ra3", "Ra3"}, {"a16a2", "Ra2+"}, {"Rk16", "Rk16"}, {"Ra15", "Ra15"}, {"a16a10", "Ra10"},
	} {
		m := mustParse(t, p, tt.text)
		if got := notation.SAN(p, m); got != tt.san {
			t.Errorf("SAN(%s) = %s, want %s", tt.text, got, tt.san)
		}
	}
	// A rook cannot enter or pass the hole: put one on e16 and slide down.
	q := mustFEN(t, v, "r3r6k/12/12/12/12/12/12/12/12/4*7/12/12/12/12/12/B10K b - - 0 1")
	for _, text := range []string{"Re8", "Re7", "Re6"} {
		want := text == "Re8"
		_, err := notation.ParseSAN(q, text)
		if (err == nil) != want {
			t.Errorf("%s: err = %v, want legal = %v", text, err, want)
		}
	}
	if _, err := v.ParseFEN("r10k/12/12/12/12/12/12/12/12/12/12/12/12/12/12/B10K w - - 0 1"); err == nil {
		t.Error("a FEN without the hole was accepted")
	}
}

func mustParse(t *testing.T, p *rules.Position, s string) rules.Move {
	t.Helper()
	m, err := notation.ParseMove(p, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"Nf3", "e4", "exd5", "O-O-O", "e8=Q+", "Qh4e1", "a7a8q", "P@e4", "Nbd2", "R1a3", "j3", "a10", "0-0", "e2-e4!?"} {
		f.Add(s)
	}
	v := mustVariant(f, "chess")
	gs := mustVariant(f, "greatshatranj")
	ps := []*rules.Position{
		v.Start(),
		mustFEN(f, v, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
		mustFEN(f, v, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
		gs.Start(),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range ps {
			before := p.FEN()
			m, err := notation.ParseMove(p, s)
			if p.FEN() != before {
				t.Fatalf("ParseMove(%q) changed the position", s)
			}
			if err != nil {
				if !errors.Is(err, notation.ErrSyntax) && !errors.Is(err, notation.ErrIllegal) && !errors.Is(err, notation.ErrAmbiguous) {
					t.Fatalf("ParseMove(%q): unexpected error %v", s, err)
				}
				continue
			}
			san := notation.SAN(p, m)
			if back, err := notation.ParseSAN(p, san); err != nil || back != m {
				t.Fatalf("%q -> %s does not round-trip: %v", s, san, err)
			}
		}
	})
}

// TestPiecePromotionCoord: a piece's own promotion (shogi's) is written
// with "+", as Fairy-Stockfish writes it, and read back; without the "+"
// the move is the one that does not promote.
func TestPiecePromotionCoord(t *testing.T) {
	v, err := reg.Get("shogi")
	if err != nil {
		t.Fatal(err)
	}
	const fen = "4k4/PS7/1N7/2L6/9/9/6+p2/9/4K4[Pp] w - - 0 1"
	for _, c := range []struct{ text, after string }{
		{"b8a7+", "4k4/P8/+SN7/2L6/9/9/6+p2/9/4K4[Pp] b - - 0 1"},
		{"b8a7", "4k4/P8/SN7/2L6/9/9/6+p2/9/4K4[Pp] b - - 1 1"},
		{"c6c9+", "2+L1k4/PS7/1N7/9/9/9/6+p2/9/4K4[Pp] b - - 0 1"},
	} {
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := notation.ParseMove(p, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if got := notation.Coord(p, m); got != c.text {
			t.Errorf("%s is written %s", c.text, got)
		}
		p.Make(m)
		if got := p.FEN(); got != c.after {
			t.Errorf("after %s: %s, want %s", c.text, got, c.after)
		}
	}
	// A lance may not stay unpromoted on the last rank: without the "+"
	// the text names the one move there is, the promotion.
	p, _ := v.ParseFEN(fen)
	if m, err := notation.ParseMove(p, "c6c9"); err != nil || notation.Coord(p, m) != "c6c9+" {
		t.Errorf("c6c9: %v, %v; want the promotion c6c9+", notation.Coord(p, m), err)
	}
}
