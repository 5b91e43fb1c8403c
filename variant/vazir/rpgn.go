package vazir

import (
	"errors"
	"fmt"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// ErrTurn is wrapped by the errors of turn tokens, with notation.ErrTurn
// or the *notation.MoveError of an element.
var ErrTurn = errors.New("vazir: bad turn token")

// Step is one decision inside a turn: a move and the index of its outcome
// (0 for a move as written, 1 for a failed try).
type Step struct {
	Move    rules.Move
	Outcome int
}

// FailMark ends the text of a failed try in a turn token: the Mark of the
// miss outcome.
const FailMark = "~"

// FormatTurn writes the steps of one whole turn, played from p, as an R-PGN
// turn token (section 1.9): the SAN of each step joined by ",", a failed try
// followed by "~", e.g. "Nxe5~,Bxf7+" or "Rxg3~,Rxg3~,Kh2". p is left as it
// was. The steps must be one complete turn: every step but the last keeps
// the turn, and after the last the turn has passed or the game is over.
// It is notation.FormatTurn for steps; whole games are written by
// notation.WriteGame.
func FormatTurn(p *rules.Position, steps []Step) (string, error) {
	plies := make([]game.Ply, len(steps))
	for i, st := range steps {
		plies[i] = game.Ply{Move: st.Move, Outcome: st.Outcome}
	}
	s, err := notation.FormatTurn(p, plies)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrTurn, err)
	}
	return s, nil
}

// ParseTurn reads an R-PGN turn token in p and returns its steps; p is left
// as it was. Each element is SAN (or coordinates), "~" marking a failed
// try; a "{...}" comment after an element (the roll, "{u=6/9}") is
// skipped. The token must be one complete turn (see FormatTurn). It is
// notation.ParseTurn without the comments; whole games are read by
// notation.ReadGame.
func ParseTurn(p *rules.Position, token string) ([]Step, error) {
	plies, err := notation.ParseTurn(p, token)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTurn, err)
	}
	steps := make([]Step, len(plies))
	for i, pl := range plies {
		steps[i] = Step{Move: pl.Move, Outcome: pl.Outcome}
	}
	return steps, nil
}
