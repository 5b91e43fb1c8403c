package vazir

import (
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// newVariant builds Vazir with options changed from the defaults by edit.
func newVariant(t testing.TB, edit func(*Options)) *rules.Variant {
	t.Helper()
	o := DefaultOptions()
	if edit != nil {
		edit(&o)
	}
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func parse(t testing.TB, v *rules.Variant, rfen string) *rules.Position {
	t.Helper()
	p, err := ParseRFEN(v, rfen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// coord writes a move as from-to plus a promotion letter.
func coord(p *rules.Position, m rules.Move) string {
	s := m.From().String() + m.To().String()
	if m.Kind() == rules.Promotion {
		s += strings.ToLower(string(p.Variant().Letter(m.Promo())))
	}
	return s
}

// mv finds a legal move by its coordinates ("e7d8q").
func mv(t testing.TB, p *rules.Position, c string) rules.Move {
	t.Helper()
	for _, m := range p.LegalMoves(nil) {
		if coord(p, m) == c {
			return m
		}
	}
	t.Fatalf("%s is not legal in %s; legal: %v", c, RFEN(p), legal(p))
	return 0
}

// legal returns the legal moves as sorted coordinates.
func legal(p *rules.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, coord(p, m))
	}
	sort.Strings(out)
	return out
}

// frac returns the outcome's probability as a rational.
func frac(o rules.Outcome) *big.Rat { return big.NewRat(int64(o.Num), int64(o.Den)) }

// script is a Roller that returns scripted numbers.
type script struct {
	rolls []int
	n     int
}

func (s *script) Roll(n int) int {
	r := s.rolls[s.n%len(s.rolls)]
	s.n++
	return r % n
}
