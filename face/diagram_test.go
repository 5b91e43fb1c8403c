package face_test

import (
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestDiagram checks both layouts: the compact one is the notation
// package's for a board without labels, and labels widen every cell.
func TestDiagram(t *testing.T) {
	v := chess(t)
	p := v.Start()
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if got, want := face.Diagram(p, c, face.DiagramOptions{}), notation.Diagram(p, c); got != want {
			t.Errorf("%v: compact\n%s\nwant\n%s", c, got, want)
		}
	}
	// A variant whose description labels every piece (Vazir's ranks)
	// draws as the notation package draws ranked boards.
	vz, err := catalog.MustDefault().Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	q := vz.Start()
	if got, want := face.Diagram(q, rules.White, face.DiagramOptions{Labels: face.Labels(vz, q)}), notation.Diagram(q, rules.White); got != want {
		t.Errorf("vazir: compact\n%s\nwant\n%s", got, want)
	}
	e1, _ := v.Board().ParseSquare("e1")
	a1, _ := v.Board().ParseSquare("a1")
	var marked geom.Set
	marked.Add(e1)
	framed := face.Diagram(p, rules.White, face.DiagramOptions{Frame: true, Marked: marked, Labels: map[geom.Square]string{a1: "2"}})
	for _, want := range []string{
		"    a   b   c   d   e   f   g   h\n",
		" 1  R2  N   B   Q  [K ] B   N   R   1\n",
		" 8  r   n   b   q   k   b   n   r   8\n",
	} {
		if !strings.Contains(framed, want) {
			t.Errorf("framed diagram lacks %q:\n%s", want, framed)
		}
	}
}
