package crazy

import (
	"strings"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// GroupDenial is the group (face.Action.Group) of denying the last move
// and claiming the draw after the third denial.
const GroupDenial = "denial"

// Action describes the moves of Crazy Chess that are not one piece's move
// from one square to another (face.Actioner): a denial (CC-5) and the
// claim of the draw after the third, in the denial group; a disguise or
// chain (CC-29), the Queen's all-round capture, castling with the King's
// second step, and the King's two steps that end where they began, each
// labelled in words with its text after them. Every other move is played
// on the board.
func (Face) Action(p *rules.Position, m rules.Move) (face.Action, bool) {
	d, ok := decode(m)
	if !ok {
		return face.DefaultAction(p, m)
	}
	text := notation.Coord(p, m)
	switch d.kind {
	case kDeny:
		return face.Action{Label: "deny the last move", Group: GroupDenial}, true
	case kDraw:
		return face.Action{Label: "claim the draw", Group: GroupDenial}, true
	case kAround:
		return face.Action{Label: "capture all around (" + text + ")"}, true
	case kDisguise:
		return face.Action{Label: disguiseLabel(text)}, true
	case kCastle:
		side := "kingside"
		if d.long {
			side = "queenside"
		}
		return face.Action{Label: "castle " + side + " (" + text + ")"}, true
	case kKing:
		if m.From() == m.To() {
			return face.Action{Label: "the King steps out and back (" + text + ")"}, true
		}
	}
	return face.Action{}, false
}

// disguiseLabel words a disguise's text "De3/1:e2,d2,c2" (promotions may
// follow): the pawns that swap places in turn with the piece.
func disguiseLabel(text string) string {
	head, chain, ok := strings.Cut(strings.TrimPrefix(text, "D"), ":")
	if !ok {
		return "disguise (" + text + ")"
	}
	if i := strings.IndexAny(chain, "=&+#"); i >= 0 {
		chain = chain[:i]
	}
	pawns := strings.Split(chain, ",")
	who := "the pawn on " + pawns[0] + " swaps places"
	if len(pawns) > 1 {
		who = "the pawns on " + strings.Join(pawns, ", ") + " swap places in turn"
	}
	return "disguise: " + who + " with the piece on " + head + " (" + text + ")"
}
