package crazy

import (
	"math/bits"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The methods in this file serve a search (rules.Checker and rules.Engine:
// InCheck, Tactical and Eval): what a move wins, whether the side to move is in check, and the
// material the core board does not show.

// kingValue is a King's value in a move's gain: losing it loses the game.
const kingValue = 20000

// Evaluation terms, in centipawns.
const (
	passengerShare = 90 // a passenger counts this percentage of its value
	risenShare     = 25 // a risen Bishop (it vanishes after its owner's next turn)
	holderBonus    = 30 // holding the right to deny
	queenByKing    = 40 // a Queen next to its own King: taking it brings revenge on the King
)

// value returns the value of pc for gains: its type's (bind), a quarter of
// it for a risen Bishop.
func (z *crazy) value(pc rules.Piece) int {
	v := z.values[pc.Type()]
	if pc.Type() == z.bishop && Risen(pc) {
		return v * risenShare / 100
	}
	return v
}

// InCheck is the Checker's test: CC-43 for the side to move.
func (z *crazy) InCheck(p *rules.Position) bool {
	e := z.newEngine(p)
	return e.inCheck(p.Turn())
}

// Checked names, for the Checker, the square of the side to move's King
// (its stack's, when it rides in a Rook).
func (z *crazy) Checked(p *rules.Position, dst []geom.Square) []geom.Square {
	if b := view(p).findKing(p.Turn(), z.king); b != none {
		dst = append(dst, sqOf(b))
	}
	return dst
}

// Bare is the BareJudge: c has its King alone, no other piece on the
// board or inside a stack (the King is royal only through this package,
// so the core cannot tell).
func (z *crazy) Bare(p *rules.Position, c rules.Color) bool {
	s := view(p)
	n, king := 0, false
	for b := range s.cells {
		for _, pc := range s.cells[b][:s.height[b]] {
			if pc.Color() == c {
				n++
				king = king || pc.Type() == z.king
			}
		}
	}
	return n == 1 && king
}

// Tactical is the Engine's capture test. A move is tactical when it may capture
// (a capture separator, a path capture, a King step that captures, an
// all-round capture) or when it is a denial that gives back material; its
// gain is the value of the pieces it removes, the mover's own counted
// against it, found by resolving the move (falls, revenge and rises
// included) and rolling it back.
func (z *crazy) Tactical(p *rules.Position, m rules.Move) (int, bool) {
	d, ok := decode(m)
	if !ok {
		return 0, false
	}
	e := z.newEngine(p)
	us := p.Turn()
	switch d.kind {
	case kPiece:
		if d.sep != sepCapture && d.sep != sepEP && d.path == none {
			return 0, false
		}
	case kKing:
		if d.sep1 != sepCapture && d.sep2 != sepCapture {
			return 0, false
		}
	case kCastle:
		if d.sep2 != sepCapture {
			return 0, false
		}
	case kAround:
	case kDeny:
		g := e.denialGain(us)
		return g, g > 0
	default:
		return 0, false
	}
	sc := e.sc
	if key := p.Hash(); !sc.gainOK || sc.gainKey != key {
		sc.gains, sc.gainKey, sc.gainOK = sc.gains[:0], key, true
	} else {
		for _, a := range sc.gains {
			if a.m == m {
				return a.gain, true
			}
		}
	}
	s := e.s
	mk := s.save()
	e.play(&d, us)
	g := e.removalValue(s.rem[mk.rem:], us)
	s.rollback(p, mk)
	sc.gains = append(sc.gains, gainAnswer{m, g})
	return g, true
}

// LazyCaptures asks the search to test a capture's legality in
// quiescence only when it is about to be searched (search.LazyCapturer):
// the Legal hook resolves the move and the replies that may reach the King,
// which costs more than the captures a cutoff or delta pruning spares.
func (z *crazy) LazyCaptures() bool { return true }

// removalValue sums the values of removed pieces: the opponent's of us
// count for us, us's own against.
func (e *engine) removalValue(rem []Removal, us rules.Color) int {
	g := 0
	for _, r := range rem {
		if r.Piece.Color() == us {
			g -= e.z.value(r.Piece)
		} else {
			g += e.z.value(r.Piece)
		}
	}
	return g
}

// denialGain is what denying the opponent's last move wins for us: the
// pieces that move removed come back.
func (e *engine) denialGain(us rules.Color) int {
	s := e.s
	n := len(s.frames)
	if n == 0 {
		return 0
	}
	return -e.removalValue(s.rem[s.frames[n-1].remMark:], us)
}

// queensByKings counts the Queens next to their own King, White's
// positive and Black's negative.
func (z *crazy) queensByKings(s *state) int {
	n := 0
	for c := rules.White; c <= rules.Black; c++ {
		kb := s.findKing(c, z.king)
		if kb == none {
			continue
		}
		for adj := z.adj[kb]; adj != 0; adj &= adj - 1 {
			b := bits.TrailingZeros64(adj)
			if s.height[b] > 0 && s.cells[b][0] == rules.MakePiece(c, z.queen) {
				n += sign(c)
			}
		}
	}
	return n
}

// Eval is the Engine's evaluation: for the side to move, the passengers inside
// stacks (the core board shows only bases), less for risen Bishops on the
// board (which vanish), a Queen next to its own King (a liability, 2.12),
// and the right to deny.
func (z *crazy) Eval(p *rules.Position) int {
	s := view(p)
	w := -queenByKing * z.queensByKings(s) // for White
	for b := range 64 {
		h := int(s.height[b])
		if h == 0 {
			continue
		}
		if base := s.cells[b][0]; base.Type() == z.bishop && Risen(base) {
			w -= sign(base.Color()) * (z.values[z.bishop] - z.value(base)) // the core counts a full Bishop
		}
		for i := 1; i < h; i++ {
			pc := s.cells[b][i]
			if pc.Type() == z.king {
				continue // a King counts nothing; the core counts none either
			}
			w += sign(pc.Color()) * (z.value(pc) * passengerShare / 100)
		}
	}
	w += sign(s.v.holder) * holderBonus
	return sign(p.Turn()) * w
}

// sign is 1 for White and -1 for Black: it turns a value for c into one
// for White, and one for White into one for c.
func sign(c rules.Color) int {
	if c == rules.White {
		return 1
	}
	return -1
}
