package search

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// seeRoyal is the exchange value of a royal piece: more than any material.
const seeRoyal = 1 << 20

// plainCaptures reports whether captures in v are the core's alone, so that
// static exchange evaluation (see seeGE) applies: no hook makes a capture
// (Tactical, Special moves), gives it several outcomes, changes what a
// move does afterwards or decides legality or moves of its own.
func plainCaptures(v *rules.Variant) bool {
	x := v.Ext()
	_, tactical := x.(rules.Engine)
	_, special := x.(rules.SpecialMover)
	_, gen := x.(rules.Generator)
	_, check := x.(rules.Checker)
	return !tactical && !v.Chance() && !special && !isAfterMover(v) && !isLegalJudge(v) &&
		!gen && !check && !v.Spec().Drops
}

// isAfterMover reports whether v changes what a move does after the
// core's effects (rules.AfterMover).
func isAfterMover(v *rules.Variant) bool {
	_, ok := v.Ext().(rules.AfterMover)
	return ok
}

// isLegalJudge reports whether v decides legality itself
// (rules.LegalJudge).
func isLegalJudge(v *rules.Variant) bool {
	_, ok := v.Ext().(rules.LegalJudge)
	return ok
}

// LazyCapturer is the optional hook of a variant (on its rules.Spec.Ext)
// whose legality test is costly and whose captures are many beside the
// ones quiescence searches: when LazyCaptures says so, quiescence (out of
// check) takes the pseudo-legal captures and tests each with the Legal hook
// only when it is about to be searched, after the cutoffs and pruning that
// may spare it. The moves searched are the same; only the order of ties
// among them may fall otherwise.
type LazyCapturer interface {
	LazyCaptures() bool
}

// lazyCaptures reports whether v asks for lazy legality in quiescence
// (LazyCapturer); it must decide legality itself (rules.LegalJudge).
func lazyCaptures(v *rules.Variant) bool {
	l, ok := v.Ext().(LazyCapturer)
	return ok && l.LazyCaptures() && isLegalJudge(v)
}

// seeValue is the material a piece counts for in an exchange.
func (s *searcher) seeValue(pc rules.Piece) int {
	if !pc.IsPiece() {
		return 0
	}
	if s.p.Variant().Royal(pc.Type()) {
		return seeRoyal
	}
	return s.ev.Value(pc.Type())
}

// seeLift is a piece seeGE lifts off the board: its square, the last
// square of its side's piece list before, and the piece.
type seeLift struct {
	sq, last geom.Square
	pc       rules.Piece
}

// seeLifts holds the pieces one exchange lifts, in order: a searcher's
// own, so that seeGE does not clear an array at each call.
type seeLifts [2 * rules.MaxPieces]seeLift

// lift takes the piece on sq off p as the i-th lifted.
func (l *seeLifts) lift(p *rules.Position, i int, sq geom.Square) {
	pc := p.At(sq)
	own := p.Pieces(pc.Color())
	l[i] = seeLift{sq: sq, last: own[len(own)-1], pc: pc}
	p.Remove(sq)
}

// seeGE reports whether the move m, followed by the exchange on its target
// square in which each side recaptures with its least valuable attacker
// or stops when that suits it, wins at least threshold centipawns for the
// side that makes it (static exchange evaluation). Attackers are the
// rules' (any piece type, capture immunity included); pieces that take
// part are lifted off the board, so that sliders behind them join in, and
// put back before it returns. A royal piece recaptures only if the other
// side has no attacker left. Pins are ignored. Moves other than normal
// ones (castling, en passant, promotions, drops) count as winning 0. It is
// meant for variants with plain captures (see plainCaptures).
func (s *searcher) seeGE(m rules.Move, threshold int) bool {
	if m.Kind() != rules.Normal {
		return threshold <= 0
	}
	p := s.p
	from, to := m.From(), m.To()
	swap := s.seeValue(p.At(to)) - threshold
	if swap < 0 {
		return false
	}
	mover := p.At(from)
	swap = s.seeValue(mover) - swap
	if swap <= 0 {
		return true
	}
	v := p.Variant()
	lifted := &s.seeLifted // written before it is read: not cleared
	n := 0
	lifted.lift(p, n, from)
	n++
	stm := mover.Color()
	occupant := mover.Type() // the piece now on to, for capture immunity
	res := 1
	for n < len(lifted) {
		stm = stm.Other()
		atk := p.Attackers(s.seeBuf[:0], to, stm, occupant)
		s.seeBuf = atk
		if len(atk) == 0 {
			break
		}
		res ^= 1
		lva, lv := atk[0], s.seeValue(p.At(atk[0]))
		for _, sq := range atk[1:] {
			if x := s.seeValue(p.At(sq)); x < lv {
				lva, lv = sq, x
			}
		}
		t := p.At(lva).Type()
		if v.Royal(t) {
			// A royal piece may not recapture into an attack.
			if p.Attacked(to, stm.Other(), t) {
				res ^= 1
			}
			break
		}
		if swap = lv - swap; swap < res {
			break
		}
		lifted.lift(p, n, lva)
		n++
		occupant = t
	}
	// Put the pieces back in the reverse order, each list as it was: Remove
	// moved the last piece of the list into the lifted one's place, Put
	// appends, so the last piece is taken off and appended again.
	for i := n - 1; i >= 0; i-- {
		l := &lifted[i]
		p.Put(l.sq, l.pc)
		if l.last != l.sq {
			last := p.At(l.last)
			p.Remove(l.last)
			p.Put(l.last, last)
		}
	}
	return res == 1
}
