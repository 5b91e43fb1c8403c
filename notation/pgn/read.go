package pgn

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Reader reads games one at a time from an io.Reader. It reads ahead, so
// it may consume more of the underlying reader than the games it returned.
type Reader struct {
	br      *bufio.Reader
	line    int   // line of the next byte, from 1
	bol     bool  // the next byte begins a line
	started bool  // the byte order mark has been looked for
	err     error // the error every later call of Next returns
}

// NewReader returns a Reader that reads PGN from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReader(r), line: 1, bol: true}
}

// Next returns the next game. After the last game it returns io.EOF. After
// an error, every later call returns the same error: a Reader does not
// resynchronise on bad input. Errors about the input are *SyntaxError;
// an error of the underlying reader is wrapped.
func (r *Reader) Next() (*Game, error) {
	if r.err != nil {
		return nil, r.err
	}
	g, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return g, nil
}

// Parse returns all the games of s. On an error it returns the games read
// before it together with the error.
func Parse(s string) ([]*Game, error) {
	r := NewReader(strings.NewReader(s))
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// syntax returns a *SyntaxError for the given line.
func syntax(line int, format string, args ...any) error {
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// next reads a game.
func (r *Reader) next() (*Game, error) {
	if !r.started {
		r.started = true
		if b, _ := r.br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
			r.br.Discard(3)
		}
	}
	for {
		g := &Game{}
		for {
			c, ok, err := r.skipBlank()
			if err != nil {
				return nil, err
			}
			if !ok {
				if len(g.Tags) == 0 {
					return nil, io.EOF
				}
				return g, nil
			}
			if c != '[' {
				break
			}
			t, err := r.readTag()
			if err != nil {
				return nil, err
			}
			g.Tags = append(g.Tags, t)
		}
		if err := r.readMovetext(g); err != nil {
			return nil, err
		}
		if len(g.Tags) > 0 || len(g.Moves) > 0 || g.Result != "" {
			return g, nil
		}
		// Only comments and the like: not a game. Read on.
	}
}

// ioErr wraps an error of the underlying reader.
func (r *Reader) ioErr(err error) error {
	return fmt.Errorf("pgn: line %d: %w", r.line, err)
}

// peek returns the next byte without consuming it; ok is false at the end
// of the input.
func (r *Reader) peek() (c byte, ok bool, err error) {
	b, err := r.br.Peek(1)
	if len(b) == 1 {
		return b[0], true, nil
	}
	if err == io.EOF {
		return 0, false, nil
	}
	return 0, false, r.ioErr(err)
}

// advance consumes the byte that peek returned.
func (r *Reader) advance() {
	c, err := r.br.ReadByte()
	if err != nil {
		return
	}
	if c == '\n' {
		r.line++
		r.bol = true
	} else {
		r.bol = false
	}
}

// skipLine consumes the rest of the line, its line break included.
func (r *Reader) skipLine() error {
	for {
		c, ok, err := r.peek()
		if err != nil || !ok {
			return err
		}
		r.advance()
		if c == '\n' {
			return nil
		}
	}
}

// skipBlank skips white space and escape lines and returns the next byte
// without consuming it; ok is false at the end of the input.
func (r *Reader) skipBlank() (c byte, ok bool, err error) {
	for {
		c, ok, err := r.peek()
		if err != nil || !ok {
			return 0, false, err
		}
		switch {
		case c == '%' && r.bol:
			if err := r.skipLine(); err != nil {
				return 0, false, err
			}
		case isSpace(c):
			r.advance()
		default:
			return c, true, nil
		}
	}
}

// readTag reads a tag pair; the next byte is its '['.
func (r *Reader) readTag() (Tag, error) {
	start := r.line
	r.advance()
	c, ok, err := r.skipBlank()
	if err != nil {
		return Tag{}, err
	}
	if !ok {
		return Tag{}, syntax(start, "unterminated tag pair")
	}
	var name []byte
	for ok && isNameChar(c) {
		if len(name) == MaxTokenLen {
			return Tag{}, syntax(r.line, "tag name too long (over %d bytes)", MaxTokenLen)
		}
		name = append(name, c)
		r.advance()
		if c, ok, err = r.peek(); err != nil {
			return Tag{}, err
		}
	}
	if len(name) == 0 {
		if c == '"' {
			return Tag{}, syntax(r.line, "missing tag name")
		}
		return Tag{}, syntax(r.line, "tag name expected, found %s", describe(c, ok))
	}
	if ok && !isSpace(c) && c != '"' && c != ']' {
		return Tag{}, syntax(r.line, "invalid character %s in tag name", describe(c, ok))
	}
	if c, ok, err = r.skipBlank(); err != nil {
		return Tag{}, err
	}
	if !ok || c != '"' {
		return Tag{}, syntax(r.line, "tag value is not quoted")
	}
	valueLine := r.line
	r.advance()
	var value []byte
	for {
		c, ok, err := r.peek()
		if err != nil {
			return Tag{}, err
		}
		if !ok || c == '\n' || c == '\r' {
			return Tag{}, syntax(valueLine, "unterminated tag value")
		}
		r.advance()
		if c == '"' {
			break
		}
		if c == '\\' {
			n, ok, err := r.peek()
			if err != nil {
				return Tag{}, err
			}
			if ok && (n == '"' || n == '\\') {
				c = n
				r.advance()
			}
		}
		if len(value) == MaxTagValueLen {
			return Tag{}, syntax(valueLine, "tag value too long (over %d bytes)", MaxTagValueLen)
		}
		value = append(value, c)
	}
	if c, ok, err = r.skipBlank(); err != nil {
		return Tag{}, err
	}
	if !ok || c != ']' {
		return Tag{}, syntax(r.line, "missing ']' after tag value, found %s", describe(c, ok))
	}
	r.advance()
	return Tag{Name: string(name), Value: string(value)}, nil
}

// describe names a byte for an error message.
func describe(c byte, ok bool) string {
	if !ok {
		return "end of input"
	}
	return strconv.QuoteRune(rune(c))
}

// tokenKind is the kind of a movetext token.
type tokenKind int

const (
	tokEOF     tokenKind = iota // end of the input
	tokTag                      // '[': a tag section begins (not consumed)
	tokSymbol                   // a move, a move number or a result
	tokNAG                      // $n
	tokComment                  // {...} or ;...
	tokOpen                     // (
	tokClose                    // )
)

// token is a movetext token.
type token struct {
	kind tokenKind
	text string // of tokSymbol and tokComment
	nag  int    // of tokNAG
	line int
}

// lex reads the next movetext token, skipping white space, periods and
// escape lines.
func (r *Reader) lex() (token, error) {
	for {
		c, ok, err := r.skipBlank()
		if err != nil {
			return token{}, err
		}
		if !ok {
			return token{kind: tokEOF, line: r.line}, nil
		}
		line := r.line
		switch {
		case c == '.':
			r.advance()
		case c == '[':
			return token{kind: tokTag, line: line}, nil
		case c == '(':
			r.advance()
			return token{kind: tokOpen, line: line}, nil
		case c == ')':
			r.advance()
			return token{kind: tokClose, line: line}, nil
		case c == '{':
			r.advance()
			text, err := r.braceComment(line)
			if err != nil {
				return token{}, err
			}
			return token{kind: tokComment, text: text, line: line}, nil
		case c == ';':
			r.advance()
			text, err := r.lineComment(line)
			if err != nil {
				return token{}, err
			}
			return token{kind: tokComment, text: text, line: line}, nil
		case c == '$':
			r.advance()
			n, err := r.nag(line)
			if err != nil {
				return token{}, err
			}
			return token{kind: tokNAG, nag: n, line: line}, nil
		case isSymbol(c):
			text, err := r.symbol(line)
			if err != nil {
				return token{}, err
			}
			return token{kind: tokSymbol, text: text, line: line}, nil
		case c == '%':
			return token{}, syntax(line, "unexpected '%%' (an escape line begins in the first column)")
		case c == '"':
			return token{}, syntax(line, "unexpected '\"' in movetext")
		default:
			return token{}, syntax(line, "unexpected %s in movetext", describe(c, true))
		}
	}
}

// braceComment reads a comment after its '{'.
func (r *Reader) braceComment(start int) (string, error) {
	var b []byte
	for {
		c, ok, err := r.peek()
		if err != nil {
			return "", err
		}
		if !ok {
			return "", syntax(start, "unterminated comment")
		}
		r.advance()
		if c == '}' {
			return normalizeSpace(string(b)), nil
		}
		if len(b) == MaxCommentLen {
			return "", syntax(start, "comment too long (over %d bytes)", MaxCommentLen)
		}
		b = append(b, c)
	}
}

// lineComment reads a comment after its ';', up to the end of the line.
func (r *Reader) lineComment(start int) (string, error) {
	var b []byte
	for {
		c, ok, err := r.peek()
		if err != nil {
			return "", err
		}
		if !ok || c == '\n' {
			return normalizeSpace(string(b)), nil
		}
		r.advance()
		if len(b) == MaxCommentLen {
			return "", syntax(start, "comment too long (over %d bytes)", MaxCommentLen)
		}
		b = append(b, c)
	}
}

// nag reads the number of a NAG after its '$'.
func (r *Reader) nag(line int) (int, error) {
	var digits []byte
	for {
		c, ok, err := r.peek()
		if err != nil {
			return 0, err
		}
		if !ok || c < '0' || c > '9' {
			break
		}
		if len(digits) == MaxTokenLen {
			return 0, syntax(line, "token too long (over %d bytes)", MaxTokenLen)
		}
		digits = append(digits, c)
		r.advance()
	}
	if len(digits) == 0 {
		return 0, syntax(line, "missing number after '$'")
	}
	n, err := strconv.Atoi(string(digits))
	if err != nil || n > 255 {
		return 0, syntax(line, "NAG $%s out of range (0 to 255)", digits)
	}
	return n, nil
}

// symbol reads a run of symbol characters.
func (r *Reader) symbol(line int) (string, error) {
	var b []byte
	for {
		c, ok, err := r.peek()
		if err != nil {
			return "", err
		}
		if !ok || !isSymbol(c) {
			return string(b), nil
		}
		if len(b) == MaxTokenLen {
			return "", syntax(line, "token too long (over %d bytes)", MaxTokenLen)
		}
		b = append(b, c)
		r.advance()
	}
}

// readMovetext reads the movetext of g up to its result marker, the end of
// the input or the next tag section.
func (r *Reader) readMovetext(g *Game) error {
	var open []int // lines of the open variations
	annotate := func(nag int) {
		if len(open) == 0 && len(g.Moves) > 0 {
			m := &g.Moves[len(g.Moves)-1]
			m.NAGs = append(m.NAGs, nag)
		}
	}
	for {
		t, err := r.lex()
		if err != nil {
			return err
		}
		switch t.kind {
		case tokEOF, tokTag:
			if len(open) > 0 {
				return syntax(open[len(open)-1], "unterminated variation")
			}
			return nil
		case tokOpen:
			if len(open) == MaxDepth {
				return syntax(t.line, "variations nested too deeply (over %d levels)", MaxDepth)
			}
			open = append(open, t.line)
		case tokClose:
			if len(open) == 0 {
				return syntax(t.line, "unexpected ')'")
			}
			open = open[:len(open)-1]
		case tokComment:
			switch {
			case len(open) > 0:
			case len(g.Moves) == 0:
				g.Comment = append(g.Comment, t.text)
			default:
				m := &g.Moves[len(g.Moves)-1]
				m.Comments = append(m.Comments, t.text)
			}
		case tokNAG:
			annotate(t.nag)
		case tokSymbol:
			if isResult(t.text) {
				if len(open) == 0 {
					g.Result = t.text
					return nil
				}
				continue
			}
			if isDigits(t.text) {
				continue // a move number
			}
			text, suffix := splitSuffix(t.text)
			nag := 0
			if suffix != "" {
				if nag = suffixNAG(suffix); nag == 0 {
					return syntax(t.line, "unknown annotation %q", suffix)
				}
			}
			if text == "" {
				annotate(nag)
				continue
			}
			if isDigits(text) || isResult(text) {
				return syntax(t.line, "misplaced annotation %q after %q", suffix, text)
			}
			if len(open) == 0 {
				m := Move{Text: text}
				if nag != 0 {
					m.NAGs = []int{nag}
				}
				g.Moves = append(g.Moves, m)
			}
		}
	}
}
