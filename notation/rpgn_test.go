package notation_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// full is the registry with every variant, Vazir included.
var full = catalog.MustDefault()

// vazir returns Vazir configured by the option tags in opts.
func vazir(t testing.TB, opts map[string]string) *rules.Variant {
	t.Helper()
	v, err := full.Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = v.Configure(opts); err != nil {
		t.Fatal(err)
	}
	return v
}

// readFull reads the one game of text with the full registry.
func readFull(t testing.TB, text string) (*game.Game, error) {
	t.Helper()
	games, err := pgn.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%d games in %q", len(games), text)
	}
	return notation.ReadGame(full, games[0])
}

// movetext returns the movetext of a written game on one line.
func movetext(pg *pgn.Game) string {
	out := pg.String()
	return strings.Join(strings.Fields(out[strings.Index(out, "\n\n"):]), " ")
}

// elements returns each ply of g as its SAN and the mark of its outcome.
func elements(g *game.Game) []string {
	var out []string
	g.Replay(func(p *rules.Position, i int) {
		pl := g.Plies[i]
		out = append(out, notation.SAN(p, pl.Move)+notation.Mark(p, pl.Move, pl.Outcome))
	})
	return out
}

// vazirRecord is an R-PGN record of Vazir with the given extra tags.
func vazirRecord(tags, rfen, moves string) string {
	return "[Variant \"Vazir\"]\n" + tags + "[SetUp \"1\"]\n[FEN \"" + rfen + "\"]\n\n" + moves + "\n"
}

// TestEndInsideTurn: a game may end between two decisions of a turn (a
// player resigns, or the flag falls, after a failed try); its record reads
// back with the turn as far as it went and the result.
func TestEndInsideTurn(t *testing.T) {
	for _, result := range []string{"1-0", "0-1", "1/2-1/2", "*"} {
		g, err := readFull(t, vazirRecord("", knightRFEN, "12. Nxe5~ "+result))
		if err != nil {
			t.Fatalf("%s: %v", result, err)
		}
		if len(g.Plies) != 1 || g.Plies[0].Outcome == 0 || g.Position().Turn() != rules.White {
			t.Errorf("%s: %d plies, White still to move: %v", result, len(g.Plies), g.Position().Turn() == rules.White)
		}
	}
}

// Positions for the specification's examples: a knight's try and a
// bishop's capture with check at move 12, a queen's three tries at move 13,
// a knight checking the king at move 20 (with MPT 2, two failed tries and
// the extra king move).
const (
	knightRFEN = "4k03/5p02/8/4p53/2B05/5N02/8/4K03 w - - 0 12 t0"
	queenRFEN  = "4k03/7p9/8/8/8/3Q04/8/4K03 w - - 0 13 t0"
	rookRFEN   = "1k06/8/8/8/8/R05n91/8/7K0 w - - 0 20 t0"
)

// The specification's turn tokens (Vazir section 1.9), on positions built
// for them.
var specExamples = []struct {
	name, tags, rfen, moves string
	plies                   []string // SAN and mark of each ply
	written, plain          string   // movetext of WriteGame and WritePlainGame
	final                   string   // RFEN at the end
}{
	{
		name: "a failed try, then a capture", rfen: knightRFEN,
		moves:   "12. Nxe5~,Bxf7+ Kxf7 *",
		plies:   []string{"Nxe5~", "Bxf7+", "Kxf7"},
		written: "12. Nxe5~,Bxf7+ Kxf7 *",
		plain:   "{Nxe5~} 12. Bxf7+ Kxf7 *",
		final:   "8/5k02/8/4p53/8/5N02/8/4K03 w - - 0 13 t0",
	},
	{
		name: "a roll as a comment", rfen: knightRFEN,
		moves:   "12. Nxe5~{u=6/9},Bxf7+ Kxf7 {certain} *",
		plies:   []string{"Nxe5~", "Bxf7+", "Kxf7"},
		written: "12. Nxe5~ {u=6/9} ,Bxf7+ Kxf7 {certain} *",
		plain:   "{Nxe5~} {u=6/9} 12. Bxf7+ Kxf7 {certain} *",
		final:   "8/5k02/8/4p53/8/5N02/8/4K03 w - - 0 13 t0",
	},
	{
		name: "tries used up", rfen: queenRFEN,
		moves:   "13. Qxh7~,Qxh7~,Qxh7~ Kf8 *",
		plies:   []string{"Qxh7~", "Qxh7~", "Qxh7~", "Kf8"},
		written: "13. Qxh7~,Qxh7~,Qxh7~ Kf8 *",
		plain:   "{Qxh7~ Qxh7~ Qxh7~} 13. -- Kf8 *",
		final:   "5k02/7p9/8/8/8/3Q04/8/4K03 w - - 2 14 t0",
	},
	{
		name: "the extra king move, MPT 2", tags: "[MPT \"2\"]\n", rfen: rookRFEN,
		moves:   "20. Rxg3~,Rxg3~,Kh2 Nf5 *",
		plies:   []string{"Rxg3~", "Rxg3~", "Kh2", "Nf5"},
		written: "20. Rxg3~,Rxg3~,Kh2 Nf5 *",
		plain:   "{Rxg3~ Rxg3~} 20. Kh2 Nf5 *",
		final:   "1k06/8/8/5n92/8/R07/7K0/8 w - - 2 21 t0",
	},
	{
		name: "tokens split around a comma", rfen: queenRFEN,
		moves:   "13. Qxh7~ ,Qxh7~, Qxh7~ Kf8 *",
		plies:   []string{"Qxh7~", "Qxh7~", "Qxh7~", "Kf8"},
		written: "13. Qxh7~,Qxh7~,Qxh7~ Kf8 *",
		plain:   "{Qxh7~ Qxh7~ Qxh7~} 13. -- Kf8 *",
		final:   "5k02/7p9/8/8/8/3Q04/8/4K03 w - - 2 14 t0",
	},
	{
		name: "a game in progress stops inside a turn", tags: "[MPT \"2\"]\n", rfen: rookRFEN,
		moves:   "20. Rxg3~,Rxg3~ *",
		plies:   []string{"Rxg3~", "Rxg3~"},
		written: "20. Rxg3~,Rxg3~ *",
		plain:   "{Rxg3~ Rxg3~} *",
		final:   "1k06/8/8/8/8/R05n91/8/7K0 w - - 0 20 t2K",
	},
	{
		name: "a try after the turn's number", rfen: "4k03/5p02/8/4p53/2B05/5N02/8/4K03 b - - 0 12 t0",
		moves:   "12... Ke7 13. Nxe5~ $2 ,Bxf7 *",
		plies:   []string{"Ke7", "Nxe5~", "Bxf7"},
		written: "12... Ke7 13. Nxe5~ $2 ,Bxf7 *",
		plain:   "12... Ke7 {Nxe5~} 13. Bxf7 *",
		final:   "8/4k0B02/8/4p53/8/5N02/8/4K03 b - - 0 13 t0",
	},
}

// TestReadSpecExamples reads the specification's R-PGN examples, writes
// them back, and exports them to plain PGN.
func TestReadSpecExamples(t *testing.T) {
	for _, tc := range specExamples {
		t.Run(tc.name, func(t *testing.T) {
			g, err := readFull(t, vazirRecord(tc.tags, tc.rfen, tc.moves))
			if err != nil {
				t.Fatal(err)
			}
			if got := elements(g); !slices.Equal(got, tc.plies) {
				t.Errorf("plies %v, want %v", got, tc.plies)
			}
			if got := g.Position().FEN(); got != tc.final {
				t.Errorf("final RFEN %s, want %s", got, tc.final)
			}
			pg := notation.WriteGame(g)
			if got := movetext(pg); got != tc.written {
				t.Errorf("WriteGame movetext %q, want %q", got, tc.written)
			}
			if fen, _ := pg.Tag("FEN"); fen != tc.rfen {
				t.Errorf("FEN tag %q, want %q", fen, tc.rfen)
			}
			for _, o := range g.Variant.Options() {
				if got, ok := pg.Tag(o.Name); !ok || got != o.Value {
					t.Errorf("option tag %s = %q, want %q", o.Name, got, o.Value)
				}
			}
			plain := notation.WritePlainGame(g)
			if got := movetext(plain); got != tc.plain {
				t.Errorf("WritePlainGame movetext %q, want %q", got, tc.plain)
			}
			if fen, _ := plain.Tag("FEN"); fen != g.Start().PlainFEN() {
				t.Errorf("plain FEN tag %q, want %q", fen, g.Start().PlainFEN())
			}
			if rfen, _ := plain.Tag(notation.RFENTag); rfen != tc.rfen {
				t.Errorf("plain RFEN tag %q, want %q", rfen, tc.rfen)
			}
		})
	}
}

// TestReadRPGNErrors checks the errors of R-PGN records: each wraps ErrPGN
// and says what and where.
func TestReadRPGNErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[Variant \"vazir\"]\n\n1. e4 *\n", "no FEN tag"},
		{vazirRecord("[MPT \"0\"]\n", knightRFEN, "*"), "option tags"},
		{vazirRecord("", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "*"), "FEN tag"},
		{vazirRecord("", "k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0", "1. Kxg1~ *"), `Kxg1 has no outcome marked "~"`},
		{vazirRecord("", knightRFEN, "12. Nxe5~ Kxf7 *"), "move 12 (Nxe5~): bad turn token: the turn does not end after element 1"},
		{vazirRecord("", knightRFEN, "12. Nxe5~,Bxf7+,Kxf7 *"), "move 12 (Nxe5~,Bxf7+,Kxf7): bad turn token: the turn ended at element 2"},
		{vazirRecord("", knightRFEN, "12. Nxe5~ {x} ,Bxf7+ ,Kxf7 *"), "the turn ended at element 2"},
		{vazirRecord("", knightRFEN, "12. Nxe5~,Bxf8 *"), "move 12 (Nxe5~,Bxf8): element 2 (Bxf8): illegal"},
		{vazirRecord("", knightRFEN, "12. ,Nxe5~ *"), "continues no turn"},
		{vazirRecord("", knightRFEN, "12. Nxe5~,,Bxf7+ *"), "element 2 is empty"},
		{vazirRecord("", knightRFEN, "12. Nxe5~,Bxf7+ Kxf7, *"), "move 12... (Kxf7,): bad turn token: the last element is missing"},
		{vazirRecord("", knightRFEN, "12. Nxe5^ *"), `Nxe5 has no outcome marked "^"`},
		{vazirRecord("", knightRFEN, "12. Nxe5~~ *"), `Nxe5 has no outcome marked "~~"`},
		{vazirRecord("", knightRFEN, "12. Bxf7+ Kxf7~ *"), "Kxf7 has no outcome marked"},
		{"1. e4,e5 *\n", "move 1 (e4,e5): bad turn token: the turn ended at element 1"},
		{"1. e4~ *\n", `e4 has no outcome marked "~"`},
	} {
		_, err := readFull(t, tc.text)
		if !errors.Is(err, notation.ErrPGN) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one about %q", tc.text, err, tc.want)
		}
	}
}

// TestTurnTokens reads and writes single turn tokens, comments included.
func TestTurnTokens(t *testing.T) {
	v := vazir(t, map[string]string{"MPT": "2"})
	p := mustFEN(t, v, rookRFEN)
	plies, err := notation.ParseTurn(p, "Rxg3~{u=4/10},Rxg3~ { u=9/10 } ,Kh2{escape}")
	if err != nil {
		t.Fatal(err)
	}
	if len(plies) != 3 || plies[0].Outcome != 1 || plies[1].Outcome != 1 || plies[2].Outcome != 0 ||
		!slices.Equal(plies[1].Comments, []string{"u=9/10"}) || !slices.Equal(plies[2].Comments, []string{"escape"}) {
		t.Fatalf("ParseTurn: %+v", plies)
	}
	if got, err := notation.FormatTurn(p, plies); err != nil || got != "Rxg3~{u=4/10},Rxg3~{u=9/10},Kh2{escape}" {
		t.Errorf("FormatTurn = %q, %v", got, err)
	}
	for _, bad := range []string{"", "Rxg3~", "Rxg3~,", "Rxg3~,Rxg3~", "Rxg3~{x,Kh2", "Kh2,Nf5", "Rxg3~,Rxg3~,Rf3", "Rxg3~,Rxg3~,Kh2,Nf5"} {
		if _, err := notation.ParseTurn(p, bad); !errors.Is(err, notation.ErrTurn) {
			t.Errorf("ParseTurn(%q): %v", bad, err)
		}
	}
	if _, err := notation.FormatTurn(p, nil); !errors.Is(err, notation.ErrTurn) {
		t.Errorf("FormatTurn(nil): %v", err)
	}
	// In a variant without chance a token is one move, its mark is "".
	c := mustVariant(t, "chess")
	if plies, err := notation.ParseTurn(c.Start(), "e4"); err != nil || len(plies) != 1 {
		t.Errorf("chess e4: %v, %v", plies, err)
	}
}

// randomVazirGame plays a seeded Vazir game of up to n plies: the start is
// drawn by v.Setup from game.NewRoller(seed), whose draws then decide the
// outcomes; the moves are random, captures preferred, and some plies get a
// comment or a NAG.
func randomVazirGame(t testing.TB, v *rules.Variant, seed uint64, n int) *game.Game {
	t.Helper()
	roller := game.NewRoller(seed)
	start, err := v.Setup(roller)
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, start)
	g.SetTag("Event", "R-PGN test")
	g.SetTag("RNG", game.RNGTag(seed))
	moves := rand.New(rand.NewPCG(seed, 11))
	for range n {
		p := g.Position()
		if p.Status().Over() {
			break
		}
		ms := p.LegalMoves(nil)
		var caps []rules.Move
		for _, m := range ms {
			if p.IsCapture(m) {
				caps = append(caps, m)
			}
		}
		m := ms[moves.IntN(len(ms))]
		if len(caps) > 0 && moves.IntN(3) > 0 {
			m = caps[moves.IntN(len(caps))]
		}
		outs := p.Outcomes(m)
		k, err := rules.Choose(roller, outs)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m, k); err != nil {
			t.Fatal(err)
		}
		pl := &g.Plies[len(g.Plies)-1]
		switch moves.IntN(12) {
		case 0:
			if len(outs) > 1 {
				pl.Comments = []string{fmt.Sprintf("u=%d/%d", k, outs[0].Den)}
			}
		case 1:
			pl.NAGs = []int{1 + moves.IntN(6)}
		}
	}
	return g
}

// vazirConfigs are option tags the random games are played with.
var vazirConfigs = []map[string]string{
	nil,
	{"MPT": "2", "QuietAfterFail": "0", "SameTargetOnly": "1"},
	{"MPT": "1", "RankInit": "RandomIndependent"},
	{"MPT": "4", "ExtraMoveCapturesCertain": "0", "ExtraMoveScope": "AnyEvasion", "PromotionRounding": "HalfEven"},
}

// TestRPGNReplay writes seeded random Vazir games as R-PGN, reads them back
// through pgn.Parse and checks that they replay bit-exactly: the same
// plies (move, outcome, comments, NAGs), final RFEN, option and RNG tags;
// and that the RNG tag alone, with the moves, gives the start and every
// outcome again.
func TestRPGNReplay(t *testing.T) {
	var tokens, multi, failed, split int // what the games exercise
	for ci, opts := range vazirConfigs {
		v := vazir(t, opts)
		for seed := range uint64(8) {
			g := randomVazirGame(t, v, seed*97+uint64(ci), 160)
			pg := notation.WriteGame(g)
			for _, m := range pg.Moves {
				tokens++
				if strings.Contains(m.Text, ",") {
					multi++
				}
				if strings.HasPrefix(m.Text, ",") {
					split++
				}
				if strings.HasSuffix(m.Text, "~") {
					failed++
				}
			}
			text := pg.String()
			g2, err := readFull(t, text)
			if err != nil {
				t.Fatalf("config %d seed %d: %v\n%s", ci, seed, err, text)
			}
			name := fmt.Sprintf("config %d seed %d", ci, seed)
			if len(g2.Plies) != len(g.Plies) {
				t.Fatalf("%s: %d plies read back, want %d\n%s", name, len(g2.Plies), len(g.Plies), text)
			}
			for i, pl := range g.Plies {
				b := g2.Plies[i]
				if b.Move != pl.Move || b.Outcome != pl.Outcome || !slices.Equal(b.Comments, pl.Comments) || !slices.Equal(b.NAGs, pl.NAGs) {
					t.Fatalf("%s: ply %d read back as %+v, want %+v\n%s", name, i, b, pl, text)
				}
			}
			if a, b := g.Position().FEN(), g2.Position().FEN(); a != b {
				t.Errorf("%s: final RFEN %s, read back %s", name, a, b)
			}
			if !slices.Equal(g.Variant.Options(), g2.Variant.Options()) {
				t.Errorf("%s: options %v, read back %v", name, g.Variant.Options(), g2.Variant.Options())
			}
			rng, _ := g2.Tag("RNG")
			if want, _ := g.Tag("RNG"); rng != want {
				t.Errorf("%s: RNG tag %q, want %q", name, rng, want)
			}
			if g.Status() != g2.Status() {
				t.Errorf("%s: status %v, read back %v", name, g.Status(), g2.Status())
			}
			if again := notation.WriteGame(g2).String(); again != text {
				t.Errorf("%s: written again differently:\n%s\nwant:\n%s", name, again, text)
			}
			checkRNG(t, name, g2, rng)
		}
	}
	t.Logf("%d turn tokens: %d of several plies, %d ending in a failed try, %d continued after a comment", tokens, multi, failed, split)
	if multi < 100 || failed < 100 || split < 10 {
		t.Errorf("the random games exercise too little of R-PGN")
	}
}

// checkRNG replays g from the seed of its RNG tag: the set-up and then one
// draw per chance move give g's start and outcomes.
func checkRNG(t *testing.T, name string, g *game.Game, tag string) {
	t.Helper()
	seed, err := game.ParseRNGTag(tag)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	roller := game.NewRoller(seed)
	start, err := g.Variant.Setup(roller)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := start.FEN(), g.Start().FEN(); a != b {
		t.Fatalf("%s: the RNG tag sets up %s, the FEN tag says %s", name, a, b)
	}
	g.Replay(func(p *rules.Position, i int) {
		pl := g.Plies[i]
		if k, err := rules.Choose(roller, p.Outcomes(pl.Move)); err != nil || k != pl.Outcome {
			t.Fatalf("%s: ply %d: the RNG gives outcome %d (%v), the record %d", name, i, k, err, pl.Outcome)
		}
	})
}

// TestWriteTags checks the tags of an R-PGN record and of its plain
// export: roster, Variant, options, SetUp and FEN, then the game's others.
func TestWriteTags(t *testing.T) {
	v := vazir(t, map[string]string{"MPT": "2"})
	g := randomVazirGame(t, v, 3, 0)
	g.SetTag("Annotator", "x")
	g.SetTag("MPT", "9") // an option tag of the game's own is the variant's
	g.SetTag("White", "w")
	names := func(pg *pgn.Game) string {
		var s []string
		for _, tag := range pg.Tags {
			s = append(s, tag.Name)
		}
		return strings.Join(s, " ")
	}
	opts := "MPT RankInit PromotionRounding QuietAfterFail SameTargetOnly HundredPercentScope ExtraMoveScope ExtraMoveCapturesCertain"
	pg := notation.WriteGame(g)
	if got, want := names(pg), "Event White Result Variant "+opts+" SetUp FEN RNG Annotator"; got != want {
		t.Errorf("WriteGame tags %s, want %s", got, want)
	}
	if mpt, _ := pg.Tag("MPT"); mpt != "2" {
		t.Errorf("MPT %q", mpt)
	}
	plain := notation.WritePlainGame(g)
	if got, want := names(plain), "Event White Result Variant "+opts+" SetUp FEN RFEN RNG Annotator"; got != want {
		t.Errorf("WritePlainGame tags %s, want %s", got, want)
	}
	// Chess: no Variant, no options, SetUp and FEN only off the start.
	c := game.New(mustVariant(t, "chess"), nil)
	c.SetTag("Annotator", "x")
	if got := names(notation.WriteGame(c)); got != "Result Annotator" {
		t.Errorf("chess tags %s", got)
	}
	c = game.New(c.Variant, mustFEN(t, c.Variant, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
	if got := names(notation.WritePlainGame(c)); got != "Result SetUp FEN" {
		t.Errorf("chess plain tags %s", got)
	}
}

// effectiveMoves returns the effective move of each turn of g in
// coordinates: the last ply of the turn, or "--" where it is a failed try.
// An unfinished last turn has none.
func effectiveMoves(g *game.Game) []string {
	var out []string
	var last string
	var mover rules.Color
	end := func(p *rules.Position) {
		if last != "" && game.TurnOver(p, mover) {
			out = append(out, last)
		}
	}
	g.Replay(func(p *rules.Position, i int) {
		end(p)
		pl := g.Plies[i]
		mover, last = p.Turn(), notation.Coord(p, pl.Move)
		if notation.Mark(p, pl.Move, pl.Outcome) != "" {
			last = "--"
		}
	})
	end(g.Position())
	return out
}

// TestPGNExtractReadsPlainExport checks that an ordinary PGN tool reads the
// plain export of Vazir games: pgn-extract (with --allownullmoves, for the
// turns that end with failed tries) replays it as chess and prints each
// game in UCI coordinates, which must be the effective moves exactly.
func TestPGNExtractReadsPlainExport(t *testing.T) {
	var all bytes.Buffer
	var want []string
	for i := range 24 {
		ci := i % len(vazirConfigs)
		g := randomVazirGame(t, vazir(t, vazirConfigs[ci]), uint64(1000+i), 60+i*10)
		want = append(want, strings.Join(effectiveMoves(g), " "))
		if err := pgn.Write(&all, notation.WritePlainGame(g)); err != nil {
			t.Fatal(err)
		}
	}
	compareGames(t, pgnExtractUCI(t, all.Bytes(), "--allownullmoves"), want)
	if nulls := strings.Count(strings.Join(want, " "), "--"); nulls == 0 {
		t.Error("no turn ended with failed tries")
	}
}
