package pgn

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// lineWidth is the longest line of movetext Write produces, unless a single
// unit is longer.
const lineWidth = 79

// Write writes g to w in the export format of the PGN standard:
//
//   - The seven tag roster, in the order Event, Site, Date, Round, White,
//     Black, Result. For each the first tag of that name is written, or if
//     there is none its default value: "?", "????.??.??" for Date, and the
//     game's result for Result. Then every other tag in the order of
//     g.Tags. Backslashes and double quotes in values are escaped; a line
//     break in a value (which PGN cannot hold) is written as a space.
//   - An empty line, then the movetext in lines of at most 79 characters.
//     Lines break between tokens, and never between a move number and its
//     move; a unit longer than a line gets a line of its own.
//   - Move numbers start from the FEN tag if there is one (its second
//     field gives the side to move, its sixth the move number; a missing
//     or bad field means white and 1). A white move is preceded by "N.";
//     a black move by "N..." if it is the first move or the previous move
//     has NAGs or comments. A move whose text begins with ',' (after the
//     first) continues the move before it (an R-PGN turn token broken by a
//     comment, "Nxe5~ {u=6/9} ,Bxf7+"): it gets no number and does not
//     count as a move of its own. A move that gives its own number
//     (Move.Num) is numbered by it, and a white move whose number is the
//     one last written gets none ("1. e4 DENY d4 d5").
//   - A comment is written as {text} with its white space normalised as
//     the Reader does, so it may break across lines; a '}' in it (which
//     would end it early) is written as ')'. A word of a comment that
//     begins with '%' stays on the line of the word before it, so that no
//     line begins with '%' (an escape line). NAGs are written as $n.
//   - The result marker (g.Result, or "*" if it is empty), and an empty
//     line.
//
// So Parse gives back what Write wrote, except for the changes named here:
// the roster tags, "*" for an empty Result, and comments normalised.
//
// A game that PGN cannot represent is an error wrapping ErrSyntax, and
// nothing is written: a tag name that is not letters, digits and
// underscores; a tag value over MaxTagValueLen bytes; a move text that
// would not read back as the same move (empty, with a character outside
// those of a move token, a move number, a result marker, ending in '!' or
// '?', or over MaxTokenLen bytes); a NAG outside 0 to 255; a comment over
// MaxCommentLen bytes; a result that is not a termination marker.
// An error of w is wrapped.
func Write(w io.Writer, g *Game) error {
	b, err := appendGame(nil, g)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	return nil
}

// String returns the game as Write writes it. For a game Write refuses it
// returns the error message instead, which begins "pgn: " and is not PGN.
func (g *Game) String() string {
	b, err := appendGame(nil, g)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// invalid returns an error for a game Write cannot write.
func invalid(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...)}
}

// appendGame appends g in export format to b.
func appendGame(b []byte, g *Game) ([]byte, error) {
	if g == nil {
		return nil, invalid("nil game")
	}
	result := g.Result
	if result == "" {
		result = "*"
	} else if !isResult(result) {
		return nil, invalid("invalid result %q", g.Result)
	}

	// Tags: the seven tag roster with the default value of each tag (that
	// of Result comes from the game), then the others.
	roster := [...]Tag{
		{"Event", "?"},
		{"Site", "?"},
		{"Date", "????.??.??"},
		{"Round", "?"},
		{"White", "?"},
		{"Black", "?"},
		{"Result", ""},
	}
	used := make([]bool, len(g.Tags))
	for _, rt := range roster {
		t := rt
		if t.Name == "Result" {
			t.Value = result
		}
		for i := range g.Tags {
			if g.Tags[i].Name == rt.Name {
				t, used[i] = g.Tags[i], true
				break
			}
		}
		var err error
		if b, err = appendTag(b, t); err != nil {
			return nil, err
		}
	}
	for i, t := range g.Tags {
		if used[i] {
			continue
		}
		var err error
		if b, err = appendTag(b, t); err != nil {
			return nil, err
		}
	}
	b = append(b, '\n')

	// Movetext.
	lw := lineWriter{b: b}
	num, black := startFromFEN(g)
	for _, c := range g.Comment {
		if err := lw.comment(c); err != nil {
			return nil, err
		}
	}
	needNumber := true
	written := 0 // the last move number written
	for i, m := range g.Moves {
		if err := checkMove(m.Text); err != nil {
			return nil, invalid("move %d: %v", i+1, err)
		}
		cont := i > 0 && m.Text[0] == ','
		if m.Num > 0 && !cont {
			num, black = m.Num, m.Black
		}
		switch {
		case cont:
			lw.unit(m.Text)
		case !black && m.Num > 0 && num == written && !needNumber:
			lw.unit(m.Text)
		case !black:
			written = num
			lw.unit(strconv.Itoa(num) + ". " + m.Text)
		case needNumber:
			written = num
			lw.unit(strconv.Itoa(num) + "... " + m.Text)
		default:
			lw.unit(m.Text)
		}
		for _, n := range m.NAGs {
			if n < 0 || n > 255 {
				return nil, invalid("move %d: NAG %d out of range (0 to 255)", i+1, n)
			}
			lw.unit("$" + strconv.Itoa(n))
		}
		for _, c := range m.Comments {
			if err := lw.comment(c); err != nil {
				return nil, err
			}
		}
		needNumber = len(m.NAGs) > 0 || len(m.Comments) > 0
		if cont {
			continue
		}
		if black {
			num++
		}
		black = !black
	}
	lw.unit(result)
	return append(lw.b, '\n', '\n'), nil
}

// appendTag appends a tag pair line to b.
func appendTag(b []byte, t Tag) ([]byte, error) {
	if t.Name == "" {
		return nil, invalid("empty tag name")
	}
	if len(t.Name) > MaxTokenLen {
		return nil, invalid("tag name too long (over %d bytes)", MaxTokenLen)
	}
	for i := 0; i < len(t.Name); i++ {
		if !isNameChar(t.Name[i]) {
			return nil, invalid("invalid tag name %q", t.Name)
		}
	}
	if len(t.Value) > MaxTagValueLen {
		return nil, invalid("tag %s: value too long (over %d bytes)", t.Name, MaxTagValueLen)
	}
	b = append(b, '[')
	b = append(b, t.Name...)
	b = append(b, ' ', '"')
	for i := 0; i < len(t.Value); i++ {
		switch c := t.Value[i]; c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\n', '\r':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"', ']', '\n'), nil
}

// checkMove reports why a move text would not read back as itself.
func checkMove(text string) error {
	switch {
	case text == "":
		return fmt.Errorf("empty move")
	case len(text) > MaxTokenLen:
		return fmt.Errorf("move too long (over %d bytes)", MaxTokenLen)
	case isResult(text):
		return fmt.Errorf("move %q is a result marker", text)
	case isDigits(text):
		return fmt.Errorf("move %q is a move number", text)
	}
	for i := 0; i < len(text); i++ {
		if !isSymbol(text[i]) {
			return fmt.Errorf("invalid character %s in move %q", describe(text[i], true), text)
		}
	}
	if c := text[len(text)-1]; c == '!' || c == '?' {
		return fmt.Errorf("move %q ends in an annotation", text)
	}
	return nil
}

// startFromFEN returns the number of the first move and whether black
// makes it, from the FEN tag of g.
func startFromFEN(g *Game) (num int, black bool) {
	num = 1
	fen, ok := g.Tag("FEN")
	if !ok {
		return num, false
	}
	f := fields(fen)
	if len(f) >= 2 && f[1] == "b" {
		black = true
	}
	if len(f) >= 6 && isDigits(f[5]) && len(f[5]) <= 9 {
		if n, err := strconv.Atoi(f[5]); err == nil && n >= 1 {
			num = n
		}
	}
	return num, black
}

// lineWriter wraps movetext.
type lineWriter struct {
	b    []byte
	line int // length of the current line
}

// unit writes s, which may not be broken, after a space or a line break.
func (lw *lineWriter) unit(s string) {
	if lw.line > 0 {
		if lw.line+1+len(s) > lineWidth {
			lw.b = append(lw.b, '\n')
			lw.line = 0
		} else {
			lw.b = append(lw.b, ' ')
			lw.line++
		}
	}
	lw.b = append(lw.b, s...)
	lw.line += len(s)
}

// comment writes a comment, breaking it between words where needed. A word
// that begins with '%' stays on the line of the word before it, so that no
// line of the output begins with '%' (an escape line for some readers).
func (lw *lineWriter) comment(text string) error {
	text = normalizeSpace(strings.ReplaceAll(text, "}", ")"))
	if len(text) > MaxCommentLen {
		return invalid("comment too long (over %d bytes)", MaxCommentLen)
	}
	words := fields(text)
	if len(words) == 0 {
		lw.unit("{}")
		return nil
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	var u []byte
	for i, w := range words {
		if i > 0 && w[0] != '%' {
			lw.unit(string(u))
			u = u[:0]
		}
		if len(u) > 0 {
			u = append(u, ' ')
		}
		u = append(u, w...)
	}
	lw.unit(string(u))
	return nil
}
