// Package player is the player of a variant's whole turns: the one the
// variant's face makes (Maker), or the plain search; and Play, the one
// loop in which a player of a hidden game chooses from its view and the
// moderator (face.Moderate) judges each choice. The server, matches, the
// protocols and the terminal ask it, never the variant's own package.
package player

import (
	"context"
	"errors"
	"fmt"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// ErrNoMove is returned by a Player when the position has no decision
// left.
var ErrNoMove = errors.New("player: no legal move")

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

// Maker is implemented by the face (package face) of a variant whose turns are
// not played by the plain search.
type Maker interface {
	// NewPlayer returns the variant's player, searching with e and
	// drawing whatever it guesses from seed (a game's seed, so that the
	// game replays).
	NewPlayer(e *search.Engine, seed uint64) Player
}

// Configurable is implemented by a Player with settings of its own (the
// moderated csipgs engine's belief). SetOption sets one by name; a name
// the player does not know is refused with an error, and a caller that
// hands the same settings to players of several variants may ignore it.
type Configurable interface {
	SetOption(name, value string) error
}

// New returns the player of v's whole turns: the one v's face makes,
// or the plain search with e.
func New(v *rules.Variant, e *search.Engine, seed uint64) Player {
	if pm, ok := v.Face().(Maker); ok {
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

// Play chooses the decision of the side to move in p, a position whose
// whole truth the caller holds, with pl: from p itself where nothing is
// hidden; from the side's view where the game is hidden, each choice
// judged by the moderator and a refused one excluded, at most
// maxRefusals times. It returns the move as a move of p and how many
// choices were refused.
func Play(ctx context.Context, pl Player, p *rules.Position, lim search.Limits, maxRefusals int) (rules.Move, int, error) {
	if !face.Hidden(p.Variant()) {
		res, err := pl.Search(ctx, p, lim, nil)
		return res.Best, 0, err
	}
	view, err := face.View(p, p.Turn())
	if err != nil {
		return rules.NoMove, 0, err
	}
	var refused []rules.Move
	for range maxRefusals {
		m, err := pl.SearchView(ctx, view, lim, refused)
		if err != nil {
			return rules.NoMove, len(refused), err
		}
		real, err := face.Moderate(p, view, m)
		if err == nil {
			return real, len(refused), nil
		}
		if !errors.Is(err, rules.ErrRefused) {
			return rules.NoMove, len(refused), err
		}
		refused = append(refused, m)
	}
	return rules.NoMove, len(refused), fmt.Errorf("player: %d moves refused by the moderator", len(refused))
}
