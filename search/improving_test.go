package search

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestImproving checks that a node compares its evaluation with the last
// node where the same side was to move, whether or not the sides
// alternate, skipping nodes in check.
func TestImproving(t *testing.T) {
	const none = -Infinity
	w, b := rules.White, rules.Black
	tests := []struct {
		name  string
		turns []rules.Color // the side to move at plies 0.., the last is the node's
		evals []int
		want  bool
	}{
		{"alternating, better", []rules.Color{w, b, w}, []int{10, 0, 20}, true},
		{"alternating, worse", []rules.Color{w, b, w}, []int{30, 0, 20}, false},
		{"alternating, equal", []rules.Color{w, b, w}, []int{20, 0, 20}, false},
		{"same side twice, worse", []rules.Color{w, w}, []int{30, 20}, false},
		{"same side twice, better", []rules.Color{w, w}, []int{10, 20}, true},
		{"the other side moved twice", []rules.Color{b, w, w, b}, []int{50, 0, 0, 40}, false},
		{"earlier node in check: the one before", []rules.Color{w, b, w, b, w}, []int{30, 0, none, 0, 20}, false},
		{"no earlier node", []rules.Color{w}, []int{20}, true},
		{"in check", []rules.Color{w, b, w}, []int{10, 0, none}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := seeSearcher(t, "chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
			n := len(tt.turns) - 1
			for k := range n {
				s.turns[k], s.evals[k] = tt.turns[k], int32(tt.evals[k])
			}
			s.p.SetTurnState(tt.turns[n], 0, 0)
			if got := s.improving(n, tt.evals[n]); got != tt.want {
				t.Errorf("improving = %v, want %v", got, tt.want)
			}
		})
	}
}
