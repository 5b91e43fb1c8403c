package face

import (
	"math/rand/v2"

	"github.com/anychess/anychess/rules"
)

// Greedy is implemented by the face of a variant whose moves the one-ply
// greedy player (package match) cannot choose by material alone: moves
// that are not moves of pieces (a denial, a purchase, a design).
type Greedy interface {
	// GreedyMove returns the greedy player's choice in p among moves (the
	// legal moves less any the moderator refused, never empty). best
	// returns the moves among its argument with the best material balance
	// one ply ahead in the position given (for a position of p's history:
	// p may be unmade and made again, and must be left as it was); rng
	// breaks ties.
	GreedyMove(p *rules.Position, moves []rules.Move, best func(*rules.Position, []rules.Move) []rules.Move, rng *rand.Rand) rules.Move
}

// GreedyMove is the greedy player's choice in p among moves: the
// variant's own (Greedy), or one of the moves best by material, drawn
// with rng.
func GreedyMove(v *rules.Variant, p *rules.Position, moves []rules.Move, best func(*rules.Position, []rules.Move) []rules.Move, rng *rand.Rand) rules.Move {
	if g, ok := v.Face().(Greedy); ok {
		return g.GreedyMove(p, moves, best, rng)
	}
	b := best(p, moves)
	return b[rng.IntN(len(b))]
}
