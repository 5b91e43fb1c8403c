package csipgs

import (
	"math/rand/v2"

	"github.com/anychess/anychess/rules"
)

// Face is csipgs Chess's face (package face) without its whole-turn
// player, which package ai adds (ai.Face embeds this one).
type Face struct{}

// GreedyMove is the reference player's choice (CS-6c): in the design
// phase it keeps its designs; in the action it buys the most expensive
// piece it can afford, else plays a move best by material.
func (Face) GreedyMove(p *rules.Position, moves []rules.Move, best func(*rules.Position, []rules.Move) []rules.Move, rng *rand.Rand) rules.Move {
	if DesignPhase(p) {
		for _, m := range moves {
			if KindOf(m) == Pass {
				return m
			}
		}
		return moves[0]
	}
	var buys []rules.Move
	top := 0
	for _, m := range moves {
		if KindOf(m) != Buy {
			continue
		}
		switch c := Cost(p, m); {
		case c > top:
			top, buys = c, append(buys[:0], m)
		case c == top:
			buys = append(buys, m)
		}
	}
	if len(buys) > 0 {
		return buys[rng.IntN(len(buys))]
	}
	b := best(p, moves)
	return b[rng.IntN(len(b))]
}
