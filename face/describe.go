package face

import (
	"github.com/anychess/anychess/rules"
)

// Description is a variant's extra state in one position, as plain data
// every front draws the same way (the server sends it in its frames, the
// terminal prints it, the page draws it): what the board and the FEN's
// plain fields do not show.
type Description struct {
	// Phase names the part of a turn of several parts the side to move is
	// in ("design phase"); "" in a turn of one part.
	Phase string `json:"phase,omitempty"`
	// Turn says what the turn's decisions so far mean for the side to
	// move ("try 2 of 3 (1 failed)"); "" when there is nothing to say.
	Turn string `json:"turn,omitempty"`
	// Squares are the squares with a mark: a short label drawn on the
	// square, a kind of mark, and a longer title.
	Squares []Square `json:"squares,omitempty"`
	// Counters are numbers and texts per side (or for both): treasuries,
	// reserves, the holder of a right.
	Counters []Counter `json:"counters,omitempty"`
	// Types are the piece types in play with their movement and price
	// (the designs of a game whose pieces are designed).
	Types []PieceType `json:"types,omitempty"`
	// Notes are further lines of text, in order.
	Notes []string `json:"notes,omitempty"`
}

// Square is one marked square of a Description.
type Square struct {
	Square string `json:"square"`          // "e4"
	Label  string `json:"label,omitempty"` // short text on the square ("2", "*", "5")
	// Mark is the kind of mark, for the front to style: "stack", "risen",
	// "rank-white", "rank-black" or a variant's own.
	Mark  string `json:"mark,omitempty"`
	Title string `json:"title,omitempty"` // a longer text ("R n b, bottom to top")
}

// Counter is one number or text of a Description, for a side or for both.
type Counter struct {
	Side  string `json:"side,omitempty"` // "white", "black", or "" for both
	Name  string `json:"name"`           // "treasury"
	Value string `json:"value"`          // "12 zorkmids"; "hidden" when the viewer may not know it
	// Unit is the unit an amount of the counter counts, singular
	// ("zorkmid"), where it counts money a price is paid in; "" otherwise.
	Unit string `json:"unit,omitempty"`
}

// PieceType is one piece type in play.
type PieceType struct {
	// Side owns the type where each side has its own ("white", "black"),
	// "" where the type is common.
	Side     string `json:"side,omitempty"`
	Letter   string `json:"letter"`             // the FEN letter, upper case
	Name     string `json:"name,omitempty"`     // "knight"
	Movement string `json:"movement,omitempty"` // in Betza's notation
	Price    int    `json:"price,omitempty"`    // what a piece of it costs, where pieces are bought
}

// Describer is implemented by the face of a variant with extra state.
// Both methods take the position as the viewer may see it: a view of a
// hidden game, never the true position, for a player or a spectator while
// the game runs. p may be a position of a variant built for views (a
// board of its own), not the game's variant.
type Describer interface {
	// Describe describes p's extra state.
	Describe(p *rules.Position) Description
	// DescribePly says what the last ply made on p did, in order, as
	// text ("r a8", "P a8 self-capture"); nil for nothing to say.
	DescribePly(p *rules.Position) []string
}

// Describe returns the description of p by the face of v, the game's
// variant; empty where v has no Describer.
func Describe(v *rules.Variant, p *rules.Position) Description {
	if d, ok := v.Face().(Describer); ok && p != nil {
		return d.Describe(p)
	}
	return Description{}
}

// DescribePly returns what the last ply made on p did, by the face of v,
// the game's variant; nil where v has no Describer.
func DescribePly(v *rules.Variant, p *rules.Position) []string {
	if d, ok := v.Face().(Describer); ok && p != nil {
		return d.DescribePly(p)
	}
	return nil
}

// Empty reports whether d says nothing.
func (d Description) Empty() bool {
	return d.Phase == "" && d.Turn == "" && len(d.Squares) == 0 && len(d.Counters) == 0 && len(d.Types) == 0 && len(d.Notes) == 0
}
