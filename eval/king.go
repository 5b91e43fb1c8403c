package eval

import (
	"slices"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The safe checks, counted by type for each side against the enemy royal
// piece on the walk that mobility makes (L.check): the squares a piece
// moves to from which it would attack the royal piece and that no enemy
// piece attacks; and the squares the pawns attack, for the mobility on
// squares no enemy pawn attacks (L.mobility.safe).

// maxChecks is how many squares checks lists.
const maxChecks = 32

// checks lists the squares one side's pieces move to from which they
// would attack the enemy royal piece (each in from for its type), with the
// type, to count those the enemy does not attack once all it attacks is
// known.
type checks struct {
	from *geom.Set
	n    int
	q    [maxChecks]geom.Square
	t    [maxChecks]rules.Type
}

// add lists q for type t, or reports false when the list is full.
func (ck *checks) add(q geom.Square, t rules.Type) bool {
	if ck.n == maxChecks {
		return false
	}
	ck.q[ck.n], ck.t[ck.n] = q, t
	ck.n++
	return true
}

// safe counts the squares ck lists that are not in attacked.
func (ck *checks) safe(attacked *geom.Set) int {
	n := 0
	for _, q := range ck.q[:ck.n] {
		if !attacked.Has(q) {
			n++
		}
	}
	return n
}

// checkCache keeps the squares from which each type of one side attacks
// the enemy royal piece, for the first few types met; others are walked
// again into spare.
type checkCache struct {
	t     [8]rules.Type
	sets  [8]geom.Set
	n     int
	spare geom.Set
}

// from returns the squares from which c's piece of type t attacks the
// royal piece on k. Those of a type whose capturing rays are those of two
// other types together (a queen's: a rook's and a bishop's, e.union) are
// theirs together, while the cache has room for the three.
func (e *Evaluator) from(p *rules.Position, cc *checkCache, t rules.Type, c rules.Color, k geom.Square) *geom.Set {
	if u := e.union[t]; u[0] != 0 && cc.n+3 <= len(cc.t) && !slices.Contains(cc.t[:cc.n], t) {
		a := e.walkFrom(p, cc, u[0], c, k)
		b := e.walkFrom(p, cc, u[1], c, k)
		s := &cc.sets[cc.n]
		cc.t[cc.n] = t
		cc.n++
		*s = *a
		s.Union(b)
		return s
	}
	return e.walkFrom(p, cc, t, c, k)
}

// walkFrom is from without the union: the cached squares, or those that
// checkSquares walks.
func (e *Evaluator) walkFrom(p *rules.Position, cc *checkCache, t rules.Type, c rules.Color, k geom.Square) *geom.Set {
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

// unions returns, by type, two other types whose capturing rays are
// together the type's, step and length (a queen's: a bishop's and a
// rook's), or zeros.
func (e *Evaluator) unions() (u [rules.MaxTypes + 1][2]rules.Type) {
	n := rules.Type(len(e.hitRays) - 1)
	for t := rules.Type(1); t <= n; t++ {
		if !e.walks[t] {
			continue
		}
		for a := rules.Type(1); a <= n && u[t][0] == 0; a++ {
			for b := a + 1; b <= n; b++ {
				if a != t && b != t && e.raysUnion(t, a, b) {
					u[t] = [2]rules.Type{a, b}
					break
				}
			}
		}
	}
	return u
}

// raysUnion reports whether the capturing rays of a and b, each fewer
// than t's and not none, are together t's (by step and length).
func (e *Evaluator) raysUnion(t, a, b rules.Type) bool {
	has := func(rs []ray, r ray) bool {
		return slices.ContainsFunc(rs, func(x ray) bool { return x.off == r.off && x.steps == r.steps })
	}
	rt, ra, rb := e.hitRays[t][0], e.hitRays[a][0], e.hitRays[b][0]
	if len(ra) == 0 || len(rb) == 0 || len(ra) >= len(rt) || len(rb) >= len(rt) {
		return false
	}
	for _, r := range slices.Concat(ra, rb) {
		if !has(rt, r) {
			return false
		}
	}
	for _, r := range rt {
		if !has(ra, r) && !has(rb, r) {
			return false
		}
	}
	return true
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
// direction of o's capturing rays turned round (back) to the first piece,
// which attacks q if it is o's and its type's ray in that direction is
// long enough.
func (e *Evaluator) attackedBy(p *rules.Position, q geom.Square, o rules.Color) bool {
	for i := range e.back[o] {
		b := &e.back[o][i]
		x := q
		for d := 1; d <= b.steps; d++ {
			x = geom.Square(int(x) + b.off)
			pc := p.At(x)
			if pc == rules.Empty {
				continue
			}
			if pc != rules.Wall && pc.Color() == o {
				bit := uint64(1) << pc.Type()
				for _, r := range b.reach {
					if r.steps < d {
						break
					}
					if r.types&bit != 0 {
						return true
					}
				}
			}
			break
		}
	}
	return false
}

// backRay is one direction in which attackedBy walks back from a square
// for one side's attackers: the step (turned round), the most steps of any
// type's capturing ray that way, and by how many steps each type reaches,
// the longest first.
type backRay struct {
	off   int
	steps int
	reach []typeReach
}

// typeReach is the types (a bit each) whose capturing ray in a direction
// is steps long.
type typeReach struct {
	steps int
	types uint64
}

// backRays returns, for each side, the directions attackedBy walks: the
// capturing rays of every type, each turned round, merged by step.
func (e *Evaluator) backRays() (out [2][]backRay) {
	for o := rules.White; o <= rules.Black; o++ {
		for t := rules.Type(1); int(t) < len(e.hitRays); t++ {
			for _, r := range e.hitRays[t][o.Other()] {
				i := slices.IndexFunc(out[o], func(b backRay) bool { return b.off == r.off })
				if i < 0 {
					out[o] = append(out[o], backRay{off: r.off})
					i = len(out[o]) - 1
				}
				b := &out[o][i]
				b.steps = max(b.steps, r.steps)
				j := slices.IndexFunc(b.reach, func(x typeReach) bool { return x.steps == r.steps })
				if j < 0 {
					b.reach = append(b.reach, typeReach{steps: r.steps})
					j = len(b.reach) - 1
				}
				b.reach[j].types |= 1 << t
			}
		}
		for i := range out[o] {
			slices.SortFunc(out[o][i].reach, func(x, y typeReach) int { return y.steps - x.steps })
		}
	}
	return out
}
