package crazy

import (
	"math/bits"

	"github.com/anychess/anychess/rules"
)

// body performs the action of move d by colour us with all its forced
// effects (CC-31..CC-36), and notes in the scratch what the move did.
func (e *engine) body(d *mv, us rules.Color) {
	sc := e.sc
	sc.epJump, sc.epPawn, sc.pawnMoved = none, none, false
	switch d.kind {
	case kPiece:
		e.pieceMove(d)
	case kKing, kCastle:
		e.kingMove(d, us)
	case kAround:
		e.allRound(d.from)
	case kDisguise:
		e.disguise(d, us)
	}
}

// pieceMove makes a queen, rook, bishop, knight or pawn move. A Rook takes
// every piece above it along (CC-15, CC-16); a knight lands before its
// capture of a passenger at the destination or on its path is resolved.
func (e *engine) pieceMove(d *mv) {
	s, p := e.s, e.p
	pc := s.cells[d.from][d.fromIdx]
	var buf [MaxPieces]rules.Piece
	mover := e.lift(d.from, d.fromIdx, buf[:0])
	switch d.sep {
	case sepMove, sepEnter:
		s.place(p, d.to, mover)
	case sepCapture:
		if d.toIdx == 0 {
			e.ordinaryCapture(d.to, mover)
		} else {
			s.place(p, d.to, mover)
			e.capturePassenger(d.to, d.toIdx)
		}
	case sepEP:
		s.place(p, d.to, mover)
		e.captureBase(int(s.v.epPawn))
	}
	if d.path != none {
		if d.pathIdx == 0 {
			e.captureBase(d.path)
		} else {
			e.capturePassenger(d.path, d.pathIdx)
		}
	}
	if pc.Type() == e.z.pawn {
		e.sc.pawnMoved = true
		df, dr := d.to&7-d.from&7, d.to>>3-d.from>>3
		if d.sep == sepMove && (abs(df) == 2 && dr == 0 || abs(dr) == 2 && df == 0) {
			e.sc.epJump, e.sc.epPawn = step(d.from, df/2, dr/2), d.to
		}
	}
}

// kingMove makes the king's two steps (CC-17..CC-20). Units that fell or
// rose onto the king during its first step land when it has made its
// second.
func (e *engine) kingMove(d *mv, us rules.Color) {
	s1 := e.firstStep(d, us)
	if d.kind == kKing && d.sep2 == sepNone {
		return
	}
	king := rules.MakePiece(us, e.z.king)
	ki := e.s.kingIndex(s1, king)
	if ki == none {
		e.sc.q.clear(s1) // nothing hovers over a king that is gone
		return
	}
	e.s.removeAt(e.p, s1, ki)
	e.kingStep(d.to, d.sep2, king, false)
	e.drain(s1)
}

// firstStep makes the first step of the king move d of us: castling, or
// a king step from its origin. It returns the square of the step.
func (e *engine) firstStep(d *mv, us rules.Color) int {
	if d.kind == kCastle {
		return e.castle(us, d.long)
	}
	e.s.removeAt(e.p, d.from, d.fromIdx)
	e.kingStep(d.step1, d.sep1, rules.MakePiece(us, e.z.king), true)
	return d.step1
}

// kingStep makes one king step onto t. During the first step the king is
// immune under KingStep1Immunity=Hover.
func (e *engine) kingStep(t int, sep uint8, king rules.Piece, first bool) {
	sc := e.sc
	if first && e.z.o.KingStep1Immunity == Hover {
		sc.hover, sc.kingSq, sc.king = true, t, king
	}
	if sep == sepCapture {
		one := [1]rules.Piece{king}
		e.ordinaryCapture(t, one[:])
	} else {
		e.s.push(e.p, t, king)
	}
	sc.hover = false
}

// castle makes castling as step 1: the king from its home square, the rook
// with its passengers from the corner. It returns the king's new square.
func (e *engine) castle(c rules.Color, long bool) int {
	s, p := e.s, e.p
	home, corner, kt, rt, _, _ := castleSquares(c, long)
	king := s.removeAt(p, home, 0)
	var buf [MaxPieces]rules.Piece
	s.place(p, rt, s.take(p, corner, 0, buf[:0]))
	s.push(p, kt, king)
	return kt
}

// disguise makes a (chain) disguise (CC-29): the disguised piece swaps
// places with each pawn of the chain in turn. A double step made in the
// chain sets the en-passant record when the pawn lands alone on its square
// (the last such step counts).
func (e *engine) disguise(d *mv, us rules.Color) {
	s := e.s
	var cbuf [maxLinks + 2]loc
	chain, _ := e.chainOf(d, us, cbuf[:0])
	for k := 1; k < len(chain); k++ {
		x, pw := chain[k-1], chain[k]
		xb, xi, pb, pi := int(x.b), int(x.i), int(pw.b), int(pw.i)
		xp, pp := s.cells[xb][xi], s.cells[pb][pi]
		s.set(e.p, xb, xi, pp)
		s.set(e.p, pb, pi, xp)
		df, dr := xb&7-pb&7, xb>>3-pb>>3
		if xi == 0 && (abs(df) == 2 || abs(dr) == 2) {
			e.sc.epJump, e.sc.epPawn = step(pb, df/2, dr/2), xb
		}
	}
	e.sc.pawnMoved = true
}

// endOfTurn is CC-39..CC-41 for the turn of us just played: lone pawns on
// their own first row capture themselves, us's risen Bishops that did not
// rise in this turn vanish, and lone pawns on their last row promote: us's
// by the choices of d, the opponent's to a queen (AutoQueen) or at the end
// of its owner's next turn (OwnerChoosesNextTurn). It notes the squares of
// us's promoting pawns in the scratch.
func (e *engine) endOfTurn(d *mv, us rules.Color) {
	s, p, z := e.s, e.p, e.z
	// The squares the three steps below look at, from the index of the
	// cells: lone pawns on the first and last ranks (the only rows where
	// a pawn captures itself or promotes), and squares holding a risen
	// Bishop.
	var lone, risen uint64
	for pawns := (s.occ[rules.White][z.pawn] | s.occ[rules.Black][z.pawn]) & edgeRanks; pawns != 0; pawns &= pawns - 1 {
		b := bits.TrailingZeros64(pawns)
		if s.height[b] == 1 {
			lone |= 1 << b
		}
	}
	if s.risen > 0 {
		for bs := s.occ[rules.White][z.bishop] | s.occ[rules.Black][z.bishop]; bs != 0; bs &= bs - 1 {
			b := bits.TrailingZeros64(bs)
			for i := range int(s.height[b]) {
				if pc := s.cells[b][i]; pc.Type() == z.bishop && pc.Attr()&attrRisen != 0 {
					risen |= 1 << b
					break
				}
			}
		}
	}
	for l := lone; l != 0; l &= l - 1 {
		b := bits.TrailingZeros64(l)
		pc := s.cells[b][0]
		if _, first, _, _ := pawnRows(pc.Color()); b>>3 == first {
			s.removeAt(p, b, 0)
			e.captured(b, pc, SelfCapture)
			lone &^= 1 << b
		}
	}
	for r := risen; r != 0; r &= r - 1 {
		b := bits.TrailingZeros64(r)
		for i := int(s.height[b]) - 1; i >= 0; i-- {
			pc := s.cells[b][i]
			if pc.Type() != z.bishop || pc.Attr()&attrRisen == 0 {
				continue
			}
			switch {
			case pc.Attr()&attrRose != 0:
				s.set(p, b, i, pc.WithAttr(attrRisen))
			case pc.Color() == us:
				s.removeAt(p, b, i)
				e.captured(b, pc, Vanished)
			}
		}
	}
	sc := e.sc
	sc.nPromo = 0
	for l := lone; l != 0; l &= l - 1 {
		b := bits.TrailingZeros64(l)
		pc := s.cells[b][0]
		if s.height[b] != 1 || pc.Type() != z.pawn {
			continue
		}
		if _, _, _, last := pawnRows(pc.Color()); b>>3 != last {
			continue
		}
		switch {
		case pc.Color() == us:
			s.set(p, b, 0, rules.MakePiece(us, z.promoType(d.choice(sc.nPromo))))
			sc.promoSq[sc.nPromo] = int8(b)
			sc.nPromo++
			sc.pawnMoved = true
		case z.o.OffTurnPromotion == AutoQueen:
			s.set(p, b, 0, rules.MakePiece(pc.Color(), z.queen))
			sc.pawnMoved = true
		}
	}
}

// edgeRanks are the squares of the first and the last rank.
const edgeRanks = 0xff000000000000ff

// promoType returns the piece type of promotion choice ch.
func (z *crazy) promoType(ch uint8) rules.Type {
	switch ch {
	case 1:
		return z.rook
	case 2:
		return z.bishop
	case 3:
		return z.knight
	}
	return z.queen
}

// play makes move d of us on the board and the state: its action and
// effects, the end of the turn, and the CC-42 update of the immune side and
// the en-passant record. The caller saves a mark to roll back to, or a
// frame.
func (e *engine) play(d *mv, us rules.Color) {
	e.body(d, us)
	e.endOfTurn(d, us)
	v := &e.s.v
	if v.immune == int8(us) {
		v.immune = none
	}
	v.denied = rules.NoMove
	v.epJump, v.epPawn = none, none
	if j := e.sc.epJump; j != none && e.epUsable(j, e.sc.epPawn, us.Other()) {
		v.epJump, v.epPawn = int8(j), int8(e.sc.epPawn)
	}
}

// epUsable reports whether an en-passant record (jumped square j, pawn on
// v) is worth keeping: the pawn stands alone there, j is empty and a pawn
// of colour by that may move stands where it captures onto j. Keeping only
// usable records makes equal positions hash alike.
func (e *engine) epUsable(j, v int, by rules.Color) bool {
	s := e.s
	if s.height[j] != 0 || s.height[v] != 1 || s.cells[v][0].Type() != e.z.pawn || s.cells[v][0].Color() == by {
		return false
	}
	fwd, _, _, _ := pawnRows(by)
	for _, df := range [2]int{-1, 1} {
		b := step(j, df, -fwd)
		if b == none {
			continue
		}
		for i := range int(s.height[b]) {
			if pc := s.cells[b][i]; pc == rules.MakePiece(by, e.z.pawn) && e.mayMove(b, i) {
				return true
			}
		}
	}
	return false
}

// MakeSpecial is the SpecialMover's make: it makes every Crazy Chess move
// and pushes the move's frame.
func (z *crazy) MakeSpecial(p *rules.Position, m rules.Move, _ int) {
	d, ok := decode(m)
	if !ok {
		return
	}
	e := z.newEngine(p)
	s := e.s
	us := p.Turn()
	f := frame{
		move: m, mover: us, kind: d.kind,
		logMark: len(s.log), remMark: len(s.rem),
		before: s.v, phash: s.phash, prevHash: p.Hash(),
		halfmove: p.Halfmove(), ply: p.Ply(),
		immune: s.v.immune == int8(us) || z.knightImmune(s, &d),
	}
	switch d.kind {
	case kDeny:
		e.deny(us)
	case kDraw:
		s.v.drawn = true
	default:
		e.play(&d, us)
		if len(s.rem) > f.remMark || e.sc.pawnMoved {
			p.SetClocks(-1, p.Ply()) // the core counts the turn: 0 after it
		}
	}
	s.frames = append(s.frames, f)
}

// knightImmune reports whether d, not yet made, is a Knight move without a
// path capture that cannot be denied (CC-7, KnightDenial=Immune).
func (z *crazy) knightImmune(s *state, d *mv) bool {
	return z.o.KnightDenial == KnightImmune && d.kind == kPiece && d.path == none &&
		s.cells[d.from][d.fromIdx].Type() == z.knight
}

// deny makes DENY by us (CC-5..CC-8): the position goes back to where it
// was before the opponent's last move, effects and end of turn included,
// counters too; the right passes to the opponent, us becomes immune, and
// the denied move is remembered so that the replacement differs from it.
// The undo of the denied move's changes is logged as DENY's own changes, so
// that unmaking DENY makes the move again.
func (e *engine) deny(us rules.Color) {
	s := e.s
	a := s.frames[len(s.frames)-1]
	for j := len(s.log) - 1; j >= a.logMark; j-- {
		c := s.log[j]
		if c.i == heightIndex {
			s.setHeight(int(c.b), int(c.old))
		} else {
			s.set(e.p, int(c.b), int(c.i), c.old)
		}
	}
	s.v = a.before
	s.v.holder = a.mover
	s.v.immune = int8(us)
	if s.v.used < 65535 {
		s.v.used++
	}
	s.v.denied = a.move
	e.p.SetClocks(a.halfmove-1, a.ply-1) // the core counts the turn
}

// UnmakeSpecial is the SpecialMover's unmake: it takes back the last move's
// changes and frame.
func (z *crazy) UnmakeSpecial(p *rules.Position, _ rules.Move, _ int) {
	s := stateOf(p)
	n := len(s.frames)
	if n == 0 {
		return
	}
	f := s.frames[n-1]
	s.frames = s.frames[:n-1]
	s.undoTo(p, f.logMark)
	s.rem = s.rem[:f.remMark]
	s.v = f.before
	s.phash = f.phash
}
