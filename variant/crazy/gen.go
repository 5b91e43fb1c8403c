package crazy

import (
	"math/bits"

	"github.com/anychess/anychess/rules"
)

// scratch is a position's working memory: fall queues, the context of a
// King's first step, what the move being made did, move buffers for nested
// generation, and the last legal move list with its position key.
type scratch struct {
	q queues

	hover  bool // the moving king is immune (CC-20) ...
	kingSq int  // ... on this square
	king   rules.Piece

	epJump, epPawn int  // the double step of the move being made
	pawnMoved      bool // the move was a pawn move or a disguise, or a pawn promoted
	promoSq        [64]int8
	nPromo         int // the mover's promoting pawns: squares in promoSq

	bufs     [][]rules.Move
	depth    int
	inCastle int // inside castling's own check tests: no castling replies

	// the last list of legalMoves or promoMoves (cacheLegal says which),
	// by position key
	cache      []rules.Move
	cacheHash  uint64
	cacheOK    bool
	cacheLegal bool

	// mayPromote's last answer, by position key and colour
	promoKey  uint64
	promoSide rules.Color
	promoOK   bool
	promoVal  bool

	// the Tactical hook's gains in the position with key gainKey: the
	// search asks for a capture's several times (to list, order and prune)
	gains   []gainAnswer
	gainKey uint64
	gainOK  bool

	// the Legal hook's answers in the position with key memoKey (legal)
	memo    []legalAnswer
	memoKey uint64
	memoOK  bool

	trace func(b int, stack []rules.Piece) // tests: each step of a resolution
}

// gainAnswer is one answer of the Tactical hook for a capture.
type gainAnswer struct {
	m    rules.Move
	gain int
}

// legalAnswer is one answer of the Legal hook.
type legalAnswer struct {
	m  rules.Move
	ok bool
}

func newScratch() *scratch { return &scratch{} }

// acquire returns an empty move buffer for one level of nested generation.
func (sc *scratch) acquire() []rules.Move {
	if sc.depth == len(sc.bufs) {
		sc.bufs = append(sc.bufs, make([]rules.Move, 0, rules.MaxMoves))
	}
	b := sc.bufs[sc.depth][:0]
	sc.depth++
	return b
}

// release gives back the buffer of the innermost level, kept for reuse.
func (sc *scratch) release(b []rules.Move) {
	sc.depth--
	sc.bufs[sc.depth] = b[:0]
}

// Pawn geometry of colour c: forward rank step, own first row, own start
// row, last row.
func pawnRows(c rules.Color) (fwd, first, start, last int) {
	if c == rules.White {
		return 1, 0, 1, 7
	}
	return -1, 7, 6, 0
}

// mayMove reports whether the piece at index i of square b may make a move
// of its own (CC-15, option StackExit).
func (e *engine) mayMove(b, i int) bool {
	return i == 0 || e.z.o.StackExit == AnyPassenger || i == int(e.s.height[b])-1
}

// genAll appends the pseudo-legal moves of colour c: every move its pieces
// can make, ignoring the safety of its own King and denial.
func (e *engine) genAll(c rules.Color, dst []rules.Move) []rules.Move {
	s := e.s
	for sqs := s.pieces(c); sqs != 0; sqs &= sqs - 1 {
		b := bits.TrailingZeros64(sqs)
		for i := range int(s.height[b]) {
			if pc := s.cells[b][i]; pc.Color() == c && e.mayMove(b, i) {
				dst = e.genPiece(dst, b, i, pc)
			}
		}
	}
	return dst
}

// genPiece appends the pseudo-legal moves of pc, at index i of square b.
func (e *engine) genPiece(dst []rules.Move, b, i int, pc rules.Piece) []rules.Move {
	z := e.z
	switch pc.Type() {
	case z.king:
		return e.genKing(dst, b, i, pc.Color())
	case z.queen:
		dst = e.genSlides(dst, b, i, pc.Color(), compass())
		return e.genAllRound(dst, b, i)
	case z.rook:
		return e.genSlides(dst, b, i, pc.Color(), [8][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}})
	case z.bishop:
		return e.genSlides(dst, b, i, pc.Color(), [8][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}})
	case z.knight:
		return e.genKnight(dst, b, i, pc.Color())
	case z.pawn:
		dst = e.genPawn(dst, b, i, pc.Color())
		return e.genDisguise(dst, b, i, pc.Color())
	}
	return dst
}

// pieceMove encodes a kPiece move without path capture.
func pieceMove(from, fromIdx, to int, sep uint8, toIdx int) rules.Move {
	d := mv{kind: kPiece, from: from, fromIdx: fromIdx, to: to, sep: sep, toIdx: toIdx, path: none}
	return encode(&d)
}

// endings appends the ways a move or king step of colour c can end on
// square t: onto an empty square, capturing an enemy base, entering a Rook
// (CC-13, CC-14, CC-17).
func (e *engine) endings(dst []uint8, t int, c rules.Color) []uint8 {
	s := e.s
	if s.height[t] == 0 {
		return append(dst, sepMove)
	}
	base := s.cells[t][0]
	if base.Color() != c {
		dst = append(dst, sepCapture)
	}
	if base.Type() == e.z.rook {
		dst = append(dst, sepEnter)
	}
	return dst
}

// arrivals appends the piece moves from index i of b that end on t.
func (e *engine) arrivals(dst []rules.Move, b, i, t int, c rules.Color) []rules.Move {
	var seps [2]uint8
	for _, sep := range e.endings(seps[:0], t, c) {
		dst = append(dst, pieceMove(b, i, t, sep, 0))
	}
	return dst
}

// target is a square and how a king step ends on it.
type target struct {
	t   int8
	sep uint8
}

// kingTargets appends every king step of colour c from s.
func (e *engine) kingTargets(dst []target, s int, c rules.Color) []target {
	for _, d := range compass() {
		t := step(s, d[0], d[1])
		if t == none {
			continue
		}
		var seps [2]uint8
		for _, sep := range e.endings(seps[:0], t, c) {
			dst = append(dst, target{int8(t), sep})
		}
	}
	return dst
}

// genSlides appends the moves of a slider along the given directions (the
// zero entries of dirs are skipped).
func (e *engine) genSlides(dst []rules.Move, b, i int, c rules.Color, dirs [8][2]int) []rules.Move {
	for _, d := range dirs {
		if d == [2]int{} {
			continue
		}
		for t := step(b, d[0], d[1]); t != none; t = step(t, d[0], d[1]) {
			dst = e.arrivals(dst, b, i, t, c)
			if e.s.height[t] != 0 {
				break
			}
		}
	}
	return dst
}

// genAllRound appends the queen's all-round capture (CC-20b).
func (e *engine) genAllRound(dst []rules.Move, b, i int) []rules.Move {
	if e.z.o.AllRoundRequiresVictim {
		victim := false
		for _, d := range compass() {
			if n := step(b, d[0], d[1]); n != none && e.s.height[n] > 0 {
				victim = true
			}
		}
		if !victim {
			return dst
		}
	}
	d := mv{kind: kAround, from: b, fromIdx: i, to: b, path: none}
	return append(dst, encode(&d))
}

// knightLeaps returns the knight's eight leaps.
func knightLeaps() [8][2]int {
	return [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
}

// genKnight appends the knight's moves (CC-21): leaps to an empty square,
// a capture of an enemy base or of an enemy passenger at any depth, entering
// a Rook, and one capture on a path square when the leap ends on an empty
// square or enters a Rook.
func (e *engine) genKnight(dst []rules.Move, b, i int, c rules.Color) []rules.Move {
	s := e.s
	for _, l := range knightLeaps() {
		t := step(b, l[0], l[1])
		if t == none {
			continue
		}
		var seps [2]uint8
		for _, sep := range e.endings(seps[:0], t, c) {
			dst = append(dst, pieceMove(b, i, t, sep, 0))
			if sep != sepCapture {
				dst = e.pathCaptures(dst, b, i, t, l, sep, c)
			}
		}
		for j := 1; j < int(s.height[t]); j++ {
			if s.cells[t][j].Color() != c {
				dst = append(dst, pieceMove(b, i, t, sepCapture, j))
			}
		}
	}
	return dst
}

// pathCaptures appends the knight's path captures of leap l ending on t.
func (e *engine) pathCaptures(dst []rules.Move, b, i, t int, l [2]int, sep uint8, c rules.Color) []rules.Move {
	s := e.s
	sq, n := e.z.knightPath(b, l[0], l[1])
	for _, ps := range sq[:n] {
		for j := range int(s.height[ps]) {
			if s.cells[ps][j].Color() != c {
				d := mv{kind: kPiece, from: b, fromIdx: i, to: t, sep: sep, path: ps, pathIdx: j}
				dst = append(dst, encode(&d))
			}
		}
	}
	return dst
}

// pawnSteps returns the pawn's non-capturing steps for colour c (CC-25):
// forward, backward, left, right, then the double steps forward, left,
// right. The order is the order of disguise candidates.
func pawnSteps(c rules.Color) [7][2]int {
	f, _, _, _ := pawnRows(c)
	return [7][2]int{{0, f}, {0, -f}, {-1, 0}, {1, 0}, {0, 2 * f}, {-2, 0}, {2, 0}}
}

// pawnCanStep reports whether a pawn of colour c at index i of square b
// may make non-capturing step k of pawnSteps to square t if t were empty
// or held a Rook base: not onto its own first row (CC-26), double steps
// only from its own start row, not from inside a stack, over an empty
// square (CC-25).
func (e *engine) pawnCanStep(b, i, k, t int, c rules.Color) bool {
	_, first, start, _ := pawnRows(c)
	if t>>3 == first {
		return false
	}
	if k < 4 {
		return true
	}
	if i != 0 || b>>3 != start {
		return false
	}
	d := pawnSteps(c)[k]
	return e.s.height[step(b, d[0]/2, d[1]/2)] == 0
}

// genPawn appends the pawn's moves (CC-25..CC-28): steps in four
// directions and double steps onto an empty square or into a Rook, the
// diagonal forward captures and en passant. Promotion happens at the end of
// the turn (CC-41).
func (e *engine) genPawn(dst []rules.Move, b, i int, c rules.Color) []rules.Move {
	s := e.s
	for k, d := range pawnSteps(c) {
		t := step(b, d[0], d[1])
		if t == none || !e.pawnCanStep(b, i, k, t, c) {
			continue
		}
		if s.height[t] == 0 {
			dst = append(dst, pieceMove(b, i, t, sepMove, 0))
		} else if s.cells[t][0].Type() == e.z.rook {
			dst = append(dst, pieceMove(b, i, t, sepEnter, 0))
		}
	}
	fwd, _, _, _ := pawnRows(c)
	for _, df := range [2]int{-1, 1} {
		t := step(b, df, fwd)
		if t == none {
			continue
		}
		if s.height[t] > 0 && s.cells[t][0].Color() != c {
			dst = append(dst, pieceMove(b, i, t, sepCapture, 0))
		}
		if t == int(s.v.epJump) && s.height[t] == 0 {
			v := int(s.v.epPawn)
			if s.height[v] == 1 && s.cells[v][0].Type() == e.z.pawn && s.cells[v][0].Color() != c {
				dst = append(dst, pieceMove(b, i, t, sepEP, 0))
			}
		}
	}
	return dst
}

// loc is a place in a stack: square and index.
type loc struct{ b, i int8 }

// disguiseCandidates appends the pawns that may continue a chain disguise
// (CC-29). chain holds the places of the chain so far in the position
// before the disguise: chain[0] is the disguised piece's place, chain[k]
// the place of the k-th pawn; after those swaps the disguised piece stands
// at chain[len-1]. A candidate is a pawn of colour c that is not in the
// chain and could make a non-capturing move to that place were the piece
// absent: onto the square when it stands alone there, into the Rook when
// it is a passenger. Swaps change no heights, so the position before the
// disguise answers every question. At most maxCandidates are kept.
func (e *engine) disguiseCandidates(c rules.Color, chain []loc, dst []loc) []loc {
	s := e.s
	at := chain[len(chain)-1]
	t := int(at.b)
	for k, d := range pawnSteps(c) {
		b := step(t, -d[0], -d[1])
		if b == none {
			continue
		}
		for i := range int(s.height[b]) {
			pc := s.cells[b][i]
			if pc.Type() != e.z.pawn || pc.Color() != c || !e.mayMove(b, i) || inChain(chain, b, i) {
				continue
			}
			if !e.pawnCanStep(b, i, k, t, c) {
				continue
			}
			dst = append(dst, loc{int8(b), int8(i)})
			if len(dst) == maxCandidates {
				return dst
			}
		}
	}
	return dst
}

func inChain(chain []loc, b, i int) bool {
	for _, l := range chain {
		if int(l.b) == b && int(l.i) == i {
			return true
		}
	}
	return false
}

// genDisguise appends the disguises that start with the pawn at index i of
// square b: a swap with any piece it could reach by a non-capturing move
// were that piece absent, then every continuation of the chain.
func (e *engine) genDisguise(dst []rules.Move, b, i int, c rules.Color) []rules.Move {
	s := e.s
	for k, d := range pawnSteps(c) {
		t := step(b, d[0], d[1])
		if t == none || s.height[t] == 0 || !e.pawnCanStep(b, i, k, t, c) {
			continue
		}
		h := int(s.height[t])
		for j := range h {
			if j == 0 && h > 1 {
				continue // a base that carries passengers cannot be swapped away
			}
			chain := [maxLinks + 2]loc{{int8(t), int8(j)}, {int8(b), int8(i)}}
			dm := mv{kind: kDisguise, from: b, fromIdx: i, to: t, toIdx: j, path: none}
			dst = e.chainOn(dst, &dm, chain[:2], c)
		}
	}
	return dst
}

// chainOn appends the disguise dm and its continuations, except those
// that leave the board as it was (CC-29): a chain whose pieces are all
// alike (the pawn swaps with an identical pawn) moves nothing.
func (e *engine) chainOn(dst []rules.Move, dm *mv, chain []loc, c rules.Color) []rules.Move {
	if !e.alike(chain) {
		dst = append(dst, encode(dm))
	}
	n := len(chain) - 2 // links so far
	if n == maxLinks {
		return dst
	}
	var cbuf [maxCandidates]loc
	for k, next := range e.disguiseCandidates(c, chain, cbuf[:0]) {
		dm.links[n] = uint8(k + 1)
		dst = e.chainOn(dst, dm, append(chain, next), c)
		dm.links[n] = 0
	}
	return dst
}

// alike reports whether the pieces on the places of a chain are all equal,
// so that swapping them along the chain changes nothing.
func (e *engine) alike(chain []loc) bool {
	s := e.s
	first := s.cells[chain[0].b][chain[0].i]
	for _, l := range chain[1:] {
		if s.cells[l.b][l.i] != first {
			return false
		}
	}
	return true
}

// chainOf returns the places of the disguise d's chain (see
// disguiseCandidates), or ok false if a link names no candidate.
func (e *engine) chainOf(d *mv, c rules.Color, chain []loc) ([]loc, bool) {
	chain = append(chain, loc{int8(d.to), int8(d.toIdx)}, loc{int8(d.from), int8(d.fromIdx)})
	for _, l := range d.links {
		if l == 0 {
			break
		}
		var cbuf [maxCandidates]loc
		cands := e.disguiseCandidates(c, chain, cbuf[:0])
		if int(l) > len(cands) {
			return chain, false
		}
		chain = append(chain, cands[l-1])
	}
	return chain, true
}

// genKing appends the king's moves (CC-17, CC-18): two king steps, the
// first possibly castling. The second step is generated on the position
// after the first and its effects; a king that does not survive its first
// step (KingStep1Immunity=None) ends its move there.
func (e *engine) genKing(dst []rules.Move, b, i int, c rules.Color) []rules.Move {
	for _, long := range [2]bool{false, true} {
		if e.canCastle(b, i, c, long) {
			m := e.s.save()
			dm := mv{kind: kCastle, from: b, fromIdx: i, long: long, path: none}
			kt := e.firstStep(&dm, c)
			dst = e.secondSteps(dst, &dm, kt, c)
			e.s.rollback(e.p, m)
		}
	}
	var tbuf [16]target
	king := rules.MakePiece(c, e.z.king)
	for _, st := range e.kingTargets(tbuf[:0], b, c) {
		s1 := int(st.t)
		dm := mv{kind: kKing, from: b, fromIdx: i, step1: s1, sep1: st.sep, path: none}
		if st.sep != sepCapture {
			dst = e.quietSecondSteps(dst, &dm, c)
			continue
		}
		m := e.s.save()
		e.firstStep(&dm, c)
		if e.s.kingIndex(s1, king) == none {
			dm.to, dm.sep2 = s1, sepNone
			dst = append(dst, encode(&dm))
		} else {
			dst = e.secondSteps(dst, &dm, s1, c)
		}
		e.s.rollback(e.p, m)
		e.sc.q.clear(s1)
	}
	return dst
}

// quietSecondSteps is secondSteps after a first step that captures
// nothing (onto an empty square, or into a Rook), found without making
// it: such a step has no effects, so the board differs only in the King,
// which has left its square (empty now if it stood there alone) and
// stands on dm.step1.
func (e *engine) quietSecondSteps(dst []rules.Move, dm *mv, c rules.Color) []rules.Move {
	s := e.s
	s1 := dm.step1
	for _, d := range compass() {
		t := step(s1, d[0], d[1])
		if t == none {
			continue
		}
		dm.to = t
		if t == dm.from && s.height[t] == 1 {
			dm.sep2 = sepMove // the square the King left alone
			dst = append(dst, encode(dm))
			continue
		}
		var seps [2]uint8
		for _, sep := range e.endings(seps[:0], t, c) {
			dm.sep2 = sep
			dst = append(dst, encode(dm))
		}
	}
	return dst
}

// secondSteps appends the king move dm with every second step from s1.
func (e *engine) secondSteps(dst []rules.Move, dm *mv, s1 int, c rules.Color) []rules.Move {
	var tbuf [16]target
	for _, st := range e.kingTargets(tbuf[:0], s1, c) {
		dm.to, dm.sep2 = int(st.t), st.sep
		dst = append(dst, encode(dm))
	}
	return dst
}

// castleSquares returns the squares of castling for colour c: the king's
// home, the rook's corner, where king and rook go, and the squares that
// must be empty and the one the king passes.
func castleSquares(c rules.Color, long bool) (home, corner, kt, rt int, empty []int, pass int) {
	r := 0
	if c == rules.Black {
		r = 56
	}
	if long {
		return r + 4, r, r + 2, r + 3, []int{r + 1, r + 2, r + 3}, r + 3
	}
	return r + 4, r + 7, r + 6, r + 5, []int{r + 5, r + 6}, r + 5
}

// castleBit returns the castling right of colour c on the given side in
// the rights' bit set: 1 K, 2 Q, 4 k, 8 q (the order of "KQkq").
func castleBit(c rules.Color, long bool) uint8 {
	bit := uint8(1) << (2 * uint(c))
	if long {
		bit <<= 1
	}
	return bit
}

// canCastle reports whether the king at index i of b may castle as step 1
// (CC-18): the right, king and rook on their squares, the squares between
// empty, the king not in check and not passing an attacked square, and
// with CastleLandingMayBeAttacked=false not landing on one. The check tests
// of castling do not count the opponent's castling among the replies,
// which ends the recursion of two kings that could both castle.
func (e *engine) canCastle(b, i int, c rules.Color, long bool) bool {
	s := e.s
	home, corner, _, _, empty, pass := castleSquares(c, long)
	if s.v.castle&castleBit(c, long) == 0 || b != home || i != 0 || s.height[home] != 1 || e.sc.inCastle > 0 {
		return false
	}
	if s.cells[home][0] != rules.MakePiece(c, e.z.king) || s.height[corner] == 0 || s.cells[corner][0] != rules.MakePiece(c, e.z.rook) {
		return false
	}
	for _, q := range empty {
		if s.height[q] != 0 {
			return false
		}
	}
	e.sc.inCastle++
	defer func() { e.sc.inCastle-- }()
	if e.inCheck(c) {
		return false
	}
	m := s.save()
	s.removeAt(e.p, home, 0)
	s.push(e.p, pass, rules.MakePiece(c, e.z.king))
	attacked := e.inCheck(c)
	s.rollback(e.p, m)
	if attacked {
		return false
	}
	if !e.z.o.CastleLandingMayBeAttacked {
		m := s.save()
		e.castle(c, long)
		attacked = e.inCheck(c)
		s.rollback(e.p, m)
	}
	return !attacked
}
