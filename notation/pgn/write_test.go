package pgn

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "update golden files")

// writeAll writes games one after the other.
func writeAll(t *testing.T, games []*Game) string {
	t.Helper()
	var b bytes.Buffer
	for _, g := range games {
		if err := Write(&b, g); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	return b.String()
}

// TestWriteStandard checks the exact export form of short known games.
func TestWriteStandard(t *testing.T) {
	tests := []struct {
		name string
		g    *Game
		want string
	}{
		{
			"scholar's mate, no tags",
			&Game{Moves: mvs("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"), Result: "1-0"},
			`[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

`,
		},
		{
			"empty game",
			&Game{},
			`[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

*

`,
		},
		{
			"roster reordered, other tags kept in order, escapes",
			&Game{
				Tags: []Tag{
					{"ECO", "C20"}, {"Result", "0-1"}, {"White", `Say "Hi" \o/`},
					{"Event", "Line\nbreak"}, {"Annotator", "Me"}, {"Event", "again"},
				},
				Moves:  []Move{mv("e4", 2), mvc("e5", "Good } reply"), mv("Qh5"), {Text: "Ke7", NAGs: []int{4}, Comments: []string{"", "what?"}}},
				Result: "0-1",
			},
			`[Event "Line break"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Say \"Hi\" \\o/"]
[Black "?"]
[Result "0-1"]
[ECO "C20"]
[Annotator "Me"]
[Event "again"]

1. e4 $2 1... e5 {Good ) reply} 2. Qh5 Ke7 $4 {} {what?} 0-1

`,
		},
		{
			// The sample game of section 2.3 of the PGN standard.
			"Fischer-Spassky 1992",
			mustParseOne(t, `[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {This opening is called the Ruy Lopez.}
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6
Nf2 42. g4 Bd3 43. Re6 1/2-1/2
`),
			`[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {This opening is called the Ruy Lopez.} 4. Ba4
Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6
12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4
18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8
24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3
Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6
36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4
Bd3 43. Re6 1/2-1/2

`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, tt.g); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("Write gave\n%s\nwant\n%s", got, tt.want)
			}
			if got := tt.g.String(); got != tt.want {
				t.Errorf("String differs from Write:\n%s", got)
			}
			checkExportLines(t, tt.want)
		})
	}
}

func mustParseOne(t *testing.T, s string) *Game {
	t.Helper()
	games, err := Parse(s)
	if err != nil || len(games) != 1 {
		t.Fatalf("Parse: %d games, %v", len(games), err)
	}
	return games[0]
}

// TestWriteGolden writes the games of every testdata/*.pgn and compares
// the output with testdata/*.golden. Run with -update to rewrite them.
func TestWriteGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			games, err := Parse(readFile(t, file))
			if err != nil {
				t.Fatal(err)
			}
			got := writeAll(t, games)
			golden := strings.TrimSuffix(file, ".pgn") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := readFile(t, golden); got != want {
				t.Errorf("output differs from %s (run with -update to accept):\n%s", golden, got)
			}
			checkExportLines(t, got)
		})
	}
}

// checkExportLines checks the shape of export format: no movetext line
// over 79 bytes unless it is a single unit, no line beginning with '%',
// no trailing spaces, and an empty line after each game.
func checkExportLines(t *testing.T, out string) {
	t.Helper()
	if !strings.HasSuffix(out, "\n\n") {
		t.Errorf("output does not end with an empty line")
	}
	for i, line := range strings.Split(out, "\n") {
		if len(line) > lineWidth && !strings.HasPrefix(line, "[") && !singleUnit(line) {
			t.Errorf("line %d is %d bytes long: %q", i+1, len(line), line)
		}
		if strings.HasPrefix(line, "%") {
			t.Errorf("line %d begins with '%%': %q", i+1, line)
		}
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d ends in a space: %q", i+1, line)
		}
	}
}

// singleUnit reports whether a line of movetext is a single unit: a token,
// or a move number and its move.
func singleUnit(line string) bool {
	f := strings.Split(line, " ")
	if len(f) == 1 {
		return true
	}
	return len(f) == 2 && isDigits(strings.TrimRight(f[0], "."))
}

// TestWriteMoveNumbers checks the numbering from a FEN tag and after
// annotations.
func TestWriteMoveNumbers(t *testing.T) {
	moves := []Move{mv("a"), mv("b"), mv("c", 1), mv("d"), mvc("e", "x"), mv("f")}
	tests := []struct {
		fen  string // "" for no FEN tag
		want string
	}{
		{"", "1. a b 2. c $1 2... d 3. e {x} 3... f *"},
		{"8/8/8/8/8/8/8/K6k w - - 0 1", "1. a b 2. c $1 2... d 3. e {x} 3... f *"},
		{"8/8/8/8/8/8/8/K6k b - - 0 1", "1... a 2. b c $1 3. d e {x} 4. f *"},
		{"8/8/8/8/8/8/8/K6k b - - 12 40", "40... a 41. b c $1 42. d e {x} 43. f *"},
		{"8/8/8/8/8/8/8/K6k w - - 12 40", "40. a b 41. c $1 41... d 42. e {x} 42... f *"},
		{"8/8/8/8/8/8/8/K6k b", "1... a 2. b c $1 3. d e {x} 4. f *"},
		{"8/8/8/8/8/8/8/K6k  b  -  -  0  7 ", "7... a 8. b c $1 9. d e {x} 10. f *"},
		{"garbage", "1. a b 2. c $1 2... d 3. e {x} 3... f *"},
		{"8/8/8/8/8/8/8/K6k B - - 0 -3", "1. a b 2. c $1 2... d 3. e {x} 3... f *"},
		{"8/8/8/8/8/8/8/K6k b - - 0 0", "1... a 2. b c $1 3. d e {x} 4. f *"},
		{"8/8/8/8/8/8/8/K6k b - - 0 +5", "1... a 2. b c $1 3. d e {x} 4. f *"},
		{"8/8/8/8/8/8/8/K6k b - - 0 99999999999999999999", "1... a 2. b c $1 3. d e {x} 4. f *"},
	}
	for _, tt := range tests {
		g := &Game{Moves: moves}
		if tt.fen != "" {
			g.SetTag("FEN", tt.fen)
		}
		out := g.String()
		i := strings.Index(out, "\n\n")
		if got := strings.TrimSpace(out[i:]); got != tt.want {
			t.Errorf("FEN %q: movetext %q, want %q", tt.fen, got, tt.want)
		}
	}
}

// TestWriteContinuation checks that a move beginning with ',' continues the
// move before it (an R-PGN turn token broken by a comment): no number, and
// it does not count as a move of its own.
func TestWriteContinuation(t *testing.T) {
	tests := []struct {
		moves []Move
		want  string
	}{
		{[]Move{mvc("Nxe5~", "u=6/9"), mv(",Bxf7+"), mv("Kxf7"), mv("Qd1")}, "1. Nxe5~ {u=6/9} ,Bxf7+ Kxf7 2. Qd1 *"},
		{[]Move{mv("e4"), mvc("Qxh7~", "a"), mvc(",Qxh7~", "b"), mv(",Kf8"), mv("d4")}, "1. e4 Qxh7~ {a} ,Qxh7~ {b} ,Kf8 2. d4 *"},
		{[]Move{mv("e4"), mvc("Qxh7~", "a"), mvc(",Kf8", "b"), mv("d4")}, "1. e4 Qxh7~ {a} ,Kf8 {b} 2. d4 *"},
		{[]Move{mv("a"), mvc("b", "c"), mv(",d"), mv("e")}, "1. a b {c} ,d 2. e *"},
		{[]Move{mvc("a", "c"), mv(",b"), mv("c")}, "1. a {c} ,b c *"},
		{[]Move{mv(",a"), mv("b")}, "1. ,a b *"},
	}
	for _, tt := range tests {
		g := &Game{Moves: tt.moves}
		out := g.String()
		i := strings.Index(out, "\n\n")
		if got := strings.TrimSpace(out[i:]); got != tt.want {
			t.Errorf("movetext %q, want %q", got, tt.want)
		}
		back, err := Parse(out)
		if err != nil || len(back) != 1 || len(back[0].Moves) != len(tt.moves) {
			t.Errorf("%q does not read back: %v", out, err)
		}
	}
}

// TestWriteWrapping checks long comments, a '%' word, and a token longer
// than a line.
func TestWriteWrapping(t *testing.T) {
	long := strings.Repeat("N", 90)
	g := &Game{
		Comment: []string{strings.Repeat("word ", 30) + "[%clk 0:00:10] % %%"},
		Moves: []Move{
			mv("e4"), mv(long), mv("Nf3"), mvc("Nc6", strings.Repeat("x", 85)), mv("Bb5"),
		},
		Result: "*",
	}
	out := g.String()
	checkExportLines(t, out)
	movetext := out[strings.Index(out, "\n\n")+2:]
	want := `{word word word word word word word word word word word word word word word
word word word word word word word word word word word word word word word
[%clk 0:00:10] % %%} 1. e4
` + long + `
2. Nf3 Nc6
{` + strings.Repeat("x", 85) + `}
3. Bb5 *

`
	if movetext != want {
		t.Errorf("movetext\n%s\nwant\n%s", movetext, want)
	}
	games, err := Parse(out)
	if err != nil || len(games) != 1 {
		t.Fatalf("Parse: %v", err)
	}
	if !reflect.DeepEqual(squash(games[0]).Moves, squash(g).Moves) || games[0].Comment[0] != g.Comment[0] {
		t.Errorf("round trip changed the game")
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		name string
		g    *Game
		msg  string
	}{
		{"nil game", nil, "pgn: nil game"},
		{"bad result", &Game{Result: "2-0"}, `pgn: invalid result "2-0"`},
		{"empty tag name", &Game{Tags: []Tag{{"", "x"}}}, "pgn: empty tag name"},
		{"bad tag name", &Game{Tags: []Tag{{"My Tag", "x"}}}, `pgn: invalid tag name "My Tag"`},
		{"bad roster tag name", &Game{Tags: []Tag{{"Event", "x"}, {"Bad]", "y"}}}, `pgn: invalid tag name "Bad]"`},
		{"long tag name", &Game{Tags: []Tag{{strings.Repeat("n", MaxTokenLen+1), "x"}}}, "pgn: tag name too long (over 1000 bytes)"},
		{"long tag value", &Game{Tags: []Tag{{"Event", strings.Repeat("v", MaxTagValueLen+1)}}}, "pgn: tag Event: value too long (over 10000 bytes)"},
		{"empty move", &Game{Moves: mvs("e4", "")}, "pgn: move 2: empty move"},
		{"move with space", &Game{Moves: mvs("e 4")}, `pgn: move 1: invalid character ' ' in move "e 4"`},
		{"move with brace", &Game{Moves: mvs("e4{")}, `pgn: move 1: invalid character '{' in move "e4{"`},
		{"move with period", &Game{Moves: mvs("e4.")}, `pgn: move 1: invalid character '.' in move "e4."`},
		{"move with percent", &Game{Moves: mvs("%e4")}, `pgn: move 1: invalid character '%' in move "%e4"`},
		{"move is a number", &Game{Moves: mvs("12")}, `pgn: move 1: move "12" is a move number`},
		{"move is a result", &Game{Moves: mvs("1-0")}, `pgn: move 1: move "1-0" is a result marker`},
		{"move with suffix", &Game{Moves: mvs("e4!")}, `pgn: move 1: move "e4!" ends in an annotation`},
		{"long move", &Game{Moves: mvs(strings.Repeat("a", MaxTokenLen+1))}, "pgn: move 1: move too long (over 1000 bytes)"},
		{"bad NAG", &Game{Moves: []Move{mv("e4", 256)}}, "pgn: move 1: NAG 256 out of range (0 to 255)"},
		{"negative NAG", &Game{Moves: []Move{mv("e4", -1)}}, "pgn: move 1: NAG -1 out of range (0 to 255)"},
		{"long comment", &Game{Comment: []string{strings.Repeat("c", MaxCommentLen+1)}}, "pgn: comment too long (over 100000 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(&b, tt.g)
			if err == nil {
				t.Fatalf("Write succeeded:\n%s", b.String())
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("error %v does not wrap ErrSyntax", err)
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q, want %q", err, tt.msg)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %d bytes before failing", b.Len())
			}
			if s := tt.g.String(); s != tt.msg {
				t.Errorf("String() = %q, want the error message", s)
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteIOError(t *testing.T) {
	boom := errors.New("pipe closed")
	err := Write(failWriter{boom}, &Game{})
	if !errors.Is(err, boom) || errors.Is(err, ErrSyntax) {
		t.Errorf("error %v: want it to wrap the writer's error only", err)
	}
}

// TestRoundTrip checks that Parse(Write(g)) gives g back for the fixtures,
// up to the normalisation documented on canonical.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pgn")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			games, err := Parse(readFile(t, file))
			if err != nil {
				t.Fatal(err)
			}
			out := writeAll(t, games)
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse of the output: %v", err)
			}
			if len(again) != len(games) {
				t.Fatalf("%d games came back, want %d", len(again), len(games))
			}
			for i := range games {
				if want, got := canonical(games[i]), squash(again[i]); !reflect.DeepEqual(got, want) {
					t.Errorf("game %d:\n got %s\nwant %s", i+1, reflectString(got), reflectString(want))
				}
			}
			if out2 := writeAll(t, again); out2 != out {
				t.Errorf("writing the games again gives other text")
			}
		})
	}
}

// TestWriteGivenNumbers checks moves that carry their own number and side
// (Move.Num): a white move whose number was just written gets none.
func TestWriteGivenNumbers(t *testing.T) {
	n := func(text string, num int, black bool) Move { return Move{Text: text, Num: num, Black: black} }
	tests := []struct {
		name  string
		moves []Move
		want  string
	}{
		{"plain", []Move{n("e4", 1, false), n("e5", 1, true), n("Nf3", 2, false)}, "1. e4 e5 2. Nf3 *"},
		{"black denies", []Move{n("e4", 1, false), n("DENY", 1, true), n("d4", 1, false), n("d5", 1, true), n("Nf3", 2, false)},
			"1. e4 DENY d4 d5 2. Nf3 *"},
		{"white denies", []Move{n("e4", 1, false), n("e5", 1, true), n("DENY", 2, false), n("e6", 1, true), n("Nf3", 2, false), n("Nc6", 2, true)},
			"1. e4 e5 2. DENY e6 Nf3 Nc6 *"},
		{"comment before", []Move{n("e4", 1, false), {Text: "DENY", Num: 1, Black: true, Comments: []string{"c"}}, n("d4", 1, false)},
			"1. e4 DENY {c} 1. d4 *"},
		{"numbers override the FEN", []Move{n("a", 5, true), n("b", 6, false)}, "5... a 6. b *"},
	}
	for _, tt := range tests {
		g := &Game{Moves: tt.moves}
		out := g.String()
		i := strings.Index(out, "\n\n")
		if got := strings.TrimSpace(out[i:]); got != tt.want {
			t.Errorf("%s: movetext %q, want %q", tt.name, got, tt.want)
		}
	}
}
