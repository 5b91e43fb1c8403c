package face

import (
	"io"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// Console is a terminal game (anychess play) as the commands a variant
// adds to it see it (Commands).
type Console struct {
	Out     io.Writer
	Variant *rules.Variant // the game's variant, with its options
	Human   rules.Color    // the human's side
	// Position returns the position the human sees: the game's, or in a
	// hidden game the human's view of it. Do not change it.
	Position func() *rules.Position
	// Over reports whether the game is over.
	Over func() bool
	// Play plays m, a move of the position the human sees, for the human
	// as a typed move is played (in a hidden game the moderator judges it
	// first), and says so; it returns the refusal or failure.
	Play func(m rules.Move) error
	// Show draws the board and the state of the game.
	Show func()
	// Lines, when a command sets it, takes the next lines of input (with
	// the prompt Prompt) until it returns false.
	Lines  func(line string) bool
	Prompt string
}

// Commands is implemented by the face of a variant that adds commands to
// the terminal game.
type Commands interface {
	// Help returns what the help command adds, in lines.
	Help() string
	// Command carries out the command name with its argument arg, and
	// reports whether name is one of the variant's commands.
	Command(c *Console, name, arg string) bool
}

// Observer is implemented by the face of a hidden variant: what a player
// learns of a ply.
type Observer interface {
	// Observe returns what side c learns of move m made in p: its text
	// when c sees it whole, "" otherwise, and a note on what c saw of a
	// ply it did not see whole ("a piece left e5"). p is left as it was.
	Observe(p *rules.Position, m rules.Move, c rules.Color) (text, note string)
}

// Observe returns what side c learns of move m made in p, a position of
// the game's variant v: the variant's own answer (Observer), or the move
// in coordinates where nothing is hidden, nothing where something is.
func Observe(v *rules.Variant, p *rules.Position, m rules.Move, c rules.Color) (text, note string) {
	if o, ok := v.Face().(Observer); ok {
		return o.Observe(p, m, c)
	}
	if !Hidden(v) || p.Turn() == c {
		return notation.Coord(p, m), ""
	}
	return "", ""
}
