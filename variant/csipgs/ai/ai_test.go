package ai

import (
	"context"
	"slices"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

const table = "{P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

func variant(t *testing.T, o csipgs.Options) *rules.Variant {
	t.Helper()
	v, err := csipgs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSearch checks the engine's decisions in positions with one clear
// choice: buy the strongest piece it can afford, transfer a reserve piece,
// take a free piece, mate, and decide a design in the design phase.
func TestSearch(t *testing.T) {
	v := variant(t, csipgs.DefaultOptions())
	tests := []struct {
		name string
		fen  string
		want func(p *rules.Position, m rules.Move) bool
	}{
		{"buy the rook", "4k3/8/8/8/8/8/8/4K3 w 4/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool {
				return csipgs.KindOf(m) == csipgs.Buy && csipgs.Cost(p, m) == 5
			}},
		{"transfer", "4k3/8/8/8/8/8/8/4K3 w 0/0 R/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(_ *rules.Position, m rules.Move) bool { return csipgs.KindOf(m) == csipgs.Transfer }},
		{"take the rook", "4k3/8/8/8/3r4/8/8/3RK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool { return notation.Coord(p, m) == "d1d4" }},
		{"mate", "4k3/8/4K3/8/8/8/8/R7 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool { return notation.Coord(p, m) == "a1a8" }},
		{"design phase", "4k3/8/8/8/8/8/4K3/8 w& 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(_ *rules.Position, m rules.Move) bool {
				k := csipgs.KindOf(m)
				return k == csipgs.Redesign || k == csipgs.Pass
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := v.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			a := New(search.New(4), 1)
			res, err := a.Search(context.Background(), p, search.Limits{Depth: 4}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(p.LegalMoves(nil), res.Best) {
				t.Fatalf("illegal move %v", res.Best)
			}
			if !tc.want(p, res.Best) {
				t.Errorf("played %s", csipgs.FormatMove(p, res.Best))
			}
			if got := p.FEN(); got != tc.fen && got != mustFEN(t, v, tc.fen) {
				t.Errorf("position changed: %s", got)
			}
		})
	}
	over, _ := v.ParseFEN("8/8/8/8/8/1q6/8/K6k w 0/9 -/- PRNBKQ/PRNBKQ 0 30 " + table)
	if _, err := New(search.New(1), 1).Search(context.Background(), over, search.Limits{Depth: 2}, nil); err == nil {
		t.Error("a lost position (X6) gave a move")
	}
}

func mustFEN(t *testing.T, v *rules.Variant, fen string) string {
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.FEN()
}

// TestSearchView checks play from a view in the moderated mode: the move
// is legal in the view, a refused move is not chosen again, and a free
// enemy piece in sight is taken.
func TestSearchView(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	truth, err := v.ParseFEN("4k3/8/8/8/3r4/8/8/3RK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table)
	if err != nil {
		t.Fatal(err)
	}
	view := truth.View(rules.White).Position
	e8, err := v.Board().ParseSquare("e8")
	if err != nil {
		t.Fatal(err)
	}
	if view.At(e8) != rules.Empty || truth.At(e8) == rules.Empty {
		t.Fatal("the view shows the black king on e8, or the truth has none")
	}
	a := New(search.New(4), 7)
	a.Samples = 3
	m, err := a.SearchView(context.Background(), view, search.Limits{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := notation.Coord(view, m); got != "d1d4" {
		t.Errorf("from the view: %s, want d1d4", got)
	}
	m2, err := a.SearchView(context.Background(), view, search.Limits{Depth: 3}, []rules.Move{m})
	if err != nil {
		t.Fatal(err)
	}
	if m2 == m || !slices.Contains(view.LegalMoves(nil), m2) {
		t.Errorf("after a refusal of %v: %v", m, m2)
	}
}
