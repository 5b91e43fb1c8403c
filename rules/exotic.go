package rules

import (
	"fmt"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
)

// The rules of this file take the slow path: a variant with hoppers
// (betza p), pieces confined to a region (PieceSpec.Region), pieces whose
// movement changes in a zone (PieceSpec.ZoneBetza) or flying royals
// (Spec.FlyingRoyals) generates its moves one by one, judges each by
// making it, and finds attacks piece by piece, as the fast path's check
// and pin analysis does not know them. Other variants never come here.

// compileExotic reads the regions, zones, hoppers and flying royals.
func (v *Variant) compileExotic() error {
	n := len(v.types)
	for c := range 2 {
		v.region[c] = make([]geom.Set, n)
		v.zone[c] = make([]geom.Set, n)
		v.zmoves[c] = make([]moveSet, n)
	}
	for t := 1; t < n; t++ {
		ps := v.types[t].spec
		for _, l := range v.types[t].movement.Legs {
			if l.Flags&betza.Hop != 0 {
				v.hop = true
			}
		}
		if sq := ps.Region.Squares(); len(sq) > 0 {
			for _, s := range sq {
				if !v.board.Contains(s) {
					return fmt.Errorf("piece %c: region square %v is off the board", ps.Letter, s)
				}
				v.region[White][t].Add(s)
				v.region[Black][t].Add(geom.Sq(s.File(), v.board.Ranks-1-s.Rank()))
			}
			v.hasRegion |= 1 << t
		}
		if ps.ZoneBetza != "" || len(ps.ZoneRanks) > 0 {
			if ps.ZoneBetza == "" || len(ps.ZoneRanks) == 0 {
				return fmt.Errorf("piece %c: a zone movement needs both its Betza and its ranks", ps.Letter)
			}
			m, err := betza.Parse(ps.ZoneBetza)
			if err != nil {
				return fmt.Errorf("piece %c (%s) in its zone: %v", ps.Letter, ps.Name, err)
			}
			for _, l := range m.Legs {
				if l.Flags&betza.Hop != 0 {
					v.hop = true
				}
			}
			for _, r := range ps.ZoneRanks {
				if r < 1 || r > v.board.Ranks {
					return fmt.Errorf("piece %c: zone rank %d is off the board", ps.Letter, r)
				}
				for f := 0; f < v.board.Files; f++ {
					v.zone[White][t].Add(geom.Sq(f, r-1))
					v.zone[Black][t].Add(geom.Sq(f, v.board.Ranks-r))
				}
			}
			for c := White; c <= Black; c++ {
				v.zmoves[c][t] = compileLegs(m.Legs, c)
			}
			v.hasZone |= 1 << t
		}
	}
	v.flying = v.spec.FlyingRoyals
	if v.flying && v.royalMask == 0 {
		return fmt.Errorf("flying royals without a royal piece")
	}
	piecePromo := false
	for t := 1; t < n; t++ {
		ps := v.types[t].spec
		if ps.PromotesTo != 0 {
			u := v.byLetter[upper(ps.PromotesTo)]
			if u == 0 || Type(t) == u {
				return fmt.Errorf("piece %c promotes to %c, which is not another piece", ps.Letter, ps.PromotesTo)
			}
			if len(v.spec.Promotion.Ranks) == 0 {
				return fmt.Errorf("piece %c promotes, but there are no promotion ranks", ps.Letter)
			}
			v.promoTo[t] = u
			piecePromo = true
		}
		if ps.PromotedFrom != 0 {
			u := v.byLetter[upper(ps.PromotedFrom)]
			if u == 0 || Type(t) == u {
				return fmt.Errorf("piece %c is promoted from %c, which is not another piece", ps.Letter, ps.PromotedFrom)
			}
			if v.royalMask&(1<<u) != 0 {
				return fmt.Errorf("piece %c is promoted from a royal piece", ps.Letter)
			}
			v.demote[t] = u
		}
	}
	if piecePromo && v.pawn != 0 && len(v.spec.Promotion.Ranks) > 0 && v.spec.Promotion.Pieces != "" {
		return fmt.Errorf("pieces that promote and a promoting pawn cannot be combined")
	}
	for _, l := range []byte(v.spec.DropNoDoubled) {
		t := v.byLetter[upper(l)]
		if t == 0 {
			return fmt.Errorf("drop rule: %c is not a piece", l)
		}
		v.noDoubled |= 1 << t
	}
	for _, l := range []byte(v.spec.DropMateIllegal) {
		t := v.byLetter[upper(l)]
		if t == 0 {
			return fmt.Errorf("drop rule: %c is not a piece", l)
		}
		v.noDropMate |= 1 << t
	}
	v.immobile = v.spec.ImmobileIllegal
	for c := range 2 {
		v.deadSq[c] = make([]geom.Set, n)
	}
	if v.immobile {
		for t := 1; t < n; t++ {
			for c := White; c <= Black; c++ {
				legs := compileLegs(v.types[t].movement.Legs, c)
				for _, s := range v.board.Squares() {
					if !canLeave(v, s, legs) {
						v.deadSq[c][t].Add(s)
					}
				}
			}
		}
	}
	v.slow = v.hop || v.hasRegion != 0 || v.hasZone != 0 || v.flying || piecePromo || v.immobile
	if v.pawn != 0 && v.hasZone&(1<<v.pawn) != 0 && v.doubleStep {
		return fmt.Errorf("a pawn with a zone movement cannot double-step")
	}
	return nil
}

// movesOf returns the compiled movement of piece pc standing on from.
func (v *Variant) movesOf(pc Piece, from geom.Square) *moveSet {
	c, t := pc.Color(), pc.Type()
	if v.hasZone&(1<<t) != 0 && v.zone[c][t].Has(from) {
		return &v.zmoves[c][t]
	}
	return &v.moves[c][t]
}

// genHop appends the moves of a hopping leg: over empty squares to a
// screen, over it, then over empty squares (moves) to the next piece (a
// capture).
func (p *Position) genHop(dst []Move, from geom.Square, pc Piece, l *leg, pawn, quiet bool) []Move {
	v := p.v
	c := pc.Color()
	t := pc.Type()
	enemy := colorBit(c.Other())
	to := int(from)
	n := 0
	for ; n < l.max; n++ {
		to += l.off
		q := p.board[to]
		if q == Wall {
			return dst
		}
		if q != Empty {
			break
		}
	}
	for n++; n < l.max; n++ {
		to += l.off
		q := p.board[to]
		if q == Empty {
			if l.mode&betza.Move != 0 {
				dst = p.emit(dst, from, geom.Square(to), pawn, c, quiet)
			}
			continue
		}
		if q&enemy != 0 && l.mode&betza.Capture != 0 && (!v.immunity || v.cannot[t]&(1<<q.Type()) == 0) {
			dst = p.emit(dst, from, geom.Square(to), pawn, c, true)
		}
		break
	}
	return dst
}

// keepRegion removes from dst[start:] the moves of the piece of type t
// and colour c that leave its region.
func (p *Position) keepRegion(dst []Move, start int, c Color, t Type) []Move {
	r := &p.v.region[c][t]
	keep := start
	for _, m := range dst[start:] {
		if r.Has(m.To()) {
			dst[keep] = m
			keep++
		}
	}
	return dst[:keep]
}

// attackedSlow is Attacked on the slow path: each piece of by is asked
// whether it could capture on s.
func (p *Position) attackedSlow(s geom.Square, by Color, victim Type) bool {
	excl := p.v.immuneTo[victim]
	for _, from := range p.list[by][:p.n[by]] {
		pc := p.board[from]
		if excl&(1<<pc.Type()) == 0 && p.pieceAttacks(from, pc, s) {
			return true
		}
	}
	return p.flyingAttack(s, by, victim) != geom.NoSquare
}

// attackersSlow is Attackers on the slow path.
func (p *Position) attackersSlow(dst []geom.Square, s geom.Square, by Color, victim Type) []geom.Square {
	excl := p.v.immuneTo[victim]
	for _, from := range p.list[by][:p.n[by]] {
		pc := p.board[from]
		if excl&(1<<pc.Type()) == 0 && p.pieceAttacks(from, pc, s) {
			dst = appendUnique(dst, from)
		}
	}
	if a := p.flyingAttack(s, by, victim); a != geom.NoSquare {
		dst = appendUnique(dst, a)
	}
	return dst
}

// flyingAttack returns the square of by's royal piece that faces a royal
// victim on s along the file with nothing between, or NoSquare.
func (p *Position) flyingAttack(s geom.Square, by Color, victim Type) geom.Square {
	v := p.v
	if !v.flying || v.royalMask&(1<<victim) == 0 {
		return geom.NoSquare
	}
	bit := colorBit(by)
	for _, off := range [2]int{geom.Offset(0, 1), geom.Offset(0, -1)} {
		for t := int(s) + off; ; t += off {
			q := p.board[t]
			if q == Empty {
				continue
			}
			if q&bit != 0 && v.royalMask&(1<<q.Type()) != 0 {
				return geom.Square(t)
			}
			break
		}
	}
	return geom.NoSquare
}

// pieceAttacks reports whether piece pc on from could capture a piece on
// s (whatever stands there now), by its movement where it stands.
func (p *Position) pieceAttacks(from geom.Square, pc Piece, s geom.Square) bool {
	v := p.v
	c, t := pc.Color(), pc.Type()
	if v.hasRegion&(1<<t) != 0 && !v.region[c][t].Has(s) {
		return false
	}
	ms := v.movesOf(pc, from)
	for i := range ms.leaps {
		if l := &ms.leaps[i]; l.mode&betza.Capture != 0 && int(from)+l.off == int(s) {
			return true
		}
	}
	for i := range ms.rides {
		if l := &ms.rides[i]; l.mode&betza.Capture != 0 && p.rideReaches(from, s, l.off, l.max) {
			return true
		}
	}
	for i := range ms.special {
		l := &ms.special[i]
		if l.mode&betza.Capture == 0 {
			continue
		}
		if l.flags&betza.Initial != 0 && v.initRanks[c][t]&(1<<from.Rank()) == 0 {
			continue
		}
		switch {
		case l.flags&betza.Hop != 0:
			to, screen := int(from), false
			for n := 0; n < l.max; n++ {
				to += l.off
				if to == int(s) {
					if screen {
						return true
					}
					break
				}
				q := p.board[to]
				if q == Wall {
					break
				}
				if q != Empty {
					if screen {
						break
					}
					screen = true
				}
			}
		case l.flags&betza.Lame != 0:
			blocked := false
			for _, po := range l.path {
				if po != 0 && p.board[int(from)+po] != Empty {
					blocked = true
				}
			}
			if !blocked && l.max == 1 && int(from)+l.off == int(s) {
				return true
			}
			if !blocked && l.max != 1 && p.rideReaches(from, s, l.off, l.max) {
				return true
			}
		case l.flags&betza.Skip != 0:
			first := int(from) + l.off
			q := p.board[first]
			if first == int(s) || q == Wall || (q != Empty && !p.passable(q, pc)) {
				continue
			}
			if p.rideReaches(geom.Square(first), s, l.off, l.max-1) {
				return true
			}
		default:
			if p.rideReaches(from, s, l.off, l.max) {
				return true
			}
		}
	}
	return false
}

// rideReaches reports whether a rider on from reaches s in at most max
// steps of off over empty squares.
func (p *Position) rideReaches(from, s geom.Square, off, max int) bool {
	to := int(from)
	for n := 0; n < max; n++ {
		to += off
		if to == int(s) {
			return true
		}
		if p.board[to] != Empty {
			return false
		}
	}
	return false
}

// canLeave reports whether a piece with the legs ms standing on s has a
// square of the board to move to on an otherwise empty board.
func canLeave(v *Variant, s geom.Square, ms moveSet) bool {
	for _, group := range [][]leg{ms.leaps, ms.rides, ms.special} {
		for _, l := range group {
			if v.board.Contains(geom.Square(int(s) + l.off)) {
				return true
			}
		}
	}
	return false
}

// promotions adds to the moves dst[start:] of the piece of type t and
// colour c the promotions of those that start or end in the zone, and
// removes the moves that leave it on a square it could never leave.
func (p *Position) promotions(dst []Move, start int, c Color, t Type) []Move {
	v := p.v
	end := len(dst)
	if u := v.promoTo[t]; u != 0 {
		for i := start; i < end; i++ {
			m := dst[i]
			if m.Kind() == Normal && (v.promoZone[c].Has(m.From()) || v.promoZone[c].Has(m.To())) {
				dst = append(dst, NewMove(m.From(), m.To(), Promotion).WithPromo(u))
			}
		}
	}
	if !v.immobile {
		return dst
	}
	keep := start
	for i, m := range dst[start:] {
		if start+i < end && v.deadSq[c][t].Has(m.To()) {
			continue
		}
		dst[keep] = m
		keep++
	}
	return dst[:keep]
}
