package csipgs

import (
	"errors"

	"github.com/anychess/anychess/rules"
)

// ErrNotCsipgs is returned by the functions of this package for a position
// of another variant.
var ErrNotCsipgs = errors.New("csipgs: not a csipgs position")

// TypeDesign is one entry of a position's type table.
type TypeDesign struct {
	Letter byte   // upper-case type letter
	Design string // canonical design text
	Price  int
	Royal  bool
}

// TypeTable returns the type table of p: which design each type letter
// names, in letter order.
func TypeTable(p *rules.Position) []TypeDesign {
	z, ok := ensure(p)
	if !ok {
		return nil
	}
	st := z.stateOf(p)
	var out []TypeDesign
	for l := 1; l <= 26; l++ {
		if c := st.table[l]; c != nil {
			out = append(out, TypeDesign{Letter: byte('A' + l - 1), Design: c.text, Price: c.price, Royal: c.royal})
		}
	}
	return out
}

// DesignSlots returns the type letters in colour c's six design slots.
func DesignSlots(p *rules.Position, c rules.Color) [Slots]byte {
	var out [Slots]byte
	z, ok := ensure(p)
	if !ok {
		return out
	}
	st := z.stateOf(p)
	for i, l := range st.slots[c] {
		out[i] = 'A' + l - 1
	}
	return out
}

// DesignOf returns the design text of the type letter l (either case) in
// p, or "".
func DesignOf(p *rules.Position, l byte) string {
	z, ok := ensure(p)
	if !ok {
		return ""
	}
	if l >= 'a' && l <= 'z' {
		l -= 'a' - 'A'
	}
	if l < 'A' || l > 'Z' {
		return ""
	}
	if c := z.stateOf(p).table[l-'A'+1]; c != nil {
		return c.text
	}
	return ""
}

// Treasury returns colour c's zorkmids as the rules see them at this
// moment: between turns, before the credit of the side to move; in the
// design phase, after the action.
func Treasury(p *rules.Position, c rules.Color) int { return p.Money(c) }

// Available returns what the side to move may spend in its action: its
// treasury plus the credit of CS-5.
func Available(p *rules.Position) int {
	if p.Phase() != 0 {
		return p.Money(p.Turn())
	}
	return p.Money(p.Turn()) + 1
}

// DesignPhase reports whether p waits for the design decision of the side
// to move (CS-8) rather than an action.
func DesignPhase(p *rules.Position) bool { return p.Phase() == 1 }

// FiftyMoveCounter returns the actions since the last capture, transfer
// or move of a pawn design (CS-15).
func FiftyMoveCounter(p *rules.Position) int {
	z, ok := ensure(p)
	if !ok {
		return 0
	}
	return int(z.stateOf(p).hm)
}

// Visible returns the squares colour c sees in p by the moderated rules
// (CS-M2), whatever the mode.
func Visible(p *rules.Position, c rules.Color) []string {
	z, ok := ensure(p)
	if !ok {
		return nil
	}
	vis := z.visible(p, z.stateOf(p), c)
	var out []string
	for _, s := range vis.Squares() {
		out = append(out, s.String())
	}
	return out
}
