package crazy

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestIllegalNotSyntax: a text in the move syntax that names no legal move
// is an illegal move, with the reason where there is one, through
// notation.ParseMove as through ParseMove; a text the syntax cannot read is
// not a move.
func TestIllegalNotSyntax(t *testing.T) {
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0"
	for _, c := range []struct {
		name   string
		fen    string
		before []string
		text   string
		want   error
		msg    string
	}{
		{"a king move onto an own piece", start, nil, "Ke1-e2-e1", notation.ErrIllegal, "white has no such move"},
		{"a king capture", start, nil, "Ke1xe5-e4", notation.ErrIllegal, "no such move"},
		{"a path capture", start, nil, "Ng1-f3xg2", notation.ErrIllegal, "no such move"},
		{"a disguise", start, nil, "De3:e2", notation.ErrIllegal, "no such move"},
		{"castling", start, nil, "O-O,g1^f1", notation.ErrIllegal, "no such move"},
		{"DENY from FEN", start, nil, "DENY", notation.ErrIllegal, "last move is not known"},
		{"DENY a denial", start, []string{"e2-e4", "DENY"}, "DENY", notation.ErrIllegal, "cannot be denied"},
		{"DENY the replacement", start, []string{"e2-e4", "DENY", "d2-d4"}, "DENY", notation.ErrIllegal, "the right to deny is white's"},
		{"DENY after the replacement", start, []string{"e2-e4", "DENY", "d2-d4", "d7-d5"}, "DENY", notation.ErrIllegal, "after a denial"},
		{"DENY a knight move", start, []string{"Ng1-f3"}, "DENY", notation.ErrIllegal, "Knight move without a path capture"},
		{"DRAW", start, nil, "DRAW", notation.ErrIllegal, "DenialDrawRule is off"},
		{"the denied move", start, []string{"e2-e4", "DENY"}, "e2-e4", notation.ErrIllegal, "may not be played again"},
		{"not the syntax", start, nil, "e5-4xe5", notation.ErrSyntax, ""},
		{"gibberish", start, nil, "Zz9", notation.ErrSyntax, ""},
	} {
		v := newVariant(t, nil)
		for _, reader := range []struct {
			name  string
			parse func(*rules.Position, string) (rules.Move, error)
		}{{"notation", notation.ParseMove}, {"crazy", ParseMove}} {
			if reader.name == "crazy" && c.want == notation.ErrSyntax {
				continue
			}
			p := parse(t, v, c.fen)
			play(t, p, c.before...)
			_, err := reader.parse(p, c.text)
			if !errors.Is(err, c.want) || !strings.Contains(errString(err), c.msg) {
				t.Errorf("%s, %s: %s: %v, want %v with %q", c.name, reader.name, c.text, err, c.want, c.msg)
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
