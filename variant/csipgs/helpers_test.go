package csipgs

import (
	"slices"
	"testing"

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
