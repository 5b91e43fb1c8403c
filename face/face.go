// Package face is what a variant shows the programs above the rules: the
// server, matches, the protocols and the terminal ask it, never the
// variant's own package, which player plays a whole turn, whether games are
// hidden, and what the variant's extra state and a ply look like.
//
// A variant answers through the opaque value it carries
// (rules.Variant.Face, attached where the catalog is assembled) and the
// optional interfaces that value implements: Describer, Actioner, Greedy, Designer,
// Observer, Commands here, and player.Maker (package face/player, the
// player of whole turns, which sits on the search). A variant whose face
// implements none of them, or that has no face, gets the defaults: the
// plain search plays its turns, its description is empty. Package face
// does not import the search, so that the variant packages, which
// implement its interfaces, stay below it.
//
// The variant's face is found on the variant of the game, not on the
// variant of a view's position: a variant may build its views on a board
// of its own (csipgs's terrain). Functions here therefore take the game's
// variant and the position apart.
package face

import (
	"fmt"

	"github.com/anychess/anychess/rules"
)

// Hidden reports whether each player of v sees only its view of a game
// (the variant has a view hook): the server sends each seat its view, a
// match shows each player its view, and every move chosen from a view is
// judged by the moderator (Moderate).
func Hidden(v *rules.Variant) bool { _, ok := v.Ext().(rules.Viewer); return ok }

// View returns what side c may see of p: p itself where nothing is
// hidden, else the position of c's view.
func View(p *rules.Position, c rules.Color) (*rules.Position, error) {
	if !Hidden(p.Variant()) {
		return p, nil
	}
	view := p.View(c).Position
	if view == nil {
		return nil, fmt.Errorf("no view of the position for %s", c)
	}
	return view, nil
}

// Moderate is the one moderator: it judges move m, chosen from view, on
// the true position p, and returns the move of p it stands for, or an
// error wrapping rules.ErrRefused when the move is refused (the player
// chooses again). Where nothing is hidden, view is p's own view and a
// playable move stands for itself.
func Moderate(p, view *rules.Position, m rules.Move) (rules.Move, error) {
	return p.Moderate(view, m)
}

// Stacker is the face of a variant whose positions may hold several
// pieces on one square, written together in its FEN (Crazy Chess's
// stacks): a position editor then lets a piece placed on an occupied
// square join the piece there.
type Stacker interface {
	Stacks() bool
}

// Stacks reports whether v's positions may hold stacks of pieces.
func Stacks(v *rules.Variant) bool {
	s, ok := v.Face().(Stacker)
	return ok && s.Stacks()
}
