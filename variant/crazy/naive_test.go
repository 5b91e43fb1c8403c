package crazy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
)

// This file is a second, deliberately naive implementation of the rules,
// written from the specification for the tests: positions are copied for
// every move (no make/unmake, no undo log), stacks are slices, fall queues
// are lists of units, moves are identified by their text, and check is
// decided by making every pseudo-legal reply of the opponent and looking
// for the King. It shares nothing with the package but the option values.

type nPiece struct {
	c     int  // 0 white, 1 black
	t     byte // K Q R B N P
	risen bool
	rose  bool
}

type nPos struct {
	o      Options
	st     [64][]nPiece
	turn   int
	castle uint8 // 1 K, 2 Q, 4 k, 8 q
	epJ    int   // -1 none
	epP    int
	holder int
	immune int // -1 none
	used   int
	denied string

	prev       *nPos // the position before the last move (nil: none known)
	lastText   string
	lastMover  int
	lastImmune bool
	lastKing   bool
	lastDeny   bool
}

func (p *nPos) clone() *nPos {
	q := *p
	for i := range q.st {
		q.st[i] = slices.Clone(p.st[i])
	}
	return &q
}

func nName(b int) string { return string(rune('a'+b%8)) + string(rune('1'+b/8)) }

func nPlace(b, i int) string {
	if i == 0 {
		return nName(b)
	}
	return fmt.Sprintf("%s/%d", nName(b), i)
}

func nAt(b, df, dr int) int {
	f, r := b%8+df, b/8+dr
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return -1
	}
	return r*8 + f
}

// nFromFEN reads the board and fields of a Crazy-FEN by hand.
func nFromFEN(t testing.TB, o Options, fen string) *nPos {
	f := strings.Fields(fen)
	p := &nPos{o: o, epJ: -1, epP: -1, immune: -1}
	for ri, row := range strings.Split(f[0], "/") {
		r, file := 7-ri, 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
			case c == '(':
				for j++; row[j] != ')'; j++ {
					pc := nPieceOf(row[j])
					if j+1 < len(row) && row[j+1] == '*' {
						pc.risen = true
						j++
					}
					p.st[r*8+file] = append(p.st[r*8+file], pc)
				}
				file++
			default:
				pc := nPieceOf(c)
				if j+1 < len(row) && row[j+1] == '*' {
					pc.risen = true
					j++
				}
				p.st[r*8+file] = []nPiece{pc}
				file++
			}
		}
	}
	p.turn = strings.Index("wb", f[1])
	for i, l := range "KQkq" {
		if strings.ContainsRune(f[2], l) {
			p.castle |= 1 << i
		}
	}
	if f[3] != "-" {
		j, pw, _ := strings.Cut(f[3], ":")
		p.epJ, p.epP = nSquare(j), nSquare(pw)
	}
	p.holder = strings.Index("wb", f[6])
	p.immune = strings.Index("wb", f[7])
	fmt.Sscan(f[8], &p.used)
	return p
}

func nPieceOf(c byte) nPiece {
	if c >= 'a' {
		return nPiece{c: 1, t: c - 'a' + 'A'}
	}
	return nPiece{c: 0, t: c}
}

func nSquare(s string) int { return int(s[1]-'1')*8 + int(s[0]-'a') }

// nMove is a move with its text and what applying it needs.
type nMove struct {
	text    string
	kind    string // piece, king, castle, around, disguise, deny
	from, i int
	to, ti  int
	sep     byte
	ep      bool
	path    int // -1 none
	pi      int
	s1      int
	sep1    byte
	sep2    byte // 0: no second step
	long    bool
	chain   [][2]int // disguise: pawn places in chain order
	promos  []byte   // the mover's choices
	knight  bool
}

// ---- resolution ----

type nRes struct {
	p       *nPos
	q       map[int][][]nPiece
	removed []nPiece
	bases   map[int]bool // squares whose base was captured
	hover   bool
	ksq     int
	kc      int
}

func nUnits(list []nPiece) [][]nPiece {
	var us [][]nPiece
	for i := 0; i < len(list); i++ {
		if list[i].t == 'R' {
			return append(us, slices.Clone(list[i:]))
		}
		us = append(us, []nPiece{list[i]})
	}
	return us
}

func (r *nRes) front(b int, us [][]nPiece) {
	r.q[b] = append(slices.Clone(us), r.q[b]...)
}

func (r *nRes) kingBase(b int) bool {
	st := r.p.st[b]
	return r.hover && b == r.ksq && len(st) > 0 && st[0].t == 'K' && st[0].c == r.kc
}

func (r *nRes) effects(b int, v nPiece) {
	switch v.t {
	case 'B':
		if !v.risen {
			r.front(b, [][]nPiece{{{c: v.c, t: 'B', risen: true, rose: true}}})
		}
	case 'Q':
		r.revenge(b)
	}
}

func (r *nRes) process(b int) {
	for len(r.q[b]) > 0 {
		if r.kingBase(b) {
			return
		}
		u := r.q[b][0]
		r.q[b] = r.q[b][1:]
		if len(r.p.st[b]) == 0 {
			r.p.st[b] = u
			continue
		}
		r.take(b, u)
	}
}

// take removes the base of b and puts resident in its place; the base's
// passengers go to the front of the queue and its effects run.
func (r *nRes) take(b int, resident []nPiece) {
	v, pass := r.p.st[b][0], slices.Clone(r.p.st[b][1:])
	r.p.st[b] = resident
	r.removed = append(r.removed, v)
	r.bases[b] = true
	r.front(b, nUnits(pass))
	r.effects(b, v)
}

// capture is take, then the queue of b is processed.
func (r *nRes) capture(b int, resident []nPiece) {
	r.take(b, resident)
	r.process(b)
}

func (r *nRes) capBase(b int) {
	if len(r.p.st[b]) == 0 || r.kingBase(b) {
		return
	}
	r.capture(b, nil)
}

func (r *nRes) hit(b int) {
	if !r.p.o.AllRoundHitsPassengers || r.hover && b == r.ksq {
		r.capBase(b)
		return
	}
	all := r.p.st[b]
	r.p.st[b] = nil
	r.bases[b] = true
	for _, v := range all {
		r.removed = append(r.removed, v)
		r.effects(b, v)
	}
	r.process(b)
}

func (r *nRes) revenge(b int) {
	for _, d := range [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}} {
		if n := nAt(b, d[0], d[1]); n >= 0 {
			r.hit(n)
		}
	}
	r.capBase(b)
}

func (r *nRes) ordinary(b int, mover []nPiece) { r.capture(b, slices.Clone(mover)) }

func (r *nRes) capPassenger(b, i int) {
	st := r.p.st[b]
	v := st[i]
	if v.t == 'R' {
		cargo := slices.Clone(st[i+1:])
		r.p.st[b] = slices.Clone(st[:i])
		r.removed = append(r.removed, v)
		r.front(b, nUnits(cargo))
	} else {
		r.p.st[b] = slices.Delete(slices.Clone(st), i, i+1)
		r.removed = append(r.removed, v)
	}
	r.effects(b, v)
	r.process(b)
}

// body makes the move's action and effects on p (changed in place) and
// returns the removed pieces and the squares whose base was captured.
func (p *nPos) body(m *nMove) ([]nPiece, map[int]bool) {
	r := &nRes{p: p, q: map[int][][]nPiece{}, bases: map[int]bool{}}
	us := p.turn
	switch m.kind {
	case "piece":
		pc := p.st[m.from][m.i]
		var mover []nPiece
		if pc.t == 'R' {
			mover = slices.Clone(p.st[m.from][m.i:])
			p.st[m.from] = slices.Clone(p.st[m.from][:m.i])
		} else {
			mover = []nPiece{pc}
			p.st[m.from] = slices.Delete(slices.Clone(p.st[m.from]), m.i, m.i+1)
		}
		switch {
		case m.ep:
			p.st[m.to] = mover
			r.capBase(p.epP)
		case m.sep == 'x' && m.ti == 0:
			r.ordinary(m.to, mover)
		case m.sep == 'x':
			p.st[m.to] = append(slices.Clone(p.st[m.to]), mover...)
			r.capPassenger(m.to, m.ti)
		default:
			p.st[m.to] = append(slices.Clone(p.st[m.to]), mover...)
		}
		if m.path >= 0 {
			if m.pi == 0 {
				r.capBase(m.path)
			} else {
				r.capPassenger(m.path, m.pi)
			}
		}
	case "king", "castle":
		king := nPiece{c: us, t: 'K'}
		s1 := m.s1
		if m.kind == "castle" {
			nCastle(p, us, m.long)
		} else {
			p.st[m.from] = slices.Delete(slices.Clone(p.st[m.from]), m.i, m.i+1)
			nStep(r, s1, m.sep1, king, p.o.KingStep1Immunity == Hover)
		}
		if m.sep2 == 0 {
			return r.removed, r.bases
		}
		ki := slices.Index(p.st[s1], king)
		if ki < 0 {
			return r.removed, r.bases
		}
		p.st[s1] = slices.Delete(slices.Clone(p.st[s1]), ki, ki+1)
		nStep(r, m.to, m.sep2, king, false)
		r.process(s1)
	case "around":
		for _, d := range [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}} {
			if n := nAt(m.from, d[0], d[1]); n >= 0 {
				r.hit(n)
			}
		}
	case "disguise":
		x := [2]int{m.to, m.ti}
		for _, pw := range m.chain {
			a, b := p.st[x[0]][x[1]], p.st[pw[0]][pw[1]]
			p.st[x[0]] = slices.Clone(p.st[x[0]])
			p.st[x[0]][x[1]] = b
			p.st[pw[0]] = slices.Clone(p.st[pw[0]])
			p.st[pw[0]][pw[1]] = a
			x = pw
		}
	}
	return r.removed, r.bases
}

func nStep(r *nRes, t int, sep byte, king nPiece, hover bool) {
	r.hover, r.ksq, r.kc = hover, t, king.c
	if sep == 'x' {
		r.ordinary(t, []nPiece{king})
	} else {
		r.p.st[t] = append(slices.Clone(r.p.st[t]), king)
	}
	r.hover = false
}

func nCastle(p *nPos, c int, long bool) {
	r := 0
	if c == 1 {
		r = 56
	}
	corner, kt, rt := r+7, r+6, r+5
	if long {
		corner, kt, rt = r, r+2, r+3
	}
	p.st[rt] = p.st[corner]
	p.st[corner] = nil
	p.st[kt] = p.st[r+4]
	p.st[r+4] = nil
}

// apply returns the position after m: action, effects, end of turn and the
// bookkeeping; promoting pawns of the mover take m.promos in square order
// (queens beyond). It also returns the squares where the mover's pawns
// promoted and the removed pieces.
func (p *nPos) apply(m *nMove) (*nPos, []int, []nPiece) {
	if m.kind == "deny" {
		q := p.prev.clone()
		q.holder, q.immune, q.used, q.denied = p.lastMover, p.turn, p.prev.used+1, p.lastText
		q.prev, q.lastText = nil, ""
		return q, nil, nil
	}
	q := p.clone()
	before := slices.Clone(q.st[:])
	removed, bases := q.body(m)
	us := p.turn
	// CC-38: the king moves, the rook moves, is captured or swapped away.
	for b, loss := range map[int]uint8{4: 3, 7: 1, 0: 2, 60: 12, 63: 4, 56: 8} {
		if len(before[b]) == 0 || len(q.st[b]) == 0 || before[b][0] != q.st[b][0] || bases[b] ||
			m.kind == "king" && m.from == b && m.i == 0 {
			q.castle &^= loss
		}
	}
	// CC-39
	for b := range 64 {
		if st := q.st[b]; len(st) == 1 && st[0].t == 'P' && (st[0].c == 0 && b < 8 || st[0].c == 1 && b >= 56) {
			removed = append(removed, st[0])
			q.st[b] = nil
		}
	}
	// CC-40
	for b := range 64 {
		var keep []nPiece
		for _, pc := range q.st[b] {
			if pc.t == 'B' && pc.risen && !pc.rose && pc.c == us {
				removed = append(removed, pc)
				continue
			}
			pc.rose = false
			keep = append(keep, pc)
		}
		q.st[b] = keep
	}
	// CC-41
	var promoted []int
	for b := range 64 {
		st := q.st[b]
		if len(st) != 1 || st[0].t != 'P' || !(st[0].c == 0 && b >= 56 || st[0].c == 1 && b < 8) {
			continue
		}
		if st[0].c == us {
			t := byte('Q')
			if k := len(promoted); k < len(m.promos) {
				t = m.promos[k]
			}
			q.st[b] = []nPiece{{c: us, t: t}}
			promoted = append(promoted, b)
		} else if p.o.OffTurnPromotion == AutoQueen {
			q.st[b] = []nPiece{{c: st[0].c, t: 'Q'}}
		}
	}
	// CC-42
	q.lastImmune = p.immune == us || m.knight && p.o.KnightDenial == KnightImmune
	if p.immune == us {
		q.immune = -1
	}
	q.denied = ""
	q.epJ, q.epP = -1, -1
	if m.kind == "piece" && p.st[m.from][m.i].t == 'P' && m.sep == '-' && nDist(m.from, m.to) == 2 {
		q.setEP((m.from+m.to)/2, m.to)
	}
	if m.kind == "disguise" {
		x := [2]int{m.to, m.ti}
		for _, pw := range m.chain {
			if x[1] == 0 && nDist(pw[0], x[0]) == 2 {
				q.setEP((pw[0]+x[0])/2, x[0])
			}
			x = pw
		}
	}
	q.turn = 1 - us
	q.prev, q.lastText, q.lastMover = p, m.text, us
	q.lastKing, q.lastDeny = m.kind == "king" || m.kind == "castle", false
	return q, promoted, removed
}

func nDist(a, b int) int { return max(nAbs(a%8-b%8), nAbs(a/8-b/8)) }

func nAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// setEP keeps the record if an enemy pawn that may move can capture onto j.
func (q *nPos) setEP(j, pw int) {
	if len(q.st[pw]) != 1 || q.st[pw][0].t != 'P' || len(q.st[j]) != 0 {
		return
	}
	them := 1 - q.st[pw][0].c
	fwd := 1
	if them == 1 {
		fwd = -1
	}
	for _, df := range []int{-1, 1} {
		b := nAt(j, df, -fwd)
		if b < 0 {
			continue
		}
		for i, pc := range q.st[b] {
			if pc.t == 'P' && pc.c == them && q.mayMove(b, i) {
				q.epJ, q.epP = j, pw
			}
		}
	}
}

func (p *nPos) mayMove(b, i int) bool {
	return i == 0 || p.o.StackExit == AnyPassenger || i == len(p.st[b])-1
}

// ---- generation ----

// arrive lists how a move may end on t: '-' onto empty, 'x' capturing an
// enemy base, '^' entering a rook.
func (p *nPos) arrive(t, c int) []byte {
	st := p.st[t]
	if len(st) == 0 {
		return []byte{'-'}
	}
	var out []byte
	if st[0].c != c {
		out = append(out, 'x')
	}
	if st[0].t == 'R' {
		out = append(out, '^')
	}
	return out
}

func (p *nPos) pseudo(c int) []nMove {
	var out []nMove
	for b := range 64 {
		for i, pc := range p.st[b] {
			if pc.c != c || !p.mayMove(b, i) {
				continue
			}
			letter := string(pc.t)
			switch pc.t {
			case 'Q', 'R', 'B':
				dirs := [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
				switch pc.t {
				case 'R':
					dirs = dirs[:4]
				case 'B':
					dirs = dirs[4:]
				}
				for _, d := range dirs {
					for t := nAt(b, d[0], d[1]); t >= 0; t = nAt(t, d[0], d[1]) {
						for _, s := range p.arrive(t, c) {
							out = append(out, nMove{kind: "piece", from: b, i: i, to: t, sep: s, path: -1,
								text: letter + nPlace(b, i) + string(s) + nName(t)})
						}
						if len(p.st[t]) > 0 {
							break
						}
					}
				}
				if pc.t == 'Q' {
					victim := false
					for _, n := range nNeighbours(b) {
						victim = victim || len(p.st[n]) > 0
					}
					if victim || !p.o.AllRoundRequiresVictim {
						out = append(out, nMove{kind: "around", from: b, i: i, to: b, path: -1, text: "Q" + nPlace(b, i) + "*"})
					}
				}
			case 'N':
				out = append(out, p.knight(b, i, c)...)
			case 'P':
				out = append(out, p.pawn(b, i, c)...)
				out = append(out, p.disguises(b, i, c)...)
			case 'K':
				out = append(out, p.king(b, i, c)...)
			}
		}
	}
	return out
}

func nNeighbours(b int) []int {
	var out []int
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if n := nAt(b, df, dr); (df != 0 || dr != 0) && n >= 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

func (p *nPos) knight(b, i, c int) []nMove {
	var out []nMove
	for _, l := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		t := nAt(b, l[0], l[1])
		if t < 0 {
			continue
		}
		base := "N" + nPlace(b, i)
		mk := func(sep byte, ti int) nMove {
			return nMove{kind: "piece", from: b, i: i, to: t, ti: ti, sep: sep, path: -1, knight: true,
				text: base + string(sep) + nPlace(t, ti)}
		}
		var ends []byte
		st := p.st[t]
		if len(st) == 0 {
			ends = []byte{'-'}
		} else if st[0].t == 'R' {
			ends = []byte{'^'}
		}
		if len(st) > 0 && st[0].c != c {
			out = append(out, mk('x', 0))
		}
		for _, s := range ends {
			out = append(out, mk(s, 0))
			// path squares: the L-routes, or the W+F routes (Mao)
			var paths [][2]int
			sf, sr := nSign(l[0]), nSign(l[1])
			if nAbs(l[1]) == 2 {
				paths = [][2]int{{0, sr}, {0, 2 * sr}, {sf, 0}, {sf, sr}}
				if p.o.KnightPath == PathMao {
					paths = [][2]int{{0, sr}, {sf, sr}}
				}
			} else {
				paths = [][2]int{{sf, 0}, {2 * sf, 0}, {0, sr}, {sf, sr}}
				if p.o.KnightPath == PathMao {
					paths = [][2]int{{sf, 0}, {sf, sr}}
				}
			}
			for _, d := range paths {
				ps := nAt(b, d[0], d[1])
				for j, pc := range p.st[ps] {
					if pc.c != c {
						m := mk(s, 0)
						m.path, m.pi, m.knight = ps, j, false
						m.text += "x" + nPlace(ps, j)
						out = append(out, m)
					}
				}
			}
		}
		for j := 1; j < len(st); j++ {
			if st[j].c != c {
				out = append(out, mk('x', j))
			}
		}
	}
	return out
}

func nSign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// nPawnStep reports whether a pawn of c at (b, i) may make a non-capturing
// step (df, dr) onto t.
func (p *nPos) nPawnStep(b, i, df, dr, c int) (int, bool) {
	t := nAt(b, df, dr)
	if t < 0 {
		return -1, false
	}
	first, start, fwd := 0, 1, 1
	if c == 1 {
		first, start, fwd = 7, 6, -1
	}
	if t/8 == first {
		return t, false
	}
	if nAbs(df) == 2 || nAbs(dr) == 2 {
		if i != 0 || b/8 != start || dr == -2*fwd || len(p.st[nAt(b, df/2, dr/2)]) != 0 {
			return t, false
		}
	}
	return t, true
}

func nPawnVectors(c int) [][2]int {
	f := 1
	if c == 1 {
		f = -1
	}
	return [][2]int{{0, f}, {0, -f}, {-1, 0}, {1, 0}, {0, 2 * f}, {-2, 0}, {2, 0}}
}

func (p *nPos) pawn(b, i, c int) []nMove {
	var out []nMove
	for _, d := range nPawnVectors(c) {
		t, ok := p.nPawnStep(b, i, d[0], d[1], c)
		if !ok {
			continue
		}
		if len(p.st[t]) == 0 {
			out = append(out, nMove{kind: "piece", from: b, i: i, to: t, sep: '-', path: -1, text: nPlace(b, i) + "-" + nName(t)})
		} else if p.st[t][0].t == 'R' {
			out = append(out, nMove{kind: "piece", from: b, i: i, to: t, sep: '^', path: -1, text: nPlace(b, i) + "^" + nName(t)})
		}
	}
	fwd := 1
	if c == 1 {
		fwd = -1
	}
	for _, df := range []int{-1, 1} {
		t := nAt(b, df, fwd)
		if t < 0 {
			continue
		}
		if len(p.st[t]) > 0 && p.st[t][0].c != c {
			out = append(out, nMove{kind: "piece", from: b, i: i, to: t, sep: 'x', path: -1, text: nPlace(b, i) + "x" + nName(t)})
		}
		if t == p.epJ && len(p.st[t]) == 0 && len(p.st[p.epP]) == 1 && p.st[p.epP][0].t == 'P' && p.st[p.epP][0].c != c {
			out = append(out, nMove{kind: "piece", from: b, i: i, to: t, sep: 'x', ep: true, path: -1, text: nPlace(b, i) + "x" + nName(t)})
		}
	}
	return out
}

// disguises simulates each chain on copies: the disguised piece really
// moves, and the next pawns are looked for on the board as it is then.
func (p *nPos) disguises(b, i, c int) []nMove {
	var out []nMove
	for _, d := range nPawnVectors(c) {
		t, ok := p.nPawnStep(b, i, d[0], d[1], c)
		if !ok || len(p.st[t]) == 0 {
			continue
		}
		for j := range p.st[t] {
			if j == 0 && len(p.st[t]) > 1 {
				continue
			}
			q := p.clone()
			q.st[t][j], q.st[b][i] = q.st[b][i], q.st[t][j]
			m := nMove{kind: "disguise", from: b, i: i, to: t, ti: j, path: -1, chain: [][2]int{{b, i}}}
			out = append(out, q.chain(p, m, [][2]int{{t, j}, {b, i}}, c)...)
		}
	}
	return out
}

// chain returns m and its continuations; q is the board after m's swaps,
// orig the board before the disguise, used the places of the pawns so far
// (the first pawn now on used[0]). A chain after which the board is as it
// was is not a move (CC-29), but its continuations may be.
func (q *nPos) chain(orig *nPos, m nMove, used [][2]int, c int) []nMove {
	m.text = "D" + nPlace(m.to, m.ti) + ":"
	for k, pw := range m.chain {
		if k > 0 {
			m.text += ","
		}
		m.text += nPlace(pw[0], pw[1])
	}
	var out []nMove
	if !slices.EqualFunc(q.st[:], orig.st[:], slices.Equal) {
		out = append(out, m)
	}
	if len(m.chain) == maxLinks+1 {
		return out
	}
	x := m.chain[len(m.chain)-1] // where the disguised piece stands now
	for _, d := range nPawnVectors(c) {
		b := nAt(x[0], -d[0], -d[1])
		if b < 0 {
			continue
		}
		for i, pc := range q.st[b] {
			if pc.t != 'P' || pc.c != c || !q.mayMove(b, i) || slices.Contains(used, [2]int{b, i}) {
				continue
			}
			if t, ok := q.nPawnStep(b, i, d[0], d[1], c); !ok || t != x[0] {
				continue
			}
			r := q.clone()
			r.st[x[0]][x[1]], r.st[b][i] = r.st[b][i], r.st[x[0]][x[1]]
			n := m
			n.chain = append(slices.Clone(m.chain), [2]int{b, i})
			out = append(out, r.chain(orig, n, append(slices.Clone(used), [2]int{b, i}), c)...)
		}
	}
	return out
}

func (p *nPos) king(b, i, c int) []nMove {
	var out []nMove
	king := nPiece{c: c, t: 'K'}
	second := func(q *nPos, m nMove, s1 int) {
		for _, n := range nNeighbours(s1) {
			for _, s := range q.arrive(n, c) {
				mm := m
				mm.to, mm.sep2 = n, s
				mm.text += string(s) + nName(n)
				out = append(out, mm)
			}
		}
	}
	r0 := 0
	if c == 1 {
		r0 = 56
	}
	for _, long := range []bool{false, true} {
		if !p.canCastle(b, i, c, long) {
			continue
		}
		q := p.clone()
		nCastle(q, c, long)
		kt, text := r0+6, "O-O,"
		if long {
			kt, text = r0+2, "O-O-O,"
		}
		second(q, nMove{kind: "castle", from: b, i: i, s1: kt, long: long, path: -1, text: text + nName(kt)}, kt)
	}
	for _, s1 := range nNeighbours(b) {
		for _, s := range p.arrive(s1, c) {
			q := p.clone()
			q.st[b] = slices.Delete(q.st[b], i, i+1)
			r := &nRes{p: q, q: map[int][][]nPiece{}, bases: map[int]bool{}}
			nStep(r, s1, s, king, p.o.KingStep1Immunity == Hover)
			m := nMove{kind: "king", from: b, i: i, s1: s1, sep1: s, path: -1, text: "K" + nPlace(b, i) + string(s) + nName(s1)}
			if !slices.Contains(q.st[s1], king) {
				m.to = s1
				out = append(out, m)
				continue
			}
			// the king leaves s1: nothing else of step 1 matters for step 2
			second(q, m, s1)
		}
	}
	return out
}

func (p *nPos) canCastle(b, i, c int, long bool) bool {
	r0 := 0
	if c == 1 {
		r0 = 56
	}
	bit := uint8(1) << (2 * c)
	corner, empty, pass := r0+7, []int{r0 + 5, r0 + 6}, r0+5
	if long {
		bit <<= 1
		corner, empty, pass = r0, []int{r0 + 1, r0 + 2, r0 + 3}, r0+3
	}
	if p.castle&bit == 0 || b != r0+4 || i != 0 || len(p.st[b]) != 1 || len(p.st[corner]) == 0 ||
		p.st[corner][0] != (nPiece{c: c, t: 'R'}) {
		return false
	}
	for _, e := range empty {
		if len(p.st[e]) != 0 {
			return false
		}
	}
	if p.inCheck(c, false) {
		return false
	}
	q := p.clone()
	q.st[pass], q.st[b] = q.st[b], nil
	if q.inCheck(c, false) {
		return false
	}
	if !p.o.CastleLandingMayBeAttacked {
		q := p.clone()
		nCastle(q, c, long)
		return !q.inCheck(c, false)
	}
	return true
}

func (p *nPos) hasKing(c int) bool {
	for _, st := range p.st {
		if slices.Contains(st, nPiece{c: c, t: 'K'}) {
			return true
		}
	}
	return false
}

// inCheck: some pseudo-legal move of the opponent removes c's king. The
// opponent's castling is looked at only when castling is true (one level).
func (p *nPos) inCheck(c int, castling bool) bool {
	q := p.clone()
	q.turn = 1 - c
	if !castling {
		q.castle = 0
	}
	for _, m := range q.pseudo(1 - c) {
		r := q.clone()
		removed, _ := r.body(&m)
		for _, v := range removed {
			if v.t == 'K' && v.c == c {
				return true
			}
		}
	}
	return false
}

// legal returns the legal moves of the side to move.
func (p *nPos) legal() []nMove {
	if !p.hasKing(0) || !p.hasKing(1) {
		return nil
	}
	us := p.turn
	var out []nMove
	for _, m := range p.pseudo(us) {
		q, promoted, removed := p.apply(&m)
		k := len(promoted)
		try := func(m nMove, q *nPos, removed []nPiece) {
			own, enemy := true, true
			for _, v := range removed {
				if v.t == 'K' {
					if v.c == us {
						own = false
					} else {
						enemy = false
					}
				}
			}
			ok := !own && p.o.SelfDestruct == LegalLoses || own && !enemy || own && enemy && !q.inCheck(us, true)
			if ok && (p.denied == "" || m.text != p.denied || m.knight) {
				out = append(out, m)
			}
		}
		if k == 0 {
			try(m, q, removed)
			continue
		}
		for combo := range 1 << (2 * k) {
			mm := m
			mm.promos = nil
			for j := range k {
				mm.promos = append(mm.promos, "QRBN"[combo>>(2*j)&3])
			}
			q, promoted, removed := p.apply(&mm)
			mm.text = nPromoText(&mm, p, promoted)
			try(mm, q, removed)
		}
	}
	if p.prev != nil && !p.lastDeny && !p.lastImmune && p.holder == us && p.lastMover != us &&
		p.o.Denial != DenialOff && !(p.o.Denial == Soft && p.lastKing) {
		out = append(out, nMove{kind: "deny", text: "DENY"})
	}
	return out
}

// nPromoText adds the promotions of m (made from p, the mover's pawns
// promoting on the squares promoted) to its text: =X for a pawn's own
// square, the rest in brackets by square.
func nPromoText(m *nMove, p *nPos, promoted []int) string {
	pawn := m.kind == "disguise" || m.kind == "piece" && p.st[m.from][m.i].t == 'P'
	text := m.text
	var rest []string
	for k, b := range promoted {
		if pawn && b == m.to {
			text += "=" + string(m.promos[k])
		} else {
			rest = append(rest, nName(b)+"="+string(m.promos[k]))
		}
	}
	if len(rest) > 0 {
		text += "&" + strings.Join(rest, "&")
	}
	return text
}

// perft counts the leaves of the legal move tree.
func (p *nPos) perft(depth int) uint64 {
	ms := p.legal()
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		q, _, _ := p.apply(&m)
		n += q.perft(depth - 1)
	}
	return n
}

// divide returns the legal moves' texts with their perft counts.
func (p *nPos) divide(depth int) map[string]uint64 {
	out := map[string]uint64{}
	for _, m := range p.legal() {
		q, _, _ := p.apply(&m)
		if depth <= 1 {
			out[m.text]++
		} else {
			out[m.text] += q.perft(depth - 1)
		}
	}
	return out
}

// realDivide is divide by the package.
func realDivide(p *rules.Position, depth int) map[string]uint64 {
	out := map[string]uint64{}
	for _, m := range p.LegalMoves(nil) {
		text := FormatMove(p, m)
		p.Make(m)
		if depth <= 1 {
			out[text]++
		} else {
			out[text] += rules.Perft(p, depth-1)
		}
		p.Unmake()
	}
	return out
}
