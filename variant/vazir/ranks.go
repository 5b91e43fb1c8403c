package vazir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// ErrRoller is returned when a Roller gives a number out of range.
var ErrRoller = errors.New("vazir: roller out of range")

// Roller is the injectable random source of a game (section 1.10):
// Roll(n) returns a uniform integer in [0, n). Tests script it; games use a
// seeded RandRoller. The engine never draws from it.
type Roller interface {
	Roll(n int) int
}

// RandRoller adapts a seeded *rand.Rand to Roller.
type RandRoller struct {
	R *rand.Rand
}

// Roll returns a uniform integer in [0, n).
func (r RandRoller) Roll(n int) int { return r.R.IntN(n) }

// NewRandRoller returns a Roller drawing from a PCG source with the given
// seed, so that a game replays bit-exactly from its seed.
func NewRandRoller(seed uint64) RandRoller {
	return RandRoller{R: rand.New(rand.NewPCG(seed, 0x7661_7a69_72)) /* "vazir" */}
}

// Choose picks the outcome of a move from outs (as Position.Outcomes
// returns them) with one roll of a die with Den faces: face u selects the
// outcome whose cumulative numerators first exceed u, so a capture by rank
// a succeeds iff u <= a (VZ-5). A single outcome is chosen without a roll
// (VZ-6).
func Choose(r Roller, outs []rules.Outcome) (int, error) {
	if len(outs) <= 1 {
		return 0, nil
	}
	den := int(outs[0].Den)
	if den <= 0 {
		return 0, fmt.Errorf("%w: outcome denominator %d", ErrRoller, den)
	}
	u := r.Roll(den)
	if u < 0 || u >= den {
		return 0, fmt.Errorf("%w: Roll(%d) = %d", ErrRoller, den, u)
	}
	acc := 0
	for i, o := range outs {
		acc += int(o.Num)
		if u < acc {
			return i, nil
		}
	}
	return len(outs) - 1, nil
}

// InitRanks sets the rank of every piece of p as init says (VZ-3), drawing
// from r for the random modes. White's pieces are visited from a1 along
// the ranks, then Black's, so a seed gives the same ranks everywhere.
// FromFEN leaves the ranks alone. The position's hash follows the change.
// It must be called on a position without history (before any move).
func InitRanks(p *rules.Position, init RankInit, r Roller) error {
	if init == FromFEN {
		return nil
	}
	k, fixed := init.IsFixed()
	if !fixed && init != RandomMirrored && init != RandomIndependent {
		return fmt.Errorf("%w: RankInit %v", ErrOption, init)
	}
	if fixed && k > MaxRank {
		return fmt.Errorf("%w: RankInit %v", ErrOption, init)
	}
	if !fixed && r == nil {
		return fmt.Errorf("%w: RankInit %v needs a Roller", ErrOption, init)
	}
	roll := func() (int, error) {
		if fixed {
			return k, nil
		}
		u := r.Roll(MaxRank + 1)
		if u < 0 || u > MaxRank {
			return 0, fmt.Errorf("%w: Roll(%d) = %d", ErrRoller, MaxRank+1, u)
		}
		return u, nil
	}
	b := p.Variant().Board()
	set := func(s geom.Square, rank int) {
		pc := p.At(s)
		p.Remove(s)
		p.Put(s, pc.WithAttr(uint16(rank)))
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, s := range b.Squares() {
			pc := p.At(s)
			if !pc.IsPiece() || pc.Color() != c {
				continue
			}
			if c == rules.Black && init == RandomMirrored {
				m := p.At(b.Mirror(s))
				if m.IsPiece() && m.Color() == rules.White {
					set(s, int(m.Attr()))
					continue
				}
			}
			rank, err := roll()
			if err != nil {
				return err
			}
			set(s, rank)
		}
	}
	return nil
}

// StartPosition returns v's start position with ranks set as init says,
// drawing from r for the random modes (VZ-3). FromFEN keeps the ranks of
// v's start position, which are all 0. Write the result with RFEN into the
// game's FEN tag, so that the game replays without the generator.
func StartPosition(v *rules.Variant, init RankInit, r Roller) (*rules.Position, error) {
	p := v.Start()
	if err := InitRanks(p, init, r); err != nil {
		return nil, err
	}
	return p, nil
}

// rngName names NewRandRoller's generator in the R-PGN RNG tag.
const rngName = "PCG"

// RNGTag returns the value of the R-PGN RNG tag (section 1.9) for a game
// whose Roller is NewRandRoller(seed): "PCG:<seed>".
func RNGTag(seed uint64) string { return rngName + ":" + strconv.FormatUint(seed, 10) }

// ParseRNGTag reads an RNG tag written by RNGTag and returns the seed.
func ParseRNGTag(s string) (uint64, error) {
	name, num, ok := strings.Cut(s, ":")
	if !ok || name != rngName {
		return 0, fmt.Errorf("%w: RNG %q (want %s:<seed>)", ErrOption, s, rngName)
	}
	seed, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: RNG %q: %w", ErrOption, s, err)
	}
	return seed, nil
}
