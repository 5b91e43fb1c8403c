package csipgs

import (
	"fmt"

	"github.com/anychess/anychess/rules"
)

// AfterMake is the rules.AfterMover's make. The core has made the board change of
// a piece move or a transfer and passed the turn; the hook applies the
// credit and the price (CS-5, CS-6c), the buy, the design change (CS-8),
// the 50-move counter, and the turn structure: after an action the same
// side designs (phase 1), after the design phase the turn passes.
func (z *csipgs) AfterMake(p *rules.Position, m rules.Move, _ int) {
	st := z.stateOf(p)
	mover := p.Turn().Other()
	f := frame{hm: st.hm, slot: -1}
	if p.Phase() == 0 {
		reset := false
		cost := 0
		switch KindOf(m) {
		case PieceMove:
			reset = m.Payload()&1 != 0
			if d := st.designOf(p.At(m.To())); d != nil && d.pawn {
				reset = true
			}
		case Transfer:
			reset = true
		case Buy:
			l := rules.Type(m.Payload() & 31)
			if d := st.table[l]; d != nil {
				cost = d.price
			}
			p.SetPocket(mover, l, p.Pocket(mover, l)+1)
		}
		if reset {
			st.hm = 0
		} else {
			st.hm++
		}
		p.SetMoney(mover, p.Money(mover)+1-cost)
		p.SetTurnState(mover, 1, 0)
	} else {
		if KindOf(m) == Redesign {
			slot, l, id := designFields(m)
			f.slot, f.old = int8(slot), st.slots[mover][slot]
			st.tables = append(st.tables, st.table)
			st.slots[mover][slot] = l
			if id != 0 {
				st.table[l] = z.design(id)
			}
			used := st.referenced(p, mover, -1)
			for k := 1; k <= 26; k++ {
				if !used[k] {
					st.table[k] = nil
				}
			}
		}
		p.SetTurnState(mover.Other(), 0, 0)
	}
	if holes := p.Variant().Board().Holes; z.o.Moderated && !holes.Empty() {
		f.seen = true
		st.seens = append(st.seens, st.seen)
		z.updateSeen(p, st)
	}
	st.log = append(st.log, f)
}

// AfterUnmake reverses AfterMake (the core
// restores money, turn and phase itself).
func (z *csipgs) AfterUnmake(p *rules.Position, m rules.Move, _ int) {
	st := z.stateOf(p)
	f := st.log[len(st.log)-1]
	st.log = st.log[:len(st.log)-1]
	st.hm = f.hm
	if f.seen {
		st.seen = st.seens[len(st.seens)-1]
		st.seens = st.seens[:len(st.seens)-1]
	}
	if f.slot >= 0 {
		// a design move: the designer is the side before the turn passed
		st.table = st.tables[len(st.tables)-1]
		st.tables = st.tables[:len(st.tables)-1]
		st.slots[p.Turn().Other()][f.slot] = f.old
	}
	if KindOf(m) == Buy {
		// after an action the mover keeps the turn (phase 1)
		l := rules.Type(m.Payload() & 31)
		p.SetPocket(p.Turn(), l, p.Pocket(p.Turn(), l)-1)
	}
}

// End (rules.Ender) judges no royal left (royal capture, or a position set up
// so), checkmate and no legal action (CS-7, CS-14), the 50-move rule
// (CS-15). Repetition and MaxTurns are the core's.
func (z *csipgs) End(p *rules.Position) (rules.Status, bool) {
	st := z.stateOf(p)
	us := p.Turn()
	them := us.Other()
	if st.royals(p, them) == 0 {
		return rules.Status{Result: rules.Win(us), Reason: rules.ReasonNoRoyal,
			Detail: fmt.Sprintf("%s has no royal piece left and loses", them)}, true
	}
	if st.royals(p, us) == 0 {
		return rules.Status{Result: rules.Win(them), Reason: rules.ReasonNoRoyal,
			Detail: fmt.Sprintf("%s has no royal piece left and loses", us)}, true
	}
	if p.Phase() != 0 {
		return rules.Status{}, false
	}
	buf := z.getBuf()
	*buf = p.LegalMoves(*buf)
	n := len(*buf)
	z.putBuf(buf)
	if n == 0 {
		if !z.o.royalCapture() && st.ruleRoyals(p, us) == 1 {
			if any, _ := st.royalChecked(p, us); any {
				return rules.Status{Result: rules.Win(them), Reason: rules.ReasonCheckmate,
					Detail: fmt.Sprintf("%s is checkmated", us)}, true
			}
		}
		return rules.Status{Result: rules.Win(them), Reason: rules.ReasonStalemate,
			Detail: fmt.Sprintf("%s has no legal action and loses (CS-7)", us)}, true
	}
	if !z.o.NoFiftyMoveRule && st.hm >= 100 {
		return rules.Status{Result: rules.Draw, Reason: rules.ReasonNMoveRule,
			Detail: "50 moves without capture, transfer or pawn move"}, true
	}
	return rules.Status{}, false
}
