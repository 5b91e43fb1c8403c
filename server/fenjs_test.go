package server

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/crazy"
)

// TestFENJS: the page's FEN board parser (web/src/fen.mjs, run by node)
// reads every variant's FEN as the rules do: boards 10 and 16 files wide
// (empty runs of two digits), csipgs terrain (also right after a piece),
// Crazy-FEN stacks and risen bishops, Vazir's ranks; and writes the plain
// board back as the server does.
func TestFENJS(t *testing.T) {
	reg := catalog.MustDefault()
	cases := []struct {
		variant string
		options map[string]string
		fen     string
	}{
		{"chess", nil, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"greatshatranj", nil, "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1"},
		{"greatshatranj", nil, "5G3k/8pp/10/10/10/10/10/K9 w - - 0 1"},
		{"csipgs", map[string]string{"MapSize": "16x16", "Terrain": "a16,j15,p9,c3,d3,h2"},
			"*7k7/9*6/16/16/16/16/10pp4/15*/16/16/16/16/16/2**12/6Q*1R6/8K7 w 3/0 -/- PRNBKQ/PRNBKQ 0 1 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"},
		{"csipgs", map[string]string{"MapSize": "10x10"},
			"4k5/10/10/10/10/10/10/10/10/4K4N w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"},
		{"crazychess", nil, "r3k3/7p/8/8/8/8/8/(RNP)3K3 w - - 0 1 b - 0"},
		{"crazychess", nil, "(rp)3k1n1/7p/8/8/8/8/7P/R3K3 w - - 0 1 w - 0"},
		{"crazychess", nil, "rn1qkbnr/pppppppp/8/8/2b*5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0"},
		{"vazir", nil, "8/k07/8/3r93n1/8/8/8/3R02K0Q9 w - - 0 1 t0"},
	}
	type jsCase struct {
		FEN    string `json:"fen"`
		Plain  string `json:"plain"`
		Files  int    `json:"files"`
		Ranked bool   `json:"ranked"`
	}
	var js []jsCase
	var wantGrid, wantPlain []string
	for _, c := range cases {
		v, err := reg.Get(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		if c.options != nil {
			if v, err = v.Configure(c.options); err != nil {
				t.Fatalf("%s %v: %v", c.variant, c.options, err)
			}
		}
		p, err := v.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		b := v.Board()
		ranked := v.Spec().Ranked
		var rows []string
		for r := b.Ranks - 1; r >= 0; r-- {
			var cells []string
			for f := 0; f < b.Files; f++ {
				cells = append(cells, cellText(v, p, geom.Sq(f, r), ranked))
			}
			rows = append(rows, strings.Join(cells, " "))
		}
		wantGrid = append(wantGrid, strings.Join(rows, "/"))
		plain := boardPart(p)
		wantPlain = append(wantPlain, plain)
		js = append(js, jsCase{FEN: c.fen, Plain: plain, Files: b.Files, Ranked: ranked})
	}
	data, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	script := nodeModule(t, "fen.mjs", "parseBoard, plainBoard") + `
const text = (c) => !c ? '.' : c.terrain ? '#' : c.stack ? '(' + c.stack.join('') + ')' : c.piece + (c.rank ?? '') + (c.risen ? '*' : '');
for (const c of ` + string(data) + `) {
  const own = parseBoard(c.fen, {files: c.files, ranked: c.ranked});
  const plain = parseBoard(c.plain, {files: c.files});
  console.log(own.rows.map((r) => r.map(text).join(' ')).join('/') + '|' + plainBoard(plain.rows, plain.pocket));
}`
	lines := nodeScript(t, script, len(cases))
	for i, line := range lines {
		grid, plain, _ := strings.Cut(line, "|")
		if grid != wantGrid[i] {
			t.Errorf("%s: the page reads\n %s\nthe rules\n %s", cases[i].fen, grid, wantGrid[i])
		}
		if plain != wantPlain[i] {
			t.Errorf("%s: the page writes the plain board %s, the server %s", cases[i].fen, plain, wantPlain[i])
		}
	}
}

// cellText writes what square sq of p holds as the test's node script
// does: "." empty, "#" terrain, a piece's letter with its rank (ranked) or
// "*" when it is a risen bishop, a stack's pieces bottom to top in
// parentheses.
func cellText(v *rules.Variant, p *rules.Position, sq geom.Square, ranked bool) string {
	if b := v.Board(); b.Holes.Has(sq) {
		return "#"
	}
	pc := p.At(sq)
	if !pc.IsPiece() {
		return "."
	}
	if v.Name() == crazy.Name {
		var sb strings.Builder
		stack := crazy.Stack(p, sq)
		for _, x := range stack {
			sb.WriteByte(v.PieceLetter(x))
			if crazy.Risen(x) {
				sb.WriteByte('*')
			}
		}
		if len(stack) > 1 {
			return "(" + sb.String() + ")"
		}
		return sb.String()
	}
	if ranked {
		return string(v.PieceLetter(pc)) + strconv.Itoa(int(pc.Attr()))
	}
	return string(v.PieceLetter(pc))
}
