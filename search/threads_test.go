package search

import (
	"context"
	"slices"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/crazy"
)

// threadsPos returns the position fen of the named variant (its start if
// fen is empty).
func threadsPos(t *testing.T, name, fen string) *rules.Position {
	t.Helper()
	v, err := testRegistry(t).Get(name)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return v.Start()
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestThreads searches with two threads (run it with -race): in plain
// variants, with chance nodes (Vazir), several decisions in a turn and a
// Legal hook (Crazy Chess). The best move is legal, the position is left
// as found, the score lies where the position puts it, and the threads'
// nodes are counted.
func TestThreads(t *testing.T) {
	tests := []struct {
		name     string
		p        func(t *testing.T) *rules.Position
		depth    int
		min, max int    // the score's range
		best     string // the move, if only one is good
	}{
		{"chess middle game", func(t *testing.T) *rules.Position {
			return threadsPos(t, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
		}, 7, -300, 300, ""},
		{"chess queen up", func(t *testing.T) *rules.Position {
			return threadsPos(t, "chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
		}, 8, 600, Mate, ""},
		{"chess mate in two", func(t *testing.T) *rules.Position {
			return threadsPos(t, "chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
		}, 6, Mate - 3, Mate - 3, "Nf6+"},
		{"great shatranj", func(t *testing.T) *rules.Position { return threadsPos(t, "greatshatranj", "") }, 6, -300, 300, ""},
		{"chatrang", func(t *testing.T) *rules.Position { return threadsPos(t, "chatrang", "") }, 7, -300, 300, ""},
		{"vazir", func(t *testing.T) *rules.Position { return vazirPos(t, nil, "", 7) }, 5, -300, 300, ""},
		{"crazy chess", func(t *testing.T) *rules.Position {
			return threadsPos(t, crazy.Name, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0")
		}, 3, -300, 300, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p(t)
			fen := p.FEN()
			e := New(8)
			e.SetThreads(2)
			if e.Threads() != 2 {
				t.Fatalf("Threads() = %d after SetThreads(2)", e.Threads())
			}
			for round := range 2 { // the second with the table of the first
				var reported []Info
				res := e.Search(context.Background(), p, Limits{Depth: tc.depth}, func(in Info) { reported = append(reported, in) })
				if p.FEN() != fen {
					t.Fatalf("round %d: the search changed the position to %s", round, p.FEN())
				}
				if !slices.Contains(p.LegalMoves(nil), res.Best) {
					t.Fatalf("round %d: best move %v is not legal", round, res.Best)
				}
				if res.Info.Score < tc.min || res.Info.Score > tc.max {
					t.Errorf("round %d: score %d, want within [%d, %d]", round, res.Info.Score, tc.min, tc.max)
				}
				if tc.best != "" {
					if got := notation.SAN(p, res.Best); got != tc.best {
						t.Errorf("round %d: best %s, want %s", round, got, tc.best)
					}
				}
				if len(reported) == 0 || res.Info.Nodes < reported[len(reported)-1].Nodes {
					t.Errorf("round %d: %d nodes in all, %d reported", round, res.Info.Nodes, len(reported))
				}
			}
		})
	}
}

// TestThreadsNodeLimit: with two threads a node limit bounds the nodes of
// both together, and the search ends.
func TestThreadsNodeLimit(t *testing.T) {
	p := threadsPos(t, "chess", "")
	e := New(8)
	e.SetThreads(2)
	res := e.Search(context.Background(), p, Limits{Nodes: 30000}, nil)
	if res.Info.Nodes < 30000 {
		t.Errorf("stopped after %d nodes, limit 30000", res.Info.Nodes)
	}
	if !slices.Contains(p.LegalMoves(nil), res.Best) {
		t.Errorf("best move %v is not legal", res.Best)
	}
}

// TestThreadsMultiPV: MultiPV and searchmoves hold with two threads.
func TestThreadsMultiPV(t *testing.T) {
	p := threadsPos(t, "chess", "")
	e := New(8)
	e.SetThreads(2)
	var lines []Info
	e.Search(context.Background(), p, Limits{Depth: 5, MultiPV: 3}, func(in Info) {
		if in.Depth == 5 {
			lines = append(lines, in)
		}
	})
	if len(lines) != 3 || lines[0].PV[0] == lines[1].PV[0] || lines[1].PV[0] == lines[2].PV[0] || lines[0].PV[0] == lines[2].PV[0] {
		t.Errorf("MultiPV 3 lines: %+v", lines)
	}
	a3, _ := notation.ParseMove(p, "a3")
	if res := e.Search(context.Background(), p, Limits{Depth: 4, SearchMoves: []rules.Move{a3}}, nil); res.Best != a3 {
		t.Errorf("searchmoves a3 gave %v", notation.SAN(p, res.Best))
	}
}

// TestSkipDepth checks the helpers' skip schedule: the first helper
// searches the even depths, the second the odd ones, the third and fourth
// two depths in four, and helpers 21 on repeat the first twenty.
func TestSkipDepth(t *testing.T) {
	tests := []struct {
		thread   int
		searched []int // of depths 1..8
	}{
		{1, []int{2, 4, 6, 8}},
		{2, []int{1, 3, 5, 7}},
		{3, []int{1, 4, 5, 8}},
		{4, []int{3, 4, 7, 8}},
		{7, []int{1, 2, 6, 7, 8}},
		{21, []int{2, 4, 6, 8}},
	}
	for _, tc := range tests {
		var got []int
		for d := 1; d <= 8; d++ {
			if !skipDepth(tc.thread, d) {
				got = append(got, d)
			}
		}
		if !slices.Equal(got, tc.searched) {
			t.Errorf("helper %d searches depths %v, want %v", tc.thread, got, tc.searched)
		}
	}
}

// TestSetThreads checks the bounds of the thread count.
func TestSetThreads(t *testing.T) {
	tests := []struct{ set, want int }{{0, 1}, {-3, 1}, {1, 1}, {4, 4}, {MaxThreads + 1, MaxThreads}}
	for _, tc := range tests {
		e := New(1)
		e.SetThreads(tc.set)
		if got := e.Threads(); got != tc.want {
			t.Errorf("SetThreads(%d): Threads() = %d, want %d", tc.set, got, tc.want)
		}
	}
	if New(1).Threads() != 1 {
		t.Error("a new engine does not search with one thread")
	}
}
