package match

import (
	"fmt"
	"os"
	"strings"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// HandSet is the value of the engine option weights= that plays the
// hand-set evaluation, whatever weights the variant carries.
const HandSet = "none"

// LoadWeights returns the evaluation weights the engine option weights=arg
// gives the engine in a game of v: none (HandSet), the hand-set
// evaluation, as an empty map; otherwise the weights file arg (TOML, see
// docs/tuning.md), which replaces the weights v carries: a weight it does
// not name keeps its hand-set default. A file that cannot be read, is not
// a weights file, names another variant, or holds a name that is not a
// weight of v or a per-square table of the wrong size is refused.
func LoadWeights(arg string, v *rules.Variant) (map[string]float64, error) {
	if arg == HandSet {
		return map[string]float64{}, nil
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return nil, fmt.Errorf("weights=%s: %w", arg, err)
	}
	name, w, err := variant.ParseWeights(data, arg)
	if err != nil {
		return nil, fmt.Errorf("weights=%s: %w", arg, err)
	}
	if name != "" && !strings.EqualFold(name, v.Name()) {
		return nil, fmt.Errorf("weights=%s: %w: the weights are for %q, not %q", arg, variant.ErrWeights, name, v.Name())
	}
	if err := eval.CheckWeights(v, w); err != nil {
		return nil, fmt.Errorf("weights=%s: %w: %w", arg, variant.ErrWeights, err)
	}
	return w, nil
}

// checkWeights refuses a match whose engine players' weights= options do
// not give weights of v (LoadWeights), before any game is played.
func checkWeights(players [2]Spec, v *rules.Variant) error {
	for i, sp := range players {
		if arg, ok := sp.Options["weights"]; ok && sp.Kind == "engine" {
			if _, err := LoadWeights(arg, v); err != nil {
				return fmt.Errorf("match: player %d (%s): %w", i+1, sp, err)
			}
		}
	}
	return nil
}

// reweigher gives positions to an engine with its own evaluation weights:
// each position is moved to a copy of its variant that carries the
// weights (rules.Variant.WithWeights), one copy kept per variant met (a
// game's variant, and in a hidden game the variants of the views).
type reweigher struct {
	w      map[string]float64
	copies map[*rules.Variant]*rules.Variant
}

// maxCopies bounds the copies a reweigher keeps.
const maxCopies = 4096

// position returns p as a position of its variant's copy with r's weights.
func (r *reweigher) position(p *rules.Position) (*rules.Position, error) {
	v := p.Variant()
	c, ok := r.copies[v]
	if !ok {
		if r.copies == nil || len(r.copies) >= maxCopies {
			r.copies = map[*rules.Variant]*rules.Variant{}
		}
		c = v.WithWeights(r.w)
		r.copies[v] = c
	}
	return p.On(c)
}
