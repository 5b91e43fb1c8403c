// Package pgn reads and writes Portable Game Notation: tag pairs, movetext
// with comments, NAGs and variations, and results. It knows nothing of the
// rules: moves are kept as the text the file gives; package notation
// replays them.
//
// # Reading
//
// A Reader returns the games of a PGN stream one at a time; Parse reads all
// the games of a string. The reader follows section 8 of the PGN standard
// and accepts what real files contain:
//
//   - Tag pairs [Name "value"], with the escapes \" and \\ in the value (a
//     backslash before any other character is kept as it is). A tag name is
//     made of letters, digits and underscores. A value may not span lines.
//   - Move number indications (12. 12... 12. ...) are skipped, as are bare
//     integers and stray periods.
//   - A move is any other run of characters that are neither white space
//     nor one of {}()[];$."% nor control characters, and that is not a
//     result marker. Its text is kept as written (check marks + and #
//     included) except for a suffix annotation !, ?, !!, ??, !? or ?!,
//     which is removed and becomes NAG 1, 2, 3, 4, 5 or 6. A suffix
//     annotation written as a token of its own annotates the previous move;
//     one after a move number or a result marker is an error, as is a run
//     of ! and ? that is none of the six.
//   - Comments {...} (over several lines, not nested) and ; to the end of
//     the line. The text of a comment is normalised: white space at both
//     ends is removed and every other run of white space (line breaks
//     included) becomes one space.
//   - NAGs $0 to $255 annotate the previous move; before the first move
//     they are ignored.
//   - Variations (...) may nest up to MaxDepth levels; they are skipped,
//     comments and all.
//   - A line with % in its first column is an escape line and is ignored
//     (inside a brace comment it is comment text).
//   - The result markers 1-0, 0-1, 1/2-1/2 and * end a game. A game may
//     also end without one, at the end of the input or where the next tag
//     section begins (its Result is then "").
//   - A byte order mark at the start of the input is skipped, and lines may
//     end in "\r\n".
//
// Tag pairs separated only by white space and escape lines belong to the
// same game. Text
// that holds neither tags, moves nor a result (say a comment at the top of
// a file) is not a game and is skipped.
//
// Bad input gives a *SyntaxError, which names the line and wraps ErrSyntax.
// For a construct that is never closed (a comment, a variation, a tag value)
// the line is the one where it opens. Limits keep hostile input in check:
// MaxTokenLen, MaxTagValueLen, MaxCommentLen and MaxDepth.
//
// # Writing
//
// Write produces the export format of section 8 of the standard: the seven
// tag roster in its order (with default values for missing tags), the
// other tags, an empty line, the movetext wrapped at 79 characters, the
// result marker and an empty line. See Write for the details.
package pgn

import (
	"errors"
	"fmt"
)

// Limits on the input the Reader accepts; beyond them it reports a
// syntax error rather than use unbounded memory.
const (
	// MaxTokenLen is the longest move, move number, NAG or tag name, in bytes.
	MaxTokenLen = 1000
	// MaxTagValueLen is the longest tag value, in bytes after unescaping.
	MaxTagValueLen = 10000
	// MaxCommentLen is the longest comment, in bytes as written.
	MaxCommentLen = 100000
	// MaxDepth is the deepest nesting of variations.
	MaxDepth = 100
)

// ErrSyntax is wrapped by every error about the syntax of PGN: input that
// cannot be read, and games that cannot be written.
var ErrSyntax = errors.New("pgn: syntax error")

// SyntaxError reports bad PGN. It wraps ErrSyntax.
type SyntaxError struct {
	Line int    // line of the input, counted from 1; 0 for an error of Write
	Msg  string // what is wrong
}

// Error returns "pgn: line N: msg", or "pgn: msg" when there is no line.
func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("pgn: line %d: %s", e.Line, e.Msg)
	}
	return "pgn: " + e.Msg
}

// Unwrap makes errors.Is(err, ErrSyntax) true.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Tag is a tag pair: [Name "Value"].
type Tag struct {
	Name, Value string
}

// Move is a move of the main line with its annotations.
type Move struct {
	Text     string   // the move token as written, e.g. "Nxe5+", "e8=Q#", "O-O", "exd6", "j2j3", "Na10"
	NAGs     []int    // numeric annotation glyphs: $n tokens after the move, and suffixes !, ?, !!, ??, !?, ?! (1..6)
	Comments []string // comments ({...} or ;...) that follow the move, before the next move
	// Num and Black, when Num > 0, are the move's number and side as its
	// position says, for the writer (the Reader leaves them zero). They
	// matter where a move does not simply follow the one before, as after
	// a Crazy Chess denial, which gives the move back to the player whose
	// move it undid: "1. e4 DENY d4 d5". Zero: counted from the FEN tag.
	Num   int
	Black bool
}

// Game is one game: its tags, its main line and its result. Variations are
// not kept.
type Game struct {
	Tags    []Tag    // in the order read (or set)
	Comment []string // comments before the first move
	Moves   []Move   // the main line; variations are skipped
	Result  string   // game termination marker: "1-0", "0-1", "1/2-1/2", "*"; "" if the movetext had none
}

// Tag returns the value of the first tag called name, and whether there is
// one. Names are case-sensitive.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the value of the first tag called name, or appends a tag if
// there is none.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// isResult reports whether s is a game termination marker.
func isResult(s string) bool {
	switch s {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// isSpace reports whether c is ASCII white space.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// isSymbol reports whether c may be part of a move token.
func isSymbol(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return false
	}
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', '$', '.', '"', '%':
		return false
	}
	return true
}

// isNameChar reports whether c may be part of a tag name.
func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// suffixNAG returns the NAG of a suffix annotation, or 0 if s is none.
func suffixNAG(s string) int {
	switch s {
	case "!":
		return 1
	case "?":
		return 2
	case "!!":
		return 3
	case "??":
		return 4
	case "!?":
		return 5
	case "?!":
		return 6
	}
	return 0
}

// splitSuffix splits a move token into the move and its trailing run of
// '!' and '?'.
func splitSuffix(tok string) (text, suffix string) {
	i := len(tok)
	for i > 0 && (tok[i-1] == '!' || tok[i-1] == '?') {
		i--
	}
	return tok[:i], tok[i:]
}

// fields splits s around runs of ASCII white space.
func fields(s string) []string {
	var f []string
	i := 0
	for i < len(s) {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			f = append(f, s[i:j])
		}
		i = j
	}
	return f
}

// normalizeSpace trims ASCII white space from both ends of s and turns
// every other run of it into one space.
func normalizeSpace(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	f := fields(s)
	n := 0
	for _, w := range f {
		n += len(w) + 1
	}
	b := make([]byte, 0, n)
	for i, w := range f {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	return string(b)
}
