package pgn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// canonical returns the game Parse(Write(g)) must give back for a game g
// that Parse returned. A round trip is correct when squash of the game read
// back is reflect.DeepEqual to canonical(g). The differences are the ones
// Write documents:
//
//   - the tags become the seven tag roster in order (for each name the
//     first tag of that name, or else its default: "?", "????.??.??" for
//     Date, the result for Result), then the other tags in their order,
//     so that a second tag of a roster name stays among the others;
//   - line breaks in tag values become spaces;
//   - an empty Result becomes "*";
//   - in comments '}' becomes ')', and white space is normalised (trimmed,
//     each run made one space; for a parsed game this changes nothing);
//   - empty slices are nil.
//
// It is written independently of the package's own code.
func canonical(g *Game) *Game {
	c := squash(g)
	if c.Result == "" {
		c.Result = "*"
	}
	var tags []Tag
	used := make([]bool, len(c.Tags))
	for _, name := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
		t := Tag{Name: name, Value: "?"}
		switch name {
		case "Date":
			t.Value = "????.??.??"
		case "Result":
			t.Value = c.Result
		}
		for i, have := range c.Tags {
			if have.Name == name {
				t, used[i] = have, true
				break
			}
		}
		tags = append(tags, t)
	}
	for i, t := range c.Tags {
		if !used[i] {
			tags = append(tags, t)
		}
	}
	for i := range tags {
		tags[i].Value = strings.NewReplacer("\r", " ", "\n", " ").Replace(tags[i].Value)
	}
	c.Tags = tags
	for i, s := range c.Comment {
		c.Comment[i] = canonicalComment(s)
	}
	for _, m := range c.Moves {
		for i, s := range m.Comments {
			m.Comments[i] = canonicalComment(s)
		}
	}
	return c
}

// canonicalComment is a comment as it reads back after Write.
func canonicalComment(s string) string {
	s = strings.ReplaceAll(s, "}", ")")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune(" \t\n\r\v\f", r)
	}), " ")
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pgn")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		"",
		"1. e4 e5 2. Nf3 *",
		"[Event \"x\"]\n\n1. e4 {c} $1 (1. d4 (1. c4)) e5!? ; line\n1-0",
		"\xef\xbb\xbf[A \"\\\"\\\\\"]\r\n\r\n1... e5 0-1",
		"[FEN \"8/8/8/8/8/8/8/K6k b - - 0 9\"] 9... Kg1 10. Kb1 *",
		"%escape\n{only a comment}",
		"1. e4 ; a } b\n{ x\n%y } e5",
		"[Event \"a\"] [Event \"b\"] [Result \"1-0\"] e4 0-1",
		"1. e4 ! ?? $0 $255 1/2-1/2",
		"1. e4 (",
		"1. e4 {",
		"[Event \"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		games, err := Parse(in)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v does not wrap ErrSyntax", err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line < 1 || se.Line > strings.Count(in, "\n")+1 {
				t.Fatalf("error %v: line out of the input's range", err)
			}
		}

		// The streaming reader, fed one byte at a time, agrees with Parse.
		r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
		var streamed []*Game
		var serr error
		for {
			g, err := r.Next()
			if err != nil {
				serr = err
				break
			}
			streamed = append(streamed, g)
		}
		if !sameGames(streamed, games) || (err == nil) != (serr == io.EOF) ||
			(err != nil && err.Error() != serr.Error()) {
			t.Fatalf("Reader and Parse disagree: %v / %v", serr, err)
		}

		// Every game read (even before an error) writes, and reads back
		// as the same game; writing that again gives the same text.
		for i, g := range games {
			var b bytes.Buffer
			if err := Write(&b, g); err != nil {
				t.Fatalf("game %d: Write: %v", i+1, err)
			}
			out := b.String()
			again, err := Parse(out)
			if err != nil || len(again) != 1 {
				t.Fatalf("game %d: Parse of\n%s\ngave %d games, %v", i+1, out, len(again), err)
			}
			if got, want := squash(again[0]), canonical(g); !reflect.DeepEqual(got, want) {
				t.Fatalf("game %d changed in a round trip:\n got %s\nwant %s\ntext:\n%s", i+1, reflectString(got), reflectString(want), out)
			}
			if out2 := again[0].String(); out2 != out {
				t.Fatalf("game %d: writing it again gives\n%s\nnot\n%s", i+1, out2, out)
			}
		}
	})
}
