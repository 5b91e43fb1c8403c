package rules

import (
	"github.com/anychess/anychess/geom"
)

// royalSquare returns the square of c's royal piece when c has exactly one,
// NoSquare when it has none, and one of them when it has several.
func (p *Position) royalSquare(c Color) geom.Square {
	s := p.king[c]
	pc := p.board[s]
	if pc.IsPiece() && pc.Color() == c && p.v.royalMask&(1<<pc.Type()) != 0 {
		return s
	}
	for _, s := range p.Pieces(c) {
		if p.v.royalMask&(1<<p.board[s].Type()) != 0 {
			p.king[c] = s
			return s
		}
	}
	return geom.NoSquare
}

// Attacked reports whether a piece of colour by attacks square s, that is,
// could capture a piece of type victim standing there (victim matters only
// for capture immunity; 0 means any piece).
func (p *Position) Attacked(s geom.Square, by Color, victim Type) bool {
	v := p.v
	if v.slow {
		return p.attackedSlow(s, by, victim)
	}
	bit := colorBit(by)
	excl := v.immuneTo[victim] // attackers that may not capture the victim
	ps := &v.probes[by]
	for i := range ps.leaps {
		pr := &ps.leaps[i]
		q := p.board[int(s)+pr.off]
		if q&bit != 0 && (pr.types&^excl)&(1<<q.Type()) != 0 {
			return true
		}
	}
	for i := range ps.rides {
		pr := &ps.rides[i]
		t := int(s)
		for n := 0; n < pr.max; n++ {
			t += pr.off
			q := p.board[t]
			if q == Empty {
				continue
			}
			if q&bit != 0 && (pr.types&^excl)&(1<<q.Type()) != 0 {
				return true
			}
			break
		}
	}
	for i := range ps.complex {
		if p.complexAttack(&ps.complex[i], s, by, excl) != geom.NoSquare {
			return true
		}
	}
	return false
}

// complexAttack returns the square of a piece of colour by that attacks s
// through probe pr (a lame, skip or initial leg), or NoSquare.
func (p *Position) complexAttack(pr *probe, s geom.Square, by Color, excl uint64) geom.Square {
	bit := colorBit(by)
	types := pr.types &^ excl
	isAttacker := func(t int) bool {
		q := p.board[t]
		if q&bit == 0 || types&(1<<q.Type()) == 0 {
			return false
		}
		return !pr.initial || p.v.initRanks[by][q.Type()]&(1<<geom.Square(t).Rank()) != 0
	}
	switch pr.kind {
	case probeLeap:
		if t := int(s) + pr.off; isAttacker(t) {
			return geom.Square(t)
		}
	case probeLame:
		t := int(s) + pr.off
		if !isAttacker(t) {
			return geom.NoSquare
		}
		for _, po := range pr.path {
			if po != 0 && p.board[int(s)+po] != Empty {
				return geom.NoSquare
			}
		}
		return geom.Square(t)
	case probeRide:
		t := int(s)
		for n := 0; n < pr.max; n++ {
			t += pr.off
			if p.board[t] == Empty {
				continue
			}
			if isAttacker(t) {
				return geom.Square(t)
			}
			break
		}
	case probeSkip:
		// The attacker stands k >= 2 steps away; its first square (next to
		// it) may hold anything it cannot capture; the squares between that
		// and the target are empty.
		t := int(s)
		for n := 1; n <= pr.max; n++ {
			t += pr.off
			q := p.board[t]
			if q == Empty {
				continue
			}
			if q == Wall {
				return geom.NoSquare
			}
			if n >= 2 && isAttacker(t) {
				return geom.Square(t)
			}
			// q may be the attacker's first square: look one step further.
			a := t + pr.off
			if n+1 <= pr.max && isAttacker(a) && p.passable(q, p.board[a]) {
				return geom.Square(a)
			}
			return geom.NoSquare
		}
	}
	return geom.NoSquare
}

// passable reports whether a skipping piece mover passes over piece q on
// the first square of its line: q must not be an enemy it could capture.
func (p *Position) passable(q, mover Piece) bool {
	return q.Color() == mover.Color() || p.v.cannot[mover.Type()]&(1<<q.Type()) != 0
}

// InCheck reports whether the side to move is in check: a royal piece of
// it attacked, or what the variant's Checker says.
func (p *Position) InCheck() bool {
	if h := p.v.h.check; h != nil {
		return h.InCheck(p)
	}
	return p.royalAttacked(p.turn)
}

// Checked appends to dst the squares of the side to move's royal pieces
// that are in check, for display (a GUI's check highlight): the attacked
// royal pieces, or where royalty or check lies in the variant's own rules, the
// squares its Checker names. It is empty when InCheck is false.
func (p *Position) Checked(dst []geom.Square) []geom.Square {
	if !p.InCheck() {
		return dst
	}
	if h := p.v.h.check; h != nil {
		return h.Checked(p, dst)
	}
	c := p.turn
	for _, s := range p.Pieces(c) {
		if t := p.board[s].Type(); p.v.royalMask&(1<<t) != 0 && p.Attacked(s, c.Other(), t) {
			dst = append(dst, s)
		}
	}
	return dst
}

// royalAttacked reports whether any royal piece of c is attacked.
func (p *Position) royalAttacked(c Color) bool {
	if p.v.royalMask == 0 {
		return false
	}
	if p.royalCount(c) == 1 {
		s := p.royalSquare(c)
		return p.Attacked(s, c.Other(), p.board[s].Type())
	}
	for _, s := range p.Pieces(c) {
		if t := p.board[s].Type(); p.v.royalMask&(1<<t) != 0 && p.Attacked(s, c.Other(), t) {
			return true
		}
	}
	return false
}

// Attackers returns the squares of c's pieces that attack s (as if a piece
// of type victim stood there), appended to dst.
func (p *Position) Attackers(dst []geom.Square, s geom.Square, by Color, victim Type) []geom.Square {
	v := p.v
	if v.slow {
		return p.attackersSlow(dst, s, by, victim)
	}
	bit := colorBit(by)
	excl := v.immuneTo[victim]
	ps := &v.probes[by]
	for i := range ps.leaps {
		pr := &ps.leaps[i]
		t := int(s) + pr.off
		if q := p.board[t]; q&bit != 0 && (pr.types&^excl)&(1<<q.Type()) != 0 {
			dst = appendUnique(dst, geom.Square(t))
		}
	}
	for i := range ps.rides {
		pr := &ps.rides[i]
		t := int(s)
		for n := 0; n < pr.max; n++ {
			t += pr.off
			q := p.board[t]
			if q == Empty {
				continue
			}
			if q&bit != 0 && (pr.types&^excl)&(1<<q.Type()) != 0 {
				dst = appendUnique(dst, geom.Square(t))
			}
			break
		}
	}
	for i := range ps.complex {
		if a := p.complexAttack(&ps.complex[i], s, by, excl); a != geom.NoSquare {
			dst = appendUnique(dst, a)
		}
	}
	return dst
}

func appendUnique(dst []geom.Square, s geom.Square) []geom.Square {
	for _, d := range dst {
		if d == s {
			return dst
		}
	}
	return append(dst, s)
}
