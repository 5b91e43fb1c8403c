package csipgs

import (
	"slices"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

const table = "{P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

func newVariant(t testing.TB, o Options) *rules.Variant {
	t.Helper()
	v, err := New(o)
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

// texts returns the csipgs texts of the legal moves.
func texts(p *rules.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, FormatMove(p, m))
	}
	return out
}

// play reads and makes each move, through the notation package.
func play(t testing.TB, p *rules.Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := notation.ParseMove(p, s)
		if err != nil {
			t.Fatalf("%s in %s: %v", s, p.FEN(), err)
		}
		p.Make(m)
	}
}

func legal(p *rules.Position, s string) bool {
	_, err := notation.ParseMove(p, s)
	return err == nil
}

func has(list []string, s string) bool { return slices.Contains(list, s) }

// mustPrice prices a design the test knows to be valid.
func mustPrice(t testing.TB, design string) PriceInfo {
	t.Helper()
	pi, err := Price(design)
	if err != nil {
		t.Fatal(err)
	}
	return pi
}

// ray returns the squares the vector v reaches for colour c from the
// square from in p, by files and ranks rather than the mailbox: a leaper's
// square on the board, a rider's squares up to and including the first
// that is not empty.
func ray(p *rules.Position, from geom.Square, v Vector, c rules.Color) []geom.Square {
	b := p.Variant().Board()
	dx, dy := int(v.DX), int(v.DY)
	if c == rules.Black {
		dx, dy = -dx, -dy
	}
	var out []geom.Square
	f, r := from.File(), from.Rank()
	for {
		f, r = f+dx, r+dy
		if f < 0 || r < 0 || f >= b.Files || r >= b.Ranks {
			return out
		}
		s := geom.Sq(f, r)
		out = append(out, s)
		if !v.Rider || p.At(s) != rules.Empty {
			return out
		}
	}
}
