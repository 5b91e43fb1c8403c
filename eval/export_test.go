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

// Union returns the two types whose capturing rays are t's together, or
// zeros (unions).
func (e *Evaluator) Union(t rules.Type) [2]rules.Type { return e.union[t] }

// FromSquares returns, for each of types in turn, the squares from which
// c's piece of that type attacks the royal piece on k: got as from gives
// them, one cache kept through the types as the evaluation keeps it, and
// want as checkSquares walks them for the type alone.
func (e *Evaluator) FromSquares(p *rules.Position, types []rules.Type, c rules.Color, k geom.Square) (got, want []geom.Set) {
	var cc checkCache
	for _, t := range types {
		got = append(got, *e.from(p, &cc, t, c, k))
		var s geom.Set
		e.checkSquares(p, t, c, k, &s)
		want = append(want, s)
	}
	return got, want
}

// Attacks returns the squares c's pieces attack as hitSets gathers them.
func (e *Evaluator) Attacks(p *rules.Position, c rules.Color) geom.Set {
	var h hits
	e.hitSets(p, &h)
	return h.any[c]
}

// MaxChecks is maxChecks, for the tests.
const MaxChecks = maxChecks

// EvaluateUncached is evaluate: Evaluate without the cache.
func (e *Evaluator) EvaluateUncached(p *rules.Position) int { return e.evaluate(p) }

// Cached reports whether e keeps a cache of its scores.
func (e *Evaluator) Cached() bool { return e.cacheOf() != nil }
