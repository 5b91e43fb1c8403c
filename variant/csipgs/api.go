package csipgs

import (
	"errors"
	"fmt"

	"github.com/anychess/anychess/geom"
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

// DesignSlots returns the type letters in colour c's six design slots;
// '?' for each slot of the opponent's that a view under HideEconomy does
// not show.
func DesignSlots(p *rules.Position, c rules.Color) [Slots]byte {
	z, ok := ensure(p)
	if !ok {
		return [Slots]byte{}
	}
	return z.stateOf(p).slotLetters(c)
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

// Reach returns the squares a piece pc standing on from could move to or
// capture on in p, by its design's movement (a rider's line up to and
// including the first square that is not empty), whether or not pc
// stands there: the squares the Reach visibility of CS-M2 counts. It is
// nil outside csipgs or for a type p's table does not know.
func Reach(p *rules.Position, from geom.Square, pc rules.Piece) []geom.Square {
	z, ok := ensure(p)
	if !ok || !pc.IsPiece() {
		return nil
	}
	d := z.stateOf(p).designOf(pc)
	if d == nil {
		return nil
	}
	var out []geom.Square
	reach(p, from, d.legs[pc.Color()], func(s geom.Square) { out = append(out, s) })
	return out
}

// Moderated reports whether v is csipgs Chess in the moderated mode
// (CS-M1): each player may see only its view (Position.View).
func Moderated(v *rules.Variant) bool {
	z, ok := hooksOfVariant(v)
	return ok && z.o.Moderated
}

// IsCsipgs reports whether v is csipgs Chess (with any options).
func IsCsipgs(v *rules.Variant) bool {
	_, ok := hooksOfVariant(v)
	return ok
}

// Cost returns the zorkmids the action m costs in p: the price of the
// design a buy adds to the reserve, 0 for any other move.
func Cost(p *rules.Position, m rules.Move) int {
	z, ok := ensure(p)
	if !ok || KindOf(m) != Buy {
		return 0
	}
	l := m.Payload() & 31
	if l < 1 || l > 26 {
		return 0
	}
	if d := z.stateOf(p).table[l]; d != nil {
		return d.price
	}
	return 0
}

// ParseOptions returns the options of the design parser and the prices
// that the game options o imply (GForwardMultiplier,
// NarrowWideOnNightrider).
func (o Options) ParseOptions() ParseOptions { return o.parseOptions() }

// DesignMove returns the design-phase move of the side to move in p that
// puts the design text into the slot holding the type letter slot (either
// case): the re-adoption of the letter that names the design already, or
// a new design under the letter the rules give it. The error says why the
// rules refuse it: a *DesignError (with the position of the fault) for a
// text outside the priced subset, ErrNotDesignPhase in the action, or the
// reason (no such slot, relay without the Relay option, the slot has the
// design already, no free letter).
func DesignMove(p *rules.Position, slot byte, design string) (rules.Move, error) {
	z, ok := ensure(p)
	if !ok {
		return rules.NoMove, ErrNotCsipgs
	}
	d, err := ParseDesignWith(design, z.po)
	if err != nil {
		return rules.NoMove, err
	}
	if d.Relay && !z.o.Relay {
		return rules.NoMove, fmt.Errorf("%w: %q is a relay design: the game needs the Relay option (3.7 A-g)", ErrDesign, d.String())
	}
	if p.Phase() != 1 {
		return rules.NoMove, ErrNotDesignPhase
	}
	if slot >= 'a' && slot <= 'z' {
		slot -= 'a' - 'A'
	}
	st := z.stateOf(p)
	us := p.Turn()
	idx := -1
	if slot >= 'A' && slot <= 'Z' {
		idx = st.slotOf(us, slot-'A'+1)
	}
	if idx < 0 {
		slots := st.slotLetters(us)
		return rules.NoMove, fmt.Errorf("csipgs: no slot of %s holds the letter %q (slots %s)", us, string(rune(slot)), slots[:])
	}
	text := d.String()
	for l := uint8(1); l <= 26; l++ {
		if c := st.table[l]; c != nil && c.text == text {
			if l == st.slots[us][idx] {
				return rules.NoMove, fmt.Errorf("csipgs: the slot %c holds %s already", 'A'+l-1, text)
			}
			return designMove(idx, l, 0), nil
		}
	}
	c, err := z.intern(d)
	if err != nil {
		return rules.NoMove, err
	}
	free := st.freeLetter(p, us, idx)
	if free == 0 {
		return rules.NoMove, fmt.Errorf("csipgs: no type letter is free for a new design (all 26 are in use)")
	}
	m := designMove(idx, free, c.id)
	if !st.validDesign(p, m) {
		return rules.NoMove, fmt.Errorf("csipgs: %s cannot go into slot %c", text, slot)
	}
	return m, nil
}

// BuyRefusal says why the side to move in p may not buy a piece of the
// design with letter l (CS-6c): the design phase, not a current design,
// the price, the 16-piece limit, or a royal in check. It returns nil when
// the buy is legal.
func BuyRefusal(p *rules.Position, l byte) error {
	z, ok := ensure(p)
	if !ok {
		return ErrNotCsipgs
	}
	us := p.Turn()
	if p.Phase() != 0 {
		return errors.New("a buy is an action; this is the design phase")
	}
	if l < 'A' || l > 'Z' {
		return fmt.Errorf("%q is not a design letter", l)
	}
	st := z.stateOf(p)
	switch st.buyRefusal(p, l-'A'+1) {
	case refuseDesign:
		return fmt.Errorf("%c is not one of %s's designs", l, us)
	case refusePrice:
		price := st.table[l-'A'+1].price
		return fmt.Errorf("%d short: %c costs %d, %d available with this turn's credit", price-Available(p), l, price, Available(p))
	case refuseLimit:
		return fmt.Errorf("%s has %d pieces on the board and in reserve, the most allowed", us, MaxPiecesPerSide)
	case refuseCheck:
		return errors.New("no buying while a royal is in check")
	}
	return nil
}
