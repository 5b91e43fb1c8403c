package csipgs

import (
	"slices"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Move payloads. Every move the variant generates carries a payload with
// the marker bit, so Generate can tell the core's moves (none of which are
// csipgs moves) from its own:
//
//	bit  23     marker
//	bits 21-22  kind: piece move, buy, design, pass
//	piece move: bit 0 set for a capture
//	buy:        bits 0-4 the type letter (1 = A)
//	design:     bits 0-4 the new letter, bits 5-7 the slot, bits 8-20 the
//	            id of a new design (0: the letter's design in the table)
//
// Transfers are core Drop moves with the marker.
const (
	marker   = 1 << 23
	kindMask = 3 << 21

	kPiece  = 0 << 21
	kBuy    = 1 << 21
	kDesign = 2 << 21
	kPass   = 3 << 21
)

// Kind is the kind of a csipgs move (CS-6, CS-8).
type Kind uint8

// The kinds of move.
const (
	NotCsipgs Kind = iota // not a move of this variant
	PieceMove             // action (a): a piece moves
	Transfer              // action (b): a reserve piece is placed
	Buy                   // action (c): a piece is bought
	Redesign              // design phase: a slot gets a design
	Pass                  // design phase: no change
)

// KindOf returns the kind of a csipgs move.
func KindOf(m rules.Move) Kind {
	pl := m.Payload()
	if pl&marker == 0 {
		return NotCsipgs
	}
	switch m.Kind() {
	case rules.Drop:
		return Transfer
	case rules.Normal:
		return PieceMove
	case rules.Special:
		switch pl & kindMask {
		case kBuy:
			return Buy
		case kDesign:
			return Redesign
		case kPass:
			return Pass
		}
	}
	return NotCsipgs
}

func pieceMove(from, to geom.Square, capture bool) rules.Move {
	pl := uint32(marker | kPiece)
	if capture {
		pl |= 1
	}
	return rules.NewMove(from, to, rules.Normal).WithPayload(pl)
}

func buyMove(letter uint8) rules.Move {
	return rules.NewMove(geom.NoSquare, geom.NoSquare, rules.Special).WithPayload(marker | kBuy | uint32(letter))
}

func designMove(slot int, letter uint8, id uint16) rules.Move {
	return rules.NewMove(geom.NoSquare, geom.NoSquare, rules.Special).WithPayload(marker | kDesign | uint32(letter) | uint32(slot)<<5 | uint32(id)<<8)
}

func passMove() rules.Move {
	return rules.NewMove(geom.NoSquare, geom.NoSquare, rules.Special).WithPayload(marker | kPass)
}

func transferMove(t rules.Type, to geom.Square) rules.Move {
	return rules.NewMove(geom.NoSquare, to, rules.Drop).WithPromo(t).WithPayload(marker)
}

// fields of a design move
func designFields(m rules.Move) (slot int, letter uint8, id uint32) {
	pl := m.Payload()
	return int(pl >> 5 & 7), uint8(pl & 31), pl >> 8 & (1<<13 - 1)
}

// overlay describes a move played on the board in thought: vac is empty,
// occ holds piece (a zero square: no change).
type overlay struct {
	vac, occ geom.Square
	piece    rules.Piece
}

func (ov *overlay) cell(p *rules.Position, s geom.Square) rules.Piece {
	if ov != nil {
		if s == ov.vac {
			return rules.Empty
		}
		if s == ov.occ {
			return ov.piece
		}
	}
	return p.At(s)
}

// reaches reports whether a piece on from with legs could go to target
// (capture: with a capturing leg; else with any leg), through empty
// squares for riders.
func reaches(p *rules.Position, from geom.Square, legs []leg, target geom.Square, ov *overlay, capture bool) bool {
	dx := target.File() - from.File()
	dy := target.Rank() - from.Rank()
	for i := range legs {
		l := &legs[i]
		if capture && !l.cap {
			continue
		}
		if !l.rider {
			if int(l.dx) == dx && int(l.dy) == dy {
				return true
			}
			continue
		}
		k := 0
		switch {
		case l.dx != 0:
			if dx%int(l.dx) != 0 {
				continue
			}
			k = dx / int(l.dx)
			if int(l.dy)*k != dy {
				continue
			}
		case dx != 0:
			continue
		default:
			if dy%int(l.dy) != 0 {
				continue
			}
			k = dy / int(l.dy)
		}
		if k < 1 {
			continue
		}
		s := int(from)
		clear := true
		for j := 1; j < k; j++ {
			s += l.off
			if ov.cell(p, geom.Square(s)) != rules.Empty {
				clear = false
				break
			}
		}
		if clear {
			return true
		}
	}
	return false
}

// hasRelay reports whether colour c has a relay piece on the board.
func (st *state) hasRelay(p *rules.Position, c rules.Color) bool {
	if !st.z.o.Relay {
		return false
	}
	for _, s := range p.Pieces(c) {
		if d := st.designOf(p.At(s)); d != nil && d.relay {
			return true
		}
	}
	return false
}

// attacked reports whether a piece of colour by could capture on target
// (with the move ov played in thought; ov must be nil when by has relay
// pieces).
func (st *state) attacked(p *rules.Position, target geom.Square, by rules.Color, ov *overlay) bool {
	relay := ov == nil && st.hasRelay(p, by)
	for _, a := range p.Pieces(by) {
		if ov != nil && a == ov.occ {
			continue // captured in thought
		}
		d := st.designOf(p.At(a))
		if d == nil {
			continue
		}
		if reaches(p, a, d.legs[by], target, ov, true) {
			return true
		}
		if relay {
			for _, y := range p.Pieces(by) {
				if y == a {
					continue
				}
				r := st.designOf(p.At(y))
				if r == nil || !r.relay || !reaches(p, y, r.legs[by], a, nil, true) {
					continue
				}
				if reaches(p, a, r.legs[by], target, nil, true) {
					return true
				}
			}
		}
	}
	return false
}

// royals counts colour c's royal pieces on the board.
func (st *state) royals(p *rules.Position, c rules.Color) int {
	n := 0
	for t := 1; t <= 26; t++ {
		if d := st.table[t]; d != nil && d.royal {
			n += p.Count(c, rules.Type(t))
		}
	}
	return n
}

// ruleRoyals counts the royals that decide between CS-11 and CS-12: those
// on the board, and with ReserveRoyalsCount those in reserve.
func (st *state) ruleRoyals(p *rules.Position, c rules.Color) int {
	n := st.royals(p, c)
	if st.z.o.ReserveRoyalsCount {
		for t := 1; t <= 26; t++ {
			if d := st.table[t]; d != nil && d.royal {
				n += p.Pocket(c, rules.Type(t))
			}
		}
	}
	return n
}

// isRoyal reports whether the piece pc is royal.
func (st *state) isRoyal(pc rules.Piece) bool {
	d := st.designOf(pc)
	return d != nil && d.royal
}

// royalChecked reports whether some royal of c on the board is attacked,
// and whether one is not.
func (st *state) royalChecked(p *rules.Position, c rules.Color) (any, safe bool) {
	for _, s := range p.Pieces(c) {
		if !st.isRoyal(p.At(s)) {
			continue
		}
		if st.attacked(p, s, c.Other(), nil) {
			any = true
		} else {
			safe = true
		}
	}
	return any, safe
}

// InCheck reports whether a royal piece of colour c stands attacked in p.
func InCheck(p *rules.Position, c rules.Color) bool {
	z, ok := ensure(p)
	if !ok {
		return false
	}
	any, _ := z.stateOf(p).royalChecked(p, c)
	return any
}

// neighbours returns the eight squares next to s, in the order of
// geom.Around:
// the squares next to a royal, where transfers go (CS-6b) and what a
// royal sees (CS-M2). Squares off the board are among them; the mailbox's
// padding keeps them inside the array.
func neighbours(s geom.Square) [8]geom.Square {
	var out [8]geom.Square
	for i, o := range geom.Around {
		out[i] = geom.Square(int(s) + o)
	}
	return out
}

// reserveSize returns the pieces colour c has in reserve.
func reserveSize(p *rules.Position, c rules.Color) int {
	n := 0
	for t := 1; t <= 26; t++ {
		n += p.Pocket(c, rules.Type(t))
	}
	return n
}

// Generate (rules.Generator) drops the core's moves and adds the
// moves of the phase: actions (CS-6) or design changes (CS-8).
func (z *csipgs) Generate(p *rules.Position, moves []rules.Move) []rules.Move {
	n := 0
	for _, m := range moves {
		if m.Kind() == rules.Normal && m.Payload() == 0 {
			continue
		}
		moves[n] = m
		n++
	}
	moves = moves[:n]
	st := z.stateOf(p)
	if p.Phase() == 1 {
		return z.genDesigns(p, st, moves)
	}
	return z.genActions(p, st, moves)
}

// genActions appends the pseudo-legal actions of the side to move.
func (z *csipgs) genActions(p *rules.Position, st *state, moves []rules.Move) []rules.Move {
	us := p.Turn()
	relay := st.hasRelay(p, us)
	for _, from := range p.Pieces(us) {
		pc := p.At(from)
		d := st.designOf(pc)
		if d == nil {
			continue
		}
		start := len(moves)
		moves = genLegs(p, moves, from, d.legs[us], us)
		if relay {
			for _, y := range p.Pieces(us) {
				r := st.designOf(p.At(y))
				if y == from || r == nil || !r.relay || !reaches(p, y, r.legs[us], from, nil, true) {
					continue
				}
				moves = genLegs(p, moves, from, r.legs[us], us)
			}
			moves = dedupe(moves, start)
		}
	}
	// Transfers (b): next to a royal that is not in check.
	var targets [64]geom.Square
	nt := 0
	checked := false
	hasReserve := reserveSize(p, us) > 0
	b := p.Variant().Board()
	for _, s := range p.Pieces(us) {
		if !st.isRoyal(p.At(s)) {
			continue
		}
		if st.attacked(p, s, us.Other(), nil) {
			checked = true
			continue
		}
		if !hasReserve {
			continue
		}
		for _, t := range neighbours(s) {
			if !b.Contains(t) || p.At(t) != rules.Empty || slices.Contains(targets[:nt], t) {
				continue
			}
			if nt < len(targets) {
				targets[nt] = t
				nt++
			}
		}
	}
	if hasReserve {
		for t := 1; t <= 26; t++ {
			if p.Pocket(us, rules.Type(t)) == 0 {
				continue
			}
			for _, sq := range targets[:nt] {
				moves = append(moves, transferMove(rules.Type(t), sq))
			}
		}
	}
	// Buys (c).
	if !checked && len(p.Pieces(us))+reserveSize(p, us) < MaxPiecesPerSide {
		money := p.Money(us) + 1
		for i, l := range st.slots[us] {
			if d := st.table[l]; d != nil && d.price <= money && st.firstSlot(us, i) {
				moves = append(moves, buyMove(l))
			}
		}
	}
	return moves
}

// genLegs appends the moves of a piece of colour c on from with legs.
func genLegs(p *rules.Position, moves []rules.Move, from geom.Square, legs []leg, c rules.Color) []rules.Move {
	for i := range legs {
		l := &legs[i]
		to := int(from)
		for step := 1; ; step++ {
			to += l.off
			q := p.At(geom.Square(to))
			if q == rules.Empty {
				if l.mv && l.skipMv>>step&1 == 0 {
					moves = append(moves, pieceMove(from, geom.Square(to), false))
				}
				if l.rider {
					continue
				}
				break
			}
			if q.IsPiece() && q.Color() != c && l.cap && l.skipCap>>step&1 == 0 {
				moves = append(moves, pieceMove(from, geom.Square(to), true))
			}
			break
		}
	}
	return moves
}

// dedupe removes repeated moves from moves[start:].
func dedupe(moves []rules.Move, start int) []rules.Move {
	n := start
	for i := start; i < len(moves); i++ {
		dup := false
		for _, m := range moves[start:n] {
			if m == moves[i] {
				dup = true
				break
			}
		}
		if !dup {
			moves[n] = moves[i]
			n++
		}
	}
	return moves[:n]
}

// genDesigns appends the design-phase moves: no change, re-adopting a
// design of the type table, and each design of the catalogue that the
// table does not hold, with the first free letter.
func (z *csipgs) genDesigns(p *rules.Position, st *state, moves []rules.Move) []rules.Move {
	moves = append(moves, passMove())
	if st.actionsOnly {
		return moves
	}
	us := p.Turn()
	for slot, cur := range st.slots[us] {
		if !st.firstSlot(us, slot) {
			continue
		}
		for l := uint8(1); l <= 26; l++ {
			if st.table[l] != nil && l != cur {
				moves = append(moves, designMove(slot, l, 0))
			}
		}
		free := st.freeLetter(p, us, slot)
		if free == 0 {
			continue
		}
		for _, c := range z.catalogue {
			if st.letterOf(c) == 0 {
				moves = append(moves, designMove(slot, free, c.id))
			}
		}
	}
	return moves
}

// letterOf returns the letter whose design is c, or 0.
func (st *state) letterOf(c *compiled) uint8 {
	for l := uint8(1); l <= 26; l++ {
		if st.table[l] == c {
			return l
		}
	}
	return 0
}

// freeLetter returns the letter a new design in slot of colour c gets:
// the first letter outside the type table, else the first letter nothing
// uses once the slot is replaced; 0 if there is none.
func (st *state) freeLetter(p *rules.Position, c rules.Color, slot int) uint8 {
	for l := uint8(1); l <= 26; l++ {
		if st.table[l] == nil {
			return l
		}
	}
	used := st.referenced(p, c, slot)
	cur := st.slots[c][slot]
	for l := uint8(1); l <= 26; l++ {
		if !used[l] && l != cur {
			return l
		}
	}
	return 0
}

// letterFree reports whether a new design may take letter l in slot of
// colour c.
func (st *state) letterFree(p *rules.Position, c rules.Color, slot int, l uint8) bool {
	if st.table[l] == nil {
		return true
	}
	used := st.referenced(p, c, slot)
	return !used[l]
}

// Unlisted (rules.Unlister) accepts a design change to any valid design,
// which LegalMoves lists only for the game's catalogue (CS-8).
func (z *csipgs) Unlisted(p *rules.Position, m rules.Move) bool {
	return p.Phase() == 1 && KindOf(m) == Redesign && z.stateOf(p).validDesign(p, m)
}

// Legal is the rules.LegalJudge.
func (z *csipgs) Legal(p *rules.Position, m rules.Move) bool {
	st := z.stateOf(p)
	us := p.Turn()
	k := KindOf(m)
	if p.Phase() == 1 {
		return (k == Pass || k == Redesign) && st.validDesign(p, m)
	}
	switch k {
	case PieceMove:
		from := m.From()
		pc := p.At(from)
		if !pc.IsPiece() || pc.Color() != us {
			return false
		}
		if z.o.royalCapture() {
			return true
		}
		if st.ruleRoyals(p, us) != 1 || st.royals(p, us) != 1 {
			return true // CS-12: several royals may ignore check
		}
		return !st.royalAttackedAfter(p, m)
	case Transfer:
		return st.transferOK(p, m)
	case Buy:
		return st.buyOK(p, m)
	}
	return false
}

// royalAttackedAfter reports whether the piece move m leaves a royal of the
// mover attacked.
func (st *state) royalAttackedAfter(p *rules.Position, m rules.Move) bool {
	us := p.Turn()
	them := us.Other()
	if st.hasRelay(p, them) || st.hasRelay(p, us) {
		p.Make(m)
		any := false
		for _, s := range p.Pieces(us) {
			if st.isRoyal(p.At(s)) && st.attacked(p, s, them, nil) {
				any = true
				break
			}
		}
		p.Unmake()
		return any
	}
	from, to := m.From(), m.To()
	pc := p.At(from)
	ov := &overlay{vac: from, occ: to, piece: pc}
	if st.isRoyal(pc) {
		if st.attacked(p, to, them, ov) {
			return true
		}
	}
	for _, s := range p.Pieces(us) {
		if s == from || !st.isRoyal(p.At(s)) {
			continue
		}
		if st.attacked(p, s, them, ov) {
			return true
		}
	}
	return false
}

// transferOK checks a transfer: a reserve piece to an empty square next to
// a royal of the mover that is not in check (CS-6b).
func (st *state) transferOK(p *rules.Position, m rules.Move) bool {
	us := p.Turn()
	to := m.To()
	t := m.Promo()
	if t == 0 || t > 26 || p.Pocket(us, t) == 0 || st.table[t] == nil || !p.Variant().Board().Contains(to) || p.At(to) != rules.Empty {
		return false
	}
	for _, s := range neighbours(to) {
		pc := p.At(s)
		if pc.IsPiece() && pc.Color() == us && st.isRoyal(pc) && !st.attacked(p, s, us.Other(), nil) {
			return true
		}
	}
	return false
}

// buyOK checks a buy (CS-6c): a current design, affordable, below the piece
// limit, no royal in check.
func (st *state) buyOK(p *rules.Position, m rules.Move) bool {
	return st.buyRefusal(p, uint8(m.Payload()&31)) == refuseNone
}

// refusal is why a buy is not allowed.
type refusal uint8

const (
	refuseNone refusal = iota
	refuseDesign
	refusePrice
	refuseLimit
	refuseCheck
)

// buyRefusal says why the side to move may not buy a piece of design
// letter l in the action (CS-6c), or refuseNone.
func (st *state) buyRefusal(p *rules.Position, l uint8) refusal {
	us := p.Turn()
	if st.slotOf(us, l) < 0 {
		return refuseDesign
	}
	d := st.table[l]
	if d == nil {
		return refuseDesign
	}
	if d.price > p.Money(us)+1 {
		return refusePrice
	}
	if len(p.Pieces(us))+reserveSize(p, us) >= MaxPiecesPerSide {
		return refuseLimit
	}
	if any, _ := st.royalChecked(p, us); any {
		return refuseCheck
	}
	return refuseNone
}

// validDesign checks a design-phase move (CS-8).
func (st *state) validDesign(p *rules.Position, m rules.Move) bool {
	switch KindOf(m) {
	case Pass:
		return m.Payload() == marker|kPass && m.From() == geom.NoSquare && m.To() == geom.NoSquare
	case Redesign:
	default:
		return false
	}
	us := p.Turn()
	slot, l, id := designFields(m)
	if slot >= Slots || l < 1 || l > 26 || m.From() != geom.NoSquare || m.To() != geom.NoSquare {
		return false
	}
	if !st.firstSlot(us, slot) {
		return false
	}
	if l == st.slots[us][slot] {
		return false
	}
	if id == 0 {
		return st.table[l] != nil
	}
	c := st.z.design(id)
	return c != nil && st.letterOf(c) == 0 && st.letterFree(p, us, slot, l)
}
