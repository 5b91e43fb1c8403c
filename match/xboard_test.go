package match

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/protocol/xboard"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// fakeXBoardPrefix starts the name under which the test binary is a
// scripted XBoard engine (see fakeXBoard): fake-xboard-MODE, a link to it.
const fakeXBoardPrefix = "fake-xboard-"

func TestMain(m *testing.M) {
	if mode, ok := strings.CutPrefix(filepath.Base(os.Args[0]), fakeXBoardPrefix); ok {
		os.Exit(fakeXBoard(mode, os.Stdin, os.Stdout))
	}
	if len(os.Args) > 1 && os.Args[1] == xboardEngineArg {
		if err := xboard.Run(context.Background(), os.Stdin, os.Stdout, catalog.MustDefault(), search.New(1)); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == fakeUCIArg {
		os.Exit(fakeUCI(os.Args[2:]))
	}
	os.Exit(m.Run())
}

func TestParseSpecXBoard(t *testing.T) {
	for _, tt := range []struct{ in, out, err string }{
		{"xboard:/usr/games/fairymax", "xboard:/usr/games/fairymax", ""},
		{"xboard:/usr/games/fairymax:variant=great", "xboard:/usr/games/fairymax:variant=great", ""},
		{"xboard:/e:variant=great,Resign=1,Clear Hash=", "xboard:/e:Clear Hash=,Resign=1,variant=great", ""},
		{"xboard", "", "xboard needs a program"},
		{"xboard:", "", "xboard needs a program"},
		{"xboard:/e:variant=", "", "variant= needs"},
		{"xboard:/e:variant", "", "not key=value"},
		{"cecp:/e", "", "xboard:PATH"},
	} {
		sp, err := ParseSpec(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || sp.String() != tt.out || sp.Kind != "xboard" {
			t.Errorf("%q: %v %q", tt.in, err, sp.String())
		}
	}
	reg := vtest.Builtins()
	chess, _ := reg.Get("chess")
	gs, _ := reg.Get("greatshatranj")
	for _, tt := range []struct {
		spec string
		v    *rules.Variant
		want string
	}{
		{"xboard:/e", chess, "normal"},
		{"xboard:/e", gs, "greatshatranj"},
		{"xboard:/e:variant=great", gs, "great"},
		{"xboard:/e", mustChess960(t), "fischerandom"},
	} {
		sp, _ := ParseSpec(tt.spec)
		if got := xbVariant(sp, tt.v); got != tt.want {
			t.Errorf("%s for %s: variant %q, want %q", tt.spec, tt.v.Name(), got, tt.want)
		}
	}
}

func TestXBoardLines(t *testing.T) {
	for _, tt := range []struct {
		line string
		kind xbKind
		arg  string
	}{
		{"move e2e4", xbMove, "e2e4"},
		{"move O-O", xbMove, "O-O"},
		{"  move j2j3\r", xbMove, "j2j3"},
		{"1. ... e7e5", xbMove, "e7e5"},
		{"12 ... a7a8q", xbMove, "a7a8q"},
		{"3... Nf6", xbMove, "Nf6"},
		{"9 35 100 12345 1. ... e5 2. Nf3", xbOther, ""},
		{"5 -23 10 1234 e2e4 e7e5", xbOther, ""},
		{"Illegal move: e2e5", xbIllegal, "Illegal move: e2e5"},
		{"Illegal move (no piece): e3e4", xbIllegal, "Illegal move (no piece): e3e4"},
		{"Error (unknown command): setboard", xbError, "Error (unknown command): setboard"},
		{"resign", xbResign, "resign"},
		{"resign { refuses own move }", xbResign, "resign { refuses own move }"},
		{"offer draw", xbOfferDraw, ""},
		{"1-0 {White mates}", xbResult, "1-0"},
		{"0-1 {Black mates}", xbResult, "0-1"},
		{"1/2-1/2 {Draw by repetition}", xbResult, "1/2-1/2"},
		{"feature ping=1 done=1", xbFeature, "ping=1 done=1"},
		{"pong 7", xbPong, "7"},
		{"# debug", xbOther, ""},
		{"telluser hello", xbOther, ""},
		{"tellics say Fairy-Max", xbOther, ""},
		{"", xbOther, ""},
	} {
		kind, arg := parseXBLine(tt.line)
		if kind != tt.kind || arg != tt.arg {
			t.Errorf("%q: %d %q, want %d %q", tt.line, kind, arg, tt.kind, tt.arg)
		}
	}
	for line, cmd := range map[string]string{
		"Error (unknown command): otim":      "otim",
		"Error (unknown command): setboard":  "setboard",
		"Error (illegal position): setboard": "setboard",
		"Error: easy":                        "easy",
		"Error":                              "",
	} {
		if got := xbErrorCommand(line); got != cmd {
			t.Errorf("%q names %q, want %q", line, got, cmd)
		}
	}
}

func TestXBoardFeatures(t *testing.T) {
	got := parseFeatures(`myname="Fairy-Max 5.0b" setboard=0  xedit=1 option="Resign -check 0" variants="normal,great" done=1`)
	want := [][2]string{{"myname", "Fairy-Max 5.0b"}, {"setboard", "0"}, {"xedit", "1"}, {"option", "Resign -check 0"}, {"variants", "normal,great"}, {"done", "1"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("features %q, want %q", got, want)
	}
	if got := parseFeatures(`ping=1 myname="unterminated`); fmt.Sprint(got) != fmt.Sprint([][2]string{{"ping", "1"}, {"myname", "unterminated"}}) {
		t.Errorf("features %q", got)
	}
	if got := parseFeatures(`garbage`); len(got) != 0 {
		t.Errorf("features %q", got)
	}
}

func TestXBoardTimeControl(t *testing.T) {
	for _, tt := range []struct {
		clk  Clock
		want string
	}{
		{Clock{MoveTime: 100 * time.Millisecond}, "st 1"},
		{Clock{MoveTime: 5 * time.Second}, "st 5"},
		{Clock{MoveTime: 2500 * time.Millisecond}, "st 3"},
		{Clock{Left: 60 * time.Second, Inc: 600 * time.Millisecond}, "level 0 1:00 0.6"},
		{Clock{Left: 185 * time.Second, Inc: 2 * time.Second}, "level 0 3:05 2"},
		{Clock{Left: 300 * time.Millisecond}, "level 0 0:01 0"},
		{Clock{Left: 90 * time.Minute}, "level 0 90:00 0"},
	} {
		if got := xbTimeControl(tt.clk); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.clk, got, tt.want)
		}
	}
	if centis(1234*time.Millisecond) != 123 || centis(0) != 1 {
		t.Error("centiseconds")
	}
}

// fakeSpec returns the spec of the test binary run as a fake XBoard engine
// in the given mode.
func fakeSpec(t *testing.T, mode string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), fakeXBoardPrefix+mode)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return Spec{Kind: "xboard", Path: link, Options: map[string]string{}}
}

func TestXBoardParseMove(t *testing.T) {
	v, _ := vtest.Builtins().Get("chess")
	p, err := v.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	x := &xboardPlayer{process: &process{name: "E"}}
	for text, want := range map[string]string{
		"e1g1": "e1g1", "e1h1": "e1g1", "O-O": "e1g1", "0-0": "e1g1", "O-O-O": "e1c1", "0-0-0": "e1c1", "Rb1": "a1b1", "a1a8": "a1a8",
	} {
		m, err := x.parseMove(p, text)
		if err != nil || notation.Coord(p, m) != want {
			t.Errorf("%s: %v %v, want %s", text, notation.Coord(p, m), err, want)
		}
	}
	if _, err := x.parseMove(p, "e1e3"); err == nil || !strings.Contains(err.Error(), "E played e1e3, which our rules do not allow") {
		t.Errorf("e1e3: %v", err)
	}
}

// TestXBoardFake plays a protocol-exact engine (the test binary, playing
// by our rules) and engines that misbehave in one way each: the match must
// finish and say what each did.
func TestXBoardFake(t *testing.T) {
	reg := vtest.Builtins()
	for _, tt := range []struct {
		mode, variant string
		note          string // in every game's error note; "" for none
		term          string // every game's Termination when note is set
	}{
		{"good", "chess", "", ""},
		{"good", "greatshatranj", "", ""},
		{"v1", "chess", "", ""},    // no features: edit mode, no ping, bare moves, "N. ... MOVE"
		{"v1", "chatrang", "", ""}, // edit on another board
		{"san", "chess", "", ""},   // san=1: moves both ways in SAN
		{"claim", "chess", `claimed "1/2-1/2 {fake draw}" after its move`, "rules infraction"},
		{"claimnow", "chess", `claimed "0-1 {fake mate}", but by our rules the game goes on`, "rules infraction"},
		{"illegal", "chess", "played a1a1, which our rules do not allow", "rules infraction"},
		{"reject", "chess", `rejected a move our rules allow: "Illegal move: `, "rules infraction"},
		{"resign", "chess", "resigned", "normal"},
		{"error", "chess", `did not accept a command: "Error (unknown command): `, "abandoned"},
	} {
		t.Run(tt.mode+"/"+tt.variant, func(t *testing.T) {
			t.Parallel()
			v, err := reg.Get(tt.variant)
			if err != nil {
				t.Fatal(err)
			}
			fake := fakeSpec(t, tt.mode)
			e, _ := ParseSpec("engine:depth=1")
			var out bytes.Buffer
			st, err := Run(context.Background(), Config{
				Variant: v, Games: 2, Players: [2]Spec{fake, e}, TC: TimeControl{MoveTime: 20 * time.Millisecond},
				Concurrency: 2, Seed: 3, MaxPlies: 60, PGN: &out,
			})
			if err != nil {
				t.Fatal(err)
			}
			if st.Games() != 2 {
				t.Fatalf("%d games", st.Games())
			}
			if tt.note == "" {
				if len(st.Errors) > 0 {
					t.Errorf("errors: %q", st.Errors)
				}
			} else {
				if len(st.Errors) != 2 || st.Losses != 2 {
					t.Fatalf("%v, errors %q; want two losses with %q", st, st.Errors, tt.note)
				}
				for _, n := range st.Errors {
					if !strings.Contains(n, tt.note) || !strings.Contains(n, "fake-"+tt.mode) {
						t.Errorf("note %q, want %q from fake-%s", n, tt.note, tt.mode)
					}
				}
			}
			for _, pg := range checkPGN(t, reg, out.String(), st) {
				if term, _ := pg.Tag("Termination"); tt.term != "" && term != tt.term {
					t.Errorf("Termination %q, want %q", term, tt.term)
				}
				if tc, _ := pg.Tag("TimeControl"); tc != "1/0.02" {
					t.Errorf("TimeControl %q, want 1/0.02 (one move in 0.02 s)", tc)
				}
			}
		})
	}
}

// TestXBoardFakeErrors checks the engines a match cannot use.
func TestXBoardFakeErrors(t *testing.T) {
	v, _ := vtest.Builtins().Get("greatshatranj")
	fake := fakeSpec(t, "good")
	fake.Options["variant"] = "great"
	pl, err := fake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	if pl.Name() != "fake-good" {
		t.Errorf("name %q", pl.Name())
	}
	if err := pl.NewGame(context.Background(), v); err == nil || !strings.Contains(err.Error(), `does not play the variant "great"`) {
		t.Errorf("unknown variant: %v", err)
	}
	// The protocol has no way to give a move's outcome.
	vz, _ := catalog.MustDefault().Get("vazir")
	if err := pl.NewGame(context.Background(), vz); err == nil || !strings.Contains(err.Error(), "chance") {
		t.Errorf("a variant with chance: %v", err)
	}
	if _, err := (Spec{Kind: "xboard", Path: "/nonexistent/engine"}).New(); err == nil {
		t.Error("a missing program started")
	}
	// A version 1 engine that sends no features is waited for a while only.
	slow := fakeSpec(t, "v1")
	t0 := time.Now()
	x, err := startXBoard(slow, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("waited %v for a v1 engine", d)
	}
	if x.feat.ping || x.feat.setboard || x.feat.done {
		t.Errorf("v1 features %+v", x.feat)
	}
}

// finalComment returns the comment after the last move (before the first
// move if there is none), where the match writes why the game ended (a
// comment cannot hold "}": the PGN writer turns it into ")").
func finalComment(pg *pgn.Game) string {
	c := pg.Comment
	if n := len(pg.Moves); n > 0 {
		c = pg.Moves[n-1].Comments
	}
	if len(c) == 0 {
		return ""
	}
	return c[len(c)-1]
}

// checkPGN replays the match's games with our rules: each must replay, and
// end either by our rules with their result, or by the match's limits, or
// by a player's failure that the match reported as an error.
func checkPGN(t *testing.T, reg *variant.Registry, text string, st Stats) []*pgn.Game {
	t.Helper()
	games, err := pgn.Parse(text)
	if err != nil || len(games) != st.Games() {
		t.Fatalf("PGN: %v, %d games, want %d", err, len(games), st.Games())
	}
	for i, pg := range games {
		g, err := notation.ReadGame(reg, pg)
		if err != nil {
			t.Errorf("game %d does not replay by our rules: %v", i+1, err)
			continue
		}
		term, _ := pg.Tag("Termination")
		reason := finalComment(pg)
		switch status := g.Position().Status(); {
		case pg.Result != "1-0" && pg.Result != "0-1" && pg.Result != "1/2-1/2":
			t.Errorf("game %d has no result: %q", i+1, pg.Result)
		case status.Over():
			if pg.Result != status.Result.String() || term != "normal" || reason != status.Detail {
				t.Errorf("game %d: %s (%s {%s}), but by our rules %v", i+1, pg.Result, term, reason, status)
			}
		case strings.HasPrefix(reason, "the match's limit"):
			if term != "adjudication" {
				t.Errorf("game %d: Termination %q for %q", i+1, term, reason)
			}
		case strings.HasSuffix(reason, "lost on time"):
			if term != "time forfeit" {
				t.Errorf("game %d: Termination %q for %q", i+1, term, reason)
			}
		case !slices.ContainsFunc(st.Errors, func(e string) bool { return strings.ReplaceAll(e, "}", ")") == reason }):
			t.Errorf("game %d ended by %q, which is not among the match's errors %q", i+1, reason, st.Errors)
		case !slices.Contains([]string{"normal", "rules infraction", "abandoned", "time forfeit"}, term):
			t.Errorf("game %d: Termination %q is not a standard value for %q", i+1, term, reason)
		}
	}
	return games
}

// TestXBoardFairymax plays real games against Fairy-Max, the engine of
// Debian's fairymax package, which must be installed: short games of Great
// Shatranj (its variant "great") and of chess against the built-in engine.
// Every game must finish with a result and moves legal by our rules; where
// Fairy-Max's rules differ from ours, the match must say so in the game's
// error note.
func TestXBoardFairymax(t *testing.T) {
	const fairymax = "/usr/games/fairymax"
	if _, err := os.Stat(fairymax); err != nil {
		t.Fatalf("%s is missing (%v): this test plays real games against it; install Debian's fairymax package (apt-get install fairymax)", fairymax, err)
	}
	reg := vtest.Builtins()
	for _, tt := range []struct{ variant, spec string }{
		{"greatshatranj", "xboard:" + fairymax + ":variant=great"},
		{"chess", "xboard:" + fairymax},
	} {
		t.Run(tt.variant, func(t *testing.T) {
			v, _ := reg.Get(tt.variant)
			xb, err := ParseSpec(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			e, _ := ParseSpec("engine:depth=2")
			var out bytes.Buffer
			const games = 4
			st, err := Run(context.Background(), Config{
				Variant: v, Games: games, Players: [2]Spec{e, xb}, TC: TimeControl{MoveTime: 50 * time.Millisecond},
				Concurrency: 2, Seed: 11, MaxPlies: 240, PGN: &out,
			})
			if err != nil {
				t.Fatal(err)
			}
			if st.Games() != games {
				t.Fatalf("%d games of %d", st.Games(), games)
			}
			t.Logf("engine:depth=2 against %s: %v", tt.spec, st)
			for _, pg := range checkPGN(t, reg, out.String(), st) {
				w, _ := pg.Tag("White")
				b, _ := pg.Tag("Black")
				term, _ := pg.Tag("Termination")
				t.Logf("%s - %s: %s, %d plies (%s)", w, b, pg.Result, len(pg.Moves), term)
				if !strings.Contains(w+b, "Fairy-Max") {
					t.Errorf("Fairy-Max did not play: %s - %s", w, b)
				}
			}
			// A rule disagreement is an error note naming Fairy-Max and
			// saying what it did.
			for _, n := range st.Errors {
				t.Logf("rule disagreement: %s", n)
				if !strings.Contains(n, "Fairy-Max") {
					t.Errorf("note %q does not name the engine", n)
				}
			}
		})
	}

	// A disagreement Fairy-Max is sure to show: it has no setboard, and
	// edit mode cannot say that a king and rook on their squares have lost
	// the right to castle, so it mates with O-O-O, which our rules forbid
	// here. The match must give it the loss and say why.
	t.Run("castling", func(t *testing.T) {
		v, _ := reg.Get("chess")
		xb, _ := ParseSpec("xboard:" + fairymax)
		e, _ := ParseSpec("engine:depth=2")
		var out bytes.Buffer
		st, err := Run(context.Background(), Config{
			Variant: v, Games: 1, Players: [2]Spec{xb, e}, TC: TimeControl{MoveTime: 50 * time.Millisecond},
			Openings: []string{"2rkr3/2p1p3/8/8/8/8/8/R3K3 w - - 0 1"}, MaxPlies: 40, PGN: &out,
		})
		if err != nil {
			t.Fatal(err)
		}
		checkPGN(t, reg, out.String(), st)
		const want = "(white) failed: Fairy-Max"
		const did = "played e1c1, which our rules do not allow"
		if st.Losses != 1 || len(st.Errors) != 1 || !strings.Contains(st.Errors[0], want) || !strings.Contains(st.Errors[0], did) {
			t.Fatalf("%v, errors %q; want a loss: %q ... %q", st, st.Errors, want, did)
		}
		t.Logf("rule disagreement: %s", st.Errors[0])
	})
}

// fakeXBoard is a scripted XBoard engine that keeps the game by our rules
// and plays the first legal move. mode chooses its behaviour:
//
//	good      protocol v2 with ping, setboard and usermove
//	v1        no features (a version 1 engine): edit, bare moves, "N. ... MOVE"
//	san       like good, with san=1
//	claim     claims a draw after each of its moves
//	claimnow  claims a win for Black instead of moving
//	illegal   plays a1a1
//	reject    answers "Illegal move" to every move it is given
//	resign    resigns instead of moving
//	error     answers every move it is given with "Error"
func fakeXBoard(mode string, in io.Reader, out io.Writer) int {
	reg := vtest.Builtins()
	chess, _ := reg.Get("chess")
	v := chess
	p := v.Start()
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	editing, editColor := false, rules.White
	var board map[geom.Square]rules.Piece
	v1 := mode == "v1"
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if editing {
			switch {
			case line == "":
			case line == "#":
				clear(board)
			case line == "c":
				editColor = editColor.Other()
			case line == ".":
				editing = false
				fen := editFEN(v, board, p.Turn())
				q, err := v.ParseFEN(fen)
				if err != nil {
					say("tellusererror Illegal position %s: %v", fen, err)
					continue
				}
				p = q
			default:
				t := v.TypeOf(line[0])
				s, err := v.Board().ParseSquare(line[1:])
				if t == 0 || err != nil {
					say("Error (bad edit): %s", line)
					continue
				}
				board[s] = rules.MakePiece(editColor, t)
			}
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "protover":
			if v1 {
				continue
			}
			say(`feature myname="fake-%s" ping=1 setboard=1 usermove=1 variants="normal,greatshatranj,chatrang"`, mode)
			if mode == "san" {
				say("feature san=1")
			}
			say("feature done=1")
		case "xboard", "accepted", "rejected", "force", "easy", "level", "st", "time", "otim", "option":
		case "quit":
			return 0
		case "ping":
			say("pong %s", arg)
		case "new":
			v = chess
			p = v.Start()
		case "variant":
			name := arg
			if name == "normal" {
				name = "chess"
			}
			vv, err := reg.Get(name)
			if err != nil {
				say("Error (unknown variant): %s", arg)
				continue
			}
			v, p = vv, vv.Start()
		case "setboard":
			q, err := v.ParseFEN(arg)
			if err != nil {
				say("tellusererror Illegal position")
				continue
			}
			p = q
		case "edit":
			editing, editColor = true, rules.White
			board = map[geom.Square]rules.Piece{}
		case "go":
			moves := p.LegalMoves(nil)
			switch {
			case mode == "resign":
				say("resign")
				continue
			case mode == "claimnow":
				say("0-1 {fake mate}")
				continue
			case mode == "illegal":
				say("move a1a1")
				continue
			case len(moves) == 0:
				say("%s {no move}", p.Status().Result)
				continue
			}
			m := moves[0]
			text := notation.Coord(p, m)
			switch mode {
			case "v1":
				say("%d. ... %s", p.Fullmove(), text)
			case "san":
				say("move %s", notation.SAN(p, m))
			default:
				say("move %s", text)
			}
			p.Make(m)
			if mode == "claim" {
				say("1/2-1/2 {fake draw}")
			}
		default:
			text := line
			if cmd == "usermove" {
				text = arg
			} else if !v1 && mode != "error" {
				say("Error (unknown command): %s", cmd)
				continue
			}
			switch mode {
			case "reject":
				say("Illegal move: %s", text)
				continue
			case "error":
				say("Error (unknown command): %s", cmd)
				continue
			}
			m, err := notation.ParseMove(p, text)
			if err != nil {
				say("Illegal move: %s", text)
				continue
			}
			p.Make(m)
		}
	}
	return 0
}

// editFEN writes the FEN of the pieces set up in edit mode, without
// castling rights or en-passant square.
func editFEN(v *rules.Variant, board map[geom.Square]rules.Piece, turn rules.Color) string {
	b := v.Board()
	var sb strings.Builder
	for r := b.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := range b.Files {
			pc, ok := board[geom.Sq(f, r)]
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&sb, empty)
				empty = 0
			}
			sb.WriteByte(v.PieceLetter(pc))
		}
		if empty > 0 {
			fmt.Fprint(&sb, empty)
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	fmt.Fprintf(&sb, " %c - - 0 1", turn.Letter())
	return sb.String()
}

// xboardEngineArg, as the test binary's first argument, makes it the
// built-in engine under XBoard with every variant of the catalog.
const xboardEngineArg = "xboard-engine"

func mustChess960(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := catalog.MustDefault().Get("chess960")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestXBoardChess960 plays Chess960 against the built-in engine under
// XBoard (variant fischerandom) from starts where both sides can castle
// soon; castling goes both ways as O-O and O-O-O, and every game replays
// by our rules with no error.
func TestXBoardChess960(t *testing.T) {
	v := mustChess960(t)
	p, _ := v.ParseFEN("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1")
	var sent []string
	for _, text := range []string{"b1a1", "b8h8"} {
		m, err := notation.ParseCoord(p, text)
		if err != nil {
			t.Fatal(err)
		}
		x := &xboardPlayer{}
		sent = append(sent, x.moveText(p, m))
		p.Make(m)
	}
	if strings.Join(sent, " ") != "O-O-O O-O" {
		t.Errorf("castling sent as %q", sent)
	}
	sp, err := ParseSpec("xboard:" + selfCommand(t, xboardEngineArg))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := ParseSpec("engine:depth=2")
	var out bytes.Buffer
	st, err := Run(context.Background(), Config{
		Variant: v, Games: 2, Players: [2]Spec{sp, e}, TC: TimeControl{MoveTime: 20 * time.Millisecond},
		MaxPlies: 16, PGN: &out, Seed: 2,
		Openings: []string{"r1k4r/pppbqppp/2npbn2/4p3/4P3/2NPBN2/PPPBQPPP/R1K4R w KQkq - 0 1"},
	})
	if err != nil || st.Games() != 2 || len(st.Errors) > 0 {
		t.Fatalf("%v %v", st, err)
	}
	checkPGN(t, catalog.MustDefault(), out.String(), st)
}
