package crazy

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Stack returns the pieces on square sq of p, bottom (the base) first (see
// Risen for the mark of a risen Bishop). It is nil for an empty square.
func Stack(p *rules.Position, sq geom.Square) []rules.Piece {
	if !board.OnGrid(sq) {
		return nil
	}
	s := view(p)
	b := idxOf(sq)
	if s.height[b] == 0 {
		return nil
	}
	return append([]rules.Piece(nil), s.cells[b][:s.height[b]]...)
}

// Risen reports whether pc is a risen Bishop (CC-24): its attribute
// (Piece.Attr) has bit 0 set.
func Risen(pc rules.Piece) bool { return pc.Attr()&attrRisen != 0 }

// PieceText returns the text of pc, a piece of v, as Crazy-FEN writes it:
// its letter, and "*" after it for a risen Bishop ("B*", "b*").
func PieceText(v *rules.Variant, pc rules.Piece) string {
	if Risen(pc) {
		return string(v.PieceLetter(pc)) + "*"
	}
	return string(v.PieceLetter(pc))
}

// Denial is the denial bookkeeping of a position (CC-3, CC-6).
type Denial struct {
	Holder     rules.Color // who holds the right
	Immune     bool        // some side's next move may not be denied ...
	ImmuneSide rules.Color // ... this one
	Used       int         // denials made in the game
	// Denied is, right after a denial, the move the replacement must
	// differ from (CC-7); NoMove otherwise.
	Denied rules.Move
}

// DenialOf returns the denial bookkeeping of p.
func DenialOf(p *rules.Position) Denial {
	s := view(p)
	d := Denial{Holder: s.v.holder, Used: int(s.v.used), Denied: s.v.denied}
	if s.v.immune != none {
		d.Immune, d.ImmuneSide = true, rules.Color(s.v.immune)
	}
	return d
}

// Removals returns the pieces the last move made on p took off the board,
// in order: captures during its resolution, then self-captures and
// vanished Bishops at the end of the turn. It is empty for a position with
// no move made on it, and for DENY and DRAW.
func Removals(p *rules.Position) []Removal {
	s, ok := p.State().(*state)
	if !ok || len(s.frames) == 0 {
		return nil
	}
	return append([]Removal(nil), s.rem[s.frames[len(s.frames)-1].remMark:]...)
}

// CastlingRights returns the castling rights of p as a bit set: bit 0
// white kingside, 1 white queenside, 2 black kingside, 3 black queenside.
// They live in the variant state (castling is the first step of a King
// move), so Position.Castling does not show them.
func CastlingRights(p *rules.Position) uint8 { return view(p).v.castle }

// IsDeny reports whether m is a denial (the move written DENY).
func IsDeny(m rules.Move) bool { return m == denyMove }
