package csipgs

import (
	"math/bits"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The terms of Eval as weights of the evaluation (eval.Terms), so that they
// can be learned: the non-royal pieces on the board and the royals, in
// percent of their designs' values; the reserve pieces with room to be
// placed and the others, in percent of their values; a zorkmid in the
// treasury; a non-royal piece's push, per square nearer the enemy royal;
// the core's count of the placeholder types (cancelled); the mop-up
// against a lone royal, in centipawns; and the design phase: the side to
// move has moved and decides on its designs, so the other side moves next
// (the tempo, given to the side to move, then goes to the wrong side;
// Eval has no such term, its default is 0). Then the terms of the
// designs' movement on the board (movementFeatures; Eval has none of
// them, their defaults are 0): the squares the non-royal pieces can move
// to or capture on, their attacks on the squares next to the enemy
// royals and on the enemy royals, on the squares next to their own
// royals, the squares next to a royal it could step to (empty and not
// attacked), and the non-royal pieces attacked and not defended, in
// hundreds of centipawns of their designs' values.
var termNames = []string{
	"csipgs.piece", "csipgs.royal", "csipgs.reserve", "csipgs.stuck",
	"csipgs.zorkmid", "csipgs.push", "csipgs.core", "csipgs.mopup",
	"csipgs.design",
	"csipgs.mobility", "csipgs.attack", "csipgs.check", "csipgs.defence",
	"csipgs.room", "csipgs.hanging",
}

// The indices of the movement terms in termNames.
const (
	tMobility = 9 + iota
	tAttack
	tCheck
	tDefence
	tRoom
	tHanging
)

// TermNames names the terms of Eval (eval.Terms).
func (z *csipgs) TermNames() []string { return termNames }

// TermDefaults returns the weights that make the terms Eval (eval.Terms).
func (z *csipgs) TermDefaults() []float64 {
	return []float64{100, royalShare, reserveShare, stuckShare, zorkmidValue, pushPerStep, -corePieceValue, 1, 0,
		0, 0, 0, 0, 0, 0}
}

// TermFeatures returns the terms of p from White's point of view, in the
// order of TermNames (eval.Terms), White's counted positive and Black's
// negative: values in hundreds of centipawns, zorkmids, squares of push,
// pieces on the board, the mop-up of Eval in centipawns, 1 for the side
// in the design phase, and the movement terms (movementFeatures).
func (z *csipgs) TermFeatures(p *rules.Position) [eval.MaxTerms]float64 {
	var f [eval.MaxTerms]float64
	st := z.stateOf(p)
	var mat, nonRoyal, onBoard [2]int
	var royalSq [2]geom.Square
	royalSq[0], royalSq[1] = geom.NoSquare, geom.NoSquare
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if st.isRoyal(p.At(s)) {
				royalSq[c] = s
			}
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		sign := 1.0
		if c == rules.Black {
			sign = -1
		}
		f[6] += sign * float64(len(p.Pieces(c)))
		enemy := royalSq[c.Other()]
		for _, s := range p.Pieces(c) {
			d := st.designOf(p.At(s))
			if d == nil {
				continue
			}
			if d.royal {
				f[1] += sign * float64(d.value) / 100
				mat[c] += d.value * royalShare / 100
				continue
			}
			f[0] += sign * float64(d.value) / 100
			mat[c] += d.value
			nonRoyal[c]++
			onBoard[c]++
			if enemy != geom.NoSquare {
				f[5] += sign * float64(14-distance(s, enemy))
			}
		}
		room, stuck := z.reserveParts(p, st, c)
		f[2] += sign * float64(room) / 100
		f[3] += sign * float64(stuck) / 100
		mat[c] += room*reserveShare/100 + stuck*stuckShare/100
		if reserveSize(p, c) > 0 {
			nonRoyal[c]++
		}
		money := max(0, p.Money(c))
		f[4] += sign * float64(money)
		mat[c] += zorkmidValue * money
		if c == p.Turn() && DesignPhase(p) {
			f[8] = sign
		}
	}
	f[7] = float64(z.mopUp(p, royalSq, nonRoyal, onBoard, mat))
	movementFeatures(p, st, &f)
	return f
}

// movementFeatures sets the movement terms of f, White's counted positive
// and Black's negative, from the moves of each piece's design on the
// board (its legs, as genLegs walks them; a relay's powers lent to other
// pieces are not counted):
//
//   - csipgs.mobility: the moves of the non-royal pieces, to an empty
//     square or capturing an enemy piece;
//   - csipgs.attack: the squares next to an enemy royal (each royal's
//     neighbours, once) that a non-royal piece could capture on, whatever
//     stands there, counted for each piece;
//   - csipgs.check: the non-royal pieces that could capture an enemy
//     royal;
//   - csipgs.defence: the same as csipgs.attack on the squares next to
//     the own royals;
//   - csipgs.room: the squares next to the own royals (once) that are
//     empty and no enemy piece could capture on;
//   - csipgs.hanging: the non-royal pieces that an enemy piece could
//     capture and no own piece could recapture, in hundreds of
//     centipawns of their designs' values.
//
// The safety of a side's royal is the other side's csipgs.attack and
// csipgs.check, its csipgs.defence and its csipgs.room. It does not
// allocate.
func movementFeatures(p *rules.Position, st *state, f *[eval.MaxTerms]float64) {
	var zone [2]geom.Set     // the squares next to colour c's royals
	var attacked [2]geom.Set // the squares colour c could capture on
	b := p.Variant().Board()
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if !st.isRoyal(p.At(s)) {
				continue
			}
			for _, t := range neighbours(s) {
				if b.Contains(t) {
					zone[c].Add(t)
				}
			}
		}
	}
	var mob, att, chk, def [2]int
	for c := rules.White; c <= rules.Black; c++ {
		o := c.Other()
		for _, s := range p.Pieces(c) {
			d := st.designOf(p.At(s))
			if d == nil {
				continue
			}
			nonRoyal := !d.royal
			for i := range d.legs[c] {
				l := &d.legs[c][i]
				to := int(s)
				for step := 1; ; step++ {
					to += l.off
					t := geom.Square(to)
					q := p.At(t)
					empty := q == rules.Empty
					if !empty && !q.IsPiece() {
						break // off the board, or terrain
					}
					if l.cap && l.skipCap>>step&1 == 0 {
						attacked[c].Add(t)
						if nonRoyal {
							if zone[o].Has(t) {
								att[c]++
							}
							if zone[c].Has(t) {
								def[c]++
							}
							if !empty && q.Color() == o {
								mob[c]++
								if st.isRoyal(q) {
									chk[c]++
								}
							}
						}
					}
					if !empty {
						break
					}
					if nonRoyal && l.mv && l.skipMv>>step&1 == 0 {
						mob[c]++
					}
					if !l.rider {
						break
					}
				}
			}
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		sign := 1.0
		if c == rules.Black {
			sign = -1
		}
		o := c.Other()
		room, hanging := 0, 0
		for _, s := range p.Pieces(c) {
			if d := st.designOf(p.At(s)); d != nil && !d.royal && attacked[o].Has(s) && !attacked[c].Has(s) {
				hanging += d.value
			}
		}
		for i := range zone[c] {
			for w := zone[c][i]; w != 0; w &= w - 1 {
				t := geom.Square(i*64 + bits.TrailingZeros64(w))
				if p.At(t) == rules.Empty && !attacked[o].Has(t) {
					room++
				}
			}
		}
		f[tMobility] += sign * float64(mob[c])
		f[tAttack] += sign * float64(att[c])
		f[tCheck] += sign * float64(chk[c])
		f[tDefence] += sign * float64(def[c])
		f[tRoom] += sign * float64(room)
		f[tHanging] += sign * float64(hanging) / 100
	}
}

// reserveParts returns the values of colour c's reserve pieces that the
// empty squares next to c's royals could take, best first, and of the
// others (see reserveValue).
func (z *csipgs) reserveParts(p *rules.Position, st *state, c rules.Color) (room, stuck int) {
	var buf [MaxPiecesPerSide]int
	vals := reserveValues(p, st, c, &buf)
	if len(vals) == 0 {
		return 0, 0
	}
	free := z.transferRoom(p, st, c)
	for i, x := range vals {
		if i < free {
			room += x
		} else {
			stuck += x
		}
	}
	return room, stuck
}
