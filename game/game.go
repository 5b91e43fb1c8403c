// Package game keeps a game record: the variant, the start position, the
// plies played (each move with its chance outcome and annotations), the
// tags, and the result. A record replays exactly: playing its plies from
// its start gives the same positions every time.
package game

import (
	"errors"
	"fmt"

	"github.com/anychess/anychess/rules"
)

// ErrIllegal is wrapped when a ply cannot be played.
var ErrIllegal = errors.New("illegal move")

// Ply is one decision in the game: a move, the outcome chance gave it (0
// for a certain move), and annotations.
type Ply struct {
	Move     rules.Move
	Outcome  int
	NAGs     []int
	Comments []string
}

// Tag is a name and value, as in PGN.
type Tag struct{ Name, Value string }

// Game is a game record. Create one with New; add plies with Play.
type Game struct {
	Variant  *rules.Variant
	Tags     []Tag
	Comments []string // before the first move
	Plies    []Ply
	Result   rules.Result // a result set by the players (resignation, agreement) or by rule
	Reason   string       // why the game ended, if it did

	start *rules.Position
	pos   *rules.Position
}

// New returns a game of v from the position start (nil: v's start).
func New(v *rules.Variant, start *rules.Position) *Game {
	if start == nil {
		start = v.Start()
	}
	return &Game{Variant: v, start: start.Clone(), pos: start.Clone()}
}

// Start returns a copy of the start position.
func (g *Game) Start() *rules.Position { return g.start.Clone() }

// Position returns the current position. It is the game's own: do not
// change it (Clone it first).
func (g *Game) Position() *rules.Position { return g.pos }

// Play checks that m is legal, that outcome is one of its outcomes, and
// plays it.
func (g *Game) Play(m rules.Move, outcome int) error {
	if !g.pos.Playable(m) {
		return fmt.Errorf("%w: %#v in %s", ErrIllegal, m, g.pos.FEN())
	}
	if n := len(g.pos.Outcomes(m)); outcome < 0 || outcome >= n {
		return fmt.Errorf("%w: outcome %d of a move with %d outcomes", ErrIllegal, outcome, n)
	}
	g.pos.MakeOutcome(m, outcome)
	g.Plies = append(g.Plies, Ply{Move: m, Outcome: outcome})
	return nil
}

// Undo takes back the last ply, if any.
func (g *Game) Undo() bool {
	if len(g.Plies) == 0 {
		return false
	}
	g.pos.Unmake()
	g.Plies = g.Plies[:len(g.Plies)-1]
	return true
}

// Status returns the result: the one set on the game if any, else the
// result by rule in the current position.
func (g *Game) Status() rules.Status {
	if g.Result != rules.Ongoing {
		return rules.Status{Result: g.Result, Reason: rules.ReasonVariant, Detail: g.Reason}
	}
	return g.pos.Status()
}

// Tag returns the value of the first tag with the given name.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets a tag, replacing the first one of that name.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// TurnOver reports whether a ply by mover that led to p ended mover's
// turn: another side is to move, or the game is over. A ply that leaves the
// turn with its mover (a failed Vazir try) is followed by more plies of the
// same turn; a turn is the run of plies up to one that ends it.
func TurnOver(p *rules.Position, mover rules.Color) bool {
	return p.Turn() != mover || p.Status().Over()
}

// Rolled reports whether a ply of g had its outcome drawn by chance (a
// move with more than one possible outcome, such as a Vazir capture try).
// A start drawn by chance is not counted.
func (g *Game) Rolled() bool {
	rolled := false
	g.Replay(func(p *rules.Position, i int) {
		rolled = rolled || len(p.Outcomes(g.Plies[i].Move)) > 1
	})
	return rolled
}

// Replay walks the plies from the start, calling f with the position before
// each ply (f must not change it) and the ply's index.
func (g *Game) Replay(f func(p *rules.Position, i int)) {
	p := g.start.Clone()
	for i, pl := range g.Plies {
		f(p, i)
		p.MakeOutcome(pl.Move, pl.Outcome)
	}
}
