package csipgs

import (
	"fmt"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// The groups of csipgs's actions (face.Action.Group): the purchases, the
// decisions of the design phase, and the transfers from the reserve.
const (
	GroupShop    = "shop"
	GroupDesign  = "design"
	GroupReserve = "reserve"
)

// Action describes the moves of csipgs Chess that are not a piece's move
// (face.Actioner): a purchase ("buy N (N) — 3 zorkmids", in the shop),
// a design change ("put Y (FfR) into slot Q") and keeping the designs
// ("keep the designs") in the design group, and a transfer, a piece of
// the reserve put on a square. The move texts are those of EncodeMove.
func (Face) Action(p *rules.Position, m rules.Move) (face.Action, bool) {
	z, ok := ensure(p)
	if !ok {
		return face.DefaultAction(p, m)
	}
	switch KindOf(m) {
	case Buy:
		l := byte('A' + m.Payload()&31 - 1)
		return face.Action{Group: GroupShop,
			Label: fmt.Sprintf("buy %c (%s) — %s", l, DesignOf(p, l), zorkmids(Cost(p, m)))}, true
	case Pass:
		return face.Action{Group: GroupDesign, Label: "keep the designs"}, true
	case Redesign:
		slot, l, id := designFields(m)
		if slot >= Slots || l < 1 || l > 26 {
			return face.Action{}, false
		}
		from := 'A' + rune(z.stateOf(p).slots[p.Turn()][slot]) - 1
		to := byte('A' + l - 1)
		design := DesignOf(p, to)
		if id != 0 {
			if c := z.design(id); c != nil {
				design = c.text
			}
		}
		return face.Action{Group: GroupDesign, Label: fmt.Sprintf("put %c (%s) into slot %c", to, design, from)}, true
	case Transfer:
		piece := string(rune('A' + int(m.Promo()) - 1))
		return face.Action{Group: GroupReserve, Piece: piece, To: m.To().String(),
			Label: fmt.Sprintf("put %s from the reserve on %s", piece, m.To())}, true
	}
	return face.Action{}, false
}

// PutDesign returns the text of the design-phase move that puts design
// into the slot holding the type letter slot, under the letter the rules
// give it ("&Q>?=FfR", face.Designer).
func (Face) PutDesign(slot, design string) (string, error) {
	if len(slot) != 1 || slot[0] < 'A' || slot[0] > 'Z' {
		return "", fmt.Errorf("csipgs: a slot is named by a type letter A-Z, not %q", slot)
	}
	if design == "" {
		return "", fmt.Errorf("csipgs: no design to put into slot %s", slot)
	}
	return "&" + slot + ">?=" + design, nil
}
