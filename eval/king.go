package eval

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The safe checks, counted by type for each side against the enemy royal
// piece on the walk that mobility makes (L.check): the squares a piece
// moves to from which it would attack the royal piece and that no enemy
// piece attacks; and the squares the pawns attack, for the mobility on
// squares no enemy pawn attacks (L.mobility.safe).

// checkCache keeps the squares from which each type of one side attacks
// the enemy royal piece, for the first few types met; others are walked
// again into spare.
type checkCache struct {
	t     [4]rules.Type
	sets  [4]geom.Set
	n     int
	spare geom.Set
}

// from returns the squares from which c's piece of type t attacks the
// royal piece on k.
func (e *Evaluator) from(p *rules.Position, cc *checkCache, t rules.Type, c rules.Color, k geom.Square) *geom.Set {
	for i := range cc.n {
		if cc.t[i] == t {
			return &cc.sets[i]
		}
	}
	s := &cc.spare
	if cc.n < len(cc.t) {
		cc.t[cc.n] = t
		s = &cc.sets[cc.n]
		cc.n++
	}
	*s = geom.Set{}
	e.checkSquares(p, t, c, k, s)
	return s
}

// checkSquares puts into s the squares from which c's piece of type t
// would attack the royal piece on k: walked from k along c's capturing
// rays turned round, up to and with the first enemy piece (an own piece
// closes the line).
func (e *Evaluator) checkSquares(p *rules.Position, t rules.Type, c rules.Color, k geom.Square, s *geom.Set) {
	for _, r := range e.hitRays[t][c.Other()] {
		q := k
		for range r.steps {
			q = geom.Square(int(q) + r.off)
			pc := p.At(q)
			if pc == rules.Wall || (pc != rules.Empty && pc.Color() == c) {
				break
			}
			s.Add(q)
			if pc != rules.Empty {
				break
			}
		}
	}
}

// attackedBy reports whether one of o's pieces attacks q: whether its
// capturing rays (as mobility's) reach q, walked back from q along each
// type's rays turned round to the first piece.
func (e *Evaluator) attackedBy(p *rules.Position, q geom.Square, o rules.Color) bool {
	c := o.Other()
	for t := rules.Type(1); int(t) <= e.v.NumTypes(); t++ {
		for _, r := range e.hitRays[t][c] {
			x := q
			for range r.steps {
				x = geom.Square(int(x) + r.off)
				pc := p.At(x)
				if pc == rules.Empty {
					continue
				}
				if pc != rules.Wall && pc.Color() == o && pc.Type() == t {
					return true
				}
				break
			}
		}
	}
	return false
}

// pawnAttacks puts into pa[c] the squares c's pawns attack.
func (e *Evaluator) pawnAttacks(p *rules.Position, pa *[2]geom.Set) {
	if e.pawn == 0 {
		return
	}
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if p.At(s).Type() != e.pawn {
				continue
			}
			for _, pc := range e.pawnCap[c] {
				q := geom.Square(int(s) + pc.off)
				if p.At(q) != rules.Wall {
					pa[c].Add(q)
				}
			}
		}
	}
}
