package ai

import (
	"fmt"

	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// Face is csipgs Chess's face (package face) with its whole-turn player:
// the catalog attaches it to the variant.
type Face struct{ csipgs.Face }

// NewPlayer returns the engine of package ai playing with e and seed.
func (Face) NewPlayer(e *search.Engine, seed uint64) player.Player { return New(e, seed) }

// SetOption sets the engine's own settings by name (player.Configurable):
// belief, 0 or 1 (Engine.Belief).
func (a *Engine) SetOption(name, value string) error {
	switch name {
	case "belief":
		switch value {
		case "0":
			a.Belief = false
		case "1":
			a.Belief = true
		default:
			return fmt.Errorf("ai: belief is 0 or 1, not %q", value)
		}
		return nil
	}
	return fmt.Errorf("ai: no option %q", name)
}
