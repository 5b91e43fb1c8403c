package xboard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// Searcher is what the protocol needs of an engine; *search.Engine is one.
type Searcher interface {
	Search(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) search.Result
	Stop()
	Clear()
	SetHash(mb int)
}

// Name is the engine's name, sent as feature myname.
const Name = "anychess"

// MaxLine is the longest command line accepted; longer lines are answered
// with an error and skipped.
const MaxLine = 64 << 10

// DefaultMoveTime is the time per move when no level or st command has set a
// time control and no sd command a depth.
const DefaultMoveTime = time.Second

// moveOverhead is kept back from an st time for the protocol's latency.
const moveOverhead = 50 * time.Millisecond

// line is one input line, or the notice that a line was too long.
type line struct {
	text    string
	tooLong bool
}

// job is a running search: the engine thinking on its move, analysis, or
// pondering on the opponent's time.
type job struct {
	analyze bool
	ponder  bool // thinking on the opponent's time: no move comes of it
	cancel  context.CancelFunc
	done    chan search.Result // receives the result once
	start   time.Time
	mvtot   int // legal moves at the root

	mu   sync.Mutex
	last search.Info
	seen bool
}

func (j *job) info() (search.Info, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last, j.seen
}

// session is the protocol state of one connection.
type session struct {
	ctx context.Context
	reg *variant.Registry
	eng Searcher
	out io.Writer
	mu  sync.Mutex // serialises output

	v       *rules.Variant
	vname   string // the name the variant command gave v ("" for chess after new)
	pos     *rules.Position
	plies   int    // moves made since the base position (what undo may take back)
	invalid string // why the last setboard was refused; "" if the position is good

	force     bool        // the engine plays neither side
	engine    rules.Color // the side the engine plays when not in force mode
	analyzing bool
	pondering bool // hard: think on the opponent's time
	post      atomic.Bool

	// Time control.
	mps      int           // moves per session (0: whole game)
	base     time.Duration // session time
	inc      time.Duration // increment per move
	perMove  time.Duration // st: fixed time per move
	hasLevel bool
	hasST    bool
	depth    int // sd: depth limit (0: none)
	myTime   time.Duration
	oppTime  time.Duration
	hasTime  bool
	hasOTime bool

	hash        int // pending memory setting, applied when no search runs (0: none)
	cores       int // pending cores setting, applied when no search runs (0: none)
	job         *job
	lastAnalyze search.Info
}

// Run reads commands from in and writes replies to out until "quit", the
// end of input or ctx is done. It returns nil after quit or the end of
// input, ctx's error if ctx ended it, and a read error otherwise.
func Run(ctx context.Context, in io.Reader, out io.Writer, reg *variant.Registry, eng Searcher) error {
	v, err := reg.Get("chess")
	if err != nil {
		return err
	}
	s := &session{ctx: ctx, reg: reg, eng: eng, out: out, v: v, pos: v.Start(), engine: rules.Black}
	lines := make(chan line)
	errc := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go readLines(in, lines, errc, quit)
	defer s.abort()
	for {
		var done chan search.Result
		if s.job != nil {
			done = s.job.done
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case res := <-done:
			s.finished(res)
		case l, ok := <-lines:
			if !ok {
				err := <-errc
				if s.thinking() {
					s.waitMove() // a move already being thought about is still sent
				}
				return err
			}
			if l.tooLong {
				s.printf("Error (command too long): more than %d bytes", MaxLine)
				continue
			}
			if s.handle(l.text) {
				return nil
			}
		}
	}
}

// readLines sends the lines of r, dropping line ends, and then the read
// error (nil at the end of input).
func readLines(r io.Reader, lines chan<- line, errc chan<- error, quit <-chan struct{}) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 4096)
	var buf []byte
	long := false
	send := func(l line) bool {
		select {
		case lines <- l:
			return true
		case <-quit:
			return false
		}
	}
	for {
		frag, more, err := br.ReadLine()
		if err != nil {
			if len(buf) > 0 || long {
				send(line{text: string(buf), tooLong: long})
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			errc <- err
			return
		}
		if !long {
			if len(buf)+len(frag) > MaxLine {
				long, buf = true, buf[:0]
			} else {
				buf = append(buf, frag...)
			}
		}
		if more {
			continue
		}
		if !send(line{text: string(buf), tooLong: long}) {
			errc <- nil
			return
		}
		buf, long = buf[:0], false
	}
}

func (s *session) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// errorf answers a command the engine cannot carry out.
func (s *session) errorf(reason, cmd string) {
	s.printf("Error (%s): %s", reason, printable(cmd))
}

// printable replaces the bytes of an echoed command that are not printable
// ASCII, so that a reply is always one clean line.
func printable(text string) string {
	b := []byte(text)
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i] = '?'
		}
	}
	return string(b)
}

// handle runs one command and reports whether it was quit.
func (s *session) handle(text string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return false
	}
	cmd, args := fields[0], fields[1:]
	full := strings.Join(fields, " ")
	thinking := s.thinking()
	switch cmd {
	case "xboard", "accepted", "rejected", "computer", "name", "rating", "ics", "random", "draw", "hint":
		// Nothing to do: no draw offers, no hints.
	case "option":
		s.option(full, args)
	case "hard":
		s.pondering = true
	case "easy":
		s.pondering = false
		if s.job != nil && s.job.ponder {
			s.abort()
		}
	case "protover":
		if len(args) != 1 {
			s.errorf("protover needs a version", full)
			return false
		}
		if n, err := strconv.Atoi(args[0]); err != nil || n < 1 {
			s.errorf("bad protocol version", full)
			return false
		}
		s.features()
	case "quit":
		s.abort()
		return true
	case "new":
		s.abort()
		s.v, s.vname = s.chess(), ""
		s.reset(s.v.Start())
		s.force, s.engine, s.depth = s.analyzing, rules.Black, 0
		s.hasTime, s.hasOTime = false, false
		s.applyHash()
		s.eng.Clear()
		s.restartAnalysis()
	case "variant":
		if len(args) != 1 {
			s.errorf("variant needs a name", full)
			return false
		}
		v, err := lookupVariant(s.reg, args[0])
		if err != nil {
			s.errorf("unsupported variant", full)
			return false
		}
		s.abort()
		s.v, s.vname = v, args[0]
		s.reset(v.Start())
		_, name := splitSize(args[0])
		for _, l := range SetupCommands(v, name) {
			s.printf("%s", l)
		}
		s.restartAnalysis()
	case "force":
		s.abort()
		s.force = true
		s.analyzing = false
	case "result":
		s.abort()
		s.force = true
		s.analyzing = false
	case "go":
		if s.invalid != "" {
			s.errorf("illegal position", full)
			return false
		}
		if thinking {
			return false
		}
		s.abort()
		s.analyzing = false
		s.force = false
		s.engine = s.pos.Turn()
		s.think()
	case "playother":
		if s.invalid != "" {
			s.errorf("illegal position", full)
			return false
		}
		s.abort()
		s.analyzing = false
		s.force = false
		s.engine = s.pos.Turn().Other()
	case "usermove":
		if len(args) != 1 {
			s.errorf("usermove needs one move", full)
			return false
		}
		s.userMove(args[0])
	case "level":
		s.level(args, full)
	case "st":
		d, ok := seconds(args)
		if !ok || d <= 0 {
			s.errorf("st needs a positive number of seconds", full)
			return false
		}
		s.perMove, s.hasST, s.hasLevel = d, true, false
	case "sd":
		if len(args) != 1 {
			s.errorf("sd needs a depth", full)
			return false
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			s.errorf("sd needs a depth of at least 1", full)
			return false
		}
		s.depth = n
	case "time", "otim":
		if len(args) != 1 {
			s.errorf(cmd+" needs centiseconds", full)
			return false
		}
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n > math.MaxInt64/int64(10*time.Millisecond) || n < math.MinInt64/int64(10*time.Millisecond) {
			s.errorf(cmd+" needs centiseconds", full)
			return false
		}
		d := time.Duration(n) * 10 * time.Millisecond
		if cmd == "time" {
			s.myTime, s.hasTime = d, true
		} else {
			s.oppTime, s.hasOTime = d, true
		}
	case "ping":
		if len(args) != 1 {
			s.errorf("ping needs a number", full)
			return false
		}
		if thinking {
			s.waitMove() // pong only after the move
		}
		s.printf("pong %s", args[0])
	case "setboard":
		if len(args) == 0 {
			s.errorf("setboard needs a FEN", full)
			return false
		}
		s.abort()
		fen := strings.Join(args, " ")
		if !s.v.Spec().Drops {
			fen = stripHoldings(fen)
		}
		p, dropped, err := s.v.ParseFENLenient(fen)
		if err != nil {
			s.invalid = err.Error()
			s.printf("tellusererror Illegal position: %s", oneLine(err.Error()))
			return false
		}
		if dropped != "" {
			s.printf("# FEN: castling rights %q dropped: no king and rook for them", dropped)
		}
		for _, l := range PositionSetup(s.v, s.vname, p.FEN()) {
			s.printf("%s", l)
		}
		s.reset(p)
		s.restartAnalysis()
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		if s.invalid != "" {
			s.errorf("illegal position", full)
			return false
		}
		if s.plies < n {
			s.errorf("command not legal now", full)
			return false
		}
		s.abort()
		for range n {
			s.pos.Unmake()
			s.plies--
		}
		s.restartAnalysis()
	case "post":
		s.post.Store(true)
	case "nopost":
		s.post.Store(false)
	case "?":
		if thinking {
			s.eng.Stop()
			s.job.cancel()
		}
	case "memory":
		if len(args) != 1 {
			s.errorf("memory needs megabytes", full)
			return false
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			s.errorf("memory needs a positive number of megabytes", full)
			return false
		}
		if most := search.MaxHashMB(); n > most {
			s.printf("# memory %d MB is more than this machine's %d MB: the hash table takes %d MB", n, most, most)
			n = most
		}
		s.hash = n
		if s.job == nil {
			s.applyHash()
		}
	case "cores":
		if len(args) != 1 {
			s.errorf("cores needs a number", full)
			return false
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			s.errorf("cores needs a positive number", full)
			return false
		}
		if most := search.CPUs(); n > most {
			s.printf("# cores %d is more than this machine's %d CPUs: the search uses %d threads", n, most, most)
			n = most
		}
		s.cores = n
		if s.job == nil {
			s.applyHash()
		}
	case "analyze":
		if s.invalid != "" {
			s.errorf("illegal position", full)
			return false
		}
		s.abort()
		s.analyzing = true
		s.force = true
		s.restartAnalysis()
	case "exit":
		if !s.analyzing {
			s.errorf("command not legal now", full)
			return false
		}
		s.abort()
		s.analyzing = false
		s.force = true
	case ".":
		if !s.analyzing {
			s.errorf("command not legal now", full)
			return false
		}
		s.status()
	case "bk":
		s.printf("\tanychess has no opening book")
		s.printf("")
	case "d":
		for _, l := range strings.Split(strings.TrimRight(face.Diagram(s.pos, rules.White, face.DiagramOptions{Labels: face.Labels(s.pos.Variant(), s.pos)}), "\n"), "\n") {
			s.printf("# %s", l)
		}
		s.printf("# FEN %s", s.pos.FEN())
	default:
		if len(args) == 0 && s.looksLikeMove(cmd) {
			s.userMove(cmd)
			return false
		}
		s.errorf("unknown command", full)
	}
	return false
}

// features answers protover.
func (s *session) features() {
	s.printf("feature myname=\"%s\" ping=1 setboard=1 usermove=1 playother=1 colors=0 sigint=0 reuse=1 analyze=1 san=0 time=1 draw=0 memory=1 smp=1 exclude=0", Name)
	s.variantsFeature()
	s.printf("feature option=\"VariantPath -file <empty>\"")
	s.printf("feature done=1")
}

// variantsFeature sends the variants feature: every registry variant
// XBoard can play, under its XBoard names.
func (s *session) variantsFeature() {
	names := make([]string, 0, len(s.reg.Names()))
	for _, n := range s.reg.Names() {
		v, err := s.reg.Get(n)
		if err != nil || unsupported(v) != "" {
			continue
		}
		names = append(names, XBoardNames(v)...)
	}
	s.printf("feature variants=\"%s\"", strings.Join(names, ","))
}

// option sets an engine option: "option NAME=VALUE". The one option is
// VariantPath, which loads variant files (a file, a directory of *.toml
// files, or a list separated by ':') and sends the variants feature again
// with their names.
func (s *session) option(full string, args []string) {
	name, val, ok := strings.Cut(strings.Join(args, " "), "=")
	if !ok || strings.TrimSpace(name) != "VariantPath" {
		s.errorf("unknown option", full)
		return
	}
	val = strings.TrimSpace(val)
	if val == "" || val == "<empty>" {
		return
	}
	vs, err := s.reg.LoadPath(val)
	for _, v := range vs {
		s.printf("# VariantPath: loaded variant %s", printable(v.Name()))
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			s.printf("tellusererror VariantPath: %s", printable(line))
		}
	}
	if len(vs) > 0 {
		s.variantsFeature()
	}
}

func (s *session) chess() *rules.Variant {
	v, err := s.reg.Get("chess")
	if err != nil {
		return s.v // Run made sure chess is there
	}
	return v
}

// reset makes p the base position of the game.
func (s *session) reset(p *rules.Position) {
	s.pos = p
	s.plies = 0
	s.invalid = ""
}

// applyHash applies the pending memory and cores settings; no search may
// run.
func (s *session) applyHash() {
	if s.hash > 0 {
		s.eng.SetHash(s.hash)
		s.hash = 0
	}
	if s.cores > 0 {
		if t, ok := s.eng.(interface{ SetThreads(int) }); ok {
			t.SetThreads(s.cores)
		}
		s.cores = 0
	}
}

// looksLikeMove reports whether a word that is not a command is meant as a
// move: it reads as one in the current variant, legal or not.
func (s *session) looksLikeMove(word string) bool {
	_, err := s.parseMove(word)
	return err == nil || !errors.Is(err, notation.ErrSyntax)
}

// parseMove reads a move from XBoard in the current position.
func (s *session) parseMove(text string) (rules.Move, error) {
	return notation.ParseMove(s.pos, s.fromXBoard(text))
}

// userMove plays the opponent's move (or any move in force and analyze
// mode) and lets the engine answer when it is its turn.
func (s *session) userMove(text string) {
	if s.invalid != "" {
		s.printf("Illegal move (illegal position): %s", printable(text))
		return
	}
	m, err := s.parseMove(text)
	if err != nil {
		if errors.Is(err, notation.ErrAmbiguous) {
			s.printf("Illegal move (ambiguous): %s", printable(text))
		} else {
			s.printf("Illegal move: %s", printable(text))
		}
		return
	}
	s.abort()
	s.pos.Make(m)
	s.plies++
	if s.analyzing {
		s.restartAnalysis()
		return
	}
	if s.force {
		return
	}
	if st := s.pos.Status(); st.Over() {
		s.announce(st)
		return
	}
	if s.pos.Turn() == s.engine {
		s.think()
	}
}

// thinking reports whether the engine is thinking on its own move.
func (s *session) thinking() bool {
	return s.job != nil && !s.job.analyze && !s.job.ponder
}

// think starts a search for the engine's move.
func (s *session) think() {
	if st := s.pos.Status(); st.Over() {
		s.announce(st)
		return
	}
	s.start(false, s.limits())
}

// limits turns the time control into search limits for the side to move.
func (s *session) limits() search.Limits {
	lim := search.Limits{Depth: s.depth}
	us := s.pos.Turn()
	switch {
	case s.hasST:
		lim.MoveTime = max(s.perMove-moveOverhead, 10*time.Millisecond)
	case s.hasLevel || s.hasTime:
		my, opp := s.base, s.base
		if s.hasTime {
			my = s.myTime
		}
		if s.hasOTime {
			opp = s.oppTime
		}
		lim.Time[us] = max(my, 10*time.Millisecond)
		lim.Time[us.Other()] = max(opp, 10*time.Millisecond)
		lim.Inc[us], lim.Inc[us.Other()] = s.inc, s.inc
		if s.mps > 0 {
			lim.MovesToGo = s.mps - (s.pos.Fullmove()-1)%s.mps
		}
	case s.depth == 0:
		lim.MoveTime = DefaultMoveTime
	}
	return lim
}

// start runs a search of the current position in the background.
func (s *session) start(analyze bool, lim search.Limits) {
	s.startJob(s.pos.Clone(), &job{analyze: analyze}, lim)
}

// startJob runs j, a search of p, in the background.
func (s *session) startJob(p *rules.Position, j *job, lim search.Limits) {
	s.applyHash()
	ctx, cancel := context.WithCancel(s.ctx)
	j.cancel, j.done, j.start, j.mvtot = cancel, make(chan search.Result, 1), time.Now(), len(p.LegalMoves(nil))
	s.job = j
	tr := s.translator()
	analyze, ponder := j.analyze, j.ponder
	find := s.eng.Search
	if e, ok := s.eng.(*search.Engine); ok && !analyze && !ponder {
		find = turnSearch(player.New(p.Variant(), e, p.Hash()))
	}
	go func() {
		res := find(ctx, p, lim, func(in search.Info) {
			j.mu.Lock()
			j.last, j.seen = in, true
			j.mu.Unlock()
			if analyze || (s.post.Load() && !ponder) {
				s.printf("%s", thinking(p, in, tr))
			}
		})
		j.done <- res
	}()
}

// turnSearch is the search of the engine's move by pl, the variant's
// player of whole turns (player.New): no decision is a result with no
// best move.
func turnSearch(pl player.Player) func(context.Context, *rules.Position, search.Limits, func(search.Info)) search.Result {
	return func(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) search.Result {
		res, err := pl.Search(ctx, p, lim, info)
		if err != nil {
			res.Best = rules.NoMove
		}
		return res
	}
}

// ponder thinks on the opponent's time, after the engine's move, about the
// position after the reply the search expects. It only fills the
// transposition table: the opponent's move stops it, and the search for the
// engine's next move starts afresh, finding what pondering learned there.
func (s *session) ponder(reply rules.Move) {
	if !s.pondering || s.force || s.analyzing || reply == rules.NoMove || !legal(s.pos, reply) {
		return
	}
	p := s.pos.Clone()
	s.printf("# pondering on %s", moveText(p, reply, s.translator()))
	p.Make(reply)
	if p.Status().Over() {
		return
	}
	s.startJob(p, &job{ponder: true}, search.Limits{Infinite: true})
}

// restartAnalysis (re)starts the analysis of the current position when in
// analyze mode.
func (s *session) restartAnalysis() {
	if !s.analyzing || s.invalid != "" {
		return
	}
	s.abort()
	s.lastAnalyze = search.Info{}
	s.start(true, search.Limits{Infinite: true})
}

// abort stops a running search and forgets its result.
func (s *session) abort() {
	if s.job == nil {
		return
	}
	s.eng.Stop()
	s.job.cancel()
	<-s.job.done
	s.keepInfo()
	s.job = nil
}

func (s *session) keepInfo() {
	if s.job != nil && s.job.analyze {
		if in, ok := s.job.info(); ok {
			s.lastAnalyze = in
		}
	}
}

// waitMove waits for the engine's move and sends it.
func (s *session) waitMove() {
	if !s.thinking() {
		return
	}
	select {
	case res := <-s.job.done:
		s.finished(res)
	case <-s.ctx.Done():
		s.abort()
	}
}

// finished takes the result of a search that ended by itself (or by ?).
func (s *session) finished(res search.Result) {
	j := s.job
	s.keepInfo()
	s.job = nil
	if j.analyze || j.ponder {
		return // analysis or pondering that ran out of depth: nothing to send
	}
	if res.Best == rules.NoMove || !legal(s.pos, res.Best) {
		if st := s.pos.Status(); st.Over() {
			s.announce(st)
		}
		return
	}
	text := moveText(s.pos, res.Best, s.translator())
	s.pos.Make(res.Best)
	s.plies++
	s.printf("move %s", text)
	if st := s.pos.Status(); st.Over() {
		s.announce(st)
		return
	}
	s.ponder(res.Ponder)
}

// status answers "." in analyze mode.
func (s *session) status() {
	in, start, mvtot := s.lastAnalyze, time.Now(), 0
	if s.job != nil {
		if last, ok := s.job.info(); ok {
			in = last
		}
		start, mvtot = s.job.start, s.job.mvtot
	} else {
		mvtot = len(s.pos.LegalMoves(nil))
		start = start.Add(-in.Time)
	}
	s.printf("stat01: %d %d %d %d %d", time.Since(start).Milliseconds()/10, in.Nodes, in.Depth, 0, mvtot)
}

// announce sends the result of a game that has ended by rule.
func (s *session) announce(st rules.Status) {
	s.printf("%s {%s}", st.Result, resultComment(st))
}

// resultComment says why a game ended, in the words XBoard's examples use
// where there are some.
func resultComment(st rules.Status) string {
	switch {
	case st.Reason == rules.ReasonCheckmate && st.Result == rules.WhiteWins:
		return "White mates"
	case st.Reason == rules.ReasonCheckmate && st.Result == rules.BlackWins:
		return "Black mates"
	case st.Reason == rules.ReasonStalemate && st.Result == rules.Draw:
		return "Stalemate"
	case st.Reason == rules.ReasonRepetition:
		return "Draw by repetition"
	case st.Reason == rules.ReasonDead:
		return "Insufficient material"
	}
	d := st.Detail
	if d == "" {
		d = string(st.Reason)
	}
	if d == "" {
		return "Game over"
	}
	return strings.ToUpper(d[:1]) + d[1:]
}

// level reads "level MPS BASE INC", BASE being minutes or minutes:seconds.
func (s *session) level(args []string, full string) {
	if len(args) != 3 {
		s.errorf("level needs MPS BASE INC", full)
		return
	}
	mps, err := strconv.Atoi(args[0])
	if err != nil || mps < 0 {
		s.errorf("bad moves per session", full)
		return
	}
	base, ok := baseTime(args[1])
	if !ok {
		s.errorf("bad base time", full)
		return
	}
	inc, ok := seconds(args[2:])
	if !ok || inc < 0 {
		s.errorf("bad increment", full)
		return
	}
	s.mps, s.base, s.inc = mps, base, inc
	s.hasLevel, s.hasST = true, false
}

// baseTime reads a level's base time: "5" (minutes), "0:30" or "5:30"
// (minutes and seconds), ignoring anything after the number as the protocol
// asks ("25+5").
func baseTime(text string) (time.Duration, bool) {
	num := func(t string) (int64, string, bool) {
		i := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 {
			return 0, t, false
		}
		n, err := strconv.ParseInt(t[:i], 10, 64)
		return n, t[i:], err == nil
	}
	m, rest, ok := num(text)
	if !ok {
		return 0, false
	}
	d := time.Duration(m) * time.Minute
	if strings.HasPrefix(rest, ":") {
		sec, _, ok := num(rest[1:])
		if !ok {
			return 0, false
		}
		d += time.Duration(sec) * time.Second
	}
	return d, true
}

// seconds reads one number of seconds, which may have a fraction.
func seconds(args []string) (time.Duration, bool) {
	if len(args) != 1 {
		return 0, false
	}
	f, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// thinking formats a line of thinking output: depth, score in centipawns
// (mates as 100000+N and -100000-N), time in centiseconds, nodes, and the
// principal variation, with ? or ! at the end for a fail low or high.
func thinking(p *rules.Position, in search.Info, tr func(string) string) string {
	score := in.Score
	switch {
	case in.Mate > 0:
		score = 100000 + in.Mate
	case in.Mate < 0:
		score = -100000 + in.Mate
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d %d %d %d", in.Depth, score, in.Time.Milliseconds()/10, in.Nodes)
	q := p.Clone()
	for _, m := range in.PV {
		if !legal(q, m) {
			break
		}
		sb.WriteString(" " + moveText(q, m, tr))
		q.Make(m)
	}
	switch in.Bound {
	case "upperbound":
		sb.WriteString("?")
	case "lowerbound":
		sb.WriteString("!")
	}
	return sb.String()
}

// translator returns the function that turns anychess coordinates into
// XBoard's for the current variant.
func (s *session) translator() func(string) string {
	if s.v.Board().Ranks == 10 {
		return func(t string) string { return shiftRanks(t, -1) }
	}
	return func(t string) string { return t }
}

// moveText writes m, a legal move in p, as XBoard reads it: coordinates
// through tr, except castling in Chess960 (XBoard's fischerandom), which is
// O-O or O-O-O.
func moveText(p *rules.Position, m rules.Move, tr func(string) string) string {
	if m.Kind() == rules.Castle && p.Variant().Spec().Castling.KingTakesRook {
		if m.Aux().File() > m.From().File() {
			return "O-O"
		}
		return "O-O-O"
	}
	return tr(notation.Coord(p, m))
}

func (s *session) fromXBoard(text string) string {
	if s.v.Board().Ranks == 10 {
		return shiftRanks(text, 1)
	}
	return text
}

// shiftRanks adds d to every rank number that follows a file letter: XBoard
// numbers the ranks of a ten-rank board from 0.
func shiftRanks(text string, d int) string {
	var sb strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		sb.WriteByte(c)
		i++
		if c < 'a' || c > 'z' {
			continue
		}
		j := i
		for j < len(text) && j-i < 3 && '0' <= text[j] && text[j] <= '9' {
			j++
		}
		if j == i {
			continue
		}
		n, _ := strconv.Atoi(text[i:j])
		sb.WriteString(strconv.Itoa(n + d))
		i = j
	}
	return sb.String()
}

// stripHoldings removes XBoard's holdings ("[-]", "[SSss]") from the board
// of a FEN: XBoard writes them for its variant great, which keeps the pieces
// a pawn may promote to beside the board.
func stripHoldings(fen string) string {
	board, rest, _ := strings.Cut(fen, " ")
	i := strings.IndexByte(board, '[')
	if i < 0 || !strings.HasSuffix(board, "]") {
		return fen
	}
	if rest == "" {
		return board[:i]
	}
	return board[:i] + " " + rest
}

// legal reports whether m is a legal move in p.
func legal(p *rules.Position, m rules.Move) bool {
	for _, x := range p.LegalMoves(nil) {
		if x == m {
			return true
		}
	}
	return false
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
