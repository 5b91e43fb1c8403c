package eval

import (
	"fmt"

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

// EvaluateUncached is Evaluate without the cache.
func (e *Evaluator) EvaluateUncached(p *rules.Position) int { return e.evaluateNet(p, nil) }

// Cached reports whether e keeps a cache of its scores.
func (e *Evaluator) Cached() bool { return e.cacheOf() != nil }

// PawnTable is pawnTable, for the tests.
type PawnTable = pawnTable

// NewPawnTable returns an empty pawn table.
func NewPawnTable() *PawnTable { return newPawnTable() }

// PawnInfo returns what the pawns of p give (pawnInfo), as text: computed
// from p when t is nil, else as evaluate gets it, through the table t.
func (e *Evaluator) PawnInfo(p *rules.Position, t *PawnTable) string {
	var pi pawnInfo
	if t == nil {
		e.pawnInfo(p, &pi)
		return fmt.Sprint(pi)
	}
	var key uint64
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if p.At(s).Type() == e.pawn {
				key ^= pawnKeys[c][s]
				e.addPawn(&pi, c, s)
			}
		}
	}
	e.pawnInfoOf(t, key, &pi)
	return fmt.Sprint(pi)
}

// PawnAttacksByPawn returns the squares each side's pawns attack, walked
// pawn by pawn along the pawn's capturing steps to the squares that are not
// walls.
func (e *Evaluator) PawnAttacksByPawn(p *rules.Position) (pa [2]geom.Set) {
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if p.At(s).Type() != e.pawn {
				continue
			}
			for _, pc := range e.pawnCap[c] {
				if q := geom.Square(int(s) + pc.off); p.At(q) != rules.Wall {
					pa[c].Add(q)
				}
			}
		}
	}
	return pa
}

// PawnAttacks returns the squares each side's pawns attack as pawnInfo
// gathers them.
func (e *Evaluator) PawnAttacks(p *rules.Position) [2]geom.Set {
	var pi pawnInfo
	e.pawnInfo(p, &pi)
	return pi.att
}

// MobilityWalk is what mobility gives for c's piece on s against the
// enemy royal piece (its squares of check, the squares the enemy's pawns
// attack), as text: by the sets where bySquare is false (for a type whose
// rays reach each square once, both moving and capturing), else square by
// square; and whether the sets apply to the type.
func (e *Evaluator) MobilityWalk(p *rules.Position, s geom.Square, c rules.Color, bySquare bool) (string, bool) {
	t := p.At(s).Type()
	k := geom.NoSquare
	for _, q := range p.Pieces(c.Other()) {
		if e.royal[p.At(q).Type()] {
			k = q
		}
	}
	kz := kingZone(k)
	var h hits
	var ck checks
	var from geom.Set
	if k != geom.NoSquare {
		e.checkSquares(p, t, c, k, &from)
	}
	ck.from = &from
	pa := e.PawnAttacks(p)
	var n, att, chk, safe int
	if bySquare {
		n, att, chk, safe = e.mobilityBySquare(p, s, t, c, k, &h, &ck, &pa[c.Other()])
	} else {
		n, att, chk, safe = e.mobility(p, s, t, c, k, &kz, &h, &ck, &pa[c.Other()])
	}
	var listed geom.Set // the order of the list differs
	for _, q := range ck.q[:ck.n] {
		listed.Add(q)
	}
	return fmt.Sprint(n, att, chk, safe, h, ck.n, listed), e.once[t] && e.plain[t]
}

// ReachesOnce is reachesOnce for rays of the given steps and lengths.
func ReachesOnce(b geom.Board, offs, steps []int) bool {
	var rs []ray
	for i := range offs {
		rs = append(rs, ray{off: offs[i], steps: steps[i], move: true, capture: true})
	}
	return reachesOnce(rs, b)
}

// MobilityLeaps is what mobilityLeaps gives for c's piece on s, as
// MobilityWalk gives it (the same text), and whether the piece's type is
// one mobilityLeaps counts (e.leapMob).
func (e *Evaluator) MobilityLeaps(p *rules.Position, s geom.Square, c rules.Color) (string, bool) {
	t := p.At(s).Type()
	if !e.leapMob[t] {
		return "", false
	}
	k := geom.NoSquare
	for _, q := range p.Pieces(c.Other()) {
		if e.royal[p.At(q).Type()] {
			k = q
		}
	}
	var kzp *geom.Set
	var ckp *checks
	var h hits
	var ck checks
	kz := kingZone(k)
	if k != geom.NoSquare {
		kzp, ckp = &kz, &ck
	}
	var occ [2]geom.Set
	for col := rules.White; col <= rules.Black; col++ {
		for _, q := range p.Pieces(col) {
			occ[col].Add(q)
		}
	}
	pa := e.PawnAttacks(p)
	n, att, chk, safe := e.mobilityLeaps(p, s, t, c, k, kzp, &occ, &h, ckp, &pa[c.Other()])
	var listed geom.Set
	for _, q := range ck.q[:ck.n] {
		listed.Add(q)
	}
	return fmt.Sprint(n, att, chk, safe, h, ck.n, listed), true
}

// HitLeaps returns the hits of c's piece on s as hitFrom gathers them
// (from a leaper's table where it applies) and as hitWalk walks them, and
// whether hitFrom takes them from the table.
func (e *Evaluator) HitLeaps(p *rules.Position, s geom.Square, c rules.Color) (got, want string, table bool) {
	t := p.At(s).Type()
	var a, b hits
	e.hitFrom(p, s, t, c, &a)
	e.hitWalk(p, s, t, c, &b)
	return fmt.Sprint(a), fmt.Sprint(b), e.leap[t][c] != nil && t != e.pawn && e.lesser[t] == 0
}

// NetScore is the network's correction of p with the state st, for the
// tests; 0 if e has no network.
func (e *Evaluator) NetScore(p *rules.Position, st *NetState) int {
	if e.net == nil {
		return 0
	}
	return e.net.score(p, e.netT, st)
}

// Linear is the evaluation without the network, for the tests.
func (e *Evaluator) Linear(p *rules.Position) int { return e.evaluate(p) }
