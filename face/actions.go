package face

import (
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// Action is a legal move that is not a piece's move from one square to
// another, described for a front that draws it: a button with a label in
// a row of its group, or a piece dragged from the reserve onto a square.
type Action struct {
	// Move is the move's text as the legal moves are written
	// (notation.Coord); a front sends it to play the action.
	Move string `json:"move"`
	// Label says what the action does, in the variant's words ("buy N
	// (FfR) — 3 zorkmids", "deny the last move").
	Label string `json:"label"`
	// Group names the row the action belongs in ("shop", "design"); ""
	// for the general row.
	Group string `json:"group,omitempty"`
	// Piece and To are set for a piece put onto the board from the
	// reserve: the FEN letter of its type, upper case, and the square.
	Piece string `json:"piece,omitempty"`
	To    string `json:"to,omitempty"`
}

// Actioner is implemented by the face of a variant with moves of its own
// kind (purchases, denials, design changes) that describes them.
type Actioner interface {
	// Action describes m, a legal move of p, as an action; ok is false
	// for a piece's move from one square to another, which a front plays
	// on the board. Move, left empty, is filled in by Actions. p is the
	// position the receiver may see (a view of a hidden game).
	Action(p *rules.Position, m rules.Move) (a Action, ok bool)
}

// DefaultAction describes m, a legal move of p, as a variant without an
// Actioner: a drop is a piece put from the reserve (Piece and To, its
// text as label), a move of the variant's own kind (rules.Special) a
// button labelled with its text; every other move is a move from one
// square to another and no action.
func DefaultAction(p *rules.Position, m rules.Move) (Action, bool) {
	switch m.Kind() {
	case rules.Drop:
		text := notation.Coord(p, m)
		return Action{Move: text, Label: text, Piece: string(p.Variant().Letter(m.Promo())), To: m.To().String()}, true
	case rules.Special:
		text := notation.Coord(p, m)
		return Action{Move: text, Label: text}, true
	}
	return Action{}, false
}

// Actions describes the actions among moves, legal moves of p, by the
// face of v, the game's variant (DefaultAction where v has no Actioner),
// in the order of moves. p is the position the receiver may see.
func Actions(v *rules.Variant, p *rules.Position, moves []rules.Move) []Action {
	describe := DefaultAction
	if a, ok := v.Face().(Actioner); ok {
		describe = a.Action
	}
	var out []Action
	for _, m := range moves {
		a, ok := describe(p, m)
		if !ok {
			continue
		}
		if a.Move == "" {
			a.Move = notation.Coord(p, m)
		}
		if a.Label == "" {
			a.Label = a.Move
		}
		out = append(out, a)
	}
	return out
}
