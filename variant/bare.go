package variant

import (
	"fmt"

	"github.com/anychess/anychess/rules"
)

// bareReply is the bare-king rule of shatranj and courier
// (end.bare_king_reply), as Fairy-Stockfish's extinction rule with its
// claim: a side left with its king alone (one piece or none) loses, with
// the value given, when the opponent has two pieces or more; a side to
// move that is bare loses only if the opponent has three pieces or more,
// since it may still take the opponent's last piece besides the king.
// It is an Ender: judged before the standard rules, in perft too, as
// Fairy-Stockfish ends its move generation there.
type bareReply struct {
	value rules.Value // for the bare side: rules.Loss, WinValue or DrawValue
}

// End implements rules.Ender.
func (b *bareReply) End(p *rules.Position) (rules.Status, bool) {
	us := p.Turn()
	for _, c := range [2]rules.Color{us.Other(), us} {
		need := 2
		if c == us {
			need = 3
		}
		if len(p.Pieces(c)) <= 1 && len(p.Pieces(c.Other())) >= need {
			return b.status(c), true
		}
	}
	return rules.Status{}, false
}

// status is the end of the game for the bare side c.
func (b *bareReply) status(c rules.Color) rules.Status {
	detail := fmt.Sprintf("%s has a bare king", c)
	switch b.value {
	case rules.WinValue:
		return rules.Status{Result: rules.Win(c), Reason: rules.ReasonBareKing, Detail: detail + " and wins"}
	case rules.DrawValue:
		return rules.Status{Result: rules.Draw, Reason: rules.ReasonBareKing, Detail: detail + ": draw"}
	}
	return rules.Status{Result: rules.Win(c.Other()), Reason: rules.ReasonBareKing, Detail: detail + " and loses"}
}
