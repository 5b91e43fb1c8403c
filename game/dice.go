package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// ErrRNG is wrapped by errors about an RNG tag.
var ErrRNG = errors.New("bad RNG tag")

// Roller is a rules.Roller drawing from a seeded PCG source, so that a game
// driven by it replays bit-exactly from its seed. It is not safe for
// concurrent use.
type Roller struct {
	r *rand.Rand
}

// NewRoller returns a Roller seeded with seed.
func NewRoller(seed uint64) *Roller {
	return &Roller{r: rand.New(rand.NewPCG(seed, 0x7661_7a69_72))}
}

// Roll returns a uniform integer in [0, n).
func (r *Roller) Roll(n int) int { return r.r.IntN(n) }

// Rand returns the underlying source, for set-up hooks that shuffle.
func (r *Roller) Rand() *rand.Rand { return r.r }

// rngName names NewRoller's generator in the RNG tag.
const rngName = "PCG"

// RNGTag returns the value of the RNG tag of a game driven by
// NewRoller(seed): "PCG:<seed>".
func RNGTag(seed uint64) string { return rngName + ":" + strconv.FormatUint(seed, 10) }

// ParseRNGTag reads an RNG tag written by RNGTag and returns the seed.
func ParseRNGTag(s string) (uint64, error) {
	name, num, ok := strings.Cut(s, ":")
	if !ok || name != rngName {
		return 0, fmt.Errorf("%w: %q (want %s:<seed>)", ErrRNG, s, rngName)
	}
	seed, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %w", ErrRNG, s, err)
	}
	return seed, nil
}
