package csipgs

import (
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
// Eval has no such term, its default is 0).
var termNames = []string{
	"csipgs.piece", "csipgs.royal", "csipgs.reserve", "csipgs.stuck",
	"csipgs.zorkmid", "csipgs.push", "csipgs.core", "csipgs.mopup",
	"csipgs.design",
}

// TermNames names the terms of Eval (eval.Terms).
func (z *csipgs) TermNames() []string { return termNames }

// TermDefaults returns the weights that make the terms Eval (eval.Terms).
func (z *csipgs) TermDefaults() []float64 {
	return []float64{100, royalShare, reserveShare, stuckShare, zorkmidValue, pushPerStep, -corePieceValue, 1, 0}
}

// TermFeatures returns the terms of p from White's point of view, in the
// order of TermNames (eval.Terms), White's counted positive and Black's
// negative: values in hundreds of centipawns, zorkmids, squares of push,
// pieces on the board, the mop-up of Eval in centipawns, and 1 for the side
// in the design phase.
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
	return f
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
