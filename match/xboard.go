package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/chess960"
)

// The waits of the XBoard client.
const (
	// xbFeatureWait is how long the client waits for "feature done=1"
	// after "protover 2". An engine that is silent that long is taken for
	// a version 1 engine, as the protocol allows.
	xbFeatureWait = 3 * time.Second
	// xbFeatureLong replaces it once the engine sent "feature done=0",
	// which asks for more time to start up.
	xbFeatureLong = 60 * time.Second
	// xbSyncWait is how long an answer to "ping" may take.
	xbSyncWait = 10 * time.Second
	// xbGrace is added to the engine's clock when waiting for its move.
	xbGrace = 5 * time.Second
)

// xbFeatures is what an engine said about itself with "feature".
type xbFeatures struct {
	ping     bool     // answers "ping N" with "pong N"
	setboard bool     // takes "setboard FEN" (otherwise "edit")
	usermove bool     // wants moves as "usermove MOVE"
	san      bool     // reads and writes moves in SAN
	noTime   bool     // time=0: wants no "time" and "otim"
	myname   string   // its name
	variants []string // the variants it plays; nil if it did not say
	done     bool     // done=1: every feature has been sent
}

// xboardPlayer drives an external engine over the XBoard protocol (the
// Chess Engine Communication Protocol, version 2). The engine process lives
// as long as the player: one game, as the runner uses it.
//
// Each turn the client puts the engine in force mode, gives it the moves it
// has not seen yet (after setting up the game's start position first), makes
// sure with ping that it accepted them, sends the clocks and "go", and reads
// its move. Our rules decide: a move they do not allow, a rejection of a
// move they allow, and a result claim they do not confirm are errors for the
// game, with a message that says what the engine did.
type xboardPlayer struct {
	*process
	spec Spec

	feat        xbFeatures
	featureWait time.Duration
	pings       int // the number of the last ping sent

	// The game.
	v          *rules.Variant
	engVariant string       // the engine's name of the variant
	ready      bool         // the engine holds the game from startFEN
	startFEN   string       // the position the engine's game starts from
	known      []rules.Move // the moves from startFEN the engine holds
	lastMove   string       // the last move command sent, for error messages
}

func newXBoardPlayer(sp Spec) (*xboardPlayer, error) {
	return startXBoard(sp, xbFeatureWait)
}

// startXBoard starts the engine and negotiates the protocol, waiting at
// most featureWait for the engine's features.
func startXBoard(sp Spec, featureWait time.Duration) (*xboardPlayer, error) {
	proc, err := startProcess(sp)
	if err != nil {
		return nil, fmt.Errorf("xboard engine %s: %w", sp.Path, err)
	}
	x := &xboardPlayer{process: proc, spec: sp, featureWait: featureWait}
	if err := x.handshake(); err != nil {
		x.Close()
		return nil, fmt.Errorf("xboard engine %s: %w", sp.Path, err)
	}
	return x, nil
}

// handshake sends "xboard" and "protover 2", answers the features, and
// sends the options of the spec.
func (x *xboardPlayer) handshake() error {
	if err := x.send("xboard", "protover 2"); err != nil {
		return err
	}
	deadline := time.Now().Add(x.featureWait)
	for !x.feat.done {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		l, err := x.read(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			break // a version 1 engine, or a slow one: go on with what it said
		}
		if err != nil {
			return err
		}
		if kind, arg := parseXBLine(l); kind == xbFeature {
			longer, err := x.feature(arg)
			if err != nil {
				return err
			}
			if longer {
				deadline = time.Now().Add(xbFeatureLong)
			}
		}
	}
	if x.feat.myname != "" {
		x.name = x.feat.myname
	}
	var cmds []string
	for _, k := range sortedKeys(x.spec.Options) {
		switch v := x.spec.Options[k]; {
		case k == "variant":
		case v == "":
			cmds = append(cmds, "option "+k) // a button
		default:
			cmds = append(cmds, "option "+k+"="+v)
		}
	}
	cmds = append(cmds, "easy") // no pondering: both players share the machine
	if err := x.send(cmds...); err != nil {
		return err
	}
	return x.sync(context.Background(), func(kind xbKind, arg, line string) error {
		return x.common(kind, arg, line)
	})
}

// feature answers a feature command: "accepted NAME" for each feature the
// client knows, "rejected NAME" for the others. It reports whether the
// engine asked for more time with done=0.
func (x *xboardPlayer) feature(arg string) (longer bool, err error) {
	var replies []string
	for _, kv := range parseFeatures(arg) {
		k, v := kv[0], kv[1]
		ok := true
		switch k {
		case "ping":
			x.feat.ping = v == "1"
		case "setboard":
			x.feat.setboard = v == "1"
		case "usermove":
			x.feat.usermove = v == "1"
		case "san":
			x.feat.san = v == "1"
		case "time":
			x.feat.noTime = v == "0"
		case "myname":
			x.feat.myname = v
		case "variants":
			x.feat.variants = nil
			for _, name := range strings.Split(v, ",") {
				if name = strings.TrimSpace(name); name != "" {
					x.feat.variants = append(x.feat.variants, name)
				}
			}
		case "done":
			x.feat.done = v == "1"
			longer = v == "0"
		case "playother", "draw", "sigint", "sigterm", "reuse", "analyze", "colors", "ics", "name",
			"pause", "nps", "debug", "memory", "smp", "egt", "option", "exclude", "setscore", "highlight":
			// Known; the client uses none of them, and none needs it to.
		default:
			ok = false
		}
		if ok {
			replies = append(replies, "accepted "+k)
		} else {
			replies = append(replies, "rejected "+k)
		}
	}
	return longer, x.send(replies...)
}

// sync sends "ping N" and reads up to "pong N", so that every answer to the
// commands sent before has arrived; check judges each line on the way. An
// engine without ping is not waited for: its answers are judged with its
// next move.
func (x *xboardPlayer) sync(ctx context.Context, check func(kind xbKind, arg, line string) error) error {
	if !x.feat.ping {
		return nil
	}
	x.pings++
	n := strconv.Itoa(x.pings)
	if err := x.send("ping " + n); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, xbSyncWait)
	defer cancel()
	for {
		l, err := x.read(ctx)
		if err != nil {
			return fmt.Errorf("%s: no pong %s: %w", x.name, n, err)
		}
		kind, arg := parseXBLine(l)
		if kind == xbPong && arg == n {
			return nil
		}
		if err := check(kind, arg, l); err != nil {
			return err
		}
	}
}

// common handles the lines every state shares: late features, a rejected
// move, an error, a resignation. Other lines (thinking output, messages
// for the user, draw offers, stale pongs) are ignored.
func (x *xboardPlayer) common(kind xbKind, arg, line string) error {
	switch kind {
	case xbFeature:
		_, err := x.feature(arg)
		return err
	case xbIllegal:
		return termError{notation.TermRulesInfraction, fmt.Errorf("%s rejected a move our rules allow: %q (the last move it was given: %s)", x.name, line, x.lastMove)}
	case xbError:
		if xbHarmless(xbErrorCommand(line)) {
			return nil
		}
		return fmt.Errorf("%s did not accept a command: %q (the last command sent: %s)", x.name, line, x.lastSent())
	case xbResign:
		return termError{notation.TermNormal, fmt.Errorf("%s resigned (%q)", x.name, line)}
	}
	return nil
}

// xbHarmless reports whether an engine may refuse cmd without harm to the
// game.
func xbHarmless(cmd string) bool {
	switch cmd {
	case "easy", "hard", "post", "nopost", "otim", "computer", "random", "accepted", "rejected":
		return true
	}
	return false
}

// lastSent returns the last command sent that was not a ping, for error
// messages.
func (x *xboardPlayer) lastSent() string {
	for i := len(x.log) - 1; i >= 0; i-- {
		if s, ok := strings.CutPrefix(x.log[i], "> "); ok && !strings.HasPrefix(s, "ping ") {
			return fmt.Sprintf("%q", s)
		}
	}
	return "nothing"
}

// Name returns the engine's name (feature myname), else the spec.
func (x *xboardPlayer) Name() string { return x.name }

// NewGame checks that the engine plays the variant. The position is set up
// with the first move, which brings the start position.
func (x *xboardPlayer) NewGame(_ context.Context, v *rules.Variant) error {
	if v.Chance() {
		return fmt.Errorf("%s: the XBoard protocol cannot give the outcome of a %s move decided by chance", x.name, v.Title())
	}
	x.v = v
	x.engVariant = xbVariant(x.spec, v)
	x.ready = false
	if x.engVariant != "normal" && x.feat.variants != nil && !slices.Contains(x.feat.variants, x.engVariant) {
		return fmt.Errorf("%s does not play the variant %q (it plays %s); give its name for %s with xboard:%s:variant=NAME",
			x.name, x.engVariant, strings.Join(x.feat.variants, ", "), v.Name(), x.spec.Path)
	}
	return nil
}

// xbVariant returns the engine's name of v: the spec's variant option,
// "normal" for chess, "fischerandom" for Chess960, otherwise our name.
func xbVariant(sp Spec, v *rules.Variant) string {
	if name := sp.Options["variant"]; name != "" {
		return name
	}
	switch v.Name() {
	case "chess":
		return "normal"
	case chess960.Name:
		return "fischerandom"
	}
	return v.Name()
}

// Move brings the engine's game up to p and returns its move there.
func (x *xboardPlayer) Move(ctx context.Context, start, p *rules.Position, plies []game.Ply, clk Clock) (rules.Move, error) {
	if x.v != p.Variant() {
		if err := x.NewGame(ctx, p.Variant()); err != nil {
			return rules.NoMove, err
		}
	}
	history := make([]rules.Move, len(plies))
	for i, pl := range plies {
		if pl.Outcome != 0 {
			return rules.NoMove, fmt.Errorf("%s: the XBoard protocol cannot give the outcome of a move decided by chance", x.name)
		}
		history[i] = pl.Move
	}
	// Bring the engine's game up to p: the moves it has not seen, or the
	// whole game if it does not continue what the engine holds.
	fen := start.FEN()
	var cmds []string
	if !x.ready || fen != x.startFEN || len(history) < len(x.known) || !slices.Equal(history[:len(x.known)], x.known) {
		cmds = x.setup(start, clk)
		x.startFEN, x.known = fen, x.known[:0]
	} else {
		cmds = append(cmds, "force")
	}
	q := start.Clone()
	for i, m := range history {
		if i >= len(x.known) {
			x.lastMove = x.moveText(q, m)
			cmds = append(cmds, x.lastMove)
		}
		q.Make(m)
	}
	x.known = append(x.known[:0], history...)
	x.ready = true
	if err := x.send(cmds...); err != nil {
		return rules.NoMove, err
	}
	err := x.sync(ctx, func(kind xbKind, arg, line string) error {
		if kind == xbResult {
			return x.falseClaim(line, "", p)
		}
		return x.common(kind, arg, line)
	})
	if err != nil {
		return rules.NoMove, err
	}

	limit := clk.MoveTime
	cmds = cmds[:0]
	if !x.feat.noTime {
		own, opp := clk.Left, clk.OppLeft
		if clk.MoveTime > 0 {
			own, opp = clk.MoveTime, clk.MoveTime
		}
		cmds = append(cmds, fmt.Sprintf("time %d", centis(own)), fmt.Sprintf("otim %d", centis(opp)))
	}
	if clk.MoveTime <= 0 {
		limit = clk.Left
	}
	if err := x.send(append(cmds, "go")...); err != nil {
		return rules.NoMove, err
	}
	mctx, cancel := context.WithTimeout(ctx, limit+xbGrace)
	defer cancel()
	for {
		l, err := x.read(mctx)
		if err != nil {
			return rules.NoMove, fmt.Errorf("%s: no move: %w", x.name, err)
		}
		kind, arg := parseXBLine(l)
		switch kind {
		case xbMove:
			m, err := x.parseMove(p, arg)
			if err != nil {
				return rules.NoMove, err
			}
			x.known = append(x.known, m)
			if err := x.afterMove(ctx, p, m, arg); err != nil {
				return rules.NoMove, err
			}
			return m, nil
		case xbResult:
			return rules.NoMove, x.falseClaim(l, "", p)
		default:
			if err := x.common(kind, arg, l); err != nil {
				return rules.NoMove, err
			}
		}
	}
}

// setup returns the commands that start a game from start: new, the
// variant, force mode, the time control and the position, by setboard, or
// by edit for an engine without setboard (edit cannot say which castling
// rights and en-passant square the position has: the engine assumes them
// from the pieces).
func (x *xboardPlayer) setup(start *rules.Position, clk Clock) []string {
	cmds := []string{"new"}
	if x.engVariant != "normal" {
		cmds = append(cmds, "variant "+x.engVariant)
	}
	cmds = append(cmds, "force", xbTimeControl(clk))
	switch {
	case start.FEN() == x.v.StartFEN():
	case x.feat.setboard:
		cmds = append(cmds, "setboard "+start.FEN())
	default:
		cmds = append(cmds, x.edit(start)...)
	}
	return cmds
}

// edit returns the commands of edit mode that set up p. The side to move
// is not part of edit mode: for Black to move, a move from the start comes
// first, as xboard does.
func (x *xboardPlayer) edit(p *rules.Position) []string {
	v := p.Variant()
	var cmds []string
	if s := v.Start(); p.Turn() != s.Turn() {
		moves := s.LegalMoves(nil)
		if len(moves) > 0 {
			m := moves[0]
			for _, o := range moves {
				if s.At(o.From()).Type() == v.Pawn() && o.Kind() == rules.Normal {
					m = o
					break
				}
			}
			x.lastMove = x.moveText(s, m)
			cmds = append(cmds, x.lastMove)
		}
	}
	cmds = append(cmds, "edit", "#")
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if c == rules.Black {
			cmds = append(cmds, "c")
		}
		for _, s := range p.Pieces(c) {
			cmds = append(cmds, string(v.Letter(p.At(s).Type()))+s.String())
		}
	}
	return append(cmds, ".")
}

// moveText returns the command that gives the engine move m played in p.
func (x *xboardPlayer) moveText(p *rules.Position, m rules.Move) string {
	s := notation.Coord(p, m)
	switch {
	case x.feat.san:
		s = notation.SAN(p, m)
	case m.Kind() == rules.Castle && p.Variant().Spec().Castling.KingTakesRook:
		s = strings.TrimRight(notation.SAN(p, m), "+#") // XBoard's fischerandom castles as O-O, O-O-O
	}
	if x.feat.usermove {
		s = "usermove " + s
	}
	return s
}

// parseMove reads the engine's move in p: coordinates, or SAN and O-O as a
// fallback.
func (x *xboardPlayer) parseMove(p *rules.Position, text string) (rules.Move, error) {
	m, err := notation.ParseCoord(p, text)
	if err == nil {
		return m, nil
	}
	alt := text
	if strings.Trim(text, "0-+#") == "" {
		alt = strings.ReplaceAll(text, "0", "O") // castling written with zeros
	}
	if m, err2 := notation.ParseMove(p, alt); err2 == nil {
		return m, nil
	}
	return rules.NoMove, fmt.Errorf("%s played %s, which our rules do not allow: %w", x.name, text, err)
}

// afterMove collects what the engine says after its move m in p: a result
// claim must agree with our rules.
func (x *xboardPlayer) afterMove(ctx context.Context, p *rules.Position, m rules.Move, text string) error {
	q := p.Clone()
	q.Make(m)
	return x.sync(ctx, func(kind xbKind, arg, line string) error {
		switch kind {
		case xbResult:
			return x.falseClaim(line, text, q)
		case xbMove:
			return nil // a move in force mode: nothing the game uses
		}
		return x.common(kind, arg, line)
	})
}

// falseClaim judges the engine's result claim (line) in q, the position
// after its move text ("" for a claim before its move): an error unless
// our rules end the game there with the same result.
func (x *xboardPlayer) falseClaim(line, text string, q *rules.Position) error {
	after := ""
	if text != "" {
		after = " after its move " + text
	}
	st := q.Status()
	claimed, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch {
	case !st.Over():
		return termError{notation.TermRulesInfraction, fmt.Errorf("%s claimed %q%s, but by our rules the game goes on (%s)", x.name, line, after, q.FEN())}
	case claimed != st.Result.String():
		return termError{notation.TermRulesInfraction, fmt.Errorf("%s claimed %q%s, but by our rules the result is %s (%s)", x.name, line, after, st, q.FEN())}
	}
	return nil
}

// Close sends quit and ends the process if it does not exit at once.
func (x *xboardPlayer) Close() error {
	x.close()
	return nil
}

// centis returns d in centiseconds, at least 1.
func centis(d time.Duration) int64 { return max(d.Milliseconds()/10, 1) }

// xbTimeControl returns the time control command: "st SECONDS" for a
// fixed time per move (whole seconds, at least one: the exact time follows
// with "time" before each move), else "level 0 M:SS INC".
func xbTimeControl(clk Clock) string {
	if clk.MoveTime > 0 {
		return fmt.Sprintf("st %d", max(1, int(math.Ceil(clk.MoveTime.Seconds()))))
	}
	s := max(int(clk.Left.Round(time.Second)/time.Second), 1)
	return fmt.Sprintf("level 0 %d:%02d %s", s/60, s%60, strconv.FormatFloat(clk.Inc.Seconds(), 'f', -1, 64))
}

// xbKind is the kind of a line from an engine.
type xbKind int

// The lines the client tells apart.
const (
	xbOther     xbKind = iota // thinking output, messages, debug lines
	xbMove                    // the engine's move
	xbIllegal                 // "Illegal move...": it refused our move
	xbError                   // "Error (TYPE): COMMAND"
	xbResign                  // "resign"
	xbOfferDraw               // "offer draw"
	xbResult                  // a result claim: "1-0 {White mates}"
	xbFeature                 // "feature ..."
	xbPong                    // "pong N"
)

// parseXBLine classifies a line from an engine and returns its argument:
// the move, the feature list, the pong number or the claimed result.
func parseXBLine(line string) (xbKind, string) {
	l := strings.TrimSpace(line)
	f := strings.Fields(l)
	if len(f) == 0 {
		return xbOther, ""
	}
	switch {
	case f[0] == "move" && len(f) >= 2:
		return xbMove, f[1]
	case strings.HasPrefix(l, "Illegal move"):
		return xbIllegal, l
	case strings.HasPrefix(l, "Error"):
		return xbError, l
	case f[0] == "resign":
		return xbResign, l
	case f[0] == "offer" && len(f) >= 2 && f[1] == "draw":
		return xbOfferDraw, ""
	case f[0] == "1-0" || f[0] == "0-1" || f[0] == "1/2-1/2":
		return xbResult, f[0]
	case f[0] == "feature":
		return xbFeature, strings.TrimSpace(l[len("feature"):])
	case f[0] == "pong" && len(f) >= 2:
		return xbPong, f[1]
	}
	// The older form of a move: "12. ... e7e5" or "12... e7e5".
	if n := strings.TrimRight(f[0], "."); n != "" && strings.Trim(n, "0123456789") == "" {
		switch {
		case strings.HasSuffix(f[0], "...") && len(f) >= 2:
			return xbMove, f[1]
		case len(f) >= 3 && f[1] == "...":
			return xbMove, f[2]
		}
	}
	return xbOther, ""
}

// xbErrorCommand returns the command an "Error (TYPE): COMMAND" line names.
func xbErrorCommand(line string) string {
	_, after, ok := strings.Cut(line, "):")
	if !ok {
		after = strings.TrimPrefix(strings.TrimSpace(line), "Error")
		after = strings.TrimLeft(after, ": ")
	}
	if f := strings.Fields(after); len(f) > 0 {
		return f[0]
	}
	return ""
}

// parseFeatures splits the arguments of a feature command into name and
// value pairs; a value is a word or a quoted string.
func parseFeatures(s string) [][2]string {
	var out [][2]string
	for {
		s = strings.TrimLeft(s, " \t")
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return out
		}
		key := s[:eq]
		if f := strings.Fields(key); len(f) > 0 {
			key = f[len(f)-1]
		}
		s = s[eq+1:]
		var val string
		if rest, ok := strings.CutPrefix(s, `"`); ok {
			val, s, _ = strings.Cut(rest, `"`)
		} else if i := strings.IndexAny(s, " \t"); i >= 0 {
			val, s = s[:i], s[i:]
		} else {
			val, s = s, ""
		}
		if key != "" {
			out = append(out, [2]string{key, val})
		}
	}
}
