package search_test

import (
	"context"
	"testing"

	"github.com/anychess/anychess/search"
)

func BenchmarkSearchStart(b *testing.B) {
	for _, name := range []string{"chess", "greatshatranj"} {
		p := pos(b, name, "")
		b.Run(name, func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 9}, nil)
				nodes += res.Info.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
