package rules_test

import (
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

func benchPerft(b *testing.B, name string, depth int, want uint64) {
	v, err := vtest.Builtins().Get(name)
	if err != nil {
		b.Fatal(err)
	}
	p := v.Start()
	b.ResetTimer()
	var n uint64
	for b.Loop() {
		n = rules.Perft(p, depth)
	}
	if n != want {
		b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftChess6 is the speed target of the rules core: chess
// perft(6) from the start, 119,060,324 nodes, single-threaded.
func BenchmarkPerftChess6(b *testing.B) { benchPerft(b, "chess", 6, 119060324) }

// BenchmarkPerftGreatShatranj5 is the second target: 32,534,066 nodes.
func BenchmarkPerftGreatShatranj5(b *testing.B) {
	benchPerft(b, "greatshatranj", 5, 32534066)
}

func BenchmarkPerftChess5(b *testing.B)    { benchPerft(b, "chess", 5, 4865609) }
func BenchmarkPerftChatrang4(b *testing.B) { benchPerft(b, "chatrang", 4, 351031) }
