package ai

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

const table = "{P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

func variant(t *testing.T, o csipgs.Options) *rules.Variant {
	t.Helper()
	v, err := csipgs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSearch checks the engine's decisions in positions with one clear
// choice: buy the strongest piece it can afford, transfer a reserve piece,
// take a free piece, mate, and in the design phase put the design that
// gives the best slots by csipgs.ChooseDesign's criterion (scored here
// apart, bestForMoney), or keep the designs when no change gains enough.
func TestSearch(t *testing.T) {
	v := variant(t, csipgs.DefaultOptions())
	tests := []struct {
		name string
		fen  string
		want func(p *rules.Position, m rules.Move) bool
	}{
		{"buy the rook", "4k3/8/8/8/8/8/8/4K3 w 4/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool {
				return csipgs.KindOf(m) == csipgs.Buy && csipgs.Cost(p, m) == 5
			}},
		{"transfer", "4k3/8/8/8/8/8/8/4K3 w 0/0 R/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(_ *rules.Position, m rules.Move) bool { return csipgs.KindOf(m) == csipgs.Transfer }},
		{"take the rook", "4k3/8/8/8/3r4/8/8/3RK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool { return notation.Coord(p, m) == "d1d4" }},
		{"mate", "4k3/8/4K3/8/8/8/8/R7 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table,
			func(p *rules.Position, m rules.Move) bool { return notation.Coord(p, m) == "a1a8" }},
		{"design phase: the best value for money", designFEN(initialDesigns()), bestForMoney(t, true)},
		{"design phase: weak slots", designFEN([]string{"bR", "fcF", "mW", "bB", "royal-K", "fcF"}), bestForMoney(t, true)},
		{"design phase: nothing gains", designFEN(fixedPoint(t, v)), bestForMoney(t, false)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := v.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			a := New(search.New(4), 1)
			res, err := a.Search(context.Background(), p, search.Limits{Depth: 4}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Playable(res.Best) { // a generated design is legal, though not listed
				t.Fatalf("illegal move %v", res.Best)
			}
			if !tc.want(p, res.Best) {
				t.Errorf("played %s", csipgs.FormatMove(p, res.Best))
			}
			if got := p.FEN(); got != tc.fen && got != mustFEN(t, v, tc.fen) {
				t.Errorf("position changed: %s", got)
			}
		})
	}
	over, _ := v.ParseFEN("8/8/8/8/8/1q6/8/K6k w 0/9 -/- PRNBKQ/PRNBKQ 0 30 " + table)
	if _, err := New(search.New(1), 1).Search(context.Background(), over, search.Limits{Depth: 2}, nil); err == nil {
		t.Error("a lost position (X6) gave a move")
	}
}

func mustFEN(t *testing.T, v *rules.Variant, fen string) string {
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.FEN()
}

// TestSearchView checks play from a view in the moderated mode: the move
// is legal in the view, a refused move is not chosen again, and a free
// enemy piece in sight is taken.
func TestSearchView(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	truth, err := v.ParseFEN("4k3/8/8/8/3r4/8/8/3RK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table)
	if err != nil {
		t.Fatal(err)
	}
	view := truth.View(rules.White).Position
	e8, err := v.Board().ParseSquare("e8")
	if err != nil {
		t.Fatal(err)
	}
	if view.At(e8) != rules.Empty || truth.At(e8) == rules.Empty {
		t.Fatal("the view shows the black king on e8, or the truth has none")
	}
	a := New(search.New(4), 7)
	a.Samples = 3
	m, err := a.SearchView(context.Background(), view, search.Limits{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := notation.Coord(view, m); got != "d1d4" {
		t.Errorf("from the view: %s, want d1d4", got)
	}
	m2, err := a.SearchView(context.Background(), view, search.Limits{Depth: 3}, []rules.Move{m})
	if err != nil {
		t.Fatal(err)
	}
	if m2 == m || !slices.Contains(view.LegalMoves(nil), m2) {
		t.Errorf("after a refusal of %v: %v", m, m2)
	}
}

// slotScore is the score of a slot set as csipgs.ChooseDesign documents
// it, from the public prices and values: over the designs that are not
// royal, the best four of value / price (a design of the same value and
// price as one counted counts once) and a tenth of the greatest value.
func slotScore(t *testing.T, v *rules.Variant, designs []string) int {
	t.Helper()
	type valuePrice struct{ value, price int }
	seen := map[valuePrice]bool{}
	var ratios []int
	top := 0
	for _, d := range designs {
		pi, err := csipgs.Price(d)
		if err != nil {
			t.Fatal(err)
		}
		k := valuePrice{csipgs.Value(v, d), pi.Price}
		if pi.Royal || seen[k] {
			continue
		}
		seen[k] = true
		ratios = append(ratios, k.value/k.price)
		top = max(top, k.value)
	}
	slices.Sort(ratios)
	slices.Reverse(ratios)
	score := top / 10
	for _, r := range ratios[:min(4, len(ratios))] {
		score += r
	}
	return score
}

// bestChange returns the best slots one design change can give the
// designs: any design of the type table, the default catalogue or the
// generated ones into the first slot of each letter, and its score.
func bestChange(t *testing.T, v *rules.Variant, designs, table []string) ([]string, int) {
	t.Helper()
	pool := slices.Concat(table, csipgs.Catalogue)
	for _, pi := range csipgs.GeneratedDesigns(v) {
		pool = append(pool, pi.Design)
	}
	var best []string
	bestScore := -1
	for i, cur := range designs {
		if slices.Contains(designs[:i], cur) {
			continue // a change addresses the first slot of a design's letter
		}
		for _, d := range pool {
			if d == cur {
				continue
			}
			next := slices.Clone(designs)
			next[i] = d
			if sc := slotScore(t, v, next); sc > bestScore {
				best, bestScore = next, sc
			}
		}
	}
	return best, bestScore
}

// slotsOf returns the designs in the slots of the side to move.
func slotsOf(p *rules.Position, c rules.Color) []string {
	var out []string
	for _, l := range csipgs.DesignSlots(p, c) {
		out = append(out, csipgs.DesignOf(p, l))
	}
	return out
}

// tableOf returns the designs of p's type table.
func tableOf(p *rules.Position) []string {
	var out []string
	for _, td := range csipgs.TypeTable(p) {
		out = append(out, td.Design)
	}
	return out
}

// bestForMoney checks a design decision against bestChange: with change,
// a design change whose slots score the best any change gives, and more
// than csipgs.MinDesignGain above the slots as they are; without, that
// no change gains that much and the engine keeps its designs.
func bestForMoney(t *testing.T, change bool) func(p *rules.Position, m rules.Move) bool {
	return func(p *rules.Position, m rules.Move) bool {
		v := p.Variant()
		us := p.Turn()
		now := slotScore(t, v, slotsOf(p, us))
		_, best := bestChange(t, v, slotsOf(p, us), tableOf(p))
		if gains := best > now+csipgs.MinDesignGain; gains != change {
			t.Fatalf("the set-up is not what the case tests: slots score %d, the best change %d", now, best)
		}
		if !change {
			return csipgs.KindOf(m) == csipgs.Pass
		}
		q := p.Clone()
		q.Make(m)
		got := slotScore(t, v, slotsOf(q, us))
		if csipgs.KindOf(m) != csipgs.Redesign || got != best {
			t.Logf("%s: slots %v score %d; the best change scores %d (now %d)", csipgs.FormatMove(p, m), slotsOf(q, us), got, best, now)
			return false
		}
		return true
	}
}

// fixedPoint returns the slots reached from the start's designs by making
// the best change while it gains more than csipgs.MinDesignGain.
func fixedPoint(t *testing.T, v *rules.Variant) []string {
	t.Helper()
	designs := initialDesigns()
	table := slices.Clone(designs)
	for range 20 {
		next, sc := bestChange(t, v, designs, table)
		if sc <= slotScore(t, v, designs)+csipgs.MinDesignGain {
			return designs
		}
		designs = next
		table = append(table, next...)
	}
	t.Fatalf("the best changes go on: %v", designs)
	return nil
}

// initialDesigns returns the designs of the start's slots (CS-2).
func initialDesigns() []string {
	var out []string
	for _, d := range csipgs.InitialDesigns {
		out = append(out, d.Design)
	}
	return out
}

// designFEN returns a position in White's design phase with the kings
// alone on the board and the given designs in both sides' slots.
func designFEN(designs []string) string {
	letters := map[string]byte{"royal-K": 'K'}
	next := byte('A')
	var slots []byte
	for _, d := range designs {
		l, ok := letters[d]
		if !ok {
			l = next
			letters[d] = l
			next++
		}
		slots = append(slots, l)
	}
	var entries []string
	for d, l := range letters {
		entries = append(entries, string(l)+"="+d)
	}
	slices.Sort(entries)
	return "4k3/8/8/8/8/8/4K3/8 w& 0/0 -/- " + string(slots) + "/" + string(slots) + " 0 10 {" + strings.Join(entries, ",") + "}"
}

// TestPlayModeratedHiddenLetters checks that a new design the engine
// chooses from its view goes under a letter free in the true position:
// under HideEconomy the view does not show the opponent's slots, so a
// letter free in the view (A, Black's WD here) may be taken.
func TestPlayModeratedHiddenLetters(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true, HideEconomy: true})
	truth, err := v.ParseFEN("4k3/8/8/8/8/8/4K3/8 w& 0/0 -/- PRNBKQ/ARNBKQ 0 10 {A=WD,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}")
	if err != nil {
		t.Fatal(err)
	}
	view := truth.View(rules.White).Position
	if got := csipgs.DesignOf(view, 'A'); got != "" {
		t.Fatalf("the view shows Black's A=%s", got)
	}
	inView, err := csipgs.ChooseDesign(view)
	if err != nil {
		t.Fatal(err)
	}
	text := csipgs.FormatMove(view, inView)
	if csipgs.KindOf(inView) != csipgs.Redesign || !strings.Contains(text, ">A=") {
		t.Fatalf("from the view: %s; the test wants a new design under the letter A", text)
	}
	m, refused, err := New(search.New(1), 1).PlayModerated(context.Background(), truth, search.Limits{Depth: 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	got := csipgs.FormatMove(truth, m)
	if refused != 0 || csipgs.KindOf(m) != csipgs.Redesign || strings.Contains(got, ">A") {
		t.Errorf("played %s after %d refusals; want %s under a free letter", got, refused, text[strings.Index(text, "=")+1:])
	}
	if truth.Make(m); csipgs.DesignOf(truth, 'A') != "WD" {
		t.Errorf("Black's A is %q after %s", csipgs.DesignOf(truth, 'A'), got)
	}
}

// TestSearchViewReplays: the moderated engine's decision at a fixed depth
// depends on its seed and the view alone, so a game replays from its seed:
// asked again about one view, an engine answers as a new engine with the
// same seed does.
func TestSearchViewReplays(t *testing.T) {
	v := variant(t, csipgs.Options{Moderated: true})
	// Black to move after White's Kd1: a king move and a pawn move are
	// close, and the samples decide.
	truth, err := v.ParseFEN("k7/p7/8/8/8/8/8/3K4 b 0/0 -/- PRNBKQ/PRNBKQ 7 10 " + table)
	if err != nil {
		t.Fatal(err)
	}
	view := truth.View(rules.Black).Position
	for seed := range uint64(8) {
		first, err := New(search.New(1), seed).SearchView(context.Background(), view, search.Limits{Depth: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		a := New(search.New(1), seed)
		for i := range 4 {
			m, err := a.SearchView(context.Background(), view, search.Limits{Depth: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m != first {
				t.Errorf("seed %d, asked %d times: %s, first %s", seed, i+1, notation.Coord(view, m), notation.Coord(view, first))
			}
		}
	}
}

// TestThreads: the whole-turn player searches with two threads (run it
// with -race), in the open game and from a moderated view, and plays
// legal moves: the mate where there is one.
func TestThreads(t *testing.T) {
	tests := []struct {
		name      string
		moderated bool
		fen       string
		want      string // the move, if only one is good
	}{
		{"mate", false, "4k3/8/4K3/8/8/8/8/R7 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table, "a1a8"},
		{"buy or move", false, "4k3/pppp4/8/8/8/8/PPPP4/4K3 w 9/9 -/- PRNBKQ/PRNBKQ 0 10 " + table, ""},
		{"moderated view", true, "k7/p7/8/8/8/8/P7/3K4 w 3/3 -/- PRNBKQ/PRNBKQ 7 10 " + table, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := variant(t, csipgs.Options{Moderated: tc.moderated})
			p, err := v.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			e := search.New(4)
			e.SetThreads(2)
			a := New(e, 1)
			var m rules.Move
			if tc.moderated {
				view := p.View(p.Turn()).Position
				if m, err = a.SearchView(context.Background(), view, search.Limits{Depth: 3}, nil); err != nil {
					t.Fatal(err)
				}
				if !view.Playable(m) {
					t.Fatalf("%s is not a move of the view", notation.Coord(view, m))
				}
				return
			}
			res, err := a.Search(context.Background(), p, search.Limits{Depth: 4}, nil)
			if err != nil {
				t.Fatal(err)
			}
			m = res.Best
			if !p.Playable(m) {
				t.Fatalf("%s is not playable", notation.Coord(p, m))
			}
			if tc.want != "" && notation.Coord(p, m) != tc.want {
				t.Errorf("played %s, want %s", notation.Coord(p, m), tc.want)
			}
		})
	}
}
