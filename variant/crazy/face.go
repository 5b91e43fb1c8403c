package crazy

import (
	"math/rand/v2"
	"slices"

	"github.com/anychess/anychess/rules"
)

// Face is Crazy Chess's face (package face): what the programs above the
// rules ask the variant for. The catalog attaches it to the variant.
type Face struct{}

// GreedyMove is the one-ply greedy player's choice: it denies the
// opponent's last move when that move was one of the opponent's best by
// the player's own judgement (or when it has nothing else to play), and
// otherwise plays a move best by material.
func (Face) GreedyMove(p *rules.Position, moves []rules.Move, best func(*rules.Position, []rules.Move) []rules.Move, rng *rand.Rand) rules.Move {
	var deny rules.Move
	moves = slices.DeleteFunc(slices.Clone(moves), func(m rules.Move) bool {
		if IsDeny(m) {
			deny = m
			return true
		}
		return false
	})
	if deny != rules.NoMove && bestOfLast(p, best) {
		return deny
	}
	if len(moves) == 0 {
		return deny
	}
	b := best(p, moves)
	return b[rng.IntN(len(b))]
}

// bestOfLast reports whether the opponent's last move in p was one of its
// best by best (a denial of it is then worth making). p is left as it
// was.
func bestOfLast(p *rules.Position, best func(*rules.Position, []rules.Move) []rules.Move) bool {
	last, k, ok := p.LastMove()
	if !ok {
		return false
	}
	p.Unmake()
	defer p.MakeOutcome(last, k)
	moves := slices.DeleteFunc(p.LegalMoves(nil), IsDeny)
	return slices.Contains(best(p, moves), last)
}
