package face_test

import (
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// TestDiagram checks both layouts: the compact one (rank numbers on the
// left, file letters below, turned for Black), labels widening every cell
// (Vazir's ranks), and the framed one with a marked square.
func TestDiagram(t *testing.T) {
	reg := catalog.MustDefault()
	get := func(name, fen string) (*rules.Variant, *rules.Position) {
		t.Helper()
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if fen == "" {
			return v, v.Start()
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return v, p
	}
	chatrang, chatrangStart := get("chatrang", "")
	_, chessStart := get("chess", "")
	vazir, vazirPos := get("vazir", "k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t0")
	e1, _ := chatrang.Board().ParseSquare("e1")
	a1, _ := chatrang.Board().ParseSquare("a1")
	var marked geom.Set
	marked.Add(e1)
	for _, tc := range []struct {
		name string
		p    *rules.Position
		c    rules.Color
		o    face.DiagramOptions
		want string
	}{
		{"compact from black", chatrangStart, rules.Black, face.DiagramOptions{}, ` 1  R N B K Q B N R
 2  P P P P P P P P
 3  . . . . . . . .
 4  . . . . . . . .
 5  . . . . . . . .
 6  . . . . . . . .
 7  p p p p p p p p
 8  r n b q k b n r
    h g f e d c b a
`},
		{"ranked labels", vazirPos, rules.White, face.DiagramOptions{Labels: face.Labels(vazir, vazirPos)}, ` 8  k0 .  .  .  .  .  .  .
 7  .  .  .  .  .  .  .  .
 6  .  .  .  .  .  .  .  .
 5  .  .  .  r5 .  .  .  .
 4  .  .  .  .  .  .  .  .
 3  .  .  .  .  .  .  .  .
 2  .  .  .  .  .  .  .  .
 1  .  .  .  R5 .  .  .  K0
    a  b  c  d  e  f  g  h
`},
		{"framed and marked", chessStart, rules.White, face.DiagramOptions{Frame: true, Marked: marked, Labels: map[geom.Square]string{a1: "2"}}, `    a   b   c   d   e   f   g   h
 8  r   n   b   q   k   b   n   r   8
 7  p   p   p   p   p   p   p   p   7
 6  .   .   .   .   .   .   .   .   6
 5  .   .   .   .   .   .   .   .   5
 4  .   .   .   .   .   .   .   .   4
 3  .   .   .   .   .   .   .   .   3
 2  P   P   P   P   P   P   P   P   2
 1  R2  N   B   Q  [K ] B   N   R   1
    a   b   c   d   e   f   g   h
`},
	} {
		if got := face.Diagram(tc.p, tc.c, tc.o); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
