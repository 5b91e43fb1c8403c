// Package face is what a variant shows the programs above the rules: the
// server, matches, the protocols and the terminal ask it, never the
// variant's own package, which player plays a whole turn, whether games are
// hidden, and what the variant's extra state and a ply look like.
//
// A variant answers through the opaque value it carries
// (rules.Variant.Face, attached where the catalog is assembled) and the
// optional interfaces of this package that value implements: PlayerMaker,
// Describer, Greedy, Designer. A variant whose face implements none of
// them, or that has no face, gets the defaults: the plain search plays
// its turns, its description holds only what every variant has.
//
// The variant's face is found on the variant of the game, not on the
// variant of a view's position: a variant may build its views on a board
// of its own (csipgs's terrain). Functions here therefore take the game's
// variant and the position apart.
package face

import (
	"context"
	"errors"
	"fmt"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// ErrNoMove is returned by a Player when the position has no decision
// left.
var ErrNoMove = errors.New("face: no legal move")

// Player chooses the decisions of one side in a game: its whole turn,
// whatever the turn is made of (a move, a purchase, a design).
type Player interface {
	// Search chooses the decision of the side to move in p, a position the
	// player may see whole, within lim (info, if not nil, follows the
	// search). p is left as it was. With no decision left it returns
	// ErrNoMove (and whatever result the search gave).
	Search(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) (search.Result, error)
	// SearchView chooses the decision of the side to move from view, a
	// position that shows only what that side sees (Position.View). Moves
	// in exclude, refused by the moderator this turn, are not chosen.
	SearchView(ctx context.Context, view *rules.Position, lim search.Limits, exclude []rules.Move) (rules.Move, error)
}

// PlayerMaker is implemented by the face of a variant whose turns are
// not played by the plain search.
type PlayerMaker interface {
	// NewPlayer returns the variant's player, searching with e and
	// drawing whatever it guesses from seed (a game's seed, so that the
	// game replays).
	NewPlayer(e *search.Engine, seed uint64) Player
}

// NewPlayer returns the player of v's whole turns: the one v's face makes,
// or the plain search with e.
func NewPlayer(v *rules.Variant, e *search.Engine, seed uint64) Player {
	if pm, ok := v.Face().(PlayerMaker); ok {
		return pm.NewPlayer(e, seed)
	}
	return Plain(e)
}

// Plain returns the default player: the search e on the position, or on
// the view (a view is a position of the variant; the search plays it as
// if it were the whole truth).
func Plain(e *search.Engine) Player { return plain{e} }

type plain struct{ e *search.Engine }

func (pl plain) Search(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) (search.Result, error) {
	res := pl.e.Search(ctx, p, lim, info)
	if res.Best == rules.NoMove {
		return res, ErrNoMove
	}
	return res, nil
}

func (pl plain) SearchView(ctx context.Context, view *rules.Position, lim search.Limits, exclude []rules.Move) (rules.Move, error) {
	var root []rules.Move
	for _, m := range view.LegalMoves(nil) {
		if !containsMove(exclude, m) {
			root = append(root, m)
		}
	}
	if len(root) == 0 {
		return rules.NoMove, ErrNoMove
	}
	if len(root) == 1 {
		return root[0], nil
	}
	lim.SearchMoves = root
	res := pl.e.Search(ctx, view.Clone(), lim, nil)
	if res.Best == rules.NoMove {
		if err := ctx.Err(); err != nil {
			return rules.NoMove, err
		}
		return root[0], nil
	}
	return res.Best, nil
}

func containsMove(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// Hidden reports whether each player of v sees only its view of a game
// (the variant has a view hook): the server sends each seat its view, a
// match shows each player its view, and every move chosen from a view is
// judged by the moderator (Moderate).
func Hidden(v *rules.Variant) bool { return v.Spec().Hooks.View != nil }

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

// Play chooses the decision of the side to move in p, a position whose
// whole truth the caller holds, with pl: from p itself where nothing is
// hidden; from the side's view where the game is hidden, each choice
// judged by the moderator and a refused one excluded, at most
// maxRefusals times. It returns the move as a move of p and how many
// choices were refused.
func Play(ctx context.Context, pl Player, p *rules.Position, lim search.Limits, maxRefusals int) (rules.Move, int, error) {
	if !Hidden(p.Variant()) {
		res, err := pl.Search(ctx, p, lim, nil)
		return res.Best, 0, err
	}
	view, err := View(p, p.Turn())
	if err != nil {
		return rules.NoMove, 0, err
	}
	var refused []rules.Move
	for range maxRefusals {
		m, err := pl.SearchView(ctx, view, lim, refused)
		if err != nil {
			return rules.NoMove, len(refused), err
		}
		real, err := Moderate(p, view, m)
		if err == nil {
			return real, len(refused), nil
		}
		if !errors.Is(err, rules.ErrRefused) {
			return rules.NoMove, len(refused), err
		}
		refused = append(refused, m)
	}
	return rules.NoMove, len(refused), fmt.Errorf("face: %d moves refused by the moderator", len(refused))
}
