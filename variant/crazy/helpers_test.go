package crazy

import (
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// must returns a function that passes on a result and fails the test on
// its error: must[T](t)(f()).
func must[T any](t testing.TB) func(T, error) T {
	return func(x T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// newVariant builds Crazy Chess with options changed from the defaults by
// edit (nil: the defaults).
func newVariant(t testing.TB, edit func(*Options)) *rules.Variant {
	o := DefaultOptions()
	if edit != nil {
		edit(&o)
	}
	return must[*rules.Variant](t)(New(o))
}

// parse reads a Crazy-FEN.
func parse(t testing.TB, v *rules.Variant, fen string) *rules.Position {
	return must[*rules.Position](t)(v.ParseFEN(fen))
}

// play makes the moves given as text, failing the test on an illegal one.
func play(t testing.TB, p *rules.Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := ParseMove(p, s)
		if err != nil {
			t.Fatalf("%s: %v (legal: %s)", s, err, strings.Join(legal(p), " "))
		}
		p.Make(m)
	}
}

// legal returns the legal moves' texts, sorted.
func legal(p *rules.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, FormatMove(p, m))
	}
	slices.Sort(out)
	return out
}

// isLegal reports whether the move text names a legal move.
func isLegal(p *rules.Position, s string) bool {
	_, err := ParseMove(p, s)
	return err == nil
}

// sq returns the square of a name.
func sq(t testing.TB, name string) geom.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// removed writes the last move's removals as letter@square.
func removed(p *rules.Position) []string {
	var out []string
	for _, r := range Removals(p) {
		out = append(out, PieceText(p.Variant(), r.Piece)+"@"+r.Square.String())
	}
	return out
}

// traceMove makes the move given as text and returns the stacks square
// name held after each step of the resolution, as letters.
func traceMove(t testing.TB, p *rules.Position, move, square string) []string {
	t.Helper()
	m, err := ParseMove(p, move)
	if err != nil {
		t.Fatalf("%s: %v", move, err)
	}
	s := p.State().(*state)
	want := idxOf(sq(t, square))
	var steps []string
	s.sc.trace = func(b int, stack []rules.Piece) {
		if b == want {
			steps = append(steps, stackText(p.Variant(), stack))
		}
	}
	defer func() { s.sc.trace = nil }()
	p.Make(m)
	return steps
}
