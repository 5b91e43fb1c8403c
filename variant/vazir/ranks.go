package vazir

import (
	"fmt"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// InitRanks sets the rank of every piece of p as init says (VZ-3), drawing
// from r for the random modes. White's pieces are visited from a1 along
// the ranks, then Black's, so a seed gives the same ranks everywhere.
// FromFEN leaves the ranks alone. The position's hash follows the change.
// It must be called on a position without history (before any move).
func InitRanks(p *rules.Position, init RankInit, r rules.Roller) error {
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
			return 0, fmt.Errorf("%w: Roll(%d) = %d", rules.ErrRoller, MaxRank+1, u)
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
func StartPosition(v *rules.Variant, init RankInit, r rules.Roller) (*rules.Position, error) {
	p := v.Start()
	if err := InitRanks(p, init, r); err != nil {
		return nil, err
	}
	return p, nil
}
