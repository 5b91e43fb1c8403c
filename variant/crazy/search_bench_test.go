package crazy_test

import (
	"context"
	"testing"

	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/crazy"
)

// middleGames are positions of the engine's self-play games, some with
// stacks: what a search spends its time on in a game.
var middleGames = []string{
	"r1q1kb1r/p2pppp1/1p2n3/7p/6n1/1PNK4/P1P1PP2/R1B1QB1R w kq - 0 15 w - 1",
	"rnb*q2kr/p1p1pp1p/3n3Q/3p4/5P2/8/PPPP1P1K/RNB3NR b - - 0 14 b - 4",
	"r4b1r/1pp1pkpn/4bp1p/5p2/4P3/P1BP4/1PP2PPP/RN2KB1R w KQ - 0 14 w - 1",
	"4rb1r/2p1nq2/1pk2pp1/7p/P1PPNB1P/2N2P2/1PK1P1P1/3R1B1R w - - 0 14 w - 1",
	"r4r2/pk1b1p1Q/5p2/1p1(Rn)p3/8/2P5/2P4K/6R1 w - - 0 26 w b 3",
	"rnbq2n(rk)/1pb*p1p2/p1N4B/5Q2/3PP3/1P5R/P1P3K1/R4B2 b - - 0 18 b - 2",
	"(rq)4b1r/p1p1Q1p1/2np3k/1p4p1/8/3P1P1N/PP2PKPP/RN3B1R w - - 1 16 w - 1",
	"rn3(rKk)2/1pp2p2/p1qpb3/6P1/1P2P3/P1N5/1PP2P2/R1Q2B1R w - - 3 17 w - 1",
}

// BenchmarkSearchMiddleGame searches each of middleGames to a fixed
// depth, with a new engine each time; it reports the nodes searched a
// second.
func BenchmarkSearchMiddleGame(b *testing.B) {
	v, err := crazy.New(crazy.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	var nodes int64
	for b.Loop() {
		for _, fen := range middleGames {
			p, err := v.ParseFEN(fen)
			if err != nil {
				b.Fatal(err)
			}
			res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 5}, nil)
			nodes += res.Info.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
