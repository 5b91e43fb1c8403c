package notation

import (
	"fmt"

	"github.com/anychess/anychess/notation/pgn"
)

// Termination is a value of the PGN Termination tag (PGN standard 9.8.1):
// how a game ended, in one of a few fixed words. The end in words goes
// into a comment after the last move (SetTermination).
type Termination string

// The Termination values anychess writes.
const (
	TermNormal          Termination = "normal"           // by the rules, a resignation or an agreement
	TermAdjudication    Termination = "adjudication"     // decided by someone else than the players, such as a match's limit of plies
	TermTimeForfeit     Termination = "time forfeit"     // a flag fell, or an engine did not answer in time
	TermRulesInfraction Termination = "rules infraction" // an illegal move, a false claim
	TermAbandoned       Termination = "abandoned"        // aborted, or a player crashed or could not go on
)

// valid reports whether t is one of the values above.
func (t Termination) valid() bool {
	switch t {
	case TermNormal, TermAdjudication, TermTimeForfeit, TermRulesInfraction, TermAbandoned:
		return true
	}
	return false
}

// SetTermination records how the game pg ended: its Termination tag is
// set to term, and reason, the end in words ("white is checkmated"), is
// added as a comment after the last move (to the game's opening comments
// if it has no moves; no comment if reason is empty). A term that is not
// one of the Term values is an error, and pg is left as it was.
func SetTermination(pg *pgn.Game, term Termination, reason string) error {
	if !term.valid() {
		return fmt.Errorf("%w: %q is not a PGN Termination value", ErrPGN, string(term))
	}
	pg.SetTag("Termination", string(term))
	switch n := len(pg.Moves); {
	case reason == "":
	case n > 0:
		pg.Moves[n-1].Comments = append(pg.Moves[n-1].Comments, reason)
	default:
		pg.Comment = append(pg.Comment, reason)
	}
	return nil
}
