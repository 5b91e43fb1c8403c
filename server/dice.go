package server

import (
	"fmt"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/server/store"
)

// newDice draws a game's secret seed (ChaCha8, 256 bits) and the nonce of
// the commitment to it, as the store keeps them.
func newDice() (key, nonce string) {
	seed, nonce, err := game.NewSecret()
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return seed.Text(), nonce
}

// seedOf returns the seed of game g's dice: ChaCha8 with g.DiceKey, or for
// a game stored before, PCG with g.Seed.
func seedOf(g *store.Game) (game.Seed, error) {
	if g.DiceKey == "" {
		return game.PCGSeed(g.Seed), nil
	}
	s, err := game.ParseSeed(game.GenChaCha8 + ":" + g.DiceKey)
	if err != nil {
		return game.Seed{}, fmt.Errorf("game %s: dice: %w", g.ID, err)
	}
	return s, nil
}

// seed returns the seed of the game's dice (checked when it was loaded).
func (lg *liveGame) seed() game.Seed {
	s, _ := seedOf(lg.rec)
	return s
}

// setupRoller returns the roller that draws the start of game g: a stream
// of its own (game.Seed.Setup) for games with a nonce, so that the dice
// stream begins with the first roll; for games stored before, the dice
// roller itself, as they were played.
func setupRoller(g *store.Game, dice *game.Roller) (*game.Roller, error) {
	seed, err := seedOf(g)
	if err != nil {
		return nil, err
	}
	if g.Nonce != "" || dice == nil {
		return seed.Setup().Roller(), nil
	}
	return dice, nil
}
