package csipgs

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

const midgame = "r1b1k3/pp3p2/2n2n2/3q4/3P4/2N1BQ2/PP3PP1/R3K2R w 12/9 N/b PRNBKQ/PRNBKQ 3 20 " + table

// TestAllocs checks that generating, making and unmaking moves does not
// allocate once the buffers exist.
func TestAllocs(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, midgame)
	buf := make([]rules.Move, 0, rules.MaxMoves)
	for range 3 { // warm the undo stacks
		for _, m := range p.LegalMoves(buf[:0]) {
			p.Make(m)
			p.Unmake()
		}
	}
	n := testing.AllocsPerRun(20, func() {
		moves := p.LegalMoves(buf[:0])
		for _, m := range moves {
			p.Make(m)
			p.Unmake()
		}
	})
	if n > 0 {
		t.Errorf("%v allocations per generation and make/unmake of every move", n)
	}
}

// TestPerftSmall counts the decision tree of the start: 5 king moves, then
// the design phase (&- and the changes), then Black's 5 king moves.
func TestPerftSmall(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	if n := rules.Perft(p, 1); n != 5 {
		t.Errorf("perft(1) = %d, want 5", n)
	}
	// Design phase: &-, 5 re-adoptions and 20 new catalogue designs
	// per slot.
	if n := rules.Perft(p, 2); n != 5*(1+6*(5+20)) {
		t.Errorf("perft(2) = %d, want %d", n, 5*(1+6*(5+20)))
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	v := newVariant(b, DefaultOptions())
	p := mustFEN(b, v, midgame)
	buf := make([]rules.Move, 0, rules.MaxMoves)
	b.ResetTimer()
	for b.Loop() {
		for _, m := range p.LegalMoves(buf[:0]) {
			p.Make(m)
			p.Unmake()
		}
	}
}
