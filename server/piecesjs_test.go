package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
)

// TestPieceDiagramJS: the movement the page reads from a piece's Betza
// string to draw its diagram (movement in web/src/pieces.js, run by node)
// is where the rules move the piece: each dot of a leap is a square the
// piece moves to (or captures on, as the dot says), each ray passes
// through such squares, and every square the rules give the piece from
// the centre of an empty board lies on a dot or a ray of the diagram.
func TestPieceDiagramJS(t *testing.T) {
	reg := catalog.MustDefault()
	var all []PieceMoves
	for _, name := range []string{"chess", "greatshatranj", "chatrang"} {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := variantPieces(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all = append(all, info.Pieces...)
	}
	if len(all) < 15 {
		t.Fatalf("%d pieces", len(all))
	}
	data, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	// For each piece the script prints its Betza and what does not match,
	// or "ok".
	script := nodeModule(t, "pieces.js", "movement") + `
const sq = (f, r) => String.fromCharCode(97 + f) + (r + 1);
for (const p of ` + string(data) + `) {
  const f0 = p.from.charCodeAt(0) - 97, r0 = Number(p.from.slice(1)) - 1;
  const sets = { m: new Set(p.moves), c: new Set(p.captures) };
  const kinds = (only) => only ? [only] : ['m', 'c'];
  const bad = [];
  const explained = { m: new Set(), c: new Set() };
  const ms = movement(p.betza);
  if (!ms) { console.log(p.betza + ': no diagram'); continue; }
  for (const m of ms) {
    for (const k of kinds(m.only)) {
      const on = [];
      for (let n = 1; n <= (m.ride ? 16 : 1); n++) on.push(sq(f0 + n * m.dx, r0 + n * m.dy));
      const hit = on.filter((s) => sets[k].has(s));
      if (!hit.length) bad.push(k + ' ' + (m.ride ? 'ray ' : 'dot ') + m.dx + ',' + m.dy);
      for (const s of hit) explained[k].add(s);
    }
  }
  for (const k of ['m', 'c']) for (const s of sets[k]) if (!explained[k].has(s)) bad.push(k + ' not drawn ' + s);
  console.log(p.betza + ': ' + (bad.length ? bad.join('; ') : 'ok'));
}`
	lines := nodeScript(t, script, len(all))
	for i, l := range lines {
		if !strings.HasSuffix(l, ": ok") {
			t.Errorf("%s %s (%s): the diagram and the rules differ: %s", all[i].Letter, all[i].Name, all[i].Betza, l)
		}
	}
}

// TestPieceImagesJS: what the page draws for a piece (pieceSVG in
// web/src/pieces.js, run by node), told by the <desc> of its SVG: a shape
// by the piece's name in any case, a king for a royal design, a diagram
// of its movement for a piece of another name, and a disc with its letter
// alone where the Betza string has something the diagram cannot draw.
func TestPieceImagesJS(t *testing.T) {
	cases := []struct {
		Letter string `json:"letter"`
		Name   string `json:"name"`
		Betza  string `json:"betza"`
		want   string // the <desc>, "" for the letter alone
	}{
		{"E", "Elephant", "FA", "elephant"},
		{"H", "high priestess", "NFA", "mitre"},
		{"C", "camel", "C", "camel"},
		{"G", "giraffe", "Z", "giraffe"},
		{"K", "type K", "royal-K", "king"},
		{"Y", "type Y", "FfR", "movement"},
		{"A", "wizard", "BN", "movement"},
		{"A", "Archbishop", "BN", "mitre"},
		{"C", "cannon", "mRcpR", "cannon"},
		{"G", "gold", "WfF", "gold"},
		{"P", "type P", "iW", ""},
		{"X", "type X", "R4", ""},
		{"O", "hopper", "pR", ""},
		{"Z", "", "", ""},
	}
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	script := nodeModule(t, "pieces.js", "pieceSVG") + `
for (const [l, n, b] of ` + string(data) + `.map((c) => [c.letter, c.name, c.betza])) {
  const svg = pieceSVG(l, n, b, 'black');
  const d = /<desc>([^<]*)<\/desc>/.exec(svg);
  const letter = />([A-Z])<\/text>/.exec(svg);
  console.log((d ? d[1] : '') + '|' + (letter ? letter[1] : ''));
}`
	lines := nodeScript(t, script, len(cases))
	for i, c := range cases {
		desc, letter, _ := strings.Cut(lines[i], "|")
		if desc != c.want {
			t.Errorf("%s %q (%s) drawn as %q, want %q", c.Letter, c.Name, c.Betza, desc, c.want)
		}
		if wantLetter := c.want == "" || c.want == "movement"; wantLetter != (letter == c.Letter) {
			t.Errorf("%s %q (%s): letter %q in the image", c.Letter, c.Name, c.Betza, letter)
		}
	}
}
