package variant_test

// Helpers for the rule-specification tests (spec_*_test.go). They speak in
// coordinate moves: from square, to square and, for a promotion, the
// lower-case letter of the new piece ("a7a8q"); castling is written with
// the king's squares ("e1g1").

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// specRegistry holds the built-in variants for the spec tests.
var specRegistry = vtest.Builtins()

// builtins returns a new registry of the built-in data variants.
func builtins(t testing.TB) *variant.Registry {
	t.Helper()
	r := variant.NewRegistry()
	if err := variant.AddBuiltins(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// specVariant returns a built-in variant by name.
func specVariant(t testing.TB, name string) *rules.Variant {
	t.Helper()
	v, err := specRegistry.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// mustFEN parses fen in v and stops the test if it is rejected.
func mustFEN(t testing.TB, v *rules.Variant, fen string) *rules.Position {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: ParseFEN(%q): %v", v.Name(), fen, err)
	}
	return p
}

// parseFENSafe parses fen and turns a panic into an error, so that a test of
// bad input can report a panic instead of crashing the test binary.
func parseFENSafe(v *rules.Variant, fen string) (p *rules.Position, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	return v.ParseFEN(fen)
}

// errPanic marks an error made from a panic by parseFENSafe.
var errPanic = errors.New("panic")

// coord writes m as a coordinate move; a drop as the piece's upper-case
// letter, "@" and the square ("N@f5"), as Fairy-Stockfish writes it.
func coord(v *rules.Variant, m rules.Move) string {
	if m.Kind() == rules.Drop {
		return string(v.Letter(m.Promo())) + "@" + m.To().String()
	}
	s := m.From().String() + m.To().String()
	if m.Kind() == rules.Promotion {
		if v.PieceSpec(m.Promo()).PromotedFrom != 0 {
			return s + "+" // a piece's own promotion, as Fairy-Stockfish writes shogi's
		}
		s += strings.ToLower(string(v.Letter(m.Promo())))
	}
	return s
}

// legal returns the sorted coordinate strings of all legal moves of p. It
// fails the test if two legal moves have the same text.
func legal(t testing.TB, p *rules.Position) []string {
	t.Helper()
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, coord(p.Variant(), m))
	}
	slices.Sort(out)
	for i := 1; i < len(out); i++ {
		if out[i] == out[i-1] {
			t.Errorf("%s: move %s is generated twice", p.FEN(), out[i])
		}
	}
	return out
}

// legalFrom returns the sorted legal moves of p that start on square from.
func legalFrom(t testing.TB, p *rules.Position, from string) []string {
	t.Helper()
	var out []string
	for _, s := range legal(t, p) {
		if strings.HasPrefix(s, from) && len(s) > len(from) && (s[len(from)] < '0' || s[len(from)] > '9') {
			out = append(out, s)
		}
	}
	return out
}

// findMove returns the legal move of p written c, if there is one.
func findMove(p *rules.Position, c string) (rules.Move, bool) {
	for _, m := range p.LegalMoves(nil) {
		if coord(p.Variant(), m) == c {
			return m, true
		}
	}
	return rules.NoMove, false
}

// isLegal reports whether the move written c is among the legal moves of p.
func isLegal(p *rules.Position, c string) bool {
	_, ok := findMove(p, c)
	return ok
}

// play makes the given coordinate moves in order; each must be legal.
func play(t testing.TB, p *rules.Position, coords ...string) {
	t.Helper()
	for _, c := range coords {
		m, ok := findMove(p, c)
		if !ok {
			t.Fatalf("%s: move %s is not legal; legal moves: %v", p.FEN(), c, legal(t, p))
		}
		p.Make(m)
	}
}

// moveList splits a space-separated list of moves and sorts it.
func moveList(s string) []string {
	out := strings.Fields(s)
	slices.Sort(out)
	return out
}

// prefixed returns "from"+sq for every square name in the space-separated
// list squares, sorted (for lists of target squares of one piece).
func prefixed(from, squares string) []string {
	var out []string
	for _, s := range strings.Fields(squares) {
		out = append(out, from+s)
	}
	slices.Sort(out)
	return out
}

// wantMoves compares two sorted move lists and reports the differences.
func wantMoves(t testing.TB, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	var missing, extra []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	t.Errorf("%s: got %d moves %v, want %d %v (missing %v, extra %v)", what, len(got), got, len(want), want, missing, extra)
}

// wantStatus checks the result and reason of p.Status().
func wantStatus(t testing.TB, p *rules.Position, res rules.Result, reason rules.Reason) {
	t.Helper()
	st := p.Status()
	if st.Result != res || st.Reason != reason {
		t.Errorf("%s: Status = %v / %q (%s), want %v / %q", p.FEN(), st.Result, st.Reason, st, res, reason)
	}
}

// wantOngoing checks that the game in p has not ended.
func wantOngoing(t testing.TB, p *rules.Position) {
	t.Helper()
	wantStatus(t, p, rules.Ongoing, rules.ReasonNone)
}

// fenBoardAndSide returns the first two fields of a FEN.
func fenBoardAndSide(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return fen
	}
	return f[0] + " " + f[1]
}

// fenField returns field i (0-based) of a FEN, or "".
func fenField(fen string, i int) string {
	f := strings.Fields(fen)
	if i >= len(f) {
		return ""
	}
	return f[i]
}

// deadCase is a position and whether its material is dead.
type deadCase struct {
	name string
	fen  string
	dead bool
}

// wantDeadTable checks each case: a dead position is a draw by
// insufficient material, any other is still being played.
func wantDeadTable(t *testing.T, v *rules.Variant, cases []deadCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, v, tc.fen)
			if tc.dead {
				wantStatus(t, p, rules.Draw, rules.ReasonDead)
			} else {
				wantOngoing(t, p)
			}
		})
	}
}
