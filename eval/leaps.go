package eval

import (
	"math/bits"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The leapers' tables: for a type whose capturing rays are all single
// steps (chess's knight and king, every piece of Great Shatranj), the
// squares those rays reach from each square are fixed by the board, so
// they are made once, as sets, and the walks of mobility, hitFrom and
// checkSquares become a few operations on the board's words.

// leapTables fills e.leap, e.leapAt and e.leapNW: by type and colour, for
// each square of the board's grid, the squares of the board (not the
// holes, not off the board) that the type's capturing rays reach from it,
// when each of those rays is a single step; nil for other types. A
// square's set is e.leapNW words, those of a geom.Set from e.words[0],
// from e.leapAt[s].
func (e *Evaluator) leapTables() {
	b := e.v.Board()
	e.leapNW = e.words[1] - e.words[0]
	cells := 0
	for r := 0; r < b.Ranks; r++ {
		for f := 0; f < b.Files; f++ {
			e.leapAt[geom.Sq(f, r)] = int32(cells * e.leapNW)
			cells++
		}
	}
	for t := rules.Type(1); int(t) < len(e.hitRays); t++ {
		if !leaps(e.hitRays[t][0]) {
			continue
		}
		for c := rules.White; c <= rules.Black; c++ {
			tab := make([]uint64, cells*e.leapNW)
			for r := 0; r < b.Ranks; r++ {
				for f := 0; f < b.Files; f++ {
					s := geom.Sq(f, r)
					w := tab[e.leapAt[s]:][:e.leapNW]
					for _, x := range e.hitRays[t][c] {
						q := geom.Square(int(s) + x.off)
						if e.onBoard.Has(q) {
							w[int(q)/64-e.words[0]] |= 1 << (q % 64)
						}
					}
				}
			}
			e.leap[t][c] = tab
		}
		for _, x := range e.hitRays[t][0] {
			dy := (x.off + geom.Stride/2) / geom.Stride
			if x.off+geom.Stride/2 < 0 {
				dy = -((-x.off + geom.Stride/2) / geom.Stride)
			}
			e.leapDY[t] = max(e.leapDY[t], dy, -dy)
		}
	}
}

// leapWords returns the words of a geom.Set (in [e.words[0], e.words[1]))
// that hold the squares a leaper of type t on s may reach: those of the
// rows within e.leapDY[t] of s's.
func (e *Evaluator) leapWords(t rules.Type, s geom.Square) (lo, hi int) {
	row, dy := int(s)/geom.Stride, e.leapDY[t]
	return max(e.words[0], (row-dy)*geom.Stride/64), min(e.words[1], ((row+dy)*geom.Stride)/64+1)
}

// leaps reports whether the rays rs are some, each a single step.
func leaps(rs []ray) bool {
	if len(rs) == 0 {
		return false
	}
	for _, r := range rs {
		if r.steps != 1 {
			return false
		}
	}
	return true
}

// leapSet returns the words of the squares c's piece of type t on s
// reaches (e.leap[t] not nil).
func (e *Evaluator) leapSet(t rules.Type, c rules.Color, s geom.Square) []uint64 {
	return e.leap[t][c][e.leapAt[s]:][:e.leapNW]
}

// mobilityLeaps is mobility for a type with a leaper's table whose rays
// each both move and capture (e.leap[t], e.plain[t]), counted on the
// table's set of the squares it reaches and occ, each side's pieces: the
// squares it moves to are those without an own piece. The squares of
// check are those from which t reaches k (the table of the other colour
// at k) without an own piece: checkSquares's, so ck.from is not read.
func (e *Evaluator) mobilityLeaps(p *rules.Position, s geom.Square, t rules.Type, c rules.Color, k geom.Square, kz *geom.Set, occ *[2]geom.Set, h *hits, ck *checks, pawnAtt *geom.Set) (n, att, chk, safe int) {
	lo, hi := e.leapWords(t, s)
	reach, at := e.leap[t][c], int(e.leapAt[s])-e.words[0] // the word i of s's set is reach[at+i]
	var from []uint64
	fat := 0
	if ck != nil {
		from, fat = e.leap[t][c.Other()], int(e.leapAt[k])-e.words[0]
	}
	own, opp := &occ[c], &occ[c.Other()]
	var lesser uint64 // the types it threatens for threat.lesser, when h gathers them
	if h != nil {
		lesser = e.lesser[t]
	}
	for i := lo; i < hi; i++ {
		r := reach[at+i]
		to := r &^ own[i]
		n += bits.OnesCount64(to)
		if kz != nil {
			att += bits.OnesCount64(r & kz[i])
		}
		if h != nil {
			h.any[c][i] |= r
			if lesser != 0 {
				for w := r & opp[i]; w != 0; w &= w - 1 {
					if lesser>>p.At(geom.Square(i*64+bits.TrailingZeros64(w))).Type()&1 != 0 {
						h.lesser[c][i] |= w & -w
					}
				}
			}
		}
		if pawnAtt != nil {
			safe += bits.OnesCount64(to &^ pawnAtt[i])
		}
		if ck == nil {
			continue
		}
		for w := to & from[fat+i]; w != 0; w &= w - 1 {
			q := geom.Square(i*64 + bits.TrailingZeros64(w))
			if !ck.add(q, t) && !e.attackedBy(p, q, c.Other()) {
				chk++
			}
		}
	}
	return n, att, chk, safe
}
