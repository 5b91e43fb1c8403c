package tune

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
)

// TestQuietPositions: a record's positions are kept as self-play keeps
// them (not before a capture), after the first skip plies, one ply in
// every.
func TestQuietPositions(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, nil)
	var fens []string // the position before each ply
	for _, s := range []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3"} {
		m, err := notation.ParseCoord(g.Position(), s)
		if err != nil {
			t.Fatal(err)
		}
		fens = append(fens, g.Position().FEN())
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		skip, every int
		want        []int // plies whose positions are kept
	}{
		{0, 1, []int{0, 1, 4}}, // e4xd5 and Qxd5 capture
		{0, 0, []int{0, 1, 4}},
		{1, 1, []int{1, 4}},
		{0, 2, []int{0, 4}},
		{1, 3, []int{1, 4}},
		{5, 1, nil},
	}
	for _, tc := range tests {
		var want []string
		for _, i := range tc.want {
			want = append(want, fens[i])
		}
		if got := QuietPositions(g, tc.skip, tc.every); !slices.Equal(got, want) {
			t.Errorf("skip %d every %d: %q, want %q", tc.skip, tc.every, got, want)
		}
	}
}

// TestWriteSample: games from records are written as a sample that reads
// back with its header, results and positions; a result that is not one
// is refused.
func TestWriteSample(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chess.sample")
	start := v.StartFEN()
	games := []Game{{FENs: []string{start, "8/8/8/8/8/8/8/K6k w - - 0 1"}, Result: 1}, {Result: 0.5}, {FENs: []string{start}, Result: 0}}
	header := RecordsHeader(v, "x.pgn", []byte{1, 2}, 8, 3)
	ps, err := WriteSample(path, header, games)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSample(path, header)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Positions, ps) || len(ps) != 3 || len(s.Games) != 3 {
		t.Fatalf("read back %d positions of %d games, want %v of 3", len(s.Positions), len(s.Games), ps)
	}
	for i, want := range []Position{{0, start, 1, 0, false}, {0, "8/8/8/8/8/8/8/K6k w - - 0 1", 1, 0, false}, {2, start, 0, 0, false}} {
		if ps[i] != want {
			t.Errorf("position %d: %+v, want %+v", i, ps[i], want)
		}
	}
	if want := "# anychess tune sample: variant chess records x.pgn sha256 0102 random 8 every 3"; header != want {
		t.Errorf("header %q, want %q", header, want)
	}
	if _, err := WriteSample(path, header, []Game{{Result: 0.3}}); err == nil {
		t.Error("a result of 0.3 was written")
	}
}
