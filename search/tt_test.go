package search

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestTableRoundTrip checks that what the table stores is what it gives
// back, at the edges of every field.
func TestTableRoundTrip(t *testing.T) {
	tests := []struct {
		name        string
		move        rules.Move
		score, eval int32
		depth       int
		bound       uint8
		wantEval    int32
	}{
		{"plain", rules.Move(0x1234), 35, -12, 7, boundExact, -12},
		{"mate", rules.Move(1<<63 | 1<<40 | 5), Mate - 3 + maxPly, -Infinity, 0, boundLower, -Infinity},
		{"mated", rules.NoMove, -Infinity - maxPly, Infinity, maxDepth, boundUpper, Infinity},
		{"large evaluation", rules.Move(7), 0, 1 << 30, 1, boundExact, maxTTEval},
		{"large negative evaluation", rules.Move(7), 0, -1 << 30, 1, boundExact, -maxTTEval},
		{"negative depth", rules.Move(9), -1, 0, -3, boundLower, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTable(1)
			tt.age.Store(200)
			key := uint64(0x9e3779b97f4a7c15)
			tt.store(key, tc.move, tc.score, tc.eval, tc.depth, tc.bound)
			e, ok := tt.probe(key)
			if !ok {
				t.Fatal("stored entry not found")
			}
			want := entry{key: key, move: tc.move, score: tc.score, eval: tc.wantEval, depth: int8(tc.depth), bound: tc.bound, age: 200}
			if e != want {
				t.Errorf("got %+v, want %+v", e, want)
			}
			if _, ok := tt.probe(key ^ 1<<40); ok {
				t.Error("found an entry for a key never stored")
			}
		})
	}
}

// TestTornEntry checks that a slot whose words come from two different
// stores (as when two threads write it at once) is not taken for either.
func TestTornEntry(t *testing.T) {
	tt := newTable(1)
	a := entry{key: 0x1111_0000_0000_0000, move: rules.Move(0xabc), score: 50, eval: 20, depth: 9, bound: boundExact}
	b := entry{key: 0x2222_0000_0000_0000, move: rules.Move(0xdef), score: -70, eval: 10, depth: 3, bound: boundLower}
	for word := 1; word < 3; word++ {
		s := &tt.slots[0]
		s.put(a)
		var other slot
		other.put(b)
		s.w[word].Store(other.w[word].Load()) // the second store overtook the first in one word
		for _, key := range []uint64{a.key, b.key} {
			if e, ok := tt.probe(key); ok {
				t.Errorf("word %d torn: key %#x found %+v", word, key, e)
			}
		}
	}
}
