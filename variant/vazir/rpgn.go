package vazir

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// ErrTurn is wrapped by the errors of turn tokens.
var ErrTurn = errors.New("vazir: bad turn token")

// Step is one decision inside a turn: a move and the index of its outcome
// (0 for a move as written, 1 for a failed try).
type Step struct {
	Move    rules.Move
	Outcome int
}

// FailMark ends the text of a failed try in a turn token.
const FailMark = "~"

// FormatTurn writes the steps of one whole turn, played from p, as an R-PGN
// turn token (section 1.9): the SAN of each step joined by ",", a failed try
// followed by "~", e.g. "Nxe5~,Bxf7+" or "Rxg3~,Rxg3~,Kh2". p is left as it
// was. The steps must be one complete turn: every step but the last keeps
// the turn, and after the last the turn has passed or the game is over.
func FormatTurn(p *rules.Position, steps []Step) (string, error) {
	q := p.Clone()
	parts := make([]string, 0, len(steps))
	for i, st := range steps {
		if err := checkStep(q, st, i); err != nil {
			return "", err
		}
		text := notation.SAN(q, st.Move)
		if st.Outcome != 0 {
			text += FailMark
		}
		parts = append(parts, text)
		if err := playStep(q, st, i, len(steps)); err != nil {
			return "", err
		}
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("%w: no steps", ErrTurn)
	}
	return strings.Join(parts, ","), nil
}

// ParseTurn reads an R-PGN turn token in p and returns its steps; p is left
// as it was. Each element is SAN (or coordinates), "~" marking a failed
// try; a "{...}" comment after an element (the roll, "{u=6/9}") is
// skipped. The token must be one complete turn (see FormatTurn).
func ParseTurn(p *rules.Position, token string) ([]Step, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, fmt.Errorf("%w: empty", ErrTurn)
	}
	q := p.Clone()
	elems := strings.Split(token, ",")
	steps := make([]Step, 0, len(elems))
	for i, e := range elems {
		if j := strings.IndexByte(e, '{'); j >= 0 {
			if !strings.HasSuffix(e, "}") {
				return nil, fmt.Errorf("%w: %q: unclosed comment in %q", ErrTurn, token, e)
			}
			e = e[:j]
		}
		text, failed := strings.CutSuffix(e, FailMark)
		m, err := notation.ParseMove(q, text)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: element %d: %w", ErrTurn, token, i+1, err)
		}
		st := Step{Move: m}
		if failed {
			st.Outcome = 1
		}
		if err := checkStep(q, st, i); err != nil {
			return nil, fmt.Errorf("%w (in %q)", err, token)
		}
		if err := playStep(q, st, i, len(elems)); err != nil {
			return nil, fmt.Errorf("%w (in %q)", err, token)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// checkStep checks that st is a legal move with an existing outcome.
func checkStep(q *rules.Position, st Step, i int) error {
	legal := false
	for _, m := range q.LegalMoves(nil) {
		legal = legal || m == st.Move
	}
	if !legal {
		return fmt.Errorf("%w: step %d is not a legal move in %s", ErrTurn, i+1, RFEN(q))
	}
	if n := len(q.Outcomes(st.Move)); st.Outcome < 0 || st.Outcome >= n {
		if n == 1 {
			return fmt.Errorf("%w: step %d (%s) cannot fail: it is certain", ErrTurn, i+1, notation.SAN(q, st.Move))
		}
		return fmt.Errorf("%w: step %d has outcome %d of %d", ErrTurn, i+1, st.Outcome, n)
	}
	return nil
}

// playStep plays st on q and checks where it leaves the turn.
func playStep(q *rules.Position, st Step, i, n int) error {
	us := q.Turn()
	q.MakeOutcome(st.Move, st.Outcome)
	passed := q.Turn() != us || q.Status().Over()
	switch {
	case i < n-1 && passed:
		return fmt.Errorf("%w: the turn ends at step %d of %d", ErrTurn, i+1, n)
	case i == n-1 && !passed:
		return fmt.Errorf("%w: the turn does not end after step %d", ErrTurn, n)
	}
	return nil
}
