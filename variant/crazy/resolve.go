package crazy

import (
	"github.com/anychess/anychess/rules"
)

// This file is the capture-event engine of CC-31..CC-36: ordinary captures,
// captures by effects, knight captures of passengers, falling units, rising
// Bishops and Queen revenge. Every function resolves its event completely,
// falls on its square included, before it returns (CC-32).

// qCap bounds the pieces waiting in one square's fall queue.
const qCap = 2 * MaxPieces

// queues holds the fall queue of every square: a stack of units whose top is
// the front of the queue (everything is pushed to the front, CC-31, CC-32).
// The units' pieces lie bottom first in pcs; ul holds the unit lengths.
type queues struct {
	pcs [64][qCap]rules.Piece
	np  [64]uint8
	ul  [64][qCap]uint8
	nu  [64]uint8
}

// pushFront puts the units of list (bottom first) at the front of square
// b's queue, the bottom unit first in line (CC-32: a Rook forms a unit with
// everything above it, any other piece a unit alone).
func (q *queues) pushFront(b int, list []rules.Piece, rook rules.Type) {
	// The units of list start at every non-Rook and at the first Rook.
	var starts [MaxPieces]uint8
	n := 0
	for i, pc := range list {
		starts[n] = uint8(i)
		n++
		if pc.Type() == rook {
			break
		}
	}
	end := len(list)
	for k := n - 1; k >= 0; k-- {
		s := int(starts[k])
		np := int(q.np[b])
		copy(q.pcs[b][np:], list[s:end])
		q.np[b] += uint8(end - s)
		q.ul[b][q.nu[b]] = uint8(end - s)
		q.nu[b]++
		end = s
	}
}

// pop removes the front unit of square b's queue and appends its pieces,
// bottom first, to dst.
func (q *queues) pop(b int, dst []rules.Piece) []rules.Piece {
	q.nu[b]--
	l := q.ul[b][q.nu[b]]
	q.np[b] -= l
	np := q.np[b]
	return append(dst, q.pcs[b][np:np+l]...)
}

// clear empties square b's queue.
func (q *queues) clear(b int) { q.np[b], q.nu[b] = 0, 0 }

// engine carries what one hook call needs: the variant, the position, its
// state and working memory. It lives on the caller's stack.
type engine struct {
	z  *crazy
	p  *rules.Position
	s  *state
	sc *scratch
}

// newEngine returns the engine of position p, attaching a state if needed.
func (z *crazy) newEngine(p *rules.Position) engine {
	s := stateOf(p)
	if s.sc == nil {
		s.sc = newScratch()
	}
	if s.z == nil {
		s.z = z
	}
	return engine{z: z, p: p, s: s, sc: s.sc}
}

// captured records the removal of pc from square b.
func (e *engine) captured(b int, pc rules.Piece, why Cause) {
	e.s.rem = append(e.s.rem, Removal{Square: sqOf(b), Piece: pc, Cause: why})
}

// traced reports square b's stack to the scratch's trace function, if a
// test set one: after every step of a resolution.
func (e *engine) traced(b int) {
	if t := e.sc.trace; t != nil {
		t(b, e.s.cells[b][:e.s.height[b]])
	}
}

// hovers reports whether the units waiting on square b must hover: the
// moving king stands there as the base during its first step (CC-20).
func (e *engine) hovers(b int) bool {
	sc := e.sc
	return sc.hover && b == sc.kingSq && e.s.height[b] > 0 && e.s.cells[b][0] == sc.king
}

// ordinaryCapture is CC-31a: the moving stack arrives on b and takes its
// base; the base's passengers fall onto it.
func (e *engine) ordinaryCapture(b int, mover []rules.Piece) {
	var buf [MaxPieces]rules.Piece
	stack := e.s.take(e.p, b, 0, buf[:0])
	e.s.place(e.p, b, mover)
	e.traced(b)
	e.victim(b, stack)
}

// captureBase is CC-31b without a capturing unit: an all-round capture,
// revenge, or a knight's capture of a base on its path. The square is left
// empty and the passengers land on it. An empty square captures nothing,
// and the moving king is immune during its first step.
func (e *engine) captureBase(b int) {
	s := e.s
	if s.height[b] == 0 || e.hovers(b) {
		return
	}
	var buf [MaxPieces]rules.Piece
	stack := s.take(e.p, b, 0, buf[:0])
	e.traced(b)
	e.victim(b, stack)
}

// victim finishes the capture of stack[0], the former base of b: its
// passengers go to the front of b's queue, its effects run, and the queue
// is processed.
func (e *engine) victim(b int, stack []rules.Piece) {
	e.captured(b, stack[0], Captured)
	e.sc.q.pushFront(b, stack[1:], e.z.rook)
	e.effects(b, stack[0])
	e.drain(b)
}

// capturePassenger is CC-31c: a knight takes the piece at index i (>= 1) of
// square b. A Rook's cargo falls onto what remains; above any other piece
// the pieces move down.
func (e *engine) capturePassenger(b, i int) {
	var buf [MaxPieces]rules.Piece
	stack := e.lift(b, i, buf[:0])
	e.traced(b)
	e.victim(b, stack)
}

// lift takes the piece at index i of square b off it, a Rook with
// everything above it (CC-15, CC-16), any other piece alone (the pieces
// above move down), and appends what it took, bottom first, to dst.
func (e *engine) lift(b, i int, dst []rules.Piece) []rules.Piece {
	if e.s.cells[b][i].Type() == e.z.rook {
		return e.s.take(e.p, b, i, dst)
	}
	return append(dst, e.s.removeAt(e.p, b, i))
}

// effects runs the victim effects of pc, captured on b (CC-31): an unrisen
// Bishop rises (a unit at the front of b's queue, CC-24), a Queen takes
// revenge (CC-33).
func (e *engine) effects(b int, pc rules.Piece) {
	switch pc.Type() {
	case e.z.bishop:
		if pc.Attr()&attrRisen == 0 {
			unit := [1]rules.Piece{pc.WithAttr(attrRisen | attrRose)}
			e.sc.q.pushFront(b, unit[:], e.z.rook)
		}
	case e.z.queen:
		e.revenge(b)
	}
}

// drain processes square b's fall queue to the end (CC-32): each unit lands
// on an empty square, or captures the resident base as a moving stack
// would (ordinaryCapture). Units hover over the moving king during its
// first step.
func (e *engine) drain(b int) {
	s, q := e.s, &e.sc.q
	for q.nu[b] > 0 {
		if e.hovers(b) {
			return
		}
		var ubuf [MaxPieces]rules.Piece
		unit := q.pop(b, ubuf[:0])
		if s.height[b] == 0 {
			s.place(e.p, b, unit)
			e.traced(b)
			continue
		}
		e.ordinaryCapture(b, unit) // it drains the rest of the queue
	}
}

// revenge is CC-33: an all-round capture from the captured Queen's square,
// neighbours in the order N, NE, E, SE, S, SW, W, NW, then the centre.
func (e *engine) revenge(b int) {
	e.allRound(b)
	e.captureBase(b)
}

// allRound captures on the neighbours of b in the fixed order (CC-34).
func (e *engine) allRound(b int) {
	for _, d := range compass() {
		if n := step(b, d[0], d[1]); n != none {
			e.hit(n)
		}
	}
}

// hit is one square of an all-round capture: its base, or with the option
// AllRoundHitsPassengers its whole stack, bottom first.
func (e *engine) hit(b int) {
	if !e.z.o.AllRoundHitsPassengers {
		e.captureBase(b)
		return
	}
	s := e.s
	if s.height[b] == 0 {
		return
	}
	if e.sc.hover && b == e.sc.kingSq {
		e.captureBase(b) // the moving king is not taken
		return
	}
	var buf [MaxPieces]rules.Piece
	stack := s.take(e.p, b, 0, buf[:0])
	for _, pc := range stack {
		e.captured(b, pc, Captured)
		e.effects(b, pc)
	}
	e.drain(b)
}

// compass returns the directions N, NE, E, SE, S, SW, W, NW as (file,
// rank) steps.
func compass() [8][2]int {
	return [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
}

// step returns the board index one (df, dr) step from b, or none off the
// board.
func step(b, df, dr int) int {
	f, r := b&7+df, b>>3+dr
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return none
	}
	return r*8 + f
}
