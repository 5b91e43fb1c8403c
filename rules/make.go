package rules

import (
	"errors"
	"fmt"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
)

// Make plays a legal move with its certain (or first) outcome. Playing a
// move that is not legal in the position corrupts it; check moves from
// outside with IsLegal or by finding them in LegalMoves first.
func (p *Position) Make(m Move) { p.MakeOutcome(m, 0) }

// MakeOutcome plays a legal move with the chosen outcome (an index into
// Outcomes(m)). Outcome 0 is the move happening as written. For any other
// outcome the core leaves board and turn alone and the variant's AfterMake
// hook decides what happens (a failed capture attempt, say).
//
// The side to move passes to the opponent unless a hook keeps it. The move
// number and the move-rule counter advance when the side to move changes.
func (p *Position) MakeOutcome(m Move, outcome int) {
	v := p.v
	z := &v.z
	p.hist = append(p.hist, undo{
		move: m, outcome: uint8(outcome), hash: p.Hash(), zhash: p.hash,
		halfmove: int32(p.halfmove), ply: int32(p.ply), ep: p.ep, epVictim: p.epVictim,
		castle: p.castle, turn: p.turn, phase: p.phase, counter: p.counter, money: p.money,
	})
	u := &p.hist[len(p.hist)-1]
	us := p.turn
	// The en-passant right, if any, and whether it is the mover's.
	prevEP := p.ep
	ownEP := prevEP != geom.NoSquare && p.board[p.epVictim].Color() != us
	reset := false
	if outcome == 0 {
		from, to := m.From(), m.To()
		switch m.Kind() {
		case Normal, Promotion:
			pc := p.board[from]
			if q := p.board[to]; q != Empty {
				u.captured = q
				u.capIndex = p.remove(to)
				p.hash ^= z.pieceKey(q, to)
				reset = true
				if v.toHand {
					p.toHand(us, q)
				}
			}
			p.relocate(from, to)
			p.hash ^= z.pieceKey(pc, from) ^ z.pieceKey(pc, to)
			if m.Kind() == Promotion {
				u.promoted = pc
				np := MakePiece(us, m.Promo()).WithAttr(pc.Attr())
				if v.toHand && v.demote[m.Promo()] == 0 {
					np |= promoted
				}
				reset = true
				p.replace(to, np)
				p.hash ^= z.pieceKey(pc, to) ^ z.pieceKey(np, to)
			}
			if pc.Type() == v.pawn && v.pawn != 0 {
				reset = true
				if v.enPassant && from.File() == to.File() && (to.Rank()-from.Rank() == 2 || from.Rank()-to.Rank() == 2) {
					p.ClearEnPassant()
					p.setEnPassant(geom.Square((int(from)+int(to))/2), to, us.Other())
				}
			}
		case EnPassant:
			pc := p.board[from]
			victim := m.Aux()
			q := p.board[victim]
			u.captured = q
			u.capIndex = p.remove(victim)
			p.relocate(from, to)
			p.hash ^= z.pieceKey(q, victim) ^ z.pieceKey(pc, from) ^ z.pieceKey(pc, to)
			reset = true
			if v.toHand {
				p.toHand(us, q)
			}
		case Castle:
			rs := m.Aux()
			rt := p.castleTarget(from, rs)
			king, rook := p.board[from], p.board[rs]
			p.castleSwap(from, rs, to, rt)
			p.hash ^= z.pieceKey(king, from) ^ z.pieceKey(king, to) ^ z.pieceKey(rook, rs) ^ z.pieceKey(rook, rt)
		case Drop:
			t := m.Promo()
			n := p.pocket[us][t]
			p.hash ^= pocketKey(int(us), int(t), n) ^ pocketKey(int(us), int(t), n-1)
			p.pocket[us][t] = n - 1
			pc := MakePiece(us, t)
			p.put(to, pc)
			p.hash ^= z.pieceKey(pc, to)
			// A drop cannot be undone: in a variant with drops it resets
			// the move-rule counter, as Fairy-Stockfish counts.
			reset = v.spec.Drops
		case Special:
			if h := v.h.special; h != nil {
				h.MakeSpecial(p, m, outcome)
			}
		}
		if p.castle != 0 && m.Kind() != Drop && m.Kind() != Special {
			if lost := p.castle & (p.castleMask[from] | p.castleMask[to]); lost != 0 {
				p.hash ^= z.castle[p.castle] ^ z.castle[p.castle&^lost]
				p.castle &^= lost
			}
		}
		p.turn = us.Other()
		p.hash ^= z.side
	}
	if h := v.h.after; h != nil {
		h.AfterMake(p, m, outcome)
	}
	// An en-passant right lasts for one turn of the side that may use it:
	// it ends with that side's move, but survives an outcome that changes
	// nothing and keeps the turn (a failed capture try). A right of the
	// other side (created by this side's double step) lasts through this
	// side's further decisions.
	if ownEP && p.ep == prevEP && (outcome == 0 || p.turn != us) {
		p.ClearEnPassant()
	}
	if reset {
		p.halfmove = 0
	} else if p.turn != us {
		p.halfmove++
	}
	if p.turn != us {
		p.ply++
	}
}

// Unmake takes back the last move made.
func (p *Position) Unmake() {
	u := &p.hist[len(p.hist)-1]
	m := u.move
	outcome := int(u.outcome)
	if h := p.v.h.after; h != nil {
		h.AfterUnmake(p, m, outcome)
	}
	if outcome == 0 {
		from, to := m.From(), m.To()
		switch m.Kind() {
		case Normal, Promotion:
			if m.Kind() == Promotion {
				p.replace(to, u.promoted)
			}
			p.relocate(to, from)
			if u.captured != Empty {
				p.restore(to, u.captured, u.capIndex)
				if p.v.toHand {
					p.pocket[u.turn][p.handType(u.captured)]--
				}
			}
		case EnPassant:
			p.relocate(to, from)
			p.restore(m.Aux(), u.captured, u.capIndex)
			if p.v.toHand {
				p.pocket[u.turn][p.handType(u.captured)]--
			}
		case Castle:
			rs := m.Aux()
			p.castleSwap(to, p.castleTarget(from, rs), from, rs)
		case Drop:
			p.remove(to)
			p.pocket[u.turn][m.Promo()]++
		case Special:
			if h := p.v.h.special; h != nil {
				h.UnmakeSpecial(p, m, outcome)
			}
		}
	}
	p.hash = u.zhash
	p.halfmove = int(u.halfmove)
	p.ply = int(u.ply)
	p.ep, p.epVictim = u.ep, u.epVictim
	p.castle = u.castle
	p.turn, p.phase, p.counter = u.turn, u.phase, u.counter
	p.money = u.money
	p.hist = p.hist[:len(p.hist)-1]
}

// MakeNull passes the turn without moving, for search. It clears the
// en-passant square. Undo it with Unmake.
func (p *Position) MakeNull() {
	p.hist = append(p.hist, undo{
		move: NoMove, outcome: 255, hash: p.Hash(), zhash: p.hash,
		halfmove: int32(p.halfmove), ply: int32(p.ply), ep: p.ep, epVictim: p.epVictim,
		castle: p.castle, turn: p.turn, phase: p.phase, counter: p.counter, money: p.money,
	})
	if p.ep != geom.NoSquare {
		p.hash ^= p.v.z.ep[p.ep]
		p.ep, p.epVictim = geom.NoSquare, geom.NoSquare
	}
	p.turn = p.turn.Other()
	p.hash ^= p.v.z.side
	p.halfmove++
	p.ply++
}

// castleTarget returns the square the castling rook on rs goes to when the
// king on ks castles.
func (p *Position) castleTarget(ks, rs geom.Square) geom.Square {
	side := 0
	if rs.File() < ks.File() {
		side = 1
	}
	return geom.Sq(p.v.rookFile[side], ks.Rank())
}

// castleSwap moves the king from kf to kt and the rook from rf to rt; the
// squares may overlap (Chess960).
func (p *Position) castleSwap(kf, rf, kt, rt geom.Square) {
	king, rook := p.board[kf], p.board[rf]
	c := king.Color()
	ki, ri := p.index[kf], p.index[rf]
	p.board[kf], p.board[rf] = Empty, Empty
	p.board[kt], p.board[rt] = king, rook
	p.list[c][ki], p.list[c][ri] = kt, rt
	p.index[kt], p.index[rt] = ki, ri
	p.king[c] = kt
}

// ClearEnPassant removes the en-passant right, if any. Hooks use it when a
// turn continues in a state where the right no longer applies.
func (p *Position) ClearEnPassant() {
	if p.ep != geom.NoSquare {
		p.hash ^= p.v.z.ep[p.ep]
		p.ep, p.epVictim = geom.NoSquare, geom.NoSquare
	}
}

// setEnPassant records the en-passant square s (passed by the pawn that
// now stands on victim) if a pawn of colour by can capture there legally,
// so that positions differing only in an unusable right hash alike.
func (p *Position) setEnPassant(s, victim geom.Square, by Color) {
	v := p.v
	bit := colorBit(by)
	ms := &v.moves[by][v.pawn]
	for _, group := range [][]leg{ms.leaps, ms.special} {
		for i := range group {
			l := &group[i]
			if l.max != 1 || l.mode&betza.Capture == 0 || l.flags != 0 {
				continue
			}
			from := geom.Square(int(s) - l.off)
			capturer := p.board[from]
			if capturer&bit == 0 || capturer.Type() != v.pawn {
				continue
			}
			vp := p.board[victim]
			p.board[victim], p.board[from], p.board[s] = Empty, Empty, capturer
			ok := !p.royalAttackedBoard(by)
			p.board[victim], p.board[from], p.board[s] = vp, capturer, Empty
			if ok {
				p.ep, p.epVictim = s, victim
				p.hash ^= v.z.ep[s]
				return
			}
		}
	}
}

// Outcomes returns the possible results of the legal move m with their
// exact probabilities. A move that chance does not decide has the single
// outcome Certain. The caller picks an index and passes it to MakeOutcome:
// a game draws it from its seeded source, a search weighs every branch.
func (p *Position) Outcomes(m Move) []Outcome {
	if h := p.v.h.chance; h != nil {
		if o := h.Outcomes(p, m); len(o) > 0 {
			return o
		}
	}
	return Certain
}

// ErrRefused is wrapped by the error of Position.Moderate for a move the
// true position does not allow ("illegal, try again").
var ErrRefused = errors.New("refused by the moderator")

// Moderate is the moderator of a game with hidden information: it judges
// m, a move the side to move chose from view (its View of p), against
// the true position p, and returns the move of p that m stands for (a
// view's move may differ from the true position's in what the view does
// not show, such as a capture of an unseen piece). A move p does not
// allow is refused with an error wrapping ErrRefused; the error's text
// may be shown to the player. p is not changed. Servers, matches and the
// terminal all judge moves of hidden-information games with it.
func (p *Position) Moderate(view *Position, m Move) (Move, error) {
	if h := p.v.h.moderate; h != nil {
		return h.Moderate(p, view, m)
	}
	if p.Playable(m) {
		return m, nil
	}
	return NoMove, fmt.Errorf("%w: illegal, try again", ErrRefused)
}

// View returns what player c may see of the position: everything, unless
// the variant hides information.
func (p *Position) View(c Color) View {
	if h := p.v.h.view; h != nil {
		return h.View(p, c)
	}
	var all View
	all.Viewer = c
	for _, s := range p.v.board.Squares() {
		all.Visible.Add(s)
	}
	all.Position = p.Clone()
	return all
}

// handType is the type a captured piece q goes to hand as: a promoted
// piece as a pawn.
func (p *Position) handType(q Piece) Type {
	if u := p.v.demote[q.Type()]; u != 0 {
		return u
	}
	if q&promoted != 0 && p.v.pawn != 0 {
		return p.v.pawn
	}
	return q.Type()
}

// toHand puts the captured piece q in c's reserve (Spec.CapturesToHand),
// keeping the hash; Unmake takes it out again.
func (p *Position) toHand(c Color, q Piece) {
	t := p.handType(q)
	n := p.pocket[c][t]
	p.hash ^= pocketKey(int(c), int(t), n) ^ pocketKey(int(c), int(t), n+1)
	p.pocket[c][t] = n + 1
}
