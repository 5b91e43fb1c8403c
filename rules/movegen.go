package rules

import (
	"slices"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
)

// MaxMoves bounds the legal moves of any position a supported variant can
// reach on a 16x16 board; buffers of this size never need to grow.
const MaxMoves = 2048

// LegalMoves appends the legal moves of the side to move to dst and returns
// it. The order is deterministic: pieces in list order, then each piece's
// legs in the order of its movement. Generation does not allocate when dst
// has room.
func (p *Position) LegalMoves(dst []Move) []Move { return p.legal(dst, true) }

// LegalCaptures appends the legal captures (IsCapture: a variant's
// Tactical moves too), en-passant captures and promotions of the side to
// move: the moves a quiescence search tries.
func (p *Position) LegalCaptures(dst []Move) []Move { return p.legal(dst, false) }

// legal generates legal moves; quiet false keeps only captures and
// promotions.
func (p *Position) legal(dst []Move, quiet bool) []Move {
	v := p.v
	us := p.turn
	if v.h.gen != nil || v.h.legal != nil || v.spec.Drops || v.slow || p.royalCount(us) != 1 ||
		!quiet && v.h.engine != nil {
		return p.legalByTest(dst, quiet)
	}
	ksq := p.royalSquare(us)

	if p.stamp > 1<<31 {
		p.mark = [geom.Cells]uint32{}
		p.stamp = 0
	}
	base := p.stamp + 1
	checkers, complexCheck, nlines := p.analyse(ksq, us, base)
	p.stamp = base + 2 + uint32(nlines)
	checkStamp, sensStamp := base, base+1

	// King moves: the destination may not be attacked once the king has left.
	king := p.board[ksq]
	start := len(dst)
	dst = p.genPiece(dst, ksq, king, quiet)
	p.board[ksq] = Empty
	kt := king.Type()
	them := us.Other()
	keep := start
	for _, m := range dst[start:] {
		if !p.Attacked(m.To(), them, kt) {
			dst[keep] = m
			keep++
		}
	}
	p.board[ksq] = king
	dst = dst[:keep]
	if checkers == 0 && v.castling && quiet {
		dst = p.genCastling(dst, ksq)
	}
	if checkers > 1 {
		return dst
	}

	for _, from := range p.list[us][:p.n[us]] {
		if from == ksq {
			continue
		}
		start := len(dst)
		// genPiece's fast path, called directly in this hot loop (the
		// variant is not slow, or legalByTest would have been taken).
		dst = p.genLegs(dst, from, p.board[from], quiet, &v.moves[us][p.board[from].Type()])
		mf := p.mark[from]
		keep := start
		for _, m := range dst[start:] {
			ok := true
			switch {
			case m.Kind() == EnPassant || mf == sensStamp || complexCheck:
				ok = p.legalByBoard(m)
			case checkers == 1 && p.mark[m.To()] != checkStamp:
				ok = false
			case mf > sensStamp && mf <= p.stamp:
				ok = p.mark[m.To()] == mf
			}
			if ok {
				dst[keep] = m
				keep++
			}
		}
		dst = dst[:keep]
	}
	return dst
}

// analyse finds the checks on the king at ksq and the pins against it. It
// marks the squares that end a simple check (the checker and the squares
// between) with base, the pieces that must be tested by making the move
// with base+1, and each pin line with its own stamp from base+2. It returns
// the number of checkers, whether a check is of a kind whose blocking
// squares are not a line (lame and skip legs), and the number of pin lines.
func (p *Position) analyse(ksq geom.Square, us Color, base uint32) (checkers int, complexCheck bool, nlines int) {
	v := p.v
	them := us.Other()
	tbit, ubit := colorBit(them), colorBit(us)
	ps := &v.probes[them]
	excl := v.immuneTo[p.board[ksq].Type()]
	for i := range ps.leaps {
		pr := &ps.leaps[i]
		t := int(ksq) + pr.off
		if q := p.board[t]; q&tbit != 0 && (pr.types&^excl)&(1<<q.Type()) != 0 {
			checkers++
			p.mark[t] = base
		}
	}
	for i := range ps.rides {
		pr := &ps.rides[i]
		types := pr.types &^ excl
		t := int(ksq)
		pinned := -1
		for n := 0; n < pr.max; n++ {
			t += pr.off
			q := p.board[t]
			if q == Empty {
				continue
			}
			if q&tbit != 0 && types&(1<<q.Type()) != 0 {
				// An attacker: a check if nothing is between, else a pin.
				stamp := base
				if pinned >= 0 {
					stamp = base + 2 + uint32(nlines)
					nlines++
				} else {
					checkers++
				}
				for s := int(ksq) + pr.off; ; s += pr.off {
					p.mark[s] = stamp
					if s == t {
						break
					}
				}
				break
			}
			if q&ubit != 0 && pinned < 0 {
				pinned = t
				continue
			}
			break
		}
	}
	for i := range ps.complex {
		pr := &ps.complex[i]
		if p.complexAttack(pr, ksq, them, excl) != geom.NoSquare {
			checkers++
			complexCheck = true
		}
		// Any of our pieces on the line or path may be shielding the king.
		switch pr.kind {
		case probeLame:
			for _, po := range pr.path {
				if po != 0 && p.board[int(ksq)+po]&ubit != 0 {
					p.mark[int(ksq)+po] = base + 1
				}
			}
		case probeRide, probeSkip:
			var ours [2]int
			n, pieces := 0, 0
			t := int(ksq)
			for k := 0; k < pr.max && pieces <= 2; k++ {
				t += pr.off
				q := p.board[t]
				if q == Wall {
					break
				}
				if q == Empty {
					continue
				}
				if q&tbit != 0 && pr.types&(1<<q.Type()) != 0 {
					for _, s := range ours[:n] {
						p.mark[s] = base + 1
					}
				}
				pieces++
				if q&ubit != 0 && n < 2 {
					ours[n] = t
					n++
				}
			}
		}
	}
	return checkers, complexCheck, nlines
}

// genPiece appends the pseudo-legal moves of the piece pc on from; with
// quiet false only its captures and promotions.
func (p *Position) genPiece(dst []Move, from geom.Square, pc Piece, quiet bool) []Move {
	if p.v.slow {
		return p.genSlowPiece(dst, from, pc, quiet)
	}
	return p.genLegs(dst, from, pc, quiet, &p.v.moves[pc.Color()][pc.Type()])
}

// genSlowPiece is genPiece in a variant with regions, zones, hoppers or
// pieces of their own promotion (Variant.slow).
func (p *Position) genSlowPiece(dst []Move, from geom.Square, pc Piece, quiet bool) []Move {
	v := p.v
	c := pc.Color()
	t := pc.Type()
	start := len(dst)
	dst = p.genLegs(dst, from, pc, quiet, v.movesOf(pc, from))
	if v.hasRegion&(1<<t) != 0 {
		dst = p.keepRegion(dst, start, c, t)
	}
	if v.promoTo[t] != 0 || v.immobile {
		dst = p.promotions(dst, start, c, t)
	}
	return dst
}

// genLegs appends the pseudo-legal moves of the piece pc on from by the
// legs ms; with quiet false only its captures and promotions.
// A piece other than a pawn appends its moves here (emit's short way,
// without the call: the most frequent case).
func (p *Position) genLegs(dst []Move, from geom.Square, pc Piece, quiet bool, ms *moveSet) []Move {
	v := p.v
	c := pc.Color()
	t := pc.Type()
	enemy := colorBit(c.Other())
	pawn := t == v.pawn && t != 0
	canCap := func(q Piece) bool { return !v.immunity || v.cannot[t]&(1<<q.Type()) == 0 }
	for i := range ms.leaps {
		l := &ms.leaps[i]
		to := geom.Square(int(from) + l.off)
		q := p.board[to]
		switch {
		case q == Empty:
			if l.mode&betza.Move != 0 {
				if pawn {
					dst = p.emit(dst, from, to, pawn, c, quiet)
				} else if quiet {
					dst = append(dst, NewMove(from, to, Normal))
				}
			}
			if pawn && to == p.ep && l.mode&betza.Capture != 0 {
				dst = append(dst, NewMove(from, to, EnPassant).WithAux(p.epVictim))
			}
		case q&enemy != 0:
			if l.mode&betza.Capture != 0 && canCap(q) {
				if pawn {
					dst = p.emit(dst, from, to, pawn, c, true)
				} else {
					dst = append(dst, NewMove(from, to, Normal))
				}
			}
		}
	}
	for i := range ms.rides {
		l := &ms.rides[i]
		to := int(from)
		for n := 0; n < l.max; n++ {
			to += l.off
			q := p.board[to]
			if q == Empty {
				if l.mode&betza.Move != 0 {
					if pawn {
						dst = p.emit(dst, from, geom.Square(to), pawn, c, quiet)
					} else if quiet {
						dst = append(dst, NewMove(from, geom.Square(to), Normal))
					}
				}
				continue
			}
			if q&enemy != 0 && l.mode&betza.Capture != 0 && canCap(q) {
				if pawn {
					dst = p.emit(dst, from, geom.Square(to), pawn, c, true)
				} else {
					dst = append(dst, NewMove(from, geom.Square(to), Normal))
				}
			}
			break
		}
	}
	for i := range ms.special {
		dst = p.genSpecial(dst, from, pc, &ms.special[i], pawn, quiet)
	}
	return dst
}

// genSpecial appends the moves of one leg with flags.
func (p *Position) genSpecial(dst []Move, from geom.Square, pc Piece, l *leg, pawn, quiet bool) []Move {
	v := p.v
	c := pc.Color()
	t := pc.Type()
	enemy := colorBit(c.Other())
	if l.flags&betza.Initial != 0 && v.initRanks[c][t]&(1<<from.Rank()) == 0 {
		return dst
	}
	if l.flags&betza.Hop != 0 {
		return p.genHop(dst, from, pc, l, pawn, quiet)
	}
	if l.flags&betza.Lame != 0 {
		for _, po := range l.path {
			if po != 0 && p.board[int(from)+po] != Empty {
				return dst
			}
		}
	}
	to := int(from)
	n := 0
	if l.flags&betza.Skip != 0 {
		to += l.off
		n = 1
		if q := p.board[to]; q == Wall || (q != Empty && !p.passable(q, pc)) {
			return dst
		}
	}
	for ; n < l.max; n++ {
		to += l.off
		q := p.board[to]
		if q == Empty {
			if l.mode&betza.Move != 0 {
				dst = p.emit(dst, from, geom.Square(to), pawn, c, quiet)
			}
			continue
		}
		if q&enemy != 0 && l.mode&betza.Capture != 0 && (!v.immunity || v.cannot[t]&(1<<q.Type()) == 0) {
			dst = p.emit(dst, from, geom.Square(to), pawn, c, true)
		}
		break
	}
	return dst
}

// emit appends a move, expanded into promotions for a pawn reaching the
// zone. With plain false (a non-capture when only captures are wanted) it
// appends only promotions.
func (p *Position) emit(dst []Move, from, to geom.Square, pawn bool, c Color, plain bool) []Move {
	m := NewMove(from, to, Normal)
	if !pawn || !p.v.promoZone[c].Has(to) {
		if plain {
			dst = append(dst, m)
		}
		return dst
	}
	v := p.v
	for _, pt := range v.promoTypes {
		if lim := v.promoLimit[pt]; lim > 0 && int(p.count[c][pt]) >= lim {
			continue
		}
		dst = append(dst, NewMove(from, to, Promotion).WithPromo(pt))
	}
	if plain && !v.mustPromote[c].Has(to) {
		dst = append(dst, m)
	}
	return dst
}

// genCastling appends the legal castling moves of the king on ksq, which is
// not in check.
func (p *Position) genCastling(dst []Move, ksq geom.Square) []Move {
	v := p.v
	us := p.turn
	for side := 0; side < 2; side++ {
		i := 2*int(us) + side
		if p.castle&(1<<i) == 0 {
			continue
		}
		rs := p.castleRook[i]
		rank := ksq.Rank()
		kt := geom.Sq(v.kingFile[side], rank)
		rt := geom.Sq(v.rookFile[side], rank)
		lo := min(ksq.File(), kt.File(), rs.File(), rt.File())
		hi := max(ksq.File(), kt.File(), rs.File(), rt.File())
		clear := true
		for f := lo; f <= hi && clear; f++ {
			s := geom.Sq(f, rank)
			if s != ksq && s != rs && p.board[s] != Empty {
				clear = false
			}
		}
		if !clear {
			continue
		}
		// The king may not pass an attacked square.
		them := us.Other()
		step := 1
		if kt.File() < ksq.File() {
			step = -1
		}
		safe := true
		// The squares strictly between (none when the king stays put, as it
		// may in Chess960).
		for f := ksq.File() + step; ksq != kt && f != kt.File() && safe; f += step {
			if p.Attacked(geom.Sq(f, rank), them, p.board[ksq].Type()) {
				safe = false
			}
		}
		if !safe {
			continue
		}
		// Nor end attacked, with both pieces on their new squares.
		king, rook := p.board[ksq], p.board[rs]
		p.board[ksq], p.board[rs] = Empty, Empty
		p.board[kt], p.board[rt] = king, rook
		safe = !p.Attacked(kt, them, king.Type())
		p.board[kt], p.board[rt] = Empty, Empty
		p.board[ksq], p.board[rs] = king, rook
		if safe {
			dst = append(dst, NewMove(ksq, kt, Castle).WithAux(rs))
		}
	}
	return dst
}

// legalByBoard tests a Normal, Promotion or EnPassant move by playing it on
// the board alone and asking whether a royal piece of the mover is attacked.
func (p *Position) legalByBoard(m Move) bool {
	from, to := m.From(), m.To()
	pc := p.board[from]
	captured := p.board[to]
	var victim geom.Square
	var vpc Piece
	if m.Kind() == EnPassant {
		victim = m.Aux()
		vpc = p.board[victim]
		p.board[victim] = Empty
	}
	if m.Kind() == Promotion {
		p.board[to] = MakePiece(pc.Color(), m.Promo())
	} else {
		p.board[to] = pc
	}
	p.board[from] = Empty
	us := pc.Color()
	var attacked bool
	if p.v.royalMask&(1<<pc.Type()) != 0 && p.royalCount(us) == 1 {
		attacked = p.Attacked(to, us.Other(), pc.Type())
	} else {
		attacked = p.royalAttackedBoard(us)
	}
	p.board[from] = pc
	p.board[to] = captured
	if m.Kind() == EnPassant {
		p.board[victim] = vpc
	}
	return !attacked
}

// royalAttackedBoard is royalAttacked for a board changed without updating
// piece lists: it scans the board for royal pieces.
func (p *Position) royalAttackedBoard(c Color) bool {
	if p.v.royalMask == 0 {
		return false
	}
	if p.royalCount(c) == 1 {
		s := p.royalSquare(c)
		if pc := p.board[s]; pc.IsPiece() && pc.Color() == c && p.v.royalMask&(1<<pc.Type()) != 0 {
			return p.Attacked(s, c.Other(), pc.Type())
		}
	}
	bit := colorBit(c)
	for _, s := range p.v.board.Squares() {
		if pc := p.board[s]; pc&bit != 0 && p.v.royalMask&(1<<pc.Type()) != 0 && p.Attacked(s, c.Other(), pc.Type()) {
			return true
		}
	}
	return false
}

// PseudoLegalMoves appends every move the side to move could make if
// leaving its royal pieces attacked were allowed, and the variant's extra
// moves.
func (p *Position) PseudoLegalMoves(dst []Move) []Move {
	us := p.turn
	for _, from := range p.list[us][:p.n[us]] {
		dst = p.genPiece(dst, from, p.board[from], true)
	}
	if p.v.castling && p.royalCount(us) == 1 && !p.royalAttacked(us) {
		dst = p.genCastling(dst, p.royalSquare(us))
	}
	if p.v.spec.Drops {
		dst = p.genDrops(dst)
	}
	if g := p.v.h.gen; g != nil {
		dst = g.Generate(p, dst)
	}
	return dst
}

// genDrops appends a drop of every reserve type on every empty square; a
// pawn is not dropped where it could never stand.
func (p *Position) genDrops(dst []Move) []Move {
	v := p.v
	us := p.turn
	first := 0
	if us == Black {
		first = v.board.Ranks - 1
	}
	for t := 1; t < len(v.types); t++ {
		if p.pocket[us][t] == 0 {
			continue
		}
		for _, s := range v.board.Squares() {
			if p.board[s] != Empty {
				continue
			}
			if Type(t) == v.pawn && (v.promoZone[us].Has(s) || s.Rank() == first) {
				continue
			}
			if v.slow && (v.immobile && v.deadSq[us][t].Has(s) || v.noDoubled&(1<<t) != 0 && p.onFile(s, MakePiece(us, Type(t)))) {
				continue
			}
			dst = append(dst, NewMove(geom.NoSquare, s, Drop).WithPromo(Type(t)))
		}
	}
	return dst
}

// legalByTest generates pseudo-legal moves and keeps those that pass the
// variant's Legal hook, or that leave no royal piece of the mover attacked;
// with quiet false, only captures and promotions.
func (p *Position) legalByTest(dst []Move, quiet bool) []Move {
	start := len(dst)
	if quiet {
		dst = p.PseudoLegalMoves(dst)
	} else {
		dst = p.PseudoLegalCaptures(dst)
	}
	keep := start
	for _, m := range dst[start:] {
		if p.IsLegal(m) {
			dst[keep] = m
			keep++
		}
	}
	return dst[:keep]
}

// PseudoLegalCaptures appends the pseudo-legal moves of the side to move
// that are captures (IsCapture) or promotions: the moves LegalCaptures
// gives, before the legality test (IsLegal).
func (p *Position) PseudoLegalCaptures(dst []Move) []Move {
	start := len(dst)
	dst = p.PseudoLegalMoves(dst)
	keep := start
	for _, m := range dst[start:] {
		if p.IsCapture(m) || m.Kind() == Promotion {
			dst[keep] = m
			keep++
		}
	}
	return dst[:keep]
}

// IsLegal reports whether the pseudo-legal move m is legal.
func (p *Position) IsLegal(m Move) bool {
	if h := p.v.h.legal; h != nil {
		return h.Legal(p, m)
	}
	if p.v.royalMask == 0 || m.Kind() == Castle {
		return true // castling is generated legal
	}
	us := p.turn
	p.Make(m)
	ok := !p.royalAttacked(us)
	p.Unmake()
	return ok
}

// onFile reports whether pc stands on the file of s.
func (p *Position) onFile(s geom.Square, pc Piece) bool {
	for r := 0; r < p.v.board.Ranks; r++ {
		if p.board[geom.Sq(s.File(), r)] == pc {
			return true
		}
	}
	return false
}

// IsCapture reports whether m takes a piece (or, by the variant's
// Tactical hook, wins material back).
func (p *Position) IsCapture(m Move) bool {
	if h := p.v.h.engine; h != nil {
		_, ok := h.Tactical(p, m)
		return ok
	}
	switch m.Kind() {
	case EnPassant:
		return true
	case Normal, Promotion:
		return p.board[m.To()].IsPiece()
	}
	return false
}

// Playable reports whether m may be played in p: LegalMoves lists it, or
// the variant's Unlisted hook accepts it. Game records, protocols and the
// server check moves from outside with it.
func (p *Position) Playable(m Move) bool {
	buf := p.LegalMoves(p.takeSpare())
	listed := slices.Contains(buf, m)
	p.spare = buf[:0]
	if listed {
		return true
	}
	h := p.v.h.unlisted
	return h != nil && h.Unlisted(p, m)
}

// HasLegalMove reports whether the side to move has a legal move.
func (p *Position) HasLegalMove() bool {
	buf := p.LegalMoves(p.takeSpare())
	p.spare = buf[:0]
	return len(buf) > 0
}

// takeSpare returns the position's spare move buffer, empty, and leaves
// the position without one until it is given back (a hook that lists
// moves meanwhile gets a buffer of its own).
func (p *Position) takeSpare() []Move {
	b := p.spare
	p.spare = nil
	if b == nil {
		b = make([]Move, 0, MaxMoves)
	}
	return b[:0]
}
