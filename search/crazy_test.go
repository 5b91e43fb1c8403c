package search_test

import (
	"context"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/crazy"
)

// crazyPos returns the Crazy Chess position fen after the moves.
func crazyPos(t testing.TB, fen string, moves ...string) *rules.Position {
	t.Helper()
	v, err := catalog.MustDefault().Get(crazy.Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		m, err := notation.ParseMove(p, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p.Make(m)
	}
	return p
}

// TestCrazyChess: the engine takes what a capture chain wins, sees that
// a denial gives back what the opponent's last move took (a decision node
// like any other), and does not deny a knight move that the other route
// replays.
func TestCrazyChess(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  string
	}{
		{"takes the rook", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1 w - 0", nil, "Rd1xd5"},
		{"denies the capture", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1 b - 0", []string{"Rd1xd5"}, "DENY"},
	}
	for _, tt := range tests {
		p := crazyPos(t, tt.fen, tt.moves...)
		res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 4}, nil)
		if got := notation.SAN(p, res.Best); got != tt.want {
			t.Errorf("%s: best %s, want %s (score %d)", tt.name, got, tt.want, res.Info.Score)
		}
	}
}

func BenchmarkSearchCrazy(b *testing.B) {
	p := crazyPos(b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0")
	var nodes int64
	for b.Loop() {
		res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 5}, nil)
		nodes += res.Info.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
