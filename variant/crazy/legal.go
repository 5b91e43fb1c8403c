package crazy

import (
	"fmt"
	"math/bits"

	"github.com/anychess/anychess/rules"
)

// Generate (the Generator) replaces the core's standard moves by the
// Crazy Chess moves of the side to move: the pseudo-legal moves, and the
// Legal hook tests each one the core asks about, so a search tests only
// the moves it plays and quiescence only its captures. Where a pawn of the
// mover may promote during its move (mayPromote), a move comes once for
// every combination of promotion choices, which only resolving the move
// (without the test of check) reveals.
func (z *crazy) Generate(p *rules.Position, moves []rules.Move) []rules.Move {
	n := 0
	for _, m := range moves {
		if m.Kind() == rules.Special {
			moves[n] = m
			n++
		}
	}
	e := z.newEngine(p)
	if e.mayPromote(p.Turn()) {
		return e.promoMoves(moves[:n])
	}
	return e.pseudoMoves(moves[:n])
}

// Legal is the LegalJudge, for the moves Generate returned: a move is
// legal if it passes try (CC-44, CC-45); DENY and DRAW are legal.
func (z *crazy) Legal(p *rules.Position, m rules.Move) bool {
	d, ok := decode(m)
	if !ok {
		return false
	}
	if d.kind == kDeny || d.kind == kDraw {
		return true
	}
	e := z.newEngine(p)
	return e.legal(m, &d, p.Turn())
}

// legal reports whether the pseudo-legal move m (decoded d) of us passes
// try. The answers in one position are kept: the End hook's search for a
// legal move and the search's tests of the same moves share them, and
// moves that lead to the same position (a King's step out and back, two
// pawns swapping places) make equal siblings, which perft visits one after
// the other.
func (e *engine) legal(m rules.Move, d *mv, us rules.Color) bool {
	sc := e.sc
	if key := e.p.Hash(); !sc.memoOK || sc.memoKey != key {
		sc.memo, sc.memoKey, sc.memoOK = sc.memo[:0], key, true
	} else {
		for _, a := range sc.memo {
			if a.m == m {
				return a.ok
			}
		}
	}
	ok := e.try(d, us)
	sc.memo = append(sc.memo, legalAnswer{m, ok})
	return ok
}

// mayPromote reports whether a pawn of us might promote at the end of
// us's move (CC-41), judged from the position alone and erring towards
// yes: a pawn of us on its last or next-to-last row, a pawn of us inside
// a stack (it may fall or step off), or a pawn of us and a piece of us on
// us's last row (a disguise may swap them).
func (e *engine) mayPromote(us rules.Color) bool {
	sc := e.sc
	key := e.p.Hash()
	if sc.promoOK && sc.promoKey == key && sc.promoSide == us {
		return sc.promoVal
	}
	v := e.scanPromote(us)
	sc.promoKey, sc.promoSide, sc.promoOK, sc.promoVal = key, us, true, v
	return v
}

// scanPromote is mayPromote without its memory.
func (e *engine) scanPromote(us rules.Color) bool {
	s, z := e.s, e.z
	fwd, _, _, last := pawnRows(us)
	pawns := s.occ[us][z.pawn]
	if pawns == 0 {
		return false
	}
	lastRank := uint64(0xff) << (8 * last)
	if pawns&(lastRank|uint64(0xff)<<(8*(last-fwd))) != 0 || s.pieces(us)&lastRank != 0 {
		return true
	}
	for ; pawns != 0; pawns &= pawns - 1 {
		if b := bits.TrailingZeros64(pawns); s.height[b] > 1 {
			return true // a pawn inside a stack (a stack's base is a Rook)
		}
	}
	return false
}

// pseudoMoves appends the pseudo-legal moves of the side to move (none if
// the game is over by the state), without a replay of a denied move
// (CC-7), then DENY and DRAW where they are legal.
func (e *engine) pseudoMoves(dst []rules.Move) []rules.Move {
	if e.over() {
		return dst
	}
	us := e.p.Turn()
	start := len(dst)
	dst = e.genAll(us, dst)
	if e.s.v.denied != rules.NoMove {
		keep := start
		for _, m := range dst[start:] {
			if d, _ := decode(m); e.allowed(m, &d) {
				dst[keep] = m
				keep++
			}
		}
		dst = dst[:keep]
	}
	return e.appendClaims(dst, us)
}

// appendClaims appends DENY and DRAW where us may make them.
func (e *engine) appendClaims(dst []rules.Move, us rules.Color) []rules.Move {
	if e.canDeny() {
		dst = append(dst, denyMove)
	}
	if e.canClaimDraw(us) {
		dst = append(dst, drawMove)
	}
	return dst
}

// hasLegal reports whether the side to move has a legal move, stopping at
// the first one found. Its tests are kept for the Legal hook (legal).
func (e *engine) hasLegal() bool {
	sc := e.sc
	key := e.p.Hash()
	if sc.cacheOK && sc.cacheHash == key && sc.cacheLegal {
		return len(sc.cache) > 0
	}
	if sc.memoOK && sc.memoKey == key {
		for _, a := range sc.memo {
			if a.ok {
				return true
			}
		}
	}
	if e.over() {
		return false
	}
	us := e.p.Turn()
	promo := e.mayPromote(us)
	buf := sc.acquire()
	found := false
	// Piece by piece, so that a legal move found early spares generating
	// the rest (disguise chains cost the most).
	s := e.s
	for sqs := s.pieces(us); sqs != 0 && !found; sqs &= sqs - 1 {
		b := bits.TrailingZeros64(sqs)
		for i := 0; i < int(s.height[b]) && !found; i++ {
			pc := s.cells[b][i]
			if pc.Color() != us || !e.mayMove(b, i) {
				continue
			}
			buf = e.genPiece(buf[:0], b, i, pc)
			for _, m := range buf {
				if promo {
					found = e.anyChoiceLegal(m, us)
				} else if d, _ := decode(m); e.allowed(m, &d) {
					found = e.legal(m, &d, us)
				}
				if found {
					break
				}
			}
		}
	}
	sc.release(buf)
	return found || e.canDeny() || e.canClaimDraw(us)
}

// anyChoiceLegal reports whether the pseudo-legal move m of us is legal
// and may be played (allowed) with some combination of the promotion
// choices of the pawns it promotes (appendChoices). The choices of queens
// are tried first, and the others only if the move promotes.
func (e *engine) anyChoiceLegal(m rules.Move, us rules.Color) bool {
	d, _ := decode(m)
	if e.allowed(m, &d) && e.legal(m, &d, us) {
		return true
	}
	s := e.s
	mk := s.save()
	e.play(&d, us)
	s.rollback(e.p, mk)
	_, n := promoField(d.kind)
	n = min(n, e.sc.nPromo)
	for c := uint32(1); c < uint32(1)<<(2*uint(n)); c++ {
		d.promo = c
		if mm := encode(&d); e.allowed(mm, &d) && e.legal(mm, &d, us) {
			return true
		}
	}
	return false
}

// promoMoves appends the pseudo-legal moves of the side to move (none if
// the game is over by the state), each once for every combination of
// promotion choices of the mover's promoting pawns, without a replay of a
// denied move (CC-7), then DENY and DRAW where they are legal. Each move is
// resolved (play) to count the pawns it promotes. The list is kept with the
// position key, so that the End hook and the generator of one position
// share the work.
func (e *engine) promoMoves(dst []rules.Move) []rules.Move { return e.cachedMoves(dst, false) }

// cachedMoves appends the moves of the side to move that promoMoves
// (legal false) or legalMoves (legal true) gives, from the list kept with
// the position key if it is of that kind, else generating and keeping it.
func (e *engine) cachedMoves(dst []rules.Move, legal bool) []rules.Move {
	sc := e.sc
	key := e.p.Hash()
	if sc.cacheOK && sc.cacheHash == key && sc.cacheLegal == legal {
		return append(dst, sc.cache...)
	}
	start := len(dst)
	if !e.over() {
		us := e.p.Turn()
		buf := sc.acquire()
		buf = e.genAll(us, buf)
		for _, m := range buf {
			if legal {
				dst = e.appendLegal(dst, m, us)
			} else {
				dst = e.appendChoices(dst, m, us)
			}
		}
		sc.release(buf)
		dst = e.appendClaims(dst, us)
	}
	sc.cache = append(sc.cache[:0], dst[start:]...)
	sc.cacheHash, sc.cacheOK, sc.cacheLegal = key, true, legal
	return dst
}

// appendChoices appends the pseudo-legal move m of us once for every
// combination of promotion choices of us's pawns that it promotes, each
// that may be played (allowed).
func (e *engine) appendChoices(dst []rules.Move, m rules.Move, us rules.Color) []rules.Move {
	d, _ := decode(m)
	s := e.s
	mk := s.save()
	e.play(&d, us)
	s.rollback(e.p, mk)
	k := e.sc.nPromo
	_, n := promoField(d.kind)
	n = min(n, k)
	for c := range uint32(1) << (2 * uint(n)) {
		d.promo = c
		if mm := encode(&d); e.allowed(mm, &d) {
			dst = append(dst, mm)
		}
	}
	return dst
}

// legalMoves appends the legal moves of the side to move, DENY and DRAW
// last: the moves of Generate that pass the Legal hook, in their order.
// The list is kept with the position key.
func (e *engine) legalMoves(dst []rules.Move) []rules.Move { return e.cachedMoves(dst, true) }

// over reports whether the game has ended by the state alone: a claimed
// draw or a missing King.
func (e *engine) over() bool {
	if e.s.v.drawn {
		return true
	}
	w := e.s.findKing(rules.White, e.z.king)
	b := e.s.findKing(rules.Black, e.z.king)
	return w == none || b == none
}

// appendLegal appends the pseudo-legal move m of us if it is legal, once
// for every combination of promotion choices of us's promoting pawns.
func (e *engine) appendLegal(dst []rules.Move, m rules.Move, us rules.Color) []rules.Move {
	d, _ := decode(m)
	ok := e.try(&d, us)
	k := e.sc.nPromo
	if k == 0 {
		if ok && e.allowed(m, &d) {
			dst = append(dst, m)
		}
		return dst
	}
	_, n := promoField(d.kind)
	n = min(n, k)
	for c := range uint32(1) << (2 * uint(n)) {
		d.promo = c
		if c > 0 {
			ok = e.try(&d, us)
		}
		if mm := encode(&d); ok && e.allowed(mm, &d) {
			dst = append(dst, mm)
		}
	}
	return dst
}

// allowed reports whether m may be played as the replacement of a denied
// move: it differs from it, or it is a knight move without a path capture,
// which the other path replays (CC-7; such a move is denied only under
// KnightDenial=Replayable).
func (e *engine) allowed(m rules.Move, d *mv) bool {
	den := e.s.v.denied
	if den == rules.NoMove || m != den {
		return true
	}
	return d.kind == kPiece && d.path == none && e.s.cells[d.from][d.fromIdx].Type() == e.z.knight
}

// try plays d and reports whether it is legal (CC-44, CC-45): the mover's
// King survives and no reply removes it, or the move removes the mover's
// own King under SelfDestruct=LegalLoses. A move that removes only the
// enemy King (possible only from a set-up position) wins and is legal. The
// number of the mover's promoting pawns is left in the scratch.
func (e *engine) try(d *mv, us rules.Color) bool {
	s := e.s
	m := s.save()
	e.play(d, us)
	lost := e.kingsRemoved(s.rem[m.rem:])
	var ok bool
	switch {
	case lost[us]:
		ok = e.z.o.SelfDestruct == LegalLoses
	case lost[us.Other()]:
		ok = true
	default:
		ok = !e.inCheck(us)
	}
	s.rollback(e.p, m)
	return ok
}

// canDeny reports whether the side to move may deny the opponent's last
// move (CC-5, CC-9..CC-11).
func (e *engine) canDeny() bool {
	s, o := e.s, e.z.o
	n := len(s.frames)
	if o.Denial == DenialOff || n == 0 {
		return false
	}
	f := &s.frames[n-1]
	if f.mover == e.p.Turn() || !s.deniable(f) || o.Denial == Soft && isKing(f.kind) {
		return false
	}
	if o.DenyLastMoveAllowed {
		return true
	}
	// The denied player must keep a replacement: make the denial, look for
	// a legal move, take it back.
	p := e.p
	us := p.Turn()
	p.Make(denyMove)
	buf := e.sc.acquire()
	buf = e.genAll(us.Other(), buf)
	found := e.anyLegal(buf, us.Other())
	e.sc.release(buf)
	p.Unmake()
	return found
}

// anyLegal reports whether one of the pseudo-legal moves of us in moves is
// legal and may be played (allowed).
func (e *engine) anyLegal(moves []rules.Move, us rules.Color) bool {
	for _, m := range moves {
		if d, _ := decode(m); e.allowed(m, &d) && e.try(&d, us) {
			return true
		}
	}
	return false
}

// canClaimDraw reports whether us may claim the CC-12 draw: the option is
// on, three denials have been made, us holds the right and is not in check.
func (e *engine) canClaimDraw(us rules.Color) bool {
	v := &e.s.v
	return e.z.o.DenialDrawRule && v.used >= 3 && v.holder == us && !e.inCheck(us)
}

// inCheck reports whether c's King is in check (CC-43): some pseudo-legal
// move of the opponent, resolved in full, removes it. Only moves that can
// reach the King are resolved. Effects spread from square to square only
// by Queens (revenge and the all-round capture), so a move matters only if
// it captures on the King's square or on a square of a chain of squares
// holding Queens next to it (D), makes an all-round capture next to D,
// carries a Queen into a capture next to D, or carries the King itself
// (relevant). The opponent's pieces are found by the index of the cells,
// and only the moves of theirs that may be relevant are generated
// (threats).
func (e *engine) inCheck(c rules.Color) bool {
	s, z := e.s, e.z
	king := rules.MakePiece(c, z.king)
	kb := s.findKing(c, z.king)
	if kb == none {
		return false
	}
	ki := s.kingIndex(kb, king)
	queens := s.occ[rules.White][z.queen] | s.occ[rules.Black][z.queen]
	D := uint64(1) << kb
	for {
		add := z.neighbours(D) & queens &^ D
		if add == 0 {
			break
		}
		D |= add
	}
	near := z.neighbours(D)
	them := c.Other()
	sc := e.sc
	buf := sc.acquire()
	found := false
	for sqs := s.pieces(them); sqs != 0 && !found; sqs &= sqs - 1 {
		b := bits.TrailingZeros64(sqs)
		for i := range int(s.height[b]) {
			pc := s.cells[b][i]
			if pc.Color() != them || !e.mayMove(b, i) || !e.mightReach(b, i, pc, D, near, kb, ki) {
				continue
			}
			buf = e.threats(buf[:0], b, i, pc, D, near, kb, ki)
			for _, m := range buf {
				d, _ := decode(m)
				if d.kind == kPiece && d.sep == sepCapture && d.to == kb && d.toIdx == ki && d.path == none && ki == 0 {
					found = true // an ordinary capture of the King as the base
				} else if e.removes(&d, them, c) {
					found = true
				}
				if found {
					break
				}
			}
			if found {
				break
			}
		}
	}
	sc.release(buf)
	return found
}

// threats appends the pseudo-legal moves of pc, at index i of b, that are
// relevant to the King on kb (index ki): those of genPiece that relevant
// accepts, found without generating the others.
func (e *engine) threats(dst []rules.Move, b, i int, pc rules.Piece, D, near uint64, kb, ki int) []rules.Move {
	s, z := e.s, e.z
	c := pc.Color()
	in := func(set uint64, t int) bool { return set&(1<<t) != 0 }
	switch t := pc.Type(); t {
	case z.king:
		return e.kingThreats(dst, b, i, c, D)
	case z.pawn:
		fwd, _, _, _ := pawnRows(c)
		for _, df := range [2]int{-1, 1} {
			t := step(b, df, fwd)
			if t != none && in(D, t) && s.height[t] > 0 && s.cells[t][0].Color() != c {
				dst = append(dst, pieceMove(b, i, t, sepCapture, 0))
			}
		}
		return dst
	case z.knight:
		for _, l := range knightLeaps() {
			t := step(b, l[0], l[1])
			if t == none {
				continue
			}
			var seps [2]uint8
			for _, sep := range e.endings(seps[:0], t, c) {
				if sep == sepCapture {
					if in(D, t) {
						dst = append(dst, pieceMove(b, i, t, sep, 0))
					}
					continue
				}
				dst = e.pathThreats(dst, b, i, t, l, sep, c, D)
			}
			if in(D, t) {
				for j := 1; j < int(s.height[t]); j++ {
					if s.cells[t][j].Color() != c {
						dst = append(dst, pieceMove(b, i, t, sepCapture, j))
					}
				}
			}
		}
		return dst
	case z.queen, z.rook, z.bishop:
		// Only captures are relevant: onto D; for a Queen, or a Rook that
		// carries one, onto a square next to D; for a Rook under the King,
		// anywhere.
		wide := t == z.queen || t == z.rook && e.carriesQueen(b, i)
		any := t == z.rook && b == kb && i < ki
		lines := z.orth[b]
		if t == z.bishop {
			lines = z.diag[b]
		} else if t == z.queen {
			lines |= z.diag[b]
		}
		if any || lines&(D|near) != 0 {
			for _, d := range compass() {
				if t == z.rook && d[0] != 0 && d[1] != 0 || t == z.bishop && (d[0] == 0 || d[1] == 0) {
					continue
				}
				for to := step(b, d[0], d[1]); to != none; to = step(to, d[0], d[1]) {
					if s.height[to] == 0 {
						continue
					}
					if s.cells[to][0].Color() != c && (any || in(D, to) || wide && in(near, to)) {
						dst = append(dst, pieceMove(b, i, to, sepCapture, 0))
					}
					break
				}
			}
		}
		if t == z.queen && in(near, b) {
			dst = e.genAllRound(dst, b, i)
		}
		return dst
	}
	return dst
}

// kingThreats appends the moves of genKing for the King of colour c at
// index i of b that capture on D in either step (relevant). A first step
// is made only if it captures on D or a second step from it may: a
// square of D is next to it.
func (e *engine) kingThreats(dst []rules.Move, b, i int, c rules.Color, D uint64) []rules.Move {
	z := e.z
	for _, long := range [2]bool{false, true} {
		if _, _, kt, _, _, _ := castleSquares(c, long); z.adj[kt]&D == 0 || !e.canCastle(b, i, c, long) {
			continue
		}
		m := e.s.save()
		dm := mv{kind: kCastle, from: b, fromIdx: i, long: long, path: none}
		kt := e.firstStep(&dm, c)
		dst = e.secondThreats(dst, &dm, kt, c, false, D)
		e.s.rollback(e.p, m)
	}
	var tbuf [16]target
	king := rules.MakePiece(c, z.king)
	for _, st := range e.kingTargets(tbuf[:0], b, c) {
		s1 := int(st.t)
		hit1 := st.sep == sepCapture && D&(1<<s1) != 0
		if !hit1 && z.adj[s1]&D == 0 {
			continue
		}
		m := e.s.save()
		dm := mv{kind: kKing, from: b, fromIdx: i, step1: s1, sep1: st.sep, path: none}
		e.firstStep(&dm, c)
		if e.s.kingIndex(s1, king) == none {
			if hit1 {
				dm.to, dm.sep2 = s1, sepNone
				dst = append(dst, encode(&dm))
			}
		} else {
			dst = e.secondThreats(dst, &dm, s1, c, hit1, D)
		}
		e.s.rollback(e.p, m)
		e.sc.q.clear(s1)
	}
	return dst
}

// secondThreats appends the king move dm with every second step from s1
// (secondSteps) that captures on D, or with all of them if hit1.
func (e *engine) secondThreats(dst []rules.Move, dm *mv, s1 int, c rules.Color, hit1 bool, D uint64) []rules.Move {
	var tbuf [16]target
	for _, st := range e.kingTargets(tbuf[:0], s1, c) {
		if hit1 || st.sep == sepCapture && D&(1<<int(st.t)) != 0 {
			dm.to, dm.sep2 = int(st.t), st.sep
			dst = append(dst, encode(dm))
		}
	}
	return dst
}

// pathThreats appends the knight's path captures of leap l ending on t
// whose path square is in D.
func (e *engine) pathThreats(dst []rules.Move, b, i, t int, l [2]int, sep uint8, c rules.Color, D uint64) []rules.Move {
	s := e.s
	sq, n := e.z.knightPath(b, l[0], l[1])
	for _, ps := range sq[:n] {
		if D&(1<<ps) == 0 {
			continue
		}
		for j := range int(s.height[ps]) {
			if s.cells[ps][j].Color() != c {
				d := mv{kind: kPiece, from: b, fromIdx: i, to: t, sep: sep, path: ps, pathIdx: j}
				dst = append(dst, encode(&d))
			}
		}
	}
	return dst
}

// mightReach is a cheap test whether any move of pc, at index i of b, can
// be relevant to c's King on kb (index ki); see inCheck.
func (e *engine) mightReach(b, i int, pc rules.Piece, D, near uint64, kb, ki int) bool {
	z := e.z
	switch pc.Type() {
	case z.king:
		reach := z.near2[b] | 1<<b // out and back onto its own stack
		if i == 0 {
			// Castling as the first step, then a step from the King's
			// new square: three squares from home.
			for _, long := range [2]bool{false, true} {
				if home, _, kt, _, _, _ := castleSquares(pc.Color(), long); b == home {
					reach |= z.adj[kt]
				}
			}
		}
		return reach&D != 0
	case z.knight:
		return z.near2[b]&D != 0
	case z.pawn:
		fwd, _, _, _ := pawnRows(pc.Color())
		for _, df := range [2]int{-1, 1} {
			if t := step(b, df, fwd); t != none && D&(1<<t) != 0 {
				return true
			}
		}
		return false
	case z.bishop:
		return z.diag[b]&D != 0
	case z.rook:
		if b == kb && i < ki {
			return true
		}
		if z.orth[b]&D != 0 {
			return true
		}
		return e.carriesQueen(b, i) && z.orth[b]&near != 0
	case z.queen:
		return (z.orth[b]|z.diag[b])&(D|near) != 0 || near&(1<<b) != 0
	}
	return false
}

// carriesQueen reports whether the piece at index i of b has a Queen above
// it (a Rook carries it along).
func (e *engine) carriesQueen(b, i int) bool {
	for j := i + 1; j < int(e.s.height[b]); j++ {
		if e.s.cells[b][j].Type() == e.z.queen {
			return true
		}
	}
	return false
}

// removes resolves move d of by (its action and effects) and reports
// whether it removes c's King.
func (e *engine) removes(d *mv, by, c rules.Color) bool {
	s := e.s
	m := s.save()
	e.body(d, by)
	hit := e.kingsRemoved(s.rem[m.rem:])[c]
	s.rollback(e.p, m)
	return hit
}

// kingsRemoved reports, by colour, whether rem takes a King off the board.
func (e *engine) kingsRemoved(rem []Removal) (lost [2]bool) {
	for _, r := range rem {
		if r.Piece.Type() == e.z.king {
			lost[r.Piece.Color()] = true
		}
	}
	return lost
}

// endTexts are the details of the End hook's statuses, by the colour they
// name, written once: the search asks End at every node.
var endTexts = func() (t [2]struct{ selfDestroyed, noKing, checkmated, stalemated string }) {
	for c := rules.White; c <= rules.Black; c++ {
		t[c].selfDestroyed = fmt.Sprintf("%s removed its own king (CC-45) and loses", c)
		t[c].noKing = fmt.Sprintf("%s has no king and loses", c)
		t[c].checkmated = fmt.Sprintf("%s is checkmated", c)
		t[c].stalemated = fmt.Sprintf("%s is stalemated: draw", c)
	}
	return t
}()

// End (the Ender) judges a claimed draw, a missing King (CC-45), checkmate
// only when no denial is possible (CC-46) and stalemate (CC-47). While the
// side to move may deny the last move the game goes on whatever else holds:
// the denial may undo what ended it (CC-46: a position is terminal only
// when the denial window is closed). Otherwise the core judges dead
// material, the 50-move rule and repetition after it.
func (z *crazy) End(p *rules.Position) (rules.Status, bool) {
	e := z.newEngine(p)
	s := e.s
	if s.v.drawn {
		return rules.Status{Result: rules.Draw, Reason: rules.ReasonVariant, Detail: "a draw claimed after the third denial (CC-12)"}, true
	}
	us := p.Turn()
	them := us.Other()
	if k := s.findKing(them, z.king); k == none {
		return rules.Status{Result: rules.Win(us), Reason: rules.ReasonNoRoyal,
			Detail: endTexts[them].selfDestroyed}, true
	}
	if k := s.findKing(us, z.king); k == none {
		return rules.Status{Result: rules.Win(them), Reason: rules.ReasonNoRoyal,
			Detail: endTexts[us].noKing}, true
	}
	if e.canDeny() {
		return rules.Status{}, true
	}
	if e.hasLegal() {
		return rules.Status{}, false
	}
	if e.inCheck(us) {
		return rules.Status{Result: rules.Win(them), Reason: rules.ReasonCheckmate,
			Detail: endTexts[us].checkmated}, true
	}
	return rules.Status{Result: rules.Draw, Reason: rules.ReasonStalemate, Detail: endTexts[us].stalemated}, true
}

// InCheck reports whether colour c's King is in check in p (CC-43): some
// pseudo-legal move of the opponent would remove it.
func InCheck(p *rules.Position, c rules.Color) bool {
	z, ok := hooksOf(p)
	if !ok {
		return false
	}
	e := z.newEngine(p)
	return e.inCheck(c)
}
