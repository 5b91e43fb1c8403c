package csipgs

import (
	"fmt"

	"github.com/anychess/anychess/rules"
)

// Observed says what colour c learns of the ply m played in p, for a
// moderated game's record as one player saw it (the full record stays the
// game's own). c's own plies are seen whole. Of the opponent's: a design
// change or no change, and a buy, are public (CS-M4) unless HideEconomy
// hides the opponent's treasury, reserve and designs; a piece move is
// seen whole if c sees both its squares (the origin before it, the
// destination after it), and otherwise only what c saw of it; a transfer
// is seen if c sees the square after it. text is the ply as written
// (FormatMove) when c sees it whole, "" otherwise; note says what c saw of
// a ply it did not see whole ("a piece left e5", "a move out of sight").
// p is left as it was.
func Observed(p *rules.Position, m rules.Move, c rules.Color) (text, note string) {
	z, ok := ensure(p)
	if !ok {
		return "", ""
	}
	full := FormatMove(p, m)
	if p.Turn() == c {
		return full, ""
	}
	switch KindOf(m) {
	case Redesign, Pass:
		if !z.o.HideEconomy {
			return full, ""
		}
		return "", "a design decision out of sight"
	case Buy:
		if !z.o.HideEconomy {
			return full, ""
		}
		return "", "an action out of sight"
	}
	st := z.stateOf(p)
	before := z.visible(p, st, c)
	q := p.Clone()
	q.Make(m)
	after := z.visible(q, z.stateOf(q), c)
	switch KindOf(m) {
	case PieceMove:
		victim := p.At(m.To())
		from := before.Has(m.From())
		to := after.Has(m.To()) || victim.IsPiece() && victim.Color() == c // c sees its piece taken
		switch {
		case from && to:
			return full, ""
		case from:
			return "", fmt.Sprintf("a piece left %s", m.From())
		case to:
			return "", fmt.Sprintf("a piece arrived on %s", m.To())
		}
	case Transfer:
		if after.Has(m.To()) {
			return full, ""
		}
		if !z.o.HideEconomy {
			return "", "a transfer out of sight"
		}
	}
	return "", "an action out of sight"
}
