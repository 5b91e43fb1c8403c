package notation

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation/pgn"
)

// TestSetTermination: the tag takes the standard value and the reason
// follows the last move as a comment (or opens the game without moves);
// a value the standard does not have is refused and changes nothing.
func TestSetTermination(t *testing.T) {
	moves := func() []pgn.Move {
		return []pgn.Move{{Text: "f3"}, {Text: "e5"}, {Text: "g4", Comments: []string{"a blunder"}}, {Text: "Qh4#"}}
	}
	tests := []struct {
		name     string
		moves    []pgn.Move
		term     Termination
		reason   string
		lastWant []string // the comments after the last move
		openWant []string // the comments before the first move
		text     string   // in the written game
		err      bool
	}{
		{name: "mate", moves: moves(), term: TermNormal, reason: "white is checkmated",
			lastWant: []string{"white is checkmated"}, text: "2... Qh4# {white is checkmated} 0-1"},
		{name: "time", moves: moves(), term: TermTimeForfeit, reason: "white ran out of time",
			lastWant: []string{"white ran out of time"}, text: `[Termination "time forfeit"]`},
		{name: "no reason", moves: moves(), term: TermAbandoned, text: `[Termination "abandoned"]`},
		{name: "no moves", term: TermAbandoned, reason: "aborted by white",
			openWant: []string{"aborted by white"}, text: "{aborted by white}"},
		{name: "free text", moves: moves(), term: "white is checkmated", reason: "white is checkmated", err: true},
		{name: "empty", moves: moves(), term: "", reason: "white is checkmated", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := &pgn.Game{Moves: tt.moves, Result: "0-1"}
			err := SetTermination(pg, tt.term, tt.reason)
			if tt.err {
				if !errors.Is(err, ErrPGN) {
					t.Errorf("error %v, want one wrapping ErrPGN", err)
				}
				if _, ok := pg.Tag("Termination"); ok || len(pg.Comment) > 0 || len(pg.Moves[len(pg.Moves)-1].Comments) > 0 {
					t.Errorf("a refused value changed the game: %+v", pg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := pg.Tag("Termination"); v != string(tt.term) {
				t.Errorf("Termination %q, want %q", v, tt.term)
			}
			if n := len(pg.Moves); n > 0 && !slices.Equal(pg.Moves[n-1].Comments, tt.lastWant) {
				t.Errorf("comments after the last move %q, want %q", pg.Moves[n-1].Comments, tt.lastWant)
			}
			if !slices.Equal(pg.Comment, tt.openWant) {
				t.Errorf("opening comments %q, want %q", pg.Comment, tt.openWant)
			}
			if n := len(pg.Moves); n > 2 && !slices.Equal(pg.Moves[2].Comments, []string{"a blunder"}) {
				t.Errorf("an earlier move's comments changed: %q", pg.Moves[2].Comments)
			}
			var b strings.Builder
			if err := pgn.Write(&b, pg); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.text) {
				t.Errorf("written game lacks %q:\n%s", tt.text, b.String())
			}
		})
	}
}
