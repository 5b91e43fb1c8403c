package ai

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// typeOf returns the type of the csipgs letter l.
func typeOf(l byte) rules.Type { return rules.Type(l - 'A' + 1) }

// squares returns the names of the squares where mass is not 0, sorted.
func squares(mass []float64) string {
	var out []string
	for s, x := range mass {
		if x > 0 {
			out = append(out, geom.Square(s).String())
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestBeliefFromStart: from the start, the opponent's King is where the
// start puts it, then anywhere a King's move takes it out of sight.
func TestBeliefFromStart(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	p := v.Start()
	var b belief
	b.update(p.View(rules.White))
	if got := squares(b.mass[typeOf('K')]); !b.known[typeOf('K')] || got != "e8" {
		t.Errorf("at the start: Black's King on %q (known %v), want e8", got, b.known[typeOf('K')])
	}
	for _, s := range []string{"Kd2", "&-", "Kf7", "&-"} {
		m, err := notation.ParseMove(p, s)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
	b.update(p.View(rules.White))
	if got := squares(b.mass[typeOf('K')]); got != "d7 d8 e7 e8 f7 f8" {
		t.Errorf("after a turn: Black's King on %q, want d7 d8 e7 e8 f7 f8", got)
	}
	before := b
	for t := range before.mass {
		before.mass[t] = slices.Clone(b.mass[t])
	}
	b.update(p.View(rules.White)) // the same view again
	if !reflect.DeepEqual(b, before) {
		t.Error("the same view again changed the belief")
	}
}

// beliefTruths are true positions of a moderated game (White to move):
// Black's King and a bishop in White's sight with a rook in reserve, then
// a turn later the rook transferred out of White's sight, next to the
// King, on d8 or (the second) on f8; White's views of the two are equal.
var beliefTruths = []string{
	"4k3/8/8/8/8/8/8/1b2RK2 w 0/0 -/R PRNBKQ/PRNBKQ 0 10 " + table,
	"3rk3/8/8/8/8/8/8/1b2RK2 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table,
	"4kr2/8/8/8/8/8/8/1b2RK2 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table,
}

// TestBeliefTransfer: a piece that left the opponent's reserve stands next
// to its King, and the samples put it there.
func TestBeliefTransfer(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	b, last := beliefFrom(t, v, beliefTruths[:2])
	if got := squares(b.mass[typeOf('R')]); !b.known[typeOf('R')] || got != "d7 d8 f7 f8" {
		t.Fatalf("the transferred rook on %q, want d7 d8 f7 f8", got)
	}
	det := v.Ext().(rules.Determinizer).Determinize
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		q := b.place(det(last, rng), last, rng)
		var rooks []string
		for _, s := range q.Pieces(rules.Black) {
			if q.At(s).Type() == typeOf('R') {
				rooks = append(rooks, s.String())
			}
		}
		if len(rooks) != 1 || !slices.Contains([]string{"d7", "d8", "f7", "f8"}, rooks[0]) {
			t.Errorf("seed %d: Black's rooks on %v, want one on d7, d8, f7 or f8", seed, rooks)
		}
		if q.FEN() == "" || len(q.Pieces(rules.Black)) != 3 {
			t.Errorf("seed %d: sample %s", seed, q.FEN())
		}
	}
}

// TestBeliefOnlyFromViews: the engine's belief and decision come from the
// views it is given alone. Two games whose true positions differ where
// White cannot see but whose views are the same leave the engine the same
// belief (its probabilities, the captors it infers, the safety of its
// actions) and the same move, whether it is given the views or plays as
// the moderator's player from the truths: a rook transferred to d8 or f8;
// a rook seen on e8 a turn ago, with the black King on h8 or g8; a knight
// that took a pawn out of sight, with the black King on h8 or g8.
func TestBeliefOnlyFromViews(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	truth := func(fen string) *rules.Position {
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name  string
		first string
		other [2]string // the second truths, alike to White
	}{
		{"transfer", beliefTruths[0], [2]string{beliefTruths[1], beliefTruths[2]}},
		{"rook on the line", riskTruths[0], [2]string{riskTruths[1], strings.Replace(riskTruths[1], "4r2k", "4r1k1", 1)}},
		{"captor", captorTruths[0], [2]string{captorTruths[1], strings.Replace(captorTruths[1], "7k/", "6k1/", 1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a1, a2 := truth(tc.other[0]), truth(tc.other[1])
			if a1.FEN() == a2.FEN() {
				t.Fatal("the two truths are the same")
			}
			if a1.View(rules.White).Position.FEN() != a2.View(rules.White).Position.FEN() {
				t.Fatal("the two truths do not look the same to White")
			}
			lim := search.Limits{Depth: 2}
			var beliefs []belief
			var moves []string
			for _, second := range tc.other {
				for _, moderator := range []bool{false, true} {
					a := New(search.New(1), 3)
					a.Belief = true
					for _, fen := range []string{tc.first, second} {
						p := truth(fen)
						var m rules.Move
						var err error
						if moderator {
							m, _, err = a.PlayModerated(context.Background(), p, lim, 4)
						} else {
							view := p.View(rules.White).Position
							m, err = a.SearchView(context.Background(), view, lim, nil)
						}
						if err != nil {
							t.Fatal(err)
						}
						if fen == second {
							moves = append(moves, notation.Coord(p, m))
						}
					}
					beliefs = append(beliefs, a.bel)
				}
			}
			for i := 1; i < len(beliefs); i++ {
				if !reflect.DeepEqual(beliefs[i], beliefs[0]) {
					t.Errorf("game %d: belief differs from the first game's", i)
				}
				if moves[i] != moves[0] {
					t.Errorf("game %d: move %s, the first game's %s", i, moves[i], moves[0])
				}
			}
		})
	}
}

// TestBeliefStaysNear: a piece last seen on a square most likely still
// stands there a few turns later, since each turn of the opponent moves
// one of its pieces at most: the samples put it there far more often than
// on any other unseen square.
func TestBeliefStaysNear(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	b, last := beliefFrom(t, v, []string{
		"r6k/8/8/8/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,  // the rook on a8 in sight
		"r6k/8/8/8/8/8/8/1R2K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 12 " + table, // two turns later, out of sight
	})
	a8, err := v.Board().ParseSquare("a8")
	if err != nil {
		t.Fatal(err)
	}
	if last.Visible.Has(a8) {
		t.Fatal("a8 is in sight")
	}
	det := v.Ext().(rules.Determinizer).Determinize
	count := map[geom.Square]int{}
	const n = 200
	for seed := range uint64(n) {
		rng := rand.New(rand.NewPCG(seed, 2))
		q := b.place(det(last, rng), last, rng)
		for _, s := range q.Pieces(rules.Black) {
			if q.At(s).Type() == typeOf('R') {
				count[s]++
			}
		}
	}
	for s, c := range count {
		if s != a8 && c >= count[a8] {
			t.Errorf("the rook on %s in %d samples, on a8 (last seen) in %d", s, c, count[a8])
		}
	}
	if count[a8] < n/4 {
		t.Errorf("the rook on a8 (last seen two turns ago) in %d of %d samples, want at least %d", count[a8], n, n/4)
	}
}

// riskTruths are true positions of a moderated game, White to move: a
// black rook on e8 in White's sight (behind White's rook on e2), then a
// turn later, White's rook gone to a2, out of sight on the open e-file
// that leads to White's King, and a black knight free to take on a5.
var riskTruths = []string{
	"4r2k/8/8/8/8/8/4R3/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
	"4r2k/8/8/n7/8/8/R7/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table,
}

// TestBeliefRisk: the chance that an action leaves the royal to an enemy
// piece, by the belief: high for staying on the line of the rook last
// seen on e8, lower off it, 1 next to an enemy piece in sight that takes
// it, 0 with two royals.
func TestBeliefRisk(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	b, vw := beliefFrom(t, v, riskTruths)
	view := vw.Position
	hidden := hiddenCounts(vw)
	if hidden[typeOf('R')] != 1 {
		t.Fatalf("hidden rooks %d, want 1", hidden[typeOf('R')])
	}
	risk := func(p *rules.Position, w rules.View, text string) float64 {
		t.Helper()
		m, err := notation.ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		return b.risk(p, w, hiddenCounts(w), m)
	}
	stay, off := risk(view, vw, "Ra2xa5"), risk(view, vw, "Kd2")
	if stay < 0.5 || off >= stay-0.3 {
		t.Errorf("risk %.3f on e1 (the rook seen on e8), %.3f on d2: want above 0.5 and 0.3 less off the file", stay, off)
	}
	// A knight in sight (on c4, seen by the rook on c2) takes a King on d2.
	seen, err := v.ParseFEN("4r2k/8/8/8/2n5/8/2R5/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table)
	if err != nil {
		t.Fatal(err)
	}
	sw := seen.View(rules.White)
	if got := risk(sw.Position, sw, "Kd2"); got != 1 {
		t.Errorf("risk %.3f of Kd2 in reach of the knight on c4, want 1", got)
	}
	two, err := v.ParseFEN("4r2k/8/8/8/8/8/R7/K3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table)
	if err != nil {
		t.Fatal(err)
	}
	tw := two.View(rules.White)
	if got := risk(tw.Position, tw, "Ra3"); got != 0 {
		t.Errorf("risk %.3f with two royals, want 0", got)
	}
}

// TestSafety: with the belief, the engine does not take a free knight
// when it leaves its only royal on the open line of a rook it saw there a
// turn or a few turns ago (which, in the truth, still stands there and
// would take it).
func TestSafety(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	for _, later := range []string{"11", "13", "15"} {
		for seed := range uint64(4) {
			a := New(search.New(1), seed)
			a.Belief = true
			var m rules.Move
			var truth *rules.Position
			for _, fen := range []string{riskTruths[0], strings.Replace(riskTruths[1], " 0 11 ", " 0 "+later+" ", 1)} {
				var err error
				if truth, err = v.ParseFEN(fen); err != nil {
					t.Fatal(err)
				}
				if m, _, err = a.PlayModerated(context.Background(), truth, search.Limits{Nodes: 4000}, 4); err != nil {
					t.Fatal(err)
				}
			}
			truth.Make(m)
			truth.Make(csipgsPass(truth))
			for _, x := range truth.LegalMoves(nil) {
				if truth.At(x.To()).Type() == typeOf('K') && truth.At(x.To()).Color() == rules.White {
					t.Errorf("fullmove %s, seed %d: after %s Black takes the King with %s", later, seed, notation.Coord(truth, m), notation.Coord(truth, x))
				}
			}
		}
	}
}

// captorTruths are true positions of a moderated game, White to move: a
// black knight on a5 in sight of White's King on b4, then a turn later
// White's pawn on c6 gone, taken by the knight, which stands there out of
// sight and attacks the King.
var captorTruths = []string{
	"7k/8/2P5/n7/1K6/8/7P/8 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
	"7k/8/2n5/8/1K6/7P/8/8 w 0/0 -/- PRNBKQ/PRNBKQ 0 11 " + table,
}

// TestBeliefCaptor: where the viewer's piece vanished out of sight, the
// opponent's piece that took it stands: the belief puts the knight on c6,
// and the engine does not leave its King in the knight's reach.
func TestBeliefCaptor(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	b, _ := beliefFrom(t, v, captorTruths)
	c6, err := v.Board().ParseSquare("c6")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.mass[typeOf('N')][c6]; got < 0.9 {
		t.Errorf("the knight on c6 with probability %.3f, want above 0.9", got)
	}
	for seed := range uint64(4) {
		a := New(search.New(1), seed)
		a.Belief = true
		var m rules.Move
		var truth *rules.Position
		for _, fen := range captorTruths {
			if truth, err = v.ParseFEN(fen); err != nil {
				t.Fatal(err)
			}
			if m, _, err = a.PlayModerated(context.Background(), truth, search.Limits{Nodes: 4000}, 4); err != nil {
				t.Fatal(err)
			}
		}
		truth.Make(m)
		truth.Make(csipgsPass(truth))
		for _, x := range truth.LegalMoves(nil) {
			if truth.At(x.To()).Type() == typeOf('K') && truth.At(x.To()).Color() == rules.White {
				t.Errorf("seed %d: after %s Black takes the King with %s", seed, notation.Coord(truth, m), notation.Coord(truth, x))
			}
		}
	}
}

// beliefFrom returns White's belief after the views of the true positions
// fens, in order, and the last view.
func beliefFrom(t *testing.T, v *rules.Variant, fens []string) (belief, rules.View) {
	t.Helper()
	var b belief
	var last rules.View
	for _, fen := range fens {
		truth, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		last = truth.View(rules.White)
		b.update(last)
	}
	return b, last
}
