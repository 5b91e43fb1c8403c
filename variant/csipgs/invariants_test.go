package csipgs

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

var extraDesigns = []string{"FfR", "fsR", "royal-bNbW", "vL", "cNN", "bmW", "fB", "WDH", "royal-fmG", "ffNbbN", "AG", "sRfW", "mQcK", "royal-K"}

// chooser picks a random legal move, with buys and transfers favoured so
// that games grow material, and now and then a design outside the
// catalogue, read as text.
func choose(t testing.TB, p *rules.Position, r *rand.Rand) rules.Move {
	moves := p.LegalMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("no moves in %s", p.FEN())
	}
	if DesignPhase(p) {
		switch x := r.IntN(10); {
		case x < 6:
			return moves[0] // &-
		case x < 8:
			d := extraDesigns[r.IntN(len(extraDesigns))]
			slot := DesignSlots(p, p.Turn())[r.IntN(Slots)]
			for l := byte('A'); l <= 'Z'; l++ {
				if m, err := notation.ParseMove(p, "&"+string(slot)+">"+string(l)+"="+d); err == nil {
					return m
				}
			}
		}
		return moves[r.IntN(len(moves))]
	}
	var eco []rules.Move
	for _, m := range moves {
		if k := KindOf(m); k == Buy || k == Transfer {
			eco = append(eco, m)
		}
	}
	if len(eco) > 0 && r.IntN(3) == 0 {
		return eco[r.IntN(len(eco))]
	}
	return moves[r.IntN(len(moves))]
}

// checkRoundTrip checks FEN and hash against a position read back.
func checkRoundTrip(t testing.TB, p *rules.Position) {
	t.Helper()
	fen := p.FEN()
	q, err := p.Variant().ParseFEN(fen)
	if err != nil {
		t.Fatalf("FEN %s does not read back: %v", fen, err)
	}
	if q.FEN() != fen {
		t.Fatalf("FEN round trip: %s -> %s", fen, q.FEN())
	}
	if q.Hash() != p.Hash() {
		t.Fatalf("hash of %s: incremental %x, from FEN %x", fen, p.Hash(), q.Hash())
	}
}

// TestRandomGames plays random games and checks at every step: make and
// unmake of every legal move restore FEN and hash, no move is listed
// twice, every move has a text that reads back to it, and FEN round-trips
// with the same hash.
func TestRandomGames(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	opts := []Options{DefaultOptions(), {Relay: true}, {RoyalCapture: true, ReserveRoyalsCount: true}}
	extra := append([]string(nil), extraDesigns...)
	extraDesigns = append(extraDesigns, "relay-W", "relay-fN")
	defer func() { extraDesigns = extra }()
	games := 12
	if testing.Short() {
		games = 3
	}
	for g := range games {
		o := opts[g%len(opts)]
		if !o.Relay {
			extraDesigns = extra
		} else {
			extraDesigns = append(slices.Clone(extra), "relay-W", "relay-fN")
		}
		v := newVariant(t, o)
		p := v.Start()
		for ply := 0; ply < 300 && !p.Status().Over(); ply++ {
			fen, h := p.FEN(), p.Hash()
			moves := p.LegalMoves(nil)
			seen := map[rules.Move]bool{}
			for _, m := range moves {
				if seen[m] {
					t.Fatalf("%s listed twice in %s", FormatMove(p, m), fen)
				}
				seen[m] = true
				text := notation.Coord(p, m)
				if back, err := notation.ParseMove(p, text); err != nil || back != m {
					t.Fatalf("%s in %s reads back as %v, %v", text, fen, back, err)
				}
				ft := FormatMove(p, m)
				if back, err := ParseMove(p, ft); err != nil || back != m {
					t.Fatalf("%s in %s reads back as %v, %v", ft, fen, back, err)
				}
				p.Make(m)
				p.Unmake()
				if p.FEN() != fen || p.Hash() != h {
					t.Fatalf("make/unmake of %s in %s gives %s", ft, fen, p.FEN())
				}
			}
			m := choose(t, p, r)
			if !p.IsLegal(m) {
				t.Fatalf("chosen move %s is not legal in %s", FormatMove(p, m), fen)
			}
			p.Make(m)
			checkRoundTrip(t, p)
			// Counters and piece limit.
			for c := rules.White; c <= rules.Black; c++ {
				if p.Money(c) < 0 {
					t.Fatalf("negative treasury in %s", p.FEN())
				}
				if n := len(p.Pieces(c)) + reserveSize(p, c); n > MaxPiecesPerSide {
					t.Fatalf("%d pieces in %s", n, p.FEN())
				}
			}
		}
		// Unmake the whole game back to the start.
		for range 1000 {
			if p.Ply() == 0 && !DesignPhase(p) && p.FEN() == v.StartFEN() {
				break
			}
			p.Unmake()
		}
		if p.FEN() != v.StartFEN() || p.Hash() != v.Start().Hash() {
			t.Fatalf("game %d unmade to %s", g, p.FEN())
		}
	}
}

// TestCloneIndependent checks that a clone shares no state.
func TestCloneIndependent(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w 3/0 -/- PRNBKQ/PRNBKQ 0 4 "+table)
	play(t, p, "Ke1-e2")
	q := p.Clone()
	play(t, q, "&Q>Y=FfR")
	if DesignOf(p, 'Y') != "" || DesignSlots(p, rules.White)[5] != 'Q' {
		t.Error("a clone's design changed the original")
	}
	q.Unmake()
	if q.FEN() != p.FEN() {
		t.Errorf("clone unmake: %s vs %s", q.FEN(), p.FEN())
	}
}

// oracleVisible recomputes CS-M2 Reach visibility from the designs alone.
func oracleVisible(p *rules.Position, c rules.Color) geom.Set {
	var vis geom.Set
	b := p.Variant().Board()
	for _, s := range b.Squares() {
		pc := p.At(s)
		if !pc.IsPiece() || pc.Color() != c {
			continue
		}
		vis.Add(s)
		pi, err := Price(DesignOf(p, p.Variant().PieceLetter(pc)))
		if err != nil {
			panic(err)
		}
		for _, v := range pi.Vectors {
			for _, t := range ray(p, s, v, c) {
				vis.Add(t)
			}
		}
		if pi.Royal {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					f, r := s.File()+dx, s.Rank()+dy
					if f >= 0 && r >= 0 && f < b.Files && r < b.Ranks {
						vis.Add(geom.Sq(f, r))
					}
				}
			}
		}
	}
	return vis
}

// TestModeratedViews plays random moderated games on a 12x12 map with
// terrain and checks at every step that each player's view holds no
// square, piece, terrain or treasury entry the player may not see, and
// that actions chosen from the view are played or refused by the
// moderator without harm.
func TestModeratedViews(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	games := 8
	if testing.Short() {
		games = 4
	}
	sawTerrain, refusals := 0, 0
	defer func() {
		if sawTerrain == 0 || refusals == 0 {
			t.Errorf("the games never showed terrain (%d) or refused an action (%d)", sawTerrain, refusals)
		}
	}()
	for g := range games {
		o := Options{Moderated: true, Files: 12, Ranks: 12, HideEconomy: g%2 == 1}
		for range 14 {
			s := geom.Sq(r.IntN(12), 1+r.IntN(10))
			if !slices.Contains(o.Terrain, s) {
				o.Terrain = append(o.Terrain, s)
			}
		}
		v := newVariant(t, o)
		trueHoles := v.Board().Holes
		p := v.Start()
		var ever [2]geom.Set
		refused := 0
		for ply := 0; ply < 250 && !p.Status().Over(); ply++ {
			for c := rules.White; c <= rules.Black; c++ {
				vis := oracleVisible(p, c)
				ever[c].Union(&vis)
				view := p.View(c)
				if view.Viewer != c || view.Position == nil {
					t.Fatalf("no view")
				}
				if view.Visible != vis {
					t.Fatalf("view of %v: visible %v, oracle %v in %s", c, view.Visible.String(), vis.String(), p.FEN())
				}
				q := view.Position
				holes := q.Variant().Board().Holes
				allowed := trueHoles
				allowed.Intersect(&ever[c])
				h2 := holes
				h2.Intersect(&allowed)
				if !holes.Empty() {
					sawTerrain++
				}
				if h2 != holes {
					t.Fatalf("view of %v shows terrain %v; it has seen %v", c, holes.String(), allowed.String())
				}
				for _, s := range v.Board().Squares() {
					vp, tp := q.At(s), p.At(s)
					if vp.IsPiece() && (!vis.Has(s) || vp != tp) {
						t.Fatalf("view of %v shows %v on %v (true %v, visible %v)", c, vp, s, tp, vis.Has(s))
					}
					if tp.IsPiece() && tp.Color() == c && vp != tp {
						t.Fatalf("view of %v misses its own piece on %v", c, s)
					}
					if vis.Has(s) && vp != tp {
						t.Fatalf("view of %v: visible %v shows %v, true %v", c, s, vp, tp)
					}
				}
				them := c.Other()
				var hidden [2]bool
				hidden[them] = o.HideEconomy
				if view.EconomyHidden != hidden {
					t.Fatalf("view of %v hides the economies %v (HideEconomy %v)", c, view.EconomyHidden, o.HideEconomy)
				}
				if o.HideEconomy {
					if q.Money(them) != 0 || reserveSize(q, them) != 0 {
						t.Fatalf("view of %v shows the hidden economy: %s", c, q.FEN())
					}
					for _, td := range TypeTable(q) {
						l := rules.Type(td.Letter - 'A' + 1)
						ws, bs := DesignSlots(q, rules.White), DesignSlots(q, rules.Black)
						inSlot := slices.Contains(ws[:], td.Letter) || slices.Contains(bs[:], td.Letter)
						if !inSlot && q.Count(rules.White, l)+q.Count(rules.Black, l)+q.Pocket(c, l) == 0 {
							t.Fatalf("view of %v names type %c that nothing it sees uses", c, td.Letter)
						}
					}
				} else if q.Money(them) != p.Money(them) {
					t.Fatalf("view of %v: treasury %d, true %d", c, q.Money(them), p.Money(them))
				}
				if q.Money(c) != p.Money(c) || q.Turn() != p.Turn() || q.Phase() != p.Phase() {
					t.Fatalf("view of %v: own economy or turn differs", c)
				}
				if st := q.State().(*state); !st.seen[them].Empty() || len(st.log) != 0 {
					t.Fatalf("view of %v carries the opponent's knowledge or history", c)
				}
				if strings.Contains(q.FEN(), "*") && holes.Empty() {
					t.Fatalf("view FEN shows terrain")
				}
				// Determinize gives a playable position.
				d := v.Ext().(rules.Determinizer).Determinize(view, r)
				if d == nil {
					t.Fatalf("no determinization")
				}
				d.LegalMoves(nil)
			}
			// The mover picks from its view; the moderator judges.
			view := p.View(p.Turn())
			vm := view.Position.LegalMoves(nil)
			played := false
			for tries := 0; tries < 5 && len(vm) > 0; tries++ {
				m := vm[r.IntN(len(vm))]
				fen := p.FEN()
				real, err := p.Moderate(view.Position, m)
				if err == nil {
					p.Make(real)
					played = true
					break
				}
				if !errors.Is(err, ErrRefused) || p.FEN() != fen {
					t.Fatalf("Moderate: %v, position %s -> %s", err, fen, p.FEN())
				}
				refused++
			}
			if !played {
				p.Make(choose(t, p, r))
			}
		}
		refusals += refused
	}
}

// TestRefusal checks the moderator's answers (CS-M5).
func TestRefusal(t *testing.T) {
	o := DefaultOptions()
	o.Moderated = true
	v := newVariant(t, o)
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/3rK3 w 50/0 N/- PRNBKQ/PRNBKQ 0 4 "+table)
	view := p.View(rules.White).Position
	if _, err := p.Moderate(view, buyMove(uint8(v.TypeOf('Q')))); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "check") {
		t.Errorf("buy in check: %v", err)
	}
	e1 := sq(t, v, "e1")
	if _, err := p.Moderate(view, pieceMove(e1, e1+geom.Square(geom.Offset(0, 2)), false)); !errors.Is(err, ErrRefused) {
		t.Errorf("a king leap: %v", err)
	}
	// Royal capture: moving into attack is legal in moderated games.
	m, err := notation.ParseMove(p, "Ke1-f1")
	if err != nil {
		t.Fatal(err)
	}
	if real, err := p.Moderate(view, m); err != nil || real != m {
		t.Errorf("Ke1-f1: %v, %#v", err, real)
	}
}

// FuzzFEN checks that csipgs-FEN reading never panics, and that what it
// reads writes back to a FEN that reads to the same position.
func FuzzFEN(f *testing.F) {
	for _, s := range []string{
		"4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + table,
		"4k3/8/8/8/8/8/8/4K3 w& 1/0 NPP/Q PRNBKY/PRNBKQ 3 7 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q,Y=FfR}",
		"4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {}",
		"8/8/8/8/8/8/8/8 b 0/0 -/- PPPPPP/PPPPPP 0 1 {P=W}",
		"4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {P=R4}",
		"4k3/8/8/8/8/8/8/4K3 b& 0/0 -/- PRNBKQ/?????? 0 1 " + table, // a view under HideEconomy
		"4k3/8/8/8/8/8/8/4K3 w 5/0 -/- P?NB?Q/PRNBKQ 0 1 " + table,
	} {
		f.Add(s)
	}
	v, err := New(DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := v.ParseFEN(s)
		if err != nil {
			if !errors.Is(err, rules.ErrFEN) {
				t.Fatalf("%q: error %v does not wrap ErrFEN", s, err)
			}
			return
		}
		fen := p.FEN()
		q, err := v.ParseFEN(fen)
		if err != nil || q.FEN() != fen || q.Hash() != p.Hash() {
			t.Fatalf("%q -> %q does not read back: %v", s, fen, err)
		}
		p.Status()
		for _, m := range p.LegalMoves(nil) {
			p.Make(m)
			p.Unmake()
		}
		if p.FEN() != fen {
			t.Fatalf("make/unmake changed %q", fen)
		}
	})
}

// TestLetterRecycling redesigns a slot again and again: letters nothing
// uses any more are dropped and used again, the table never overflows,
// and every step reads back from its FEN.
func TestLetterRecycling(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	p := v.Start()
	designs := []string{"FfR", "fsR", "vL", "cNN", "bmW", "fB", "WDH", "AG", "sRfW", "mQcK", "W", "F", "D", "H", "A", "G", "L", "fN", "bN", "vN", "sN", "ffN", "fsN", "bbN", "bsN", "fW", "bW", "sW", "fF", "bF"}
	kings := [2][2]string{{"Ke1-e2", "Ke2-e1"}, {"Ke8-e7", "Ke7-e8"}}
	for i, d := range designs {
		for c := range 2 {
			play(t, p, kings[c][i%2])
			slot := DesignSlots(p, p.Turn())[5]
			done := false
			for l := byte('A'); l <= 'Z' && !done; l++ {
				m, err := ParseMove(p, "&"+string(slot)+">"+string(l)+"="+d)
				if err == nil {
					p.Make(m)
					done = true
				}
			}
			if !done {
				t.Fatalf("no letter for %s in %s", d, p.FEN())
			}
			checkRoundTrip(t, p)
			if n := len(TypeTable(p)); n > 26 {
				t.Fatalf("%d types", n)
			}
		}
	}
	if n := len(TypeTable(p)); n > 7 {
		t.Errorf("unused designs kept: %d types in %s", n, p.FEN())
	}
	for range 4 * len(designs) {
		p.Unmake()
	}
	if p.FEN() != v.StartFEN() {
		t.Errorf("unmade to %s", p.FEN())
	}
}

// FuzzMoveText checks that reading move texts never panics and that what
// is read is legal.
func FuzzMoveText(f *testing.F) {
	for _, s := range []string{"Ke1-e2", "e1e2", "+Q", "$P", "&-", "&Q>Y=FfR", "&P>N", "N@d2", "Ke1xe2", "&Q>Y=royal-", "&"} {
		f.Add(s)
	}
	v, err := New(DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	a := mustFEN(f, v, "4k3/8/8/8/8/8/8/4K3 w 10/0 N/- PRNBKQ/PRNBKQ 0 10 "+table)
	b := mustFEN(f, v, "4k3/8/8/8/8/8/8/4K3 w& 10/0 N/- PRNBKQ/PRNBKQ 0 10 "+table)
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []*rules.Position{a, b} {
			fen := p.FEN()
			m, err := ParseMove(p, s)
			if err == nil && !p.IsLegal(m) {
				t.Fatalf("%q read as an illegal move", s)
			}
			if m2, err := notation.ParseMove(p, s); err == nil && !p.IsLegal(m2) {
				t.Fatalf("%q read by notation as an illegal move", s)
			}
			if p.FEN() != fen {
				t.Fatalf("reading %q changed the position", s)
			}
		}
		o := DefaultOptions()
		_ = o.SetTags(map[string]string{"MapSize": s, "Terrain": s, "Visibility": s, "DesignCatalogue": s})
	})
}

// TestConcurrentGames plays games of one variant in several goroutines,
// each naming new designs, so the shared design registry is used
// concurrently (run with -race).
func TestConcurrentGames(t *testing.T) {
	v := newVariant(t, DefaultOptions())
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			r := rand.New(rand.NewPCG(uint64(g), 99))
			p := v.Start()
			for ply := 0; ply < 120 && !p.Status().Over(); ply++ {
				moves := p.LegalMoves(nil)
				m := moves[r.IntN(len(moves))]
				if DesignPhase(p) {
					d := strings.Repeat("W", 1+r.IntN(2)) + []string{"F", "fN", "bD", "cA", "mG"}[r.IntN(5)] + string("HL"[g%2])
					if x, err := ParseMove(p, "&P>Z="+d); err == nil {
						m = x
					}
				}
				p.Make(m)
				p.View(rules.White)
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
