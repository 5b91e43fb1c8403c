package rules

import (
	"errors"
	"fmt"
)

// ErrRoller is returned when a Roller gives a number out of range.
var ErrRoller = errors.New("roller out of range")

// Roller is the injectable random source of a game: Roll(n) returns a
// uniform integer in [0, n). Games use a seeded source (game.NewRoller),
// tests script one; the rules and the engine never draw from it.
type Roller interface {
	Roll(n int) int
}

// Choose picks the outcome of a move from outs (as Position.Outcomes
// returns them, with one common denominator) with one roll of a die with
// Den faces: face u selects the first outcome whose cumulative numerators
// exceed u. So a Vazir capture by rank a succeeds iff u <= a (VZ-5). A
// single outcome is chosen without a roll.
func Choose(r Roller, outs []Outcome) (int, error) {
	k, _, err := ChooseRoll(r, outs)
	return k, err
}

// ChooseRoll is Choose that also returns the face rolled, 0..Den-1 (-1
// when a single outcome needed no roll), for a record that shows the die.
func ChooseRoll(r Roller, outs []Outcome) (k, face int, err error) {
	if len(outs) <= 1 {
		return 0, -1, nil
	}
	den := int(outs[0].Den)
	if den <= 0 {
		return 0, -1, fmt.Errorf("%w: outcome denominator %d", ErrRoller, den)
	}
	u := r.Roll(den)
	if u < 0 || u >= den {
		return 0, -1, fmt.Errorf("%w: Roll(%d) = %d", ErrRoller, den, u)
	}
	acc := 0
	for i, o := range outs {
		acc += int(o.Num)
		if u < acc {
			return i, u, nil
		}
	}
	return len(outs) - 1, u, nil
}
