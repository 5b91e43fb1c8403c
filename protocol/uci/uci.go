// Package uci speaks the Universal Chess Interface as an engine, for every
// variant of a registry. The variant is chosen with the UCI_Variant option
// (as in Fairy-Stockfish); positions and moves are in FEN and coordinate
// notation (e2e4, e7e8q, j2j3, a10a11).
//
// Commands: uci, isready, ucinewgame, setoption (Hash, Clear Hash, Threads,
// MultiPV, UCI_Variant, UCI_Chess960, VariantOptions, VariantPath, Ponder, Move Overhead,
// UCI_AnalyseMode, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo), position
// startpos|fen ... [moves ...], go (wtime btime winc binc movestogo depth
// nodes mate movetime infinite ponder searchmoves, and perft N), stop,
// ponderhit, quit, and d (print the position). A command the engine cannot
// carry out is answered with an "info string" line that says why; the
// engine's state stays as it was, except that a position command whose
// moves include an illegal one sets up the position after the legal moves
// before it (as Stockfish does), castling rights a FEN gives without a king
// and rook for them are dropped (also as Stockfish does; an info string says
// so), and a go command with a parameter it
// cannot read says so and still ends with a bestmove.
//
// Options: Hash goes up to the machine's memory. Threads sets the threads
// of the engine's parallel search (search.Engine.SetThreads), up to the
// machine's CPUs; a value up to 1024 is accepted, as Stockfish accepts it,
// so that GUIs and bots that set more than the machine has go on, and the
// search then uses the CPUs, which an info string says. UCI_ShowWDL adds "wdl W D L" to
// the info lines, from a plain logistic model of the score (not fitted to
// games). UCI_LimitStrength with UCI_Elo plays at the strongest of the
// engine's levels (package level, the page's) whose Elo, measured in chess
// against Stockfish with limited strength, is at most UCI_Elo: a level is
// a search depth, up to 10 plies (without UCI_LimitStrength the engine
// plays at its full strength); UCI_Elo's range is from the weakest level's
// Elo to the strongest's. UCI_AnalyseMode reports each root move as it is
// searched ("info currmove e2e4 currmovenumber 1"), as any search does after
// a second. Every info line has hashfull; when a search ends, a last info
// line gives its whole nodes and time before the bestmove.
//
// VariantPath loads variant files, as Fairy-Stockfish's option of that name
// loads a variants.ini: a file or a directory of *.toml files, or a list of
// them separated by ':' (variant.Registry.LoadPath). The engine answers with
// an info string for each variant loaded or file refused, then the
// UCI_Variant option again with the new names; UCI_Variant then selects
// them.
//
// Chess960: UCI_Chess960 true plays chess as the registry's chess960
// variant, which UCI_Variant chess960 also selects: positions in any of the
// 960 starts (castling rights as KQkq, X-FEN or Shredder-FEN file letters),
// and castling written as the king taking its own rook (e1h1, b1a1), both
// in the engine's moves and in the interface's.
//
// Variants with chance (Vazir): the interface rolls the dice. Positions are
// in the variant's FEN (RFEN, with ranks and the try count); per-game
// options are set with VariantOptions ("MPT=2 QuietAfterFail=0"). Before a
// bestmove whose result chance decides, the engine prints "info string
// outcomes <move> <label><mark> <p> ...", e.g. "info string outcomes d1d5
// hit 4/9 miss~ 5/9". The interface reports the outcome in the moves of
// the next position command: the move's coordinates followed by the
// outcome's mark, "d1d5~" for a failed try, plain "d1d5" for a success.
// After a failed try the same side is to move again, so the interface
// asks the engine for another move. No ponder move follows a chance move.
//
// csipgs Chess: a turn is an action and a design decision, each its own
// go. With the built-in engine the design decision is chosen as
// variant/csipgs/ai chooses it (by value for money, without a search) and
// the action is searched with the design phase reduced to "no change".
package uci

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
	"time"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/level"
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

// Name and Author are reported to the GUI.
const (
	Name   = "anychess"
	Author = "the anychess developers"
)

// MaxLine is the longest command line accepted.
const MaxLine = 64 << 10

// session is the protocol state of one connection.
type session struct {
	reg *variant.Registry
	eng Searcher
	out io.Writer
	mu  sync.Mutex // serialises output

	base     *rules.Variant // the variant as registered
	v        *rules.Variant // base with the VariantOptions
	pos      *rules.Position
	hash     int
	multiPV  int
	overhead time.Duration
	showWDL  bool
	analyse  bool
	limit    bool           // UCI_LimitStrength
	elo      int            // UCI_Elo
	chess960 bool           // UCI_Chess960
	variant  *rules.Variant // the UCI_Variant chosen, before UCI_Chess960

	searching bool
	done      chan struct{} // closed when the running search has printed bestmove
	cancel    context.CancelFunc
	pondering bool
	ponderLim search.Limits
	waitStop  bool // infinite or ponder: print bestmove only after stop
	stopCh    chan struct{}
}

// Run reads commands from in and writes replies to out until "quit", the
// end of input or ctx is done.
func Run(ctx context.Context, in io.Reader, out io.Writer, reg *variant.Registry, eng Searcher) error {
	v, err := reg.Get("chess")
	if err != nil {
		return err
	}
	s := &session{reg: reg, eng: eng, out: out, base: v, v: v, variant: v, pos: v.Start(), hash: 16, multiPV: 1,
		overhead: 30 * time.Millisecond, elo: level.MaxElo()}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), MaxLine)
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		errc <- sc.Err()
		close(lines)
	}()
	defer s.stopSearch()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				err := <-errc
				if errors.Is(err, bufio.ErrTooLong) {
					s.printf("info string error: a command longer than %d bytes", MaxLine)
				}
				return err
			}
			if s.handle(ctx, line) {
				return nil
			}
		}
	}
}

func (s *session) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// handle runs one command and reports whether it was quit.
func (s *session) handle(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	cmd, args := fields[0], fields[1:]
	switch cmd {
	case "uci":
		s.printf("id name %s", Name)
		s.printf("id author %s", Author)
		s.printf("option name Hash type spin default 16 min 1 max %d", search.MaxHashMB())
		s.printf("option name Clear Hash type button")
		s.printf("option name Threads type spin default 1 min 1 max %d", maxThreads)
		s.printf("option name MultiPV type spin default 1 min 1 max 256")
		s.printf("option name Ponder type check default false")
		s.printf("option name Move Overhead type spin default 30 min 0 max 5000")
		s.printf("option name UCI_AnalyseMode type check default false")
		s.printf("option name UCI_ShowWDL type check default false")
		s.printf("option name UCI_LimitStrength type check default false")
		s.printf("option name UCI_Elo type spin default %d min %d max %d", level.MaxElo(), level.MinElo(), level.MaxElo())
		s.printf("option name UCI_Chess960 type check default false")
		s.printf("option name UCI_Variant type combo default chess var %s", strings.Join(s.reg.Names(), " var "))
		s.printf("option name VariantOptions type string default <empty>")
		s.printf("option name VariantPath type string default <empty>")
		s.printf("uciok")
	case "isready":
		s.printf("readyok")
	case "ucinewgame":
		s.stopSearch()
		s.eng.Clear()
		s.pos = s.v.Start()
	case "setoption":
		s.setOption(args)
	case "position":
		if s.busy("position") {
			return false
		}
		if err := s.position(args); err != nil {
			s.printf("info string error: %v", err)
		}
	case "go":
		if s.busy("go") {
			return false
		}
		s.goCmd(ctx, args)
	case "stop":
		s.stopSearch()
	case "ponderhit":
		s.ponderHit()
	case "quit":
		return true
	case "d":
		s.printf("%s", strings.TrimRight(face.Diagram(s.pos, rules.White, face.DiagramOptions{Labels: face.Labels(s.pos.Variant(), s.pos)}), "\n"))
		s.printf("Fen: %s", s.pos.FEN())
	default:
		s.printf("info string error: unknown command %q", cmd)
	}
	return false
}

// busy reports (and says) that an infinite or ponder search is running, for
// commands that need the search finished. A search with limits ends by
// itself, so the command waits for it (a GUI sends the next position right
// after the best move).
func (s *session) busy(cmd string) bool {
	if !s.searching {
		return false
	}
	select {
	case <-s.stopCh:
	default:
		if s.waitStop {
			s.printf("info string error: %s while searching; send stop first", cmd)
			return true
		}
	}
	<-s.done
	s.searching = false
	return false
}

func (s *session) setOption(args []string) {
	// setoption name <id with spaces> [value <x with spaces>]
	if len(args) < 2 || args[0] != "name" {
		s.printf("info string error: setoption name <id> [value <x>]")
		return
	}
	var name, value []string
	cur := &name
	for _, a := range args[1:] {
		if a == "value" && cur == &name {
			cur = &value
			continue
		}
		*cur = append(*cur, a)
	}
	id := strings.ToLower(strings.Join(name, " "))
	val := strings.Join(value, " ")
	num := func(lo, hi int) (int, bool) {
		n, err := strconv.Atoi(val)
		if err != nil || n < lo || n > hi {
			s.printf("info string error: option %s: value %q is not a number from %d to %d", strings.Join(name, " "), val, lo, hi)
			return 0, false
		}
		return n, true
	}
	if s.searching && id != "ponder" {
		if s.busy("setoption") {
			return
		}
	}
	check := func() (bool, bool) {
		if val != "true" && val != "false" {
			s.printf("info string error: option %s: value %q is not true or false", strings.Join(name, " "), val)
			return false, false
		}
		return val == "true", true
	}
	switch id {
	case "hash":
		if n, ok := num(1, search.MaxHashMB()); ok {
			s.hash = n
			s.eng.SetHash(n)
		}
	case "clear hash":
		s.eng.Clear()
	case "threads":
		if n, ok := num(1, maxThreads); ok {
			use := min(n, search.CPUs())
			if t, ok := s.eng.(interface{ SetThreads(int) }); ok {
				t.SetThreads(use)
			} else {
				use = 1
			}
			if use < n {
				s.printf("info string Threads %d: the machine has %d CPUs; the search uses %d", n, search.CPUs(), use)
			}
		}
	case "multipv":
		if n, ok := num(1, 256); ok {
			s.multiPV = n
		}
	case "move overhead":
		if n, ok := num(0, 5000); ok {
			s.overhead = time.Duration(n) * time.Millisecond
		}
	case "ponder":
		check()
	case "uci_analysemode":
		if b, ok := check(); ok {
			s.analyse = b
		}
	case "uci_showwdl":
		if b, ok := check(); ok {
			s.showWDL = b
		}
	case "uci_limitstrength":
		if b, ok := check(); ok {
			s.limit = b
			if b {
				s.sayLevel()
			}
		}
	case "uci_elo":
		if n, ok := num(level.MinElo(), level.MaxElo()); ok {
			s.elo = n
			s.sayLevel()
		}
	case "uci_variant":
		v, err := s.reg.Get(val)
		if err != nil {
			s.printf("info string error: %v", err)
			return
		}
		s.variant = v
		s.setVariant()
	case "uci_chess960":
		if b, ok := check(); ok {
			s.chess960 = b
			s.setVariant()
		}
	case "variantpath":
		s.variantPath(val)
	case "variantoptions":
		v, err := s.configure(val)
		if err != nil {
			s.printf("info string error: option VariantOptions: %v", err)
			return
		}
		s.v = v
		s.pos = v.Start()
		s.eng.Clear()
	default:
		s.printf("info string error: unknown option %q", strings.Join(name, " "))
	}
}

// variantPath loads the variant files of a VariantPath value into the
// session's registry. It says which variants it loaded and why a file was
// not, one info string line each, and then announces UCI_Variant again with
// the new names, as Fairy-Stockfish does.
func (s *session) variantPath(val string) {
	if val == "" || val == "<empty>" {
		return
	}
	vs, err := s.reg.LoadPath(val)
	for _, v := range vs {
		s.printf("info string VariantPath: loaded variant %s", v.Name())
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			s.printf("info string error: option VariantPath: %s", line)
		}
	}
	if len(vs) > 0 {
		s.printf("option name UCI_Variant type combo default chess var %s", strings.Join(s.reg.Names(), " var "))
	}
}

// setVariant makes the chosen UCI_Variant the session's, with its default
// options; with UCI_Chess960, chess is the registry's Chess960 (the same
// pieces and rules, any 960 start, castling written king-takes-rook).
func (s *session) setVariant() {
	v := s.variant
	if s.chess960 && v.Name() == "chess" {
		if c, err := s.reg.Get("chess960"); err == nil {
			v = c
		}
	}
	s.base, s.v = v, v
	s.pos = v.Start()
	s.eng.Clear()
}

// position sets up a position. A bad start (FEN or keyword) keeps the old
// position; an illegal move keeps the position after the moves before it.
func (s *session) position(args []string) error {
	if len(args) == 0 {
		return errors.New("position startpos|fen <fen> [moves ...]")
	}
	var p *rules.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		p = s.v.Start()
	case "fen":
		i := 0
		for i < len(rest) && rest[i] != "moves" {
			i++
		}
		var err error
		var dropped string
		p, dropped, err = s.v.ParseFENLenient(strings.Join(rest[:i], " "))
		if err != nil {
			return err
		}
		if dropped != "" {
			s.printf("info string FEN: castling rights %q dropped: no king and rook for them", dropped)
		}
		rest = rest[i:]
	default:
		return fmt.Errorf("position: %q; want startpos or fen", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: %q; want moves", rest[0])
		}
		for i, text := range rest[1:] {
			m, k, err := notation.ParseElement(p, text)
			if err != nil {
				// As Stockfish does: the moves before the bad one stand,
				// so the next go searches a position of the right side.
				s.pos = p
				return fmt.Errorf("position: move %d: %w; the position stays after move %d", i+1, err, i)
			}
			p.MakeOutcome(m, k)
		}
	}
	s.pos = p
	return nil
}

// goCmd starts a search, or runs perft. A parameter that cannot be read is
// reported in an info string and dropped, and the search runs on what is
// left, so that every go ends with a bestmove (a GUI waits for it); a go
// left with no limit at all after such an error searches one ply.
func (s *session) goCmd(ctx context.Context, args []string) {
	var lim search.Limits
	ponder := false
	bad := false
	var searchMoves []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (int64, bool) {
			if i+1 >= len(args) || isGoKeyword(args[i+1]) {
				s.printf("info string error: go %s needs a number", a)
				return 0, false
			}
			i++
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				// A number with a fraction ("movetime 100.5") counts
				// whole milliseconds, as Stockfish reads it.
				f, ferr := strconv.ParseFloat(args[i], 64)
				if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
					s.printf("info string error: go %s %q: not a number", a, args[i])
					return 0, false
				}
				n = int64(f)
			}
			return n, true
		}
		ms := func(n int64) time.Duration {
			return time.Duration(min(max(n, 0), int64(math.MaxInt64/time.Millisecond))) * time.Millisecond
		}
		switch a {
		case "infinite":
			lim.Infinite = true
			continue
		case "ponder":
			ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
				searchMoves = append(searchMoves, args[i])
			}
			continue
		}
		if !isGoKeyword(a) {
			s.printf("info string error: unknown go parameter %q", a)
			bad = true
			if i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++ // its value
			}
			continue
		}
		n, ok := next()
		if !ok {
			bad = true
			continue
		}
		switch a {
		case "wtime":
			lim.Time[rules.White] = max(ms(n), time.Millisecond) // 0 left is still a clock
		case "btime":
			lim.Time[rules.Black] = max(ms(n), time.Millisecond)
		case "winc":
			lim.Inc[rules.White] = ms(n)
		case "binc":
			lim.Inc[rules.Black] = ms(n)
		case "movestogo":
			lim.MovesToGo = int(min(max(n, 0), 1<<20))
		case "depth":
			lim.Depth = int(min(max(n, 1), 1<<20))
		case "nodes":
			lim.Nodes = max(n, 1)
		case "mate":
			lim.Depth = int(min(max(2*n, 1), 1<<20))
		case "movetime":
			lim.MoveTime = ms(n)
		case "perft":
			s.perft(int(min(max(n, -1), 1<<20)))
			return
		}
	}
	for c := range lim.Time {
		if lim.Time[c] > 0 {
			lim.Time[c] = max(lim.Time[c]-s.overhead, time.Millisecond)
		}
	}
	lim.MultiPV = s.multiPV
	if s.limit {
		if d := level.ForElo(s.elo).Depth; d > 0 && (lim.Depth == 0 || lim.Depth > d) {
			lim.Depth = d
		}
	}
	p := s.pos.Clone()
	var badMoves []string
	for _, text := range searchMoves {
		m, err := notation.ParseCoord(p, text)
		if err != nil {
			badMoves = append(badMoves, err.Error())
			continue
		}
		lim.SearchMoves = append(lim.SearchMoves, m)
	}
	for _, e := range badMoves {
		if len(lim.SearchMoves) == 0 {
			s.printf("info string error: searchmoves: %s; searching every move", e)
		} else {
			s.printf("info string error: searchmoves: %s; dropped", e)
		}
	}
	if bad && !ponder && !lim.Infinite && lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 &&
		lim.Time[rules.White] == 0 && lim.Time[rules.Black] == 0 {
		lim.Depth = 1
	}
	s.pondering = ponder
	s.waitStop = ponder || lim.Infinite
	s.ponderLim = lim
	run := lim
	if ponder {
		run = search.Limits{Infinite: true, MultiPV: lim.MultiPV}
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	s.searching = true
	s.done = make(chan struct{})
	s.stopCh = make(chan struct{})
	done, stopCh := s.done, s.stopCh
	waitStop := s.waitStop
	find := s.searchFunc(p)
	start := time.Now()
	analyse := s.analyse
	run.CurrMove = func(m rules.Move, n int) {
		// As Stockfish: only in analysis or a long search, not to flood.
		if analyse || time.Since(start) > time.Second {
			s.printf("info currmove %s currmovenumber %d", notation.Coord(p, m), n)
		}
	}
	show := func(in search.Info) { s.printf("%s", s.formatInfo(p, in)) }
	go func() {
		defer close(done)
		res := find(sctx, p, run, show)
		if res.Best != rules.NoMove && len(res.Info.PV) > 0 {
			show(res.Info) // the search's last word: its whole nodes and time
		}
		if waitStop {
			<-stopCh
		}
		if res.Best == rules.NoMove {
			s.printf("bestmove (none)")
			return
		}
		line := "bestmove " + notation.Coord(p, res.Best)
		if outs := p.Outcomes(res.Best); len(outs) > 1 {
			s.printf("%s", outcomesInfo(p, res.Best, outs))
		}
		if res.Ponder != rules.NoMove && len(p.Outcomes(res.Best)) == 1 {
			q := p.Clone()
			q.Make(res.Best)
			line += " ponder " + notation.Coord(q, res.Ponder)
		}
		s.printf("%s", line)
	}()
}

// searchFunc is the search for p: the engine's own, or, when the engine
// is the built-in one, the variant's player of whole turns
// (player.New: a turn of several decisions, a design chosen by value
// rather than searched).
func (s *session) searchFunc(p *rules.Position) func(context.Context, *rules.Position, search.Limits, func(search.Info)) search.Result {
	e, ok := s.eng.(*search.Engine)
	if !ok {
		return s.eng.Search
	}
	pl := player.New(p.Variant(), e, p.Hash())
	return func(ctx context.Context, p *rules.Position, lim search.Limits, info func(search.Info)) search.Result {
		res, err := pl.Search(ctx, p, lim, info)
		if err != nil {
			res.Best = rules.NoMove
		}
		return res
	}
}

func isGoKeyword(a string) bool {
	switch a {
	case "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "infinite", "ponder", "perft":
		return true
	}
	return false
}

// stopSearch stops a running search and waits for its bestmove.
func (s *session) stopSearch() {
	if !s.searching {
		return
	}
	s.eng.Stop()
	if s.cancel != nil {
		s.cancel()
	}
	select {
	case <-s.stopCh:
	default:
		close(s.stopCh)
	}
	<-s.done
	s.searching = false
	s.pondering = false
}

// ponderHit turns a ponder search into a normal one: it is stopped when
// the time the go command allowed has run out.
func (s *session) ponderHit() {
	if !s.searching || !s.pondering {
		s.printf("info string error: ponderhit without a ponder search")
		return
	}
	s.pondering = false
	lim := s.ponderLim
	budget := lim.MoveTime
	if budget == 0 {
		us := s.pos.Turn()
		mtg := lim.MovesToGo
		if mtg <= 0 || mtg > 40 {
			mtg = 30
		}
		budget = lim.Time[us]/time.Duration(mtg) + lim.Inc[us]*3/4
	}
	if lim.Infinite {
		return // still until stop
	}
	stopCh, done := s.stopCh, s.done
	go func() {
		select {
		case <-time.After(max(budget, time.Millisecond)):
			s.eng.Stop()
			select {
			case <-stopCh:
			default:
				close(stopCh)
			}
		case <-done:
		}
	}()
}

func (s *session) perft(depth int) {
	if depth < 1 || depth > 20 {
		s.printf("info string error: perft depth must be from 1 to 20")
		return
	}
	p := s.pos.Clone()
	start := time.Now()
	moves, counts := rules.Divide(p, depth)
	var total uint64
	for i, m := range moves {
		s.printf("%s: %d", notation.Coord(p, m), counts[i])
		total += counts[i]
	}
	el := time.Since(start)
	s.printf("")
	s.printf("Nodes searched: %d", total)
	s.printf("info string perft time %d ms nps %d", el.Milliseconds(), int64(float64(total)/max(el.Seconds(), 1e-9)))
}

// configure returns the base variant with the options of a VariantOptions
// value: NAME=VALUE pairs separated by spaces ("MPT=2 QuietAfterFail=0");
// an empty value (or "<empty>") gives the defaults.
func (s *session) configure(val string) (*rules.Variant, error) {
	if val == "" || val == "<empty>" {
		return s.base, nil
	}
	tags := map[string]string{}
	for _, kv := range strings.Fields(val) {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want NAME=VALUE", kv)
		}
		if !s.base.HasOption(name) {
			return nil, fmt.Errorf("%s has no option %q", s.base.Name(), name)
		}
		tags[name] = value
	}
	return s.base.Configure(tags)
}

// outcomesInfo tells the interface that chance decides the move it is
// about to receive: "info string outcomes d1d5 hit 4/9 miss~ 5/9", each
// outcome's label with its mark (the suffix that reports it back in a
// position command's moves) and its probability.
func outcomesInfo(p *rules.Position, m rules.Move, outs []rules.Outcome) string {
	var sb strings.Builder
	sb.WriteString("info string outcomes " + notation.Coord(p, m))
	for _, o := range outs {
		fmt.Fprintf(&sb, " %s%s %d/%d", o.Label, o.Mark, o.Num, o.Den)
	}
	return sb.String()
}

// formatInfo writes an info line: "info depth 6 seldepth 9 multipv 1 score
// cp 31 [wdl 95 860 45] nodes 51234 nps 812000 hashfull 12 time 63 pv ...".
func (s *session) formatInfo(p *rules.Position, in search.Info) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "info depth %d seldepth %d multipv %d ", in.Depth, in.SelDepth, max(in.MultiPV, 1))
	if in.Mate != 0 {
		fmt.Fprintf(&sb, "score mate %d", in.Mate)
	} else {
		fmt.Fprintf(&sb, "score cp %d", in.Score)
	}
	if in.Bound != "" {
		sb.WriteString(" " + in.Bound)
	}
	if s.showWDL {
		w, d, l := wdl(in)
		fmt.Fprintf(&sb, " wdl %d %d %d", w, d, l)
	}
	fmt.Fprintf(&sb, " nodes %d nps %d", in.Nodes, in.NPS())
	if h, ok := s.eng.(interface{ Hashfull() int }); ok {
		fmt.Fprintf(&sb, " hashfull %d", h.Hashfull())
	}
	fmt.Fprintf(&sb, " time %d pv", in.Time.Milliseconds())
	q := p.Clone()
	for _, m := range in.PV {
		sb.WriteString(" " + notation.Coord(q, m))
		q.Make(m)
	}
	return sb.String()
}

// wdl turns a score into permille chances of a win, a draw and a loss for
// the side to move, by a plain logistic model (not fitted to games): at 0
// a draw is most likely, at about +3 pawns the win is; a mate is certain.
func wdl(in search.Info) (w, d, l int) {
	switch {
	case in.Mate > 0:
		return 1000, 0, 0
	case in.Mate < 0:
		return 0, 0, 1000
	}
	sig := func(x float64) int { return int(math.Round(1000 / (1 + math.Exp(-x)))) }
	cp := float64(in.Score)
	w = sig((cp - 150) / 60)
	l = sig((-cp - 150) / 60)
	return w, 1000 - w - l, l
}

// maxThreads is the largest Threads value accepted, as Stockfish accepts
// it, so that GUIs and bots that check a value against the maximum pass;
// the engine uses at most the machine's CPUs (search.CPUs).
const maxThreads = 1024

// sayLevel tells the interface the level UCI_Elo stands for.
func (s *session) sayLevel() {
	lv := level.ForElo(s.elo)
	state := "off until UCI_LimitStrength is true"
	if s.limit {
		state = "on"
	}
	s.printf("info string UCI_Elo %d: %v of %d, measured in chess; limited strength %s", s.elo, lv, level.Max, state)
}
