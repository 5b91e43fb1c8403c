package pgn

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// mv builds a move.
func mv(text string, nags ...int) Move { return Move{Text: text, NAGs: nags} }

// mvc builds a move with comments.
func mvc(text string, comments ...string) Move { return Move{Text: text, Comments: comments} }

// mvs builds moves without annotations.
func mvs(texts ...string) []Move {
	var m []Move
	for _, t := range texts {
		m = append(m, Move{Text: t})
	}
	return m
}

// squash turns empty slices into nil, so that games compare with
// reflect.DeepEqual whatever way they were built.
func squash(g *Game) *Game {
	c := &Game{Result: g.Result}
	if len(g.Tags) > 0 {
		c.Tags = append([]Tag(nil), g.Tags...)
	}
	if len(g.Comment) > 0 {
		c.Comment = append([]string(nil), g.Comment...)
	}
	for _, m := range g.Moves {
		n := Move{Text: m.Text}
		if len(m.NAGs) > 0 {
			n.NAGs = append([]int(nil), m.NAGs...)
		}
		if len(m.Comments) > 0 {
			n.Comments = append([]string(nil), m.Comments...)
		}
		c.Moves = append(c.Moves, n)
	}
	return c
}

// sameGames reports whether two lists of games are equal, empty slices
// counting as nil.
func sameGames(a, b []*Game) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(squash(a[i]), squash(b[i])) {
			return false
		}
	}
	return true
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []*Game
	}{
		{"empty", "", nil},
		{"only white space", " \n\t\r\n\n", nil},
		{"only a comment", "{a file comment}\n; another\n", nil},
		{
			"tags and result",
			`[Event "E"][Site "S"]` + "\n\n*\n",
			[]*Game{{Tags: []Tag{{"Event", "E"}, {"Site", "S"}}, Result: "*"}},
		},
		{
			"tag white space and escapes",
			"[  Event\t\"a \\\"b\\\" \\\\c\\d\"  ]\n[Site\"x]y\"]\n1-0",
			[]*Game{{Tags: []Tag{{"Event", `a "b" \c\d`}, {"Site", "x]y"}}, Result: "1-0"}},
		},
		{
			"tag names",
			`[A_1 "x"] [white "y"] [_ ""]`,
			[]*Game{{Tags: []Tag{{"A_1", "x"}, {"white", "y"}, {"_", ""}}}},
		},
		{
			"tags only at end of input",
			`[Event "E"]`,
			[]*Game{{Tags: []Tag{{"Event", "E"}}}},
		},
		{
			"move numbers of every form",
			"1. e4 1... e5 2.Nf3 2...Nc6 3. Bb5 3. ... a6 4 Ba4 . Nf6 5.O-O 0-1",
			[]*Game{{Moves: mvs("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"), Result: "0-1"}},
		},
		{
			"results",
			"e4 1-0 d4 0-1 c4 1/2-1/2 Nf3 *",
			[]*Game{
				{Moves: mvs("e4"), Result: "1-0"},
				{Moves: mvs("d4"), Result: "0-1"},
				{Moves: mvs("c4"), Result: "1/2-1/2"},
				{Moves: mvs("Nf3"), Result: "*"},
			},
		},
		{
			"move tokens",
			"1. Nxe5+ e8=Q# 2. O-O exd6 3. j2j3 Na10 4. P@e4 P*e4 5. -- Z0 6. e4e5 0-0-0",
			[]*Game{{Moves: mvs("Nxe5+", "e8=Q#", "O-O", "exd6", "j2j3", "Na10", "P@e4", "P*e4", "--", "Z0", "e4e5", "0-0-0")}},
		},
		{
			"suffix annotations",
			"1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4+! Nf6#?",
			[]*Game{{Moves: []Move{
				mv("e4", 1), mv("e5", 2), mv("Nf3", 3), mv("Nc6", 4),
				mv("Bb5", 5), mv("a6", 6), mv("Ba4+", 1), mv("Nf6#", 2),
			}}},
		},
		{
			"suffix annotation apart from its move",
			"!? 1. e4 ! e5 ?! $10 *",
			[]*Game{{Moves: []Move{mv("e4", 1), mv("e5", 6, 10)}, Result: "*"}},
		},
		{
			"NAGs",
			"$1 {start} 1. e4 $1 $0 e5 $255 $14 2. Nf3!?$3 *",
			[]*Game{{Comment: []string{"start"}, Moves: []Move{mv("e4", 1, 0), mv("e5", 255, 14), mv("Nf3", 5, 3)}, Result: "*"}},
		},
		{
			"comments",
			"{ before   the\n first }{second} 1. e4 {after e4} ; to the end\n e5 {} {  a { b  } *",
			[]*Game{{
				Comment: []string{"before the first", "second"},
				Moves: []Move{
					mvc("e4", "after e4", "to the end"),
					mvc("e5", "", "a { b"),
				},
				Result: "*",
			}},
		},
		{
			"comment with brackets and result-like text",
			"1. e4 {[%clk 0:03:00] (not a variation) 1-0 [Event \"x\"]} e5 *",
			[]*Game{{Moves: []Move{mvc("e4", `[%clk 0:03:00] (not a variation) 1-0 [Event "x"]`), mv("e5")}, Result: "*"}},
		},
		{
			"nested variations are skipped",
			"1. e4 (1. d4 d5 (1... Nf6 {x} 2. c4 $1) 2. c4) (1. c4 ; a ) in a comment\n) e5 $1 (1... c5 (1... e6)) 2. Nf3 *",
			[]*Game{{Moves: []Move{mv("e4"), mv("e5", 1), mv("Nf3")}, Result: "*"}},
		},
		{
			"result inside a variation does not end the game",
			"1. e4 (1. d4 1-0) e5 0-1",
			[]*Game{{Moves: mvs("e4", "e5"), Result: "0-1"}},
		},
		{
			"escape lines",
			"%escape [Event \"no\"]\n[Event \"yes\"]\n%another\n1. e4\n% in movetext {\ne5 {%not an escape\n% inside a comment} *",
			[]*Game{{Tags: []Tag{{"Event", "yes"}}, Moves: []Move{mv("e4"), mvc("e5", "%not an escape % inside a comment")}, Result: "*"}},
		},
		{
			"missing result at the next tag section and at the end",
			"[Event \"1\"]\n1. e4 e5\n[Event \"2\"]\n1. d4 d5 2. c4 [Event \"3\"]\n\n1. c4",
			[]*Game{
				{Tags: []Tag{{"Event", "1"}}, Moves: mvs("e4", "e5")},
				{Tags: []Tag{{"Event", "2"}}, Moves: mvs("d4", "d5", "c4")},
				{Tags: []Tag{{"Event", "3"}}, Moves: mvs("c4")},
			},
		},
		{
			"games without blank lines",
			"[Event \"1\"]\n1. e4 1-0\n[Event \"2\"]\n1. d4 0-1",
			[]*Game{
				{Tags: []Tag{{"Event", "1"}}, Moves: mvs("e4"), Result: "1-0"},
				{Tags: []Tag{{"Event", "2"}}, Moves: mvs("d4"), Result: "0-1"},
			},
		},
		{
			"comment after the result is skipped",
			"1. e4 1-0 {trailing} [Event \"2\"] *",
			[]*Game{
				{Moves: mvs("e4"), Result: "1-0"},
				{Tags: []Tag{{"Event", "2"}}, Result: "*"},
			},
		},
		{
			"BOM and CRLF",
			"\xef\xbb\xbf[Event \"E\"]\r\n[Site \"S\"]\r\n\r\n1. e4 {a\r\nb} e5 ; c\r\n2. Nf3 1-0\r\n",
			[]*Game{{Tags: []Tag{{"Event", "E"}, {"Site", "S"}}, Moves: []Move{mvc("e4", "a b"), mvc("e5", "c"), mv("Nf3")}, Result: "1-0"}},
		},
		{
			"UTF-8 in tags and comments",
			"[White \"Nimzowitsch, Aaron\"]\n[Black \"Alapin, Semjon\"]\n[Site \"Rīga\"]\n1. e4 {½ point ♞} e5 *",
			[]*Game{{Tags: []Tag{{"White", "Nimzowitsch, Aaron"}, {"Black", "Alapin, Semjon"}, {"Site", "Rīga"}}, Moves: []Move{mvc("e4", "½ point ♞"), mv("e5")}, Result: "*"}},
		},
		{
			"duplicate tags are kept",
			`[Event "a"] [Event "b"] *`,
			[]*Game{{Tags: []Tag{{"Event", "a"}, {"Event", "b"}}, Result: "*"}},
		},
		{
			"deepest variation allowed",
			"1. e4 " + strings.Repeat("(", MaxDepth) + strings.Repeat(")", MaxDepth) + " *",
			[]*Game{{Moves: mvs("e4"), Result: "*"}},
		},
		{
			"longest token and tag value allowed",
			"[Event \"" + strings.Repeat("v", MaxTagValueLen) + "\"]\n1. " + strings.Repeat("a", MaxTokenLen) + " *",
			[]*Game{{Tags: []Tag{{"Event", strings.Repeat("v", MaxTagValueLen)}}, Moves: mvs(strings.Repeat("a", MaxTokenLen)), Result: "*"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !sameGames(got, tt.want) {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.in, dump(got), dump(tt.want))
			}
		})
	}
}

// dump formats games for a failure message.
func dump(gs []*Game) string {
	var b strings.Builder
	for _, g := range gs {
		b.WriteString("\n\t" + reflectString(g))
	}
	return b.String()
}

func reflectString(g *Game) string {
	var b strings.Builder
	b.WriteString("Tags:")
	for _, t := range g.Tags {
		b.WriteString(" " + t.Name + "=" + t.Value)
	}
	b.WriteString(" Comment:" + strings.Join(g.Comment, "|"))
	b.WriteString(" Moves:")
	for _, m := range g.Moves {
		b.WriteString(" " + m.Text)
		for _, n := range m.NAGs {
			b.WriteString("$" + itoa(n))
		}
		for _, c := range m.Comments {
			b.WriteString("{" + c + "}")
		}
	}
	b.WriteString(" Result:" + g.Result)
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestParseFixture checks a real-looking file of several games.
func TestParseFixture(t *testing.T) {
	games, err := Parse(readFile(t, "testdata/games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("got %d games, want 4", len(games))
	}
	type summary struct {
		event, result string
		moves         int
		first, last   string
	}
	want := []summary{
		{"F/S Return Match", "1/2-1/2", 85, "e4", "Re6"},
		{"Casual", "1-0", 6, "e5", "Qxf7#"},
		{"No result marker, ends at the next tag section", "", 6, "d4", "Nf6"},
		{"No result marker, ends at the end of the file", "", 33, "e4", "Rd8#"},
	}
	for i, g := range games {
		ev, _ := g.Tag("Event")
		got := summary{ev, g.Result, len(g.Moves), g.Moves[0].Text, g.Moves[len(g.Moves)-1].Text}
		if got != want[i] {
			t.Errorf("game %d: got %+v, want %+v", i+1, got, want[i])
		}
	}

	g := games[0]
	if v, _ := g.Tag("Annotator"); v != `A "quoted" name \ backslash` {
		t.Errorf("Annotator = %q", v)
	}
	if !reflect.DeepEqual(g.Comment, []string{"The 29th game, annotated."}) {
		t.Errorf("game comment = %q", g.Comment)
	}
	checks := []struct {
		ply  int // index in Moves
		want Move
	}{
		{5, mvc("a6", "This opening is called the Ruy Lopez.")},
		{17, Move{Text: "Nb8", NAGs: []int{5, 14}, Comments: []string{"The Breyer."}}},
		{18, mv("d4")}, // the variations after 9... Nb8 are skipped
		{44, mv("Ne5", 1)},
		{52, mv("Qe3")}, // after an escape line
		{84, mvc("Re6", "a rest-of-line comment")},
	}
	for _, c := range checks {
		if got := squash(&Game{Moves: g.Moves[c.ply : c.ply+1]}).Moves[0]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("game 1 move %d = %+v, want %+v", c.ply, got, c.want)
		}
	}
	wantMoves := []Move{
		mv("e5"), mv("Qh5", 6), mv("Nc6"), mv("Bc4"),
		{Text: "g6", NAGs: []int{4}, Comments: []string{"3... Nf6 was needed"}},
		mv("Qxf7#", 1, 201),
	}
	if got := squash(games[1]).Moves; !reflect.DeepEqual(got, wantMoves) {
		t.Errorf("game 2 moves = %+v, want %+v", got, wantMoves)
	}
}

// TestParseCRLFAndBOM checks that line ends and a byte order mark change
// nothing.
func TestParseCRLFAndBOM(t *testing.T) {
	for _, name := range []string{"testdata/games.pgn", "testdata/fen.pgn", "testdata/variants.pgn"} {
		t.Run(name, func(t *testing.T) {
			in := readFile(t, name)
			want, err := Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, variant := range []string{
				strings.ReplaceAll(in, "\n", "\r\n"),
				"\xef\xbb\xbf" + in,
				"\xef\xbb\xbf" + strings.ReplaceAll(in, "\n", "\r\n"),
			} {
				got, err := Parse(variant)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !sameGames(got, want) {
					t.Errorf("Parse(%.40q...) differs from Parse of the original", variant)
				}
			}
		})
	}
}

// TestReaderOneByteAtATime reads through a reader that returns one byte at
// a time, and checks that Next gives the same games as Parse and then
// io.EOF, again and again.
func TestReaderOneByteAtATime(t *testing.T) {
	in := readFile(t, "testdata/games.pgn")
	want, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	var got []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, g)
	}
	if !sameGames(got, want) {
		t.Errorf("Reader gives other games than Parse")
	}
	for range 2 {
		if g, err := r.Next(); g != nil || err != io.EOF {
			t.Errorf("Next after the end = %v, %v; want nil, io.EOF", g, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		games int    // games read before the error
		line  int    // line of the error
		msg   string // its message after "pgn: line N: "
	}{
		{"unterminated comment", "[Event \"x\"]\n\n1. e4 {never\nclosed\n", 0, 3, "unterminated comment"},
		{"unterminated comment in second game", "[Event \"1\"]\n\n1. e4 1-0\n\n[Event \"2\"]\n\n1. d4 {oops\n", 1, 7, "unterminated comment"},
		{"unquoted tag value", "[Event \"x\"]\n[Site \"y\"]\n[Round 3]\n", 0, 3, "tag value is not quoted"},
		{"tag without value", "[Event]", 0, 1, "tag value is not quoted"},
		{"unterminated tag value", "[Event \"x\"]\n[Site \"Lon\ndon\"]\n", 0, 2, "unterminated tag value"},
		{"unterminated tag value at end", "[Event \"x", 0, 1, "unterminated tag value"},
		{"tag value over CR", "[Event \"x\r\"]", 0, 1, "unterminated tag value"},
		{"tag pair not closed", "[Event \"x\"\n1. e4 *", 0, 2, `missing ']' after tag value, found '1'`},
		{"tag pair not closed at end", "[Event \"x\"", 0, 1, `missing ']' after tag value, found end of input`},
		{"unterminated tag pair", "[Event \"x\"]\n[", 0, 2, "unterminated tag pair"},
		{"missing tag name", `[ "x"]`, 0, 1, "missing tag name"},
		{"bad tag name start", `[-Event "x"]`, 0, 1, `tag name expected, found '-'`},
		{"bad tag name", `[Ev-ent "x"]`, 0, 1, `invalid character '-' in tag name`},
		{"unterminated variation", "1. e4\n(1. d4\n(1. c4) d5\n", 0, 2, "unterminated variation"},
		{"variation cut by a tag section", "1. e4 (1. d4\n[Event \"x\"]", 0, 1, "unterminated variation"},
		{"unexpected close", "1. e4\ne5 ) 2. Nf3", 0, 2, "unexpected ')'"},
		{"unexpected close bracket", "1. e4 ] e5", 0, 1, "unexpected ']' in movetext"},
		{"string in movetext", "1. e4 \"e5\"", 0, 1, `unexpected '"' in movetext`},
		{"percent in movetext", "1. e4 %e5", 0, 1, "unexpected '%' (an escape line begins in the first column)"},
		{"control character", "1. e4\n\n\x00", 0, 3, `unexpected '\x00' in movetext`},
		{"DEL character", "1. e4 \x7f", 0, 1, `unexpected '\x7f' in movetext`},
		{"NAG without number", "1. e4 $ e5", 0, 1, "missing number after '$'"},
		{"NAG out of range", "1. e4\n$256", 0, 2, "NAG $256 out of range (0 to 255)"},
		{"NAG with many digits", "1. e4 $00000000000000000000001000", 0, 1, "NAG $00000000000000000000001000 out of range (0 to 255)"},
		{"unknown annotation", "1. e4 e5!!!", 0, 1, `unknown annotation "!!!"`},
		{"unknown annotation alone", "1. e4 ?!?", 0, 1, `unknown annotation "?!?"`},
		{"annotated move number", "1. e4 2!? d4", 0, 1, `misplaced annotation "!?" after "2"`},
		{"annotated result", "1. e4\n1-0!", 0, 2, `misplaced annotation "!" after "1-0"`},
		{"token too long", "1. e4\n" + strings.Repeat("x", MaxTokenLen+1), 0, 2, "token too long (over 1000 bytes)"},
		{"NAG too long", "1. e4 $" + strings.Repeat("0", MaxTokenLen+1), 0, 1, "token too long (over 1000 bytes)"},
		{"tag name too long", "[" + strings.Repeat("N", MaxTokenLen+1) + ` "x"]`, 0, 1, "tag name too long (over 1000 bytes)"},
		{"tag value too long", "\n[Event \"" + strings.Repeat("v", MaxTagValueLen+1) + `"]`, 0, 2, "tag value too long (over 10000 bytes)"},
		{"escaped tag value too long", "[Event \"" + strings.Repeat(`\"`, MaxTagValueLen+1) + `"]`, 0, 1, "tag value too long (over 10000 bytes)"},
		{"comment too long", "1. e4 {" + strings.Repeat("c ", MaxCommentLen) + "}", 0, 1, "comment too long (over 100000 bytes)"},
		{"line comment too long", "1. e4 ;" + strings.Repeat("c", MaxCommentLen+1), 0, 1, "comment too long (over 100000 bytes)"},
		{"variations too deep", "1. e4\n" + strings.Repeat("(", MaxDepth+1) + strings.Repeat(")", MaxDepth+1), 0, 2, "variations nested too deeply (over 100 levels)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse succeeded, want an error")
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("error %v does not wrap ErrSyntax", err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line != tt.line || se.Msg != tt.msg {
				t.Errorf("error = line %d: %q; want line %d: %q", se.Line, se.Msg, tt.line, tt.msg)
			}
			if want := "pgn: line " + itoa(tt.line) + ": " + tt.msg; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
			if len(games) != tt.games {
				t.Errorf("got %d games before the error, want %d", len(games), tt.games)
			}
		})
	}
}

// TestReaderErrorIsSticky checks that after an error Next keeps returning
// it rather than reading on.
func TestReaderErrorIsSticky(t *testing.T) {
	r := NewReader(strings.NewReader("1. e4 ) e5 *\n\n[Event \"ok\"] *\n"))
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("errors %v and %v, want the same error twice", err1, err2)
	}
}

// errReader returns its data, then an error.
type errReader struct {
	data string
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestReaderIOError checks that an error of the underlying reader is
// wrapped with the line, and is not a syntax error.
func TestReaderIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := NewReader(&errReader{data: "[Event \"1\"]\n1. e4 1-0\n[Event \"2\"]\n1. d4 d5", err: boom})
	g, err := r.Next()
	if err != nil || g.Result != "1-0" {
		t.Fatalf("first game: %v, %v", g, err)
	}
	_, err = r.Next()
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap the reader's error", err)
	}
	if errors.Is(err, ErrSyntax) {
		t.Errorf("error %v wraps ErrSyntax", err)
	}
	if want := "pgn: line 4: disk on fire"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestTag(t *testing.T) {
	g := &Game{}
	if _, ok := g.Tag("Event"); ok {
		t.Errorf("Tag on an empty game found something")
	}
	g.SetTag("Event", "a")
	g.SetTag("Site", "b")
	g.Tags = append(g.Tags, Tag{"Event", "dup"})
	g.SetTag("Event", "c")
	want := []Tag{{"Event", "c"}, {"Site", "b"}, {"Event", "dup"}}
	if !reflect.DeepEqual(g.Tags, want) {
		t.Errorf("Tags = %v, want %v", g.Tags, want)
	}
	if v, ok := g.Tag("Event"); v != "c" || !ok {
		t.Errorf("Tag(Event) = %q, %v", v, ok)
	}
	if _, ok := g.Tag("event"); ok {
		t.Errorf("Tag is not case-sensitive")
	}
}
