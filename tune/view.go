package tune

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/anychess/anychess/rules"
)

// ErrNoViews is returned by Views for a variant that hides nothing (it has
// no rules.Determinizer): its positions are their own views.
var ErrNoViews = errors.New("tune: the variant hides nothing: no views to sample")

// Views returns ps with each position replaced by a full position drawn
// from what its side to move sees (rules.Position.View, then the
// variant's rules.Determinizer), as the engine of a hidden-information
// game searches it: the unseen pieces where the determinizer puts them.
// The result and the search's score stay those of the true position, so a
// fit of the returned positions learns an evaluation of the samples the
// engine searches that predicts the true positions' results. The draw of
// position i depends on seed, its game and its FEN alone, so the same
// sample gives the same positions.
func Views(v *rules.Variant, ps []Position, seed uint64) ([]Position, error) {
	det, ok := v.Ext().(rules.Determinizer)
	if !ok {
		return nil, fmt.Errorf("%w (%s)", ErrNoViews, v.Name())
	}
	out := make([]Position, len(ps))
	for i, sp := range ps {
		p, err := v.ParseFEN(sp.FEN)
		if err != nil {
			return nil, fmt.Errorf("tune: game %d: %w", sp.Game, err)
		}
		us := p.Turn()
		// What the player is given (its view as a position), then the view
		// that position gives again: as the engine's SearchView sees it.
		vw := p.View(us).Position.View(us)
		rng := rand.New(rand.NewPCG(seed, uint64(sp.Game)<<32^p.Hash()))
		s := det.Determinize(vw, rng)
		if s == nil {
			s = p
		}
		// The sample is a position of the variant of the player's view
		// (its own compilation, with the terrain the player knows): its
		// FEN, read as one of v, is what the features are taken from.
		sp.FEN = s.FEN()
		if _, err := v.ParseFEN(sp.FEN); err != nil {
			return nil, fmt.Errorf("tune: game %d: a sample of the view: %w", sp.Game, err)
		}
		out[i] = sp
	}
	return out, nil
}
