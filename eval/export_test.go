package eval

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// AttackedBy is attackedBy, for the tests.
func (e *Evaluator) AttackedBy(p *rules.Position, q geom.Square, o rules.Color) bool {
	return e.attackedBy(p, q, o)
}

// AttackedSquares returns the squares c's pieces attack, walked forward
// along their capturing rays to the first piece on each: what attackedBy
// tells square by square.
func (e *Evaluator) AttackedSquares(p *rules.Position, c rules.Color) geom.Set {
	var at geom.Set
	for _, s := range p.Pieces(c) {
		for _, r := range e.hitRays[p.At(s).Type()][c] {
			q := s
			for range r.steps {
				q = geom.Square(int(q) + r.off)
				pc := p.At(q)
				if pc == rules.Wall {
					break
				}
				at.Add(q)
				if pc != rules.Empty {
					break
				}
			}
		}
	}
	return at
}
