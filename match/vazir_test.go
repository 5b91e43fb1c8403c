package match

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

func vazir(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := catalog.MustDefault().Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// coords writes m as from-to.
func coords(m rules.Move) string { return m.From().String() + m.To().String() }

// TestGreedyExpectedGain: the greedy player tries the capture with the
// best expected gain, the chance of success times the victim's value by
// type and rank, and plays a quiet move when there is no capture.
func TestGreedyExpectedGain(t *testing.T) {
	v := vazir(t)
	for _, tt := range []struct {
		name, rfen string
		want       []string // the moves it may play
	}{
		// Pe4 (rank 0) takes a rank-0 knight surely (325) rather than the
		// rank-9 queen once in ten (1/10 of 1256), like Rd1.
		{"sure knight over unlikely queen", "k07/8/8/3q91n02/4P03/8/8/3R02K01 w - - 0 1 t0", []string{"e4f5"}},
		// A rank-9 knight is taken once in ten (1/10 of 469): the queen's
		// 1/10 of 1256 is worth more, whoever takes it.
		{"ranked knight", "k07/8/8/3q91n92/4P03/8/8/3R02K01 w - - 0 1 t0", []string{"e4d5", "d1d5"}},
		// A rank-9 rook takes the rank-9 queen with chance 10/19 (661):
		// more than the sure knight.
		{"ranked rook", "k07/8/8/3q91n02/4P03/8/8/3R92K01 w - - 0 1 t0", []string{"d1d5"}},
		// After a failed try the best capture is tried again.
		{"after a failed try", "k07/8/8/3q91n02/4P03/8/8/3R92K01 w - - 0 1 t2", []string{"d1d5"}},
		// No capture: a quiet move.
		{"quiet", "k07/8/8/8/8/8/8/3R02K01 w - - 0 1 t0", nil},
	} {
		p, err := v.ParseFEN(tt.rfen)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		sp, _ := ParseSpec("greedy")
		for seed := range uint64(4) {
			sp.Seed = seed
			pl, _ := sp.New()
			m, err := pl.Move(context.Background(), p, p.Clone(), nil, Clock{})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			switch {
			case tt.want == nil && p.IsCapture(m):
				t.Errorf("%s: greedy captured %s", tt.name, coords(m))
			case tt.want != nil && !slices.Contains(tt.want, coords(m)):
				t.Errorf("%s (seed %d): greedy played %s, want one of %v", tt.name, seed, coords(m), tt.want)
			}
		}
	}
}

// TestPositionCommandMarks: a UCI engine is given a failed try as the
// move's coordinates and the outcome's Mark.
func TestPositionCommandMarks(t *testing.T) {
	const rfen = "k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t0"
	p, err := vazir(t).ParseFEN(rfen)
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(p.Variant(), p)
	for _, pl := range []struct {
		move    string
		outcome int
	}{{"d1d5", 1}, {"d1d5", 1}, {"h1g1", 0}, {"d5d1", 0}} {
		m, err := notation.ParseCoord(g.Position(), pl.move)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m, pl.outcome); err != nil {
			t.Fatal(err)
		}
	}
	want := "position fen " + rfen + " moves d1d5~ d1d5~ h1g1 d5d1"
	if got := positionCommand(p, g.Plies); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestVazirMatchReplays: a Vazir match starts each pair from a seeded
// set-up, draws outcomes from a seeded roller per game (recorded in the RNG
// tag), and replays bit-exactly from its seed.
func TestVazirMatchReplays(t *testing.T) {
	v := vazir(t)
	e, _ := ParseSpec("engine:depth=1")
	g, _ := ParseSpec("greedy")
	run := func(seed uint64) string {
		var out bytes.Buffer
		st, err := Run(context.Background(), Config{
			Variant: v, Games: 4, Players: [2]Spec{e, g}, TC: TimeControl{MoveTime: time.Second},
			Concurrency: 2, MaxPlies: 60, Seed: seed, PGN: &out,
		})
		if err != nil || st.Games() != 4 || len(st.Errors) > 0 {
			t.Fatalf("%v %v", st, err)
		}
		return out.String()
	}
	// Games finish in any order with concurrency: compare them sorted.
	sorted := func(s string) string {
		games := strings.Split("\n\n"+strings.TrimSpace(s), "\n\n[Event")
		slices.Sort(games)
		return strings.Join(games, "\n")
	}
	a, b := run(5), run(5)
	if sorted(a) != sorted(b) {
		t.Fatalf("the same seed gave different games:\n%s\n---\n%s", a, b)
	}
	if sorted(a) == sorted(run(6)) {
		t.Error("another seed gave the same games")
	}
	games, err := pgn.Parse(a)
	if err != nil || len(games) != 4 {
		t.Fatalf("PGN: %v, %d games", err, len(games))
	}
	starts, tries := map[string]int{}, 0
	for _, pg := range games {
		fen, _ := pg.Tag("FEN")
		starts[fen]++
		tag, ok := pg.Tag("RNG")
		if !ok {
			t.Fatal("no RNG tag")
		}
		seed, err := game.ParseRNGTag(tag)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := notation.ReadGame(catalog.MustDefault(), pg)
		if err != nil {
			t.Fatalf("reading the game back: %v", err)
		}
		// The outcomes are those the roller of the RNG tag draws.
		replay := game.New(rec.Variant, rec.Start())
		dice := game.NewRoller(seed)
		for i, ply := range rec.Plies {
			k, err := rules.Choose(dice, replay.Position().Outcomes(ply.Move))
			if err != nil || k != ply.Outcome {
				t.Fatalf("ply %d: the roller gives outcome %d (%v), the game %d", i+1, k, err, ply.Outcome)
			}
			tries += ply.Outcome
			if err := replay.Play(ply.Move, k); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Two pairs, each from its own seeded start played with both colours.
	if len(starts) != 2 {
		t.Errorf("starts: %v", starts)
	}
	for fen, n := range starts {
		if n != 2 || !strings.HasSuffix(fen, " t0") {
			t.Errorf("start %s played %d times", fen, n)
		}
	}
	if tries == 0 {
		t.Error("no capture attempt failed in four games")
	}
}

// TestCertainOption: engine:certain=1 turns on the engine's certain
// captures.
func TestCertainOption(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want bool
	}{{"engine", false}, {"engine:certain=0", false}, {"engine:certain=1", true}} {
		sp, err := ParseSpec(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := sp.New()
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.(*enginePlayer).e.CertainCaptures(); got != tt.want {
			t.Errorf("%s: certain captures %v", tt.spec, got)
		}
	}
}
