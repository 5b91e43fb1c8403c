package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// defaultMoveTime is the engine's time per move when neither a depth nor a
// time is set.
const defaultMoveTime = time.Second

// maxLevel is the highest -level: the engine's scale of strengths
// (package level), the page's and UCI_Elo's too.
const maxLevel = level.Max

// maxLine is the longest input line play accepts, in bytes.
const maxLine = 1 << 20

// playHelp lists the commands of a play session.
const playHelp = `Type a move in SAN (Nf3, exd5, O-O, e8=Q, Na10) or coordinates (g1f3,
j2j3, e7e8q), or a command:
  help           this list
  moves          the legal moves
  hint           the engine suggests a move for you
  undo           take back your last move (and the engine's reply)
  flip           turn the board round
  board          draw the board again
  fen            the position in FEN
  level [N]      play at level N (1..8, as on the page; each with its Elo);
                 without N, the current strength
  depth N        search N plies deep (0: no depth limit)
  time DUR       think DUR per move, e.g. 2s, 500ms or 1.5 (0: no time limit)
  go             swap sides: the engine plays the side to move
  resign         give up the game
  WORD           a move of the variant's own kind in its own text, in any case
                 (deny: undo the engine's last move, where the rules allow it)
  new            start a new game
  save FILE      write the game to FILE as PGN
  quit           leave (end of input does the same)
`

// runPlay plays a game between a human, who types moves and commands on
// stdin, and the engine.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("play", "[VARIANT]", stderr)
	var pf posFlags
	pf.register(fs)
	colorName := fs.String("color", "white", "your side: white or black")
	depth := fs.Int("depth", 0, "the engine's search depth in plies (0: no limit)")
	moveTime := fs.Duration("time", 0, "the engine's time per move, e.g. 2s (default 1s if no -depth or -level)")
	lvl := fs.Int("level", 0, fmt.Sprintf("strength 1..%d, the page's levels, each with its Elo in chess (instead of -depth)", maxLevel))
	hash := fs.Int("hash", 64, "transposition table size in MB")
	threads := threadsFlag(fs)
	pgnFile := fs.String("pgn", "", "save the session's games to this PGN file at each game end and on leaving")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: anychess play [flags] [VARIANT]\n\n")
		fmt.Fprintf(stderr, "Play against the engine. Moves and commands are read from standard input,\n")
		fmt.Fprintf(stderr, "one a line; type \"help\" for the commands. End of input leaves.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	// The variant may come first, with flags after it.
	if fs.NArg() > 0 {
		name := fs.Arg(0)
		if st, ok := parseFlags(fs, fs.Args()[1:]); !ok {
			return st
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "anychess play: unexpected argument %q\n", fs.Arg(0))
			fs.Usage()
			return 2
		}
		if pf.variant != "" && !strings.EqualFold(pf.variant, name) {
			fmt.Fprintf(stderr, "anychess play: variant %q and -variant %q disagree\n", name, pf.variant)
			return 2
		}
		pf.variant = name
	}
	if badThreads("play", *threads, stderr) {
		return 2
	}
	human, err := parseColor(*colorName)
	if err != nil {
		fmt.Fprintf(stderr, "anychess play: -color: %v\n", err)
		return 2
	}
	if *lvl != 0 {
		lv, err := level.Get(*lvl)
		if err != nil {
			fmt.Fprintf(stderr, "anychess play: -level: %v\n", err)
			return 2
		}
		if *depth != 0 {
			fmt.Fprintln(stderr, "anychess play: give -level or -depth, not both")
			return 2
		}
		*depth = lv.Depth
	}
	if *depth < 0 || *moveTime < 0 {
		fmt.Fprintln(stderr, "anychess play: -depth and -time must not be negative")
		return 2
	}
	if !pf.seedSet {
		pf.seed, pf.seedSet = uint64(time.Now().UnixNano()), true
	}
	v, err := pf.variantOf()
	if err != nil {
		return fail(stderr, "play", err)
	}
	var start *rules.Position // nil: each game draws its start
	if pf.fen != "" || !v.Seeded() {
		if start, err = pf.position(); err != nil {
			return fail(stderr, "play", err)
		}
	}
	s := &session{
		out:         stdout,
		v:           v,
		start:       start,
		human:       human,
		view:        human,
		eng:         search.New(*hash),
		depth:       *depth,
		moveTime:    *moveTime,
		seed:        pf.seed,
		pgnPath:     *pgnFile,
		interactive: isTerminal(stdin),
	}
	s.eng.SetThreads(*threads)
	if err := s.newGame(); err != nil {
		return fail(stderr, "play", err)
	}
	fmt.Fprintf(stdout, "anychess play: %s (%dx%d), you are %s, the engine plays %s (%s).\n",
		v.Title(), v.Board().Files, v.Board().Ranks, human, human.Other(), s.strength())
	switch {
	case v.Chance() || v.Seeded():
		fmt.Fprintf(stdout, "Chance decides some moves; seed %d (play again with -seed %d).\n", pf.seed, pf.seed)
	case face.Hidden(v):
		// The engine samples what it cannot see from the game's seed.
		fmt.Fprintf(stdout, "The engine guesses what it cannot see; seed %d (play again with -seed %d).\n", pf.seed, pf.seed)
	}
	fmt.Fprintln(stdout, `Type a move (SAN or coordinates) or "help".`)
	status := s.loop(stdin)
	if err := s.autosave(); err != nil {
		fmt.Fprintf(stderr, "anychess play: %v\n", err)
		status = 1
	}
	return status
}

// parseColor reads a side's name.
func parseColor(s string) (rules.Color, error) {
	switch strings.ToLower(s) {
	case "white", "w":
		return rules.White, nil
	case "black", "b":
		return rules.Black, nil
	}
	return rules.White, fmt.Errorf("%q: want white or black", s)
}

// isTerminal reports whether r is a terminal, where the user's typing is
// echoed already; otherwise play echoes each input line after its prompt so
// that a scripted session reads like a typed one.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// session is the state of a play session: the current game, the players'
// sides, the engine and its strength, and the games already finished.
type session struct {
	out         io.Writer
	v           *rules.Variant  // the variant with its options
	start       *rules.Position // the start of every new game; nil: drawn per game
	g           *game.Game
	human       rules.Color // the human's side
	view        rules.Color // the side the board is drawn from
	eng         *search.Engine
	depth       int           // plies, 0 for no limit
	moveTime    time.Duration // per move, 0 for no limit
	seed        uint64        // the seed of the current game's roller
	rng         *game.Roller  // the current game's dice (and its drawn start)
	archive     []*pgn.Game   // earlier games of the session
	pgnPath     string        // -pgn: where to save the games
	interactive bool
	reported    bool // the end of the current game has been announced
	// term is the Termination of a game the session ended (a resignation,
	// the engine's failure); "" while the game goes on or the rules ended it.
	term notation.Termination

	pl        player.Player // the engine's player of whole turns
	moderated bool          // the game is hidden: the human sees its view only
	// console is the session as the variant's own commands see it
	// (face.Commands).
	console *face.Console
}

// newGame starts a game from the start position, or from a start drawn
// with the game's own seed (the previous game's plus one).
func (s *session) newGame() error {
	if s.rng != nil {
		s.seed++
	}
	s.rng = game.NewRoller(s.seed)
	start := s.start
	if start == nil {
		var err error
		if start, err = s.v.Setup(s.rng); err != nil {
			return err
		}
	}
	s.g = game.New(s.v, start)
	for _, o := range s.v.Options() {
		s.g.SetTag(o.Name, o.Value)
	}
	if s.v.Chance() || s.start == nil {
		s.g.SetTag("RNG", game.RNGTag(s.seed))
	}
	s.eng.Clear()
	s.reported, s.term = false, ""
	s.pl, s.moderated = player.New(s.v, s.eng, s.seed), face.Hidden(s.v)
	s.console = &face.Console{Out: s.out, Variant: s.v, Human: s.human, Position: s.displayPos,
		Over: func() bool { return s.g.Status().Over() }, Play: s.playTyped, Show: s.show}
	return nil
}

// pos returns the current position (the game's own; do not change it).
func (s *session) pos() *rules.Position { return s.g.Position() }

// limits returns the engine's search limits.
func (s *session) limits() search.Limits {
	lim := search.Limits{Depth: s.depth, MoveTime: s.moveTime}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.MoveTime = defaultMoveTime
	}
	return lim
}

// strength describes the engine's limits.
func (s *session) strength() string {
	lim := s.limits()
	switch {
	case lim.Depth > 0 && lim.MoveTime > 0:
		return fmt.Sprintf("depth %d, at most %v per move", lim.Depth, lim.MoveTime)
	case lim.Depth > 0:
		return fmt.Sprintf("depth %d", lim.Depth)
	}
	return fmt.Sprintf("%v per move", lim.MoveTime)
}

// loop runs the session until quit or the end of input and returns the
// exit status.
func (s *session) loop(stdin io.Reader) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	s.show()
	for {
		st := s.g.Status()
		if !st.Over() && s.pos().Turn() != s.human {
			s.engineMove()
			continue
		}
		if st.Over() && !s.reported {
			s.reportEnd()
		}
		s.prompt()
		if !sc.Scan() {
			fmt.Fprintln(s.out)
			if err := sc.Err(); err != nil {
				fmt.Fprintf(s.out, "error reading input: %v\n", err)
				return 1
			}
			fmt.Fprintln(s.out, "end of input: goodbye")
			return 0
		}
		line := strings.TrimSpace(sc.Text())
		if !s.interactive {
			fmt.Fprintln(s.out, line)
		}
		if s.command(line) {
			fmt.Fprintln(s.out, "goodbye")
			return 0
		}
	}
}

// prompt asks for the human's input.
func (s *session) prompt() {
	p := s.pos()
	if s.console.Lines != nil {
		fmt.Fprint(s.out, s.console.Prompt)
		return
	}
	if s.g.Status().Over() {
		fmt.Fprint(s.out, "game over> ")
		return
	}
	dots := "."
	if p.Turn() == rules.Black {
		dots = "..."
	}
	fmt.Fprintf(s.out, "%d%s %s> ", p.Fullmove(), dots, p.Turn())
}

// command carries out one line of input and reports whether to quit.
func (s *session) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	// The argument is the rest of the line as typed (a file name may hold
	// spaces).
	arg := strings.TrimSpace(line[len(f[0]):])
	if s.console.Lines != nil {
		if strings.EqualFold(f[0], "quit") || strings.EqualFold(f[0], "exit") {
			return true
		}
		if !s.console.Lines(line) {
			s.console.Lines = nil
		}
		return false
	}
	cmds, _ := s.v.Face().(face.Commands)
	switch strings.ToLower(f[0]) {
	case "quit", "exit", "q":
		return true
	case "help", "?":
		fmt.Fprint(s.out, playHelp)
		if cmds != nil {
			fmt.Fprint(s.out, cmds.Help())
		}
	case "board", "show", "d":
		s.show()
	case "flip":
		s.view = s.view.Other()
		s.show()
	case "fen":
		fmt.Fprintln(s.out, s.displayPos().FEN())
	case "moves":
		s.listMoves()
	case "hint":
		s.hint()
	case "undo", "takeback":
		s.undo()
	case "new":
		s.archiveGame()
		if err := s.newGame(); err != nil {
			fmt.Fprintf(s.out, "cannot start a new game: %v\n", err)
			break
		}
		fmt.Fprintf(s.out, "new game: you are %s\n", s.human)
		s.show()
	case "save":
		s.save(arg)
	case "level":
		s.setLevel(arg)
	case "depth":
		s.setDepth(arg)
	case "time":
		s.setTime(arg)
	case "go", "swap":
		if s.g.Status().Over() {
			fmt.Fprintln(s.out, "the game is over")
			break
		}
		s.human = s.human.Other()
		s.view = s.human
		s.console.Human = s.human
		fmt.Fprintf(s.out, "you are %s now; the engine plays %s\n", s.human, s.human.Other())
	case "resign":
		if s.g.Status().Over() {
			fmt.Fprintln(s.out, "the game is over")
			break
		}
		s.g.Result = rules.Win(s.human.Other())
		s.g.Reason = fmt.Sprintf("%s resigns", s.human)
		s.term = notation.TermNormal
	default:
		if cmds != nil && cmds.Command(s.console, f[0], arg) {
			break
		}
		s.humanMove(line)
	}
	return false
}

// humanMove plays the human's move text, or says why it cannot.
func (s *session) humanMove(text string) {
	if st := s.g.Status(); st.Over() {
		fmt.Fprintf(s.out, "the game is over: %s; type new, save FILE, undo or quit\n", st)
		return
	}
	p := s.displayPos()
	m, err := notation.ParseMove(p, text)
	if up := strings.ToUpper(strings.TrimSpace(text)); err != nil && isWord(up) {
		// A move of the variant's own kind typed in lower case ("deny").
		if m2, err2 := notation.ParseMove(p, up); err2 == nil {
			m, err = m2, nil
		}
	}
	if err != nil {
		var me *notation.MoveError
		switch {
		case errors.Is(err, notation.ErrSyntax) && strings.ContainsAny(text, " \t"):
			fmt.Fprintf(s.out, "unknown command %q; type help for the commands\n", text)
		case errors.Is(err, notation.ErrSyntax):
			fmt.Fprintf(s.out, "%q is neither a move nor a command; type help for the commands\n", text)
		case errors.As(err, &me) && me.Msg != "":
			fmt.Fprintf(s.out, "%v %q: %s; type moves for the legal moves\n", me.Err, text, me.Msg)
		case errors.As(err, &me):
			fmt.Fprintf(s.out, "%v %q; type moves for the legal moves\n", me.Err, text)
		default:
			fmt.Fprintf(s.out, "%v\n", err)
		}
		return
	}
	label := moveLabel(p, m)
	us := p.Turn()
	outs := p.Outcomes(m)
	if len(outs) > 1 {
		fmt.Fprintf(s.out, "you try %s: %s\n", label, chanceText(p, m, outs))
	}
	k, err := s.playSeen(m)
	if err != nil {
		if errors.Is(err, rules.ErrRefused) {
			fmt.Fprintf(s.out, "%s: %v\n", label, err)
			return
		}
		fmt.Fprintf(s.out, "cannot play %s: %v\n", label, err)
		return
	}
	if len(outs) > 1 {
		fmt.Fprintf(s.out, "%s\n", s.outcomeText(outs, k, us))
	} else {
		fmt.Fprintf(s.out, "you play %s\n", label)
	}
	s.plyEvents()
	// The board is drawn after the engine's reply, or now if the engine
	// will not reply.
	if s.g.Status().Over() || s.pos().Turn() == s.human {
		s.show()
	}
}

// play plays m in the game, rolling the game's die for its outcome if
// chance decides it, and returns the outcome.
func (s *session) play(m rules.Move) (int, error) {
	k, err := rules.Choose(s.rng, s.pos().Outcomes(m))
	if err != nil {
		return 0, err
	}
	return k, s.g.Play(m, k)
}

// chanceText describes the outcomes of a chance move before it is played:
// "success 4/9 (44%)", with the ranks of the pieces in a ranked variant.
func chanceText(p *rules.Position, m rules.Move, outs []rules.Outcome) string {
	o := outs[0]
	text := fmt.Sprintf("%s %d/%d (%.0f%%)", outcomeName(o.Label), o.Num, o.Den, 100*float64(o.Num)/float64(o.Den))
	v := p.Variant()
	if !v.Spec().Ranked {
		return text
	}
	victim := m.To()
	if m.Kind() == rules.EnPassant {
		victim = m.Aux()
	}
	a, d := p.At(m.From()), p.At(victim)
	return fmt.Sprintf("rank %d against rank %d, %s", a.Attr(), d.Attr(), text)
}

// outcomeName names an outcome label for people.
func outcomeName(label string) string {
	switch label {
	case "hit":
		return "success"
	case "miss":
		return "failure"
	}
	return label
}

// outcomeText says what happened: the outcome, and whose turn it is now.
func (s *session) outcomeText(outs []rules.Outcome, k int, us rules.Color) string {
	text := fmt.Sprintf("  -> %s", outcomeName(outs[k].Label))
	p := s.pos()
	if k != 0 && !s.g.Status().Over() {
		if p.Turn() == us {
			text += fmt.Sprintf("; %s moves again (%d tries used)", p.Turn(), p.Counter())
		} else {
			text += fmt.Sprintf("; the tries are used up, %s to move", p.Turn())
		}
	}
	return text
}

// engineMove lets the engine play the side to move: its whole turn by
// the variant's player; in a hidden game from the engine's view, the
// moderator judging each choice, and told to the human only as far as the
// human sees it (face.Observe).
func (s *session) engineMove() {
	p := s.pos()
	us := p.Turn()
	var res search.Result
	var refused int
	var err error
	if s.moderated {
		res.Best, refused, err = player.Play(context.Background(), s.pl, p.Clone(), s.limits(), maxEngineRefusals)
	} else {
		res, err = s.pl.Search(context.Background(), p.Clone(), s.limits(), nil)
	}
	if err != nil || res.Best == rules.NoMove {
		why := "it found no move"
		if err != nil && !errors.Is(err, player.ErrNoMove) {
			why = err.Error()
		}
		s.engineFails(us, why)
		return
	}
	if s.moderated {
		text, note := face.Observe(s.v, p, res.Best, s.human)
		label := text
		if label == "" {
			label = note
		}
		if label == "" {
			label = "an action you cannot see"
		}
		if _, err := s.play(res.Best); err != nil {
			s.engineFails(us, err.Error())
			return
		}
		if refused > 0 {
			fmt.Fprintf(s.out, "engine (%s): %d refused (illegal, try again), then %s\n", us, refused, label)
		} else {
			fmt.Fprintf(s.out, "engine (%s): %s\n", us, label)
		}
		if s.g.Status().Over() || s.pos().Turn() == s.human {
			s.show()
		}
		return
	}
	label := moveLabel(p, res.Best)
	outs := p.Outcomes(res.Best)
	verb := "plays"
	if len(outs) > 1 {
		verb = "tries"
		label += ": " + chanceText(p, res.Best, outs)
	}
	k, err := s.play(res.Best)
	if err != nil {
		s.engineFails(us, err.Error())
		return
	}
	if res.Info.Depth > 0 {
		fmt.Fprintf(s.out, "engine (%s) %s %s  [%s, depth %d, %.2fs]\n", us, verb, label,
			scoreText(res.Info, us), res.Info.Depth, res.Info.Time.Seconds())
	} else { // a decision the variant's player makes without a search
		fmt.Fprintf(s.out, "engine (%s) %s %s\n", us, verb, label)
	}
	if len(outs) > 1 {
		fmt.Fprintf(s.out, "%s\n", s.outcomeText(outs, k, us))
	}
	s.plyEvents()
	if s.g.Status().Over() || s.pos().Turn() == s.human {
		s.show()
	}
}

// maxEngineRefusals bounds the moves the moderator refuses the engine in
// one decision before it gives up.
const maxEngineRefusals = 32

// plyEvents prints what the last ply did besides its move, in the
// variant's words (face.DescribePly); nothing in a hidden game, where the
// words would tell of the true position.
func (s *session) plyEvents() {
	if s.moderated {
		return
	}
	if ev := face.DescribePly(s.v, s.pos()); len(ev) > 0 {
		fmt.Fprintf(s.out, "  then: %s\n", strings.Join(ev, ", "))
	}
}

// playSeen plays m, chosen from what the human sees, in the game. In a
// hidden game the moderator (face.Moderate) judges m, a move of the
// human's view, on the true position: it plays the move m stands for
// there, or refuses it with its reason.
func (s *session) playSeen(m rules.Move) (int, error) {
	if s.moderated {
		real, err := face.Moderate(s.pos(), s.displayPos(), m)
		if err != nil {
			return 0, err
		}
		m = real
	}
	return s.play(m)
}

// playTyped plays m for the human as a typed move is played, and says so
// (the variant's own commands play through it).
func (s *session) playTyped(m rules.Move) error {
	p := s.displayPos()
	label := moveLabel(p, m)
	if _, err := s.playSeen(m); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "you play %s\n", label)
	s.plyEvents()
	if s.g.Status().Over() || s.pos().Turn() == s.human {
		s.show()
	}
	return nil
}

// displayPos returns the position the human may see: the game's, or in a
// hidden game the human's view of it.
func (s *session) displayPos() *rules.Position {
	if s.moderated {
		if v, err := face.View(s.pos(), s.human); err == nil {
			return v
		}
	}
	return s.pos()
}

// isWord reports whether s is a word of letters alone.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// engineFails ends the game when the engine cannot move (which the rules
// should never allow): the engine loses.
func (s *session) engineFails(us rules.Color, why string) {
	fmt.Fprintf(s.out, "the engine (%s) cannot move: %s\n", us, why)
	s.g.Result = rules.Win(us.Other())
	s.g.Reason = fmt.Sprintf("the engine (%s) could not move", us)
	s.term = notation.TermAbandoned
}

// scoreText writes a search score for side us: centipawns or a mate.
func scoreText(in search.Info, us rules.Color) string {
	switch {
	case in.Mate > 0:
		return fmt.Sprintf("%s mates in %d", us, in.Mate)
	case in.Mate < 0:
		return fmt.Sprintf("%s is mated in %d", us, -in.Mate)
	}
	return fmt.Sprintf("score %+.2f for %s", float64(in.Score)/100, us)
}

// moveLabel writes move m of position p with its move number, in SAN and
// coordinates: "12... Nxe5 (f7e5)".
func moveLabel(p *rules.Position, m rules.Move) string {
	dots := "."
	if p.Turn() == rules.Black {
		dots = "..."
	}
	san, coord := notation.SAN(p, m), notation.Coord(p, m)
	if san == coord { // a variant's own move syntax
		return fmt.Sprintf("%d%s %s", p.Fullmove(), dots, san)
	}
	return fmt.Sprintf("%d%s %s (%s)", p.Fullmove(), dots, san, coord)
}

// lastMove returns the last ply's move and its label, if there is one.
func (s *session) lastMove() (rules.Move, string, bool) {
	n := len(s.g.Plies)
	if n == 0 {
		return rules.NoMove, "", false
	}
	var label string
	s.g.Replay(func(p *rules.Position, i int) {
		if i == n-1 {
			label = moveLabel(p, s.g.Plies[i].Move)
		}
	})
	return s.g.Plies[n-1].Move, label, true
}

// show draws the board from s.view with the last move marked, the
// variant's description of the position (face.Describe: marks on the
// board, counters, types, notes), then the last move, and whose turn it
// is or the result. In a hidden game all of it is the human's view.
func (s *session) show() {
	p := s.pos()
	m, label, ok := s.lastMove()
	var marked geom.Set
	if ok {
		b := p.Variant().Board()
		if m.Kind() != rules.Drop && b.Contains(m.From()) {
			marked.Add(m.From())
		}
		if b.Contains(m.To()) {
			marked.Add(m.To())
		}
	}
	if s.moderated {
		p, ok, marked = s.displayPos(), false, geom.Set{}
	}
	d := face.Describe(s.v, p)
	fmt.Fprint(s.out, drawBoard(p, s.view, &marked, face.Labels(s.v, p)))
	fmt.Fprint(s.out, describeText(d))
	if ok {
		fmt.Fprintf(s.out, "last move: %s\n", label)
	}
	if st := s.g.Status(); st.Over() {
		fmt.Fprintf(s.out, "result: %s\n", st)
		return
	}
	who := "you"
	if p.Turn() != s.human {
		who = "engine"
	}
	check := ""
	if p.InCheck() {
		check = ", in check"
	}
	phase := ""
	if d.Phase != "" {
		phase = ", " + d.Phase
	}
	if d.Turn != "" {
		phase += ", " + d.Turn
	}
	fmt.Fprintf(s.out, "%s to move (%s)%s%s\n", p.Turn(), who, phase, check)
}

// drawBoard draws p seen from side c with its file letters and rank
// numbers all round, the squares in marked bracketed and the variant's
// labels after the pieces' letters (face.Diagram).
func drawBoard(p *rules.Position, c rules.Color, marked *geom.Set, labels map[geom.Square]string) string {
	return face.Diagram(p, c, face.DiagramOptions{Frame: true, Marked: *marked, Labels: labels})
}

// reportEnd announces the result of the game and saves it if asked to.
func (s *session) reportEnd() {
	s.reported = true
	st := s.g.Status()
	verdict := "a draw"
	switch st.Result {
	case rules.Win(s.human):
		verdict = "you win"
	case rules.Win(s.human.Other()):
		verdict = "the engine wins"
	}
	fmt.Fprintf(s.out, "game over: %s, %s\n", st, verdict)
	fmt.Fprintln(s.out, `type "new" for a new game, "save FILE" to save this one, "undo" to take back, or "quit"`)
	if err := s.autosave(); err != nil {
		fmt.Fprintf(s.out, "%v\n", err)
	}
}

// listMoves prints the legal moves in SAN, wrapped.
func (s *session) listMoves() {
	p := s.displayPos()
	if s.g.Status().Over() {
		fmt.Fprintf(s.out, "no moves: the game is over (%s)\n", s.g.Status())
		return
	}
	moves := p.LegalMoves(nil)
	fmt.Fprintf(s.out, "%d legal moves:\n", len(moves))
	if p.Variant().Chance() {
		fmt.Fprintln(s.out, "  (n/d: the chance that the capture succeeds)")
	}
	line := ""
	for _, m := range moves {
		t := notation.SAN(p, m)
		if outs := p.Outcomes(m); len(outs) > 1 {
			t += fmt.Sprintf("(%d/%d)", outs[0].Num, outs[0].Den)
		}
		if line != "" && len(line)+1+len(t) > 72 {
			fmt.Fprintf(s.out, "  %s\n", line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += t
	}
	if line != "" {
		fmt.Fprintf(s.out, "  %s\n", line)
	}
}

// hint searches the position for the human and prints the best move.
func (s *session) hint() {
	if s.g.Status().Over() {
		fmt.Fprintf(s.out, "no hint: the game is over (%s)\n", s.g.Status())
		return
	}
	var res search.Result
	var err error
	p := s.displayPos()
	if s.moderated {
		res.Best, err = s.pl.SearchView(context.Background(), p, s.limits(), nil)
	} else {
		res, err = s.pl.Search(context.Background(), p.Clone(), s.limits(), nil)
	}
	if err != nil {
		res.Best = rules.NoMove
	}
	if res.Best == rules.NoMove {
		fmt.Fprintln(s.out, "no hint: no legal move")
		return
	}
	fmt.Fprintf(s.out, "hint: %s  [%s]\n", moveLabel(p, res.Best), scoreText(res.Info, p.Turn()))
}

// undo takes back the plies back to and including the human's last move,
// so that it is the human's turn again.
func (s *session) undo() {
	last := -1
	s.g.Replay(func(p *rules.Position, i int) {
		if p.Turn() == s.human {
			last = i
		}
	})
	if last < 0 {
		fmt.Fprintln(s.out, "nothing to undo")
		return
	}
	n := len(s.g.Plies) - last
	for range n {
		s.g.Undo()
	}
	s.g.Result, s.g.Reason, s.term = rules.Ongoing, "", ""
	s.reported = false
	switch n {
	case 1:
		fmt.Fprintln(s.out, "took back your move")
	case 2:
		fmt.Fprintln(s.out, "took back your move and the engine's reply")
	default:
		fmt.Fprintf(s.out, "took back your move and the %d after it\n", n-1)
	}
	s.show()
}

// setLevel sets the engine's depth from a level 1..maxLevel (package
// level), or prints
// the strength.
func (s *session) setLevel(arg string) {
	if arg == "" {
		fmt.Fprintf(s.out, "the engine plays at %s\n", s.strength())
		return
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > maxLevel {
		fmt.Fprintf(s.out, "level %q: want a number from 1 to %d\n", arg, maxLevel)
		return
	}
	lv := level.At(n)
	s.depth = lv.Depth
	fmt.Fprintf(s.out, "%v: the engine plays at %s\n", lv, s.strength())
}

// setDepth sets the engine's depth limit.
func (s *session) setDepth(arg string) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		fmt.Fprintf(s.out, "depth %q: want a number of plies (0 for no limit)\n", arg)
		return
	}
	s.depth = n
	fmt.Fprintf(s.out, "the engine plays at %s\n", s.strength())
}

// setTime sets the engine's time per move: a Go duration, or seconds.
func (s *session) setTime(arg string) {
	d, err := time.ParseDuration(arg)
	if err != nil {
		secs, err2 := strconv.ParseFloat(arg, 64)
		if err2 != nil || secs > 1e6 {
			d = -1
		} else {
			d = time.Duration(secs * float64(time.Second))
		}
	}
	if d < 0 {
		fmt.Fprintf(s.out, "time %q: want a duration such as 2s or 500ms, or seconds (0 for no limit)\n", arg)
		return
	}
	s.moveTime = d
	fmt.Fprintf(s.out, "the engine plays at %s\n", s.strength())
}

// record returns the current game as PGN with the session's tags: the
// players, the date, and if the game is over its Termination, with the end
// in words in a comment after the last move.
func (s *session) record() *pgn.Game {
	names := [2]string{}
	names[s.human], names[s.human.Other()] = "human", "anychess ("+s.strength()+")"
	pg := notation.WriteGame(s.g)
	pg.SetTag("Event", "anychess play")
	pg.SetTag("Date", time.Now().Format("2006.01.02"))
	pg.SetTag("White", names[rules.White])
	pg.SetTag("Black", names[rules.Black])
	if st := s.g.Status(); st.Over() {
		reason := st.Detail
		if reason == "" {
			reason = string(st.Reason)
		}
		term := s.term
		if term == "" {
			term = notation.TermNormal
		}
		if err := notation.SetTermination(pg, term, reason); err != nil {
			fmt.Fprintf(s.out, "the record's termination: %v\n", err)
		}
	}
	return pg
}

// save writes the current game to the file name.
func (s *session) save(name string) {
	if name == "" {
		fmt.Fprintln(s.out, "save: give a file name")
		return
	}
	if err := writePGN(name, []*pgn.Game{s.record()}); err != nil {
		fmt.Fprintf(s.out, "save: %v\n", err)
		return
	}
	fmt.Fprintf(s.out, "saved the game to %s\n", name)
}

// archiveGame keeps the current game, if it has moves, for -pgn.
func (s *session) archiveGame() {
	if len(s.g.Plies) > 0 {
		s.archive = append(s.archive, s.record())
	}
}

// autosave writes the session's games (the earlier ones and the current
// one if it has moves) to the -pgn file, if one was given.
func (s *session) autosave() error {
	if s.pgnPath == "" {
		return nil
	}
	games := s.archive
	if len(s.g.Plies) > 0 {
		games = append(games[:len(games):len(games)], s.record())
	}
	if len(games) == 0 {
		return nil
	}
	if err := writePGN(s.pgnPath, games); err != nil {
		return fmt.Errorf("saving to -pgn file: %w", err)
	}
	return nil
}

// writePGN writes games to the file name, replacing it.
func writePGN(name string, games []*pgn.Game) error {
	var sb strings.Builder
	for _, g := range games {
		if err := pgn.Write(&sb, g); err != nil {
			return err
		}
	}
	return os.WriteFile(name, []byte(sb.String()), 0o644)
}
