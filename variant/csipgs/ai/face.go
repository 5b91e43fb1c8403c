package ai

import (
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// Face is csipgs Chess's face (package face) with its whole-turn player:
// the catalog attaches it to the variant.
type Face struct{ csipgs.Face }

// NewPlayer returns the engine of package ai playing with e and seed.
func (Face) NewPlayer(e *search.Engine, seed uint64) player.Player { return New(e, seed) }
