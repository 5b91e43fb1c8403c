package server

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/server/store"
)

// spectator is the seat of a connection that only watches.
const spectator = -1

// drawOfferTurns is how many turns must be completed after a seat's draw
// offer before it may offer again (so offers and withdrawals cannot grow a
// game's record without moves).
const drawOfferTurns = 2

func seatName(s int) string {
	switch s {
	case 0:
		return "white"
	case 1:
		return "black"
	}
	return "spectator"
}

// liveGame is a game loaded in memory. Its owner goroutine (run) is the
// only one that touches its fields after start: every action, join and
// timer arrives through inbox and is handled in order.
type liveGame struct {
	srv  *Server
	rec  *store.Game
	g    *game.Game // the record: variant, start, plies and the current position; its dice's tags, and its result once over
	def  []byte     // the text of the variant's definition the game records (rec.Definition), nil if none
	dice *game.Roller

	events  [][]byte // the stored body of each event, index version-1
	version int64

	subs  map[*client]struct{}
	inbox chan func()
	done  chan struct{}

	clock     clockState
	timer     *time.Timer
	turns     int       // turns completed (plies that passed the turn)
	offer     int       // the seat with a standing draw offer, or -1
	offered   [2]int    // per seat: the turns completed when it last offered a draw (-drawOfferTurns: never)
	rematch   [2]string // per seat: "" not asked, "asked" (token unknown), the token, or "engine"
	rematchID string    // the rematch's game, once created
	status    rules.Status
	over      bool
	hidden    bool   // the variant has per-player views
	thinking  bool   // the engine is searching for this game
	owner     string // the client an unfinished engine game counts for (Limits.EngineGames); "" none
	idle      *time.Timer

	// In a cluster: the lease the game's events are written under, when
	// it was taken, and whether it was lost (the game then unloads at
	// once and does not release it).
	fence    *store.Fence
	leasedAt time.Time
	lost     bool
}

// clockState is a game's clock.
type clockState struct {
	initial, inc time.Duration
	days         int
	left         [2]time.Duration
	running      int // the seat whose clock runs, or -1
	since        time.Time
}

func (c clockState) enabled() bool { return c.initial > 0 || c.days > 0 }

// now returns the time left of each seat at t.
func (c clockState) at(t time.Time) [2]time.Duration {
	l := c.left
	if c.running >= 0 {
		l[c.running] -= t.Sub(c.since)
	}
	return l
}

func (c clockState) json(t time.Time) clockJSON {
	l := c.at(t)
	j := clockJSON{WhiteMS: l[0].Milliseconds(), BlackMS: l[1].Milliseconds(), Days: c.days}
	if c.running >= 0 {
		j.Running = seatName(c.running)
	}
	return j
}

// newLiveGame builds a game from its stored record and events, replaying
// every ply with the rules and re-rolling its dice.
func newLiveGame(srv *Server, rec *store.Game, evs []store.Event) (*liveGame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), srv.cfg.StoreTimeout)
	v, def, err := srv.variantOfGame(ctx, rec)
	cancel()
	if err != nil {
		return nil, err
	}
	start, dice, err := startOf(rec, v)
	if err != nil {
		return nil, fmt.Errorf("game %s: start: %w", rec.ID, err)
	}
	lg := &liveGame{
		srv: srv, rec: rec,
		g:     game.New(v, start),
		def:   def,
		dice:  dice,
		subs:  map[*client]struct{}{},
		inbox: make(chan func(), 64),
		done:  make(chan struct{}),
		offer: -1,
	}
	lg.offered = [2]int{-drawOfferTurns, -drawOfferTurns}
	lg.hidden = face.Hidden(v)
	if lg.committed() {
		// The seed stays secret while the game is played, so that no one
		// can foresee a roll: the record shows a commitment to it, and
		// the seed and nonce once the game is over (game.Verify).
		lg.g.SetCommitment(lg.seed(), lg.nonce())
	}
	lg.clock = clockState{initial: rec.Initial, inc: rec.Increment, days: rec.Days, running: -1}
	if rec.Days > 0 {
		lg.clock.left = [2]time.Duration{time.Duration(rec.Days) * 24 * time.Hour, time.Duration(rec.Days) * 24 * time.Hour}
	} else {
		lg.clock.left = [2]time.Duration{rec.Initial, rec.Initial}
	}
	for _, ev := range evs {
		if err := lg.replay(ev); err != nil {
			return nil, fmt.Errorf("game %s: event %d: %w", rec.ID, ev.Version, err)
		}
	}
	if len(lg.g.Plies) == 0 && !lg.over {
		lg.status = lg.g.Position().Status() // each ply judges the position it leaves
	}
	if rec.Finished && !lg.over {
		lg.finish(lg.status)
	}
	return lg, nil
}

// startOf returns the start position of game rec of variant v and the
// dice as they stand before its first ply.
func startOf(rec *store.Game, v *rules.Variant) (*rules.Position, *game.Roller, error) {
	seed, err := seedOf(rec)
	if err != nil {
		return nil, nil, err
	}
	dice := seed.Roller()
	if rec.FEN != "" {
		p, err := v.ParseFEN(rec.FEN)
		return p, dice, err
	}
	setup, err := setupRoller(rec, dice)
	if err != nil {
		return nil, nil, err
	}
	p, err := v.Setup(setup)
	return p, dice, err
}

// committed reports whether the game's record commits to its dice's seed:
// the game has chance outcomes or a start drawn by chance.
func (lg *liveGame) committed() bool {
	v := lg.g.Variant
	return v.Chance() || lg.rec.FEN == "" && v.Seeded()
}

// rewindDice puts the dice back where the plies on the record left them,
// after a roll for a ply that was then not stored: the next roll must be
// the one a replay of the stored game makes.
func (lg *liveGame) rewindDice() error {
	_, dice, err := startOf(lg.rec, lg.g.Variant)
	if err != nil {
		return err
	}
	lg.g.Replay(func(p *rules.Position, i int) {
		if err == nil {
			_, err = rules.Choose(dice, p.Outcomes(lg.g.Plies[i].Move))
		}
	})
	if err != nil {
		return fmt.Errorf("rewinding the dice: %w", err)
	}
	lg.dice = dice
	return nil
}

// replay applies a stored event.
func (lg *liveGame) replay(ev store.Event) error {
	var e eventJSON
	if err := json.Unmarshal(ev.Data, &e); err != nil {
		return fmt.Errorf("decoding: %w", err)
	}
	return lg.apply(ev.Version, ev.Data, e, nil, ev.At)
}

// apply brings the game to event e of version v, whose stored body is
// data, at time at: the one place that knows what each kind of event does
// to the game, for events just stored and for events loaded. The ply of a
// "ply" event is played on the record first, by the caller, which passes
// what it did as r; with r nil (a stored ply replayed) it is played here,
// its dice re-rolled.
func (lg *liveGame) apply(v int64, data []byte, e eventJSON, r *plyResult, at time.Time) error {
	switch e.Kind {
	case "ply":
		if r == nil {
			pr, err := lg.replayPly(e, at)
			if err != nil {
				return err
			}
			r = &pr
		}
		lg.applyPly(*r)
	case "offer":
		lg.applyOffer(e)
	case "end":
		lg.applyEnd(e)
	case "rematch":
		lg.rematchID = e.Game
	case "resume":
		// The running clock does not count the time the game had no
		// node (cluster.acquire).
		if lg.clock.running >= 0 && e.CreditMS > 0 {
			lg.clock.since = lg.clock.since.Add(time.Duration(e.CreditMS) * time.Millisecond)
		}
	default:
		return fmt.Errorf("unknown event kind %q", e.Kind)
	}
	lg.events = append(lg.events, data)
	lg.version = v
	return nil
}

// replayPly plays a stored ply on the record, re-rolling its dice, and
// checks that they give the stored outcome.
func (lg *liveGame) replayPly(e eventJSON, at time.Time) (plyResult, error) {
	p := lg.g.Position()
	m, err := notation.ParseMove(p, e.Move)
	if err != nil {
		return plyResult{}, fmt.Errorf("ply %d: %w", e.Ply, err)
	}
	k, err := rules.Choose(lg.dice, p.Outcomes(m))
	if err != nil {
		return plyResult{}, fmt.Errorf("ply %d: %w", e.Ply, err)
	}
	if k != e.Outcome {
		return plyResult{}, fmt.Errorf("ply %d: dice gave outcome %d, record has %d", e.Ply, k, e.Outcome)
	}
	return lg.playOnRecord(m, k, at)
}

// plyResult is what a ply played on the record does to the game.
type plyResult struct {
	turnOver bool         // it ended its mover's turn (game.TurnOver)
	status   rules.Status // the status of the position it leaves
	turns    int          // turns completed after it
	clock    clockState   // the clock after it
}

// playOnRecord plays ply (m, k), accepted at time at, on the record, and
// judges the position it leaves: the rules' status is computed once per
// ply, here. The game's other state changes only when the ply is stored
// (applyPly); until then Undo takes it back.
func (lg *liveGame) playOnRecord(m rules.Move, k int, at time.Time) (plyResult, error) {
	mover := lg.g.Position().Turn()
	if err := lg.g.Play(m, k); err != nil {
		return plyResult{}, err
	}
	p := lg.g.Position()
	r := plyResult{status: p.Status(), turns: lg.turns}
	r.turnOver = p.Turn() != mover || r.status.Over() // game.TurnOver, with the status known
	if r.turnOver {
		r.turns++
	}
	r.clock = lg.clock.next(int(mover), r.turnOver, r.turns, int(p.Turn()), r.status.Over(), at)
	return r, nil
}

// applyPly applies a stored ply that playOnRecord played: the turns, the
// draw offer, the status and the clocks.
func (lg *liveGame) applyPly(r plyResult) {
	if r.turnOver {
		lg.offer = -1
	}
	lg.turns, lg.clock, lg.status = r.turns, r.clock, r.status
	if r.status.Over() {
		lg.finish(r.status)
	}
}

// finish ends the game with status st: the record takes the result and,
// where it committed to its dice, reveals their seed.
func (lg *liveGame) finish(st rules.Status) {
	lg.over, lg.status = true, st
	lg.srv.limits.dropEngineGame(lg.owner, lg.rec.ID)
	for c := range lg.subs {
		lg.srv.limits.dropEngineGame(c.key, lg.rec.ID)
	}
	lg.g.Result, lg.g.Reason = st.Result, st.Detail
	if lg.committed() {
		lg.g.Reveal(lg.seed(), lg.nonce())
	}
}

// next returns the clock after a ply by mover at time at: the mover's time
// is charged, an increment (or a correspondence day budget) given when the
// turn ends, and the next clock started once both sides have moved.
func (c clockState) next(mover int, turnOver bool, turnsAfter, nextTurn int, gameOver bool, at time.Time) clockState {
	was := c.running == mover
	if was {
		c.left[mover] -= at.Sub(c.since)
		c.running = -1
	}
	switch {
	case turnOver && c.days > 0:
		c.left[mover] = time.Duration(c.days) * 24 * time.Hour
	case turnOver && was:
		c.left[mover] += c.inc
	}
	if !gameOver && c.enabled() && (turnsAfter >= 2 || c.days > 0) && (turnOver || was) {
		c.running = nextTurn
		c.since = at
	}
	return c
}

func (lg *liveGame) applyOffer(e eventJSON) {
	s := seatIndex(e.Seat)
	switch e.Offer {
	case "draw":
		lg.offer = s
		if s >= 0 {
			lg.offered[s] = lg.turns
		}
	case "draw_withdrawn", "draw_declined":
		lg.offer = -1
	case "rematch":
		if s >= 0 {
			lg.rematch[s] = "asked"
		}
	}
}

func (lg *liveGame) applyEnd(e eventJSON) {
	lg.clock.running = -1
	lg.finish(rules.Status{Result: parseResult(e.Result), Reason: rules.Reason(e.Reason), Detail: e.Detail})
}

func seatIndex(s string) int {
	switch s {
	case "white":
		return 0
	case "black":
		return 1
	}
	return spectator
}

// parseResult reads a result as rules.Result.String writes it; anything
// else (an aborted game's "*") is rules.Ongoing.
func parseResult(s string) rules.Result {
	for _, r := range []rules.Result{rules.WhiteWins, rules.BlackWins, rules.Draw} {
		if r.String() == s {
			return r
		}
	}
	return rules.Ongoing
}

// run is the owner goroutine.
func (lg *liveGame) run() {
	defer func() {
		// Connections still here (one that joined while the game was
		// being unloaded) are closed, so their clients reconnect.
		for c := range lg.subs {
			c.close()
		}
		if lg.fence != nil && !lg.lost {
			lg.srv.cluster.release(lg) // after the last write
		}
		close(lg.done)
	}()
	lg.schedule()
	for f := range lg.inbox {
		if f == nil {
			return
		}
		f()
	}
}

// do runs f in the owner goroutine; false if the game has been unloaded.
func (lg *liveGame) do(ctx context.Context, f func()) bool {
	select {
	case lg.inbox <- f:
		return true
	case <-lg.done:
		return false
	case <-ctx.Done():
		return false
	}
}

// call runs f in the owner goroutine and waits until it has run; false if
// the game was unloaded before f ran, or ctx ended first.
func (lg *liveGame) call(ctx context.Context, f func()) bool {
	ran := make(chan struct{})
	if !lg.do(ctx, func() { f(); close(ran) }) {
		return false
	}
	select {
	case <-ran:
		return true
	case <-lg.done:
		select {
		case <-ran:
			return true
		default: // unloaded before f ran
			return false
		}
	case <-ctx.Done():
		return false
	}
}

// stopTimers stops the flag and idle timers. Owner goroutine only.
func (lg *liveGame) stopTimers() {
	if lg.timer != nil {
		lg.timer.Stop()
		lg.timer = nil
	}
	if lg.idle != nil {
		lg.idle.Stop()
		lg.idle = nil
	}
}

// schedule sets the flag timer, asks the engine if it is to move, and
// arms the idle timer. Owner goroutine only.
func (lg *liveGame) schedule() {
	if lg.timer != nil {
		lg.timer.Stop()
		lg.timer = nil
	}
	if !lg.over && lg.clock.running >= 0 {
		left := lg.clock.at(time.Now())[lg.clock.running]
		v := lg.version
		lg.timer = time.AfterFunc(max(left, 0)+time.Millisecond, func() {
			lg.do(context.Background(), func() { lg.flag(v) })
		})
	}
	lg.maybeEngine()
	lg.checkIdle()
}

// checkIdle unloads the game after a while without connections, unless
// its clock runs or the engine is to move.
func (lg *liveGame) checkIdle() {
	if lg.idle != nil {
		lg.idle.Stop()
		lg.idle = nil
	}
	if len(lg.subs) > 0 || lg.thinking || (!lg.over && lg.clock.running >= 0) {
		return
	}
	v := lg.version
	lg.idle = time.AfterFunc(lg.srv.cfg.IdleUnload, func() {
		lg.do(context.Background(), func() {
			if len(lg.subs) == 0 && lg.version == v && !lg.thinking {
				lg.srv.unload(lg)
			}
		})
	})
}

// flag ends the game on time if the running clock has run out: a loss for
// the seat whose time ran out, or a draw if its opponent has a bare king.
func (lg *liveGame) flag(v int64) {
	if lg.over || lg.version != v || lg.clock.running < 0 {
		return
	}
	now := time.Now()
	s := lg.clock.running
	if lg.clock.at(now)[s] > 0 {
		lg.schedule()
		return
	}
	winner := rules.Color(1 - s)
	e := eventJSON{Kind: "end", Result: rules.Win(winner).String(), Reason: "time",
		Detail: fmt.Sprintf("%s ran out of time", seatName(s))}
	if lg.g.Position().Bare(winner) {
		e.Result, e.Detail = rules.Draw.String(), fmt.Sprintf("%s ran out of time; %s has a bare king", seatName(s), winner)
	}
	if _, err := lg.commitEvent(e, nil, nil); err != nil {
		lg.srv.logf("game %s: flag: %v", lg.rec.ID, err)
	}
}

// commitEvent stores event e, applies it and sends it to every
// connection; ack (if not nil) gets its version before the event. For a
// ply, r is what the ply, already played on the record, does (nil for
// other events); if the ply ends the game by rule, the end is stored and
// sent after it. An error means that e was not stored. Owner goroutine
// only.
func (lg *liveGame) commitEvent(e eventJSON, r *plyResult, ack func(v int64)) (int64, error) {
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	data := mustJSON(e)
	v := lg.version + 1
	var end *store.End
	if e.Kind == "end" {
		end = &store.End{Result: e.Result, Reason: e.Reason}
	}
	ctx, cancel := context.WithTimeout(context.Background(), lg.srv.cfg.StoreTimeout)
	defer cancel()
	t0 := time.Now()
	wake := lg.wakeAfter(e, r)
	if err := lg.srv.store.Append(ctx, lg.rec.ID, store.Event{Version: v, Kind: e.Kind, Data: data, At: e.At, Wake: wake, Fence: lg.fence}, end); err != nil {
		if errors.Is(err, store.ErrFenced) {
			lg.fenced()
		}
		return 0, fmt.Errorf("storing event %d: %w", v, err)
	}
	lg.srv.storeLat.add(time.Since(t0))
	if err := lg.apply(v, data, e, r, e.At); err != nil {
		return 0, err // not a kind of event this package makes
	}
	if ack != nil {
		ack(v)
	}
	if r != nil && lg.status.Over() {
		// A ply that ends the game by rule is followed by its end, both
		// stored before the next action.
		lg.broadcast(v, data, false)
		st := lg.status
		if _, err := lg.commitEvent(eventJSON{Kind: "end", Result: st.Result.String(), Reason: string(st.Reason), Detail: st.Detail}, nil, nil); err != nil {
			// The ply stands; a reload judges its position again.
			lg.srv.logf("game %s: end: %v", lg.rec.ID, err)
		}
		return v, nil
	}
	lg.broadcast(v, data, true)
	lg.schedule()
	return v, nil
}

// fenced unloads a game whose lease another node took over: its
// connections close, and their clients reconnect to find it. Owner
// goroutine only.
func (lg *liveGame) fenced() {
	if lg.lost {
		return
	}
	lg.lost = true
	lg.srv.cluster.lost.Add(1)
	lg.srv.unload(lg)
}

// resume, on a game just taken over in a cluster, credits its running
// clock with the time since unowned, when its last node was last known
// to hold it, by storing a "resume" event. Before the owner goroutine
// starts.
func (lg *liveGame) resume(unowned time.Time) error {
	if unowned.IsZero() || lg.over || lg.clock.running < 0 {
		return nil
	}
	from := unowned
	if lg.clock.since.After(from) {
		from = lg.clock.since
	}
	credit := time.Since(from).Milliseconds()
	if credit <= 0 {
		return nil
	}
	e := eventJSON{Kind: "resume", CreditMS: credit, At: time.Now().UTC()}
	data := mustJSON(e)
	v := lg.version + 1
	ctx, cancel := context.WithTimeout(context.Background(), lg.srv.cfg.StoreTimeout)
	defer cancel()
	clock := lg.clock
	clock.since = clock.since.Add(time.Duration(credit) * time.Millisecond)
	wake := lg.wakeAfter(e, &plyResult{clock: clock})
	if err := lg.srv.store.Append(ctx, lg.rec.ID, store.Event{Version: v, Kind: e.Kind, Data: data, At: e.At, Wake: wake, Fence: lg.fence}, nil); err != nil {
		return fmt.Errorf("game %s: resume: %w", lg.rec.ID, err)
	}
	return lg.apply(v, data, e, nil, e.At)
}

// play validates and plays a move sent by seat s.
func (lg *liveGame) play(s int, text string, ack func(int64)) *wireError {
	if lg.over {
		return &wireError{"game_over", "the game is over"}
	}
	p := lg.g.Position()
	if int(p.Turn()) != s {
		return &wireError{"not_your_turn", fmt.Sprintf("it is %s's turn", p.Turn())}
	}
	if lg.hidden {
		return lg.playHidden(s, text, ack)
	}
	m, err := notation.ParseMove(p, text)
	if err != nil {
		code := "illegal"
		if errors.Is(err, notation.ErrAmbiguous) {
			code = "ambiguous"
		}
		return &wireError{code, err.Error()}
	}
	return lg.playMove(m, ack)
}

// playHidden plays a move in a game where each player sees only its view
// (the moderated mode, CS-M1, CS-M5): the move must be legal in the
// player's view; the moderator (rules.Position.Moderate) then judges it
// on the true board and plays the move it stands for there, or refuses
// it, saying only that ("illegal, try again"). No error names the true
// position.
func (lg *liveGame) playHidden(s int, text string, ack func(int64)) *wireError {
	p := lg.g.Position()
	view := p.View(rules.Color(s))
	if view.Position == nil {
		return &wireError{"internal", "no view"}
	}
	m, err := notation.ParseMove(view.Position, text)
	if err != nil {
		return &wireError{"illegal", fmt.Sprintf("%q is not a legal move in your view", text)}
	}
	real, err := p.Moderate(view.Position, m)
	if err != nil {
		if !errors.Is(err, rules.ErrRefused) {
			lg.srv.logf("game %s: moderator: %v", lg.rec.ID, err)
		}
		return &wireError{"refused", fmt.Sprintf("the moderator refuses %s: it is not legal on the board as it is; try another move", text)}
	}
	return lg.playMove(real, ack)
}

// playMove rolls the outcome of a legal move, plays it on the record,
// stores the ply and sends it; if it cannot be stored, the record and the
// dice are put back as they were.
func (lg *liveGame) playMove(m rules.Move, ack func(int64)) *wireError {
	p := lg.g.Position()
	mover := p.Turn()
	now := time.Now().UTC()
	if c := lg.clock; c.enabled() && c.running == int(mover) && c.days == 0 && c.at(now)[mover] <= 0 {
		// The flag fell before the move arrived.
		lg.flag(lg.version)
		return &wireError{"game_over", "your time ran out"}
	}
	outs := p.Outcomes(m)
	k, roll, err := rules.ChooseRoll(lg.dice, outs)
	if err != nil {
		lg.srv.logf("game %s: dice: %v", lg.rec.ID, err)
		return &wireError{"internal", "the dice could not be rolled"}
	}
	e := eventJSON{Kind: "ply", Seat: seatName(int(mover)), Ply: len(lg.g.Plies) + 1,
		Move: notation.Coord(p, m), SAN: notation.SAN(p, m), Outcome: k, At: now}
	if len(outs) > 1 {
		e.Roll = roll + 1 // the die's face, 1..Den
		e.Mark = outs[k].Mark
		e.Label = outs[k].Label
		for _, o := range outs {
			e.Outcomes = append(e.Outcomes, outcomeJSON{P: fmt.Sprintf("%d/%d", o.Num, o.Den), Label: o.Label, Mark: o.Mark})
		}
	}
	rolled := len(outs) > 1
	r, err := lg.playOnRecord(m, k, now)
	if err != nil {
		// The callers checked the move; no error names the position.
		lg.srv.logf("game %s: ply %d: %v", lg.rec.ID, e.Ply, err)
		lg.undoRoll(rolled)
		return &wireError{"internal", "the move could not be played"}
	}
	p = lg.g.Position()
	e.TurnOver = r.turnOver
	e.FEN = p.FEN()
	e.Board = boardPart(p)
	e.Check = checkSquare(p)
	e.Events = face.DescribePly(lg.g.Variant, p)
	e.Describe = describe(lg.g.Variant, p)
	if lg.clock.enabled() {
		cj := r.clock.json(now)
		e.Clock = &cj
	}
	if _, err := lg.commitEvent(e, &r, ack); err != nil {
		lg.srv.logf("game %s: store: %v", lg.rec.ID, err)
		lg.g.Undo()
		lg.undoRoll(rolled)
		return &wireError{"internal", "the move could not be stored; try again"}
	}
	return nil
}

// undoRoll takes back the roll of a ply that was not stored (rewindDice),
// if it rolled a die.
func (lg *liveGame) undoRoll(rolled bool) {
	if !rolled {
		return
	}
	if err := lg.rewindDice(); err != nil {
		lg.srv.logf("game %s: %v", lg.rec.ID, err)
	}
}

// checkSquare returns the square of the side to move's royal piece in
// check, or "" (rules.Position.Checked, which asks the variant where its
// hooks decide check).
func checkSquare(p *rules.Position) string {
	var buf [4]geom.Square
	if sq := p.Checked(buf[:0]); len(sq) > 0 {
		return sq[0].String()
	}
	return ""
}

// moveBufs holds move lists of rules.MaxMoves, so that listing the legal
// moves allocates none.
var moveBufs = sync.Pool{New: func() any {
	b := make([]rules.Move, 0, rules.MaxMoves)
	return &b
}}

// wireError is an error answered to a client.
type wireError struct{ code, msg string }

// state builds the state frame for seat s (spectator: a spectator).
// While a game with hidden information is played, a seat gets its view
// (Position.View: the board, the squares it sees, the economy the view
// shows), and a spectator only what is public: no board, no last move,
// and the economy of a side only where both seats' views show it.
func (lg *liveGame) state(s int) []byte {
	p := lg.g.Position()
	now := time.Now()
	f := stateFrame{T: "state", V: lg.version, Turn: p.Turn().String(), Phase: int(p.Phase()), Counter: int(p.Counter()),
		Clock: lg.clock.json(now), Legal: []string{},
		Money:  map[string]int{},
		Pocket: map[string]string{},
		Status: statusJSON{Result: lg.status.Result.String(), Reason: string(lg.status.Reason), Detail: lg.status.Detail},
		Dice:   lg.diceState()}
	if lg.offer >= 0 {
		f.Offer = seatName(lg.offer)
	}
	// seen is the position the receiver sees: in a game with hidden
	// information its view (the moves offered are the view's too: the true
	// position's would tell where unseen pieces stand; the moderator judges
	// a move when it comes).
	seen := p
	var hiddenEconomy [2]bool
	switch {
	case !lg.hidden || lg.over:
		f.FEN = p.FEN()
		f.Board = boardPart(p)
		f.Check = checkSquare(p)
		f.Last = lastSquares(lg.g.Plies)
	case s == spectator:
		seen = nil
		f.Visible = []string{}
		w, b := p.View(rules.White), p.View(rules.Black)
		for c := range 2 {
			hiddenEconomy[c] = w.EconomyHidden[c] || b.EconomyHidden[c]
		}
	default:
		view := p.View(rules.Color(s))
		if view.Position == nil {
			seen = nil
			hiddenEconomy = [2]bool{true, true}
			break
		}
		seen = view.Position
		hiddenEconomy = view.EconomyHidden
		f.FEN = seen.FEN()
		f.Board = boardPart(seen)
		f.Visible = []string{}
		for _, sq := range view.Visible.Squares() {
			f.Visible = append(f.Visible, sq.String())
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		if !hiddenEconomy[c] {
			from := seen
			if from == nil {
				from = p // a spectator: what both views show is the true value
			}
			f.Money[c.String()] = from.Money(c)
			f.Pocket[c.String()] = pocket(from, c)
		}
	}
	if seen != nil {
		f.Describe = describe(lg.g.Variant, seen)
	}
	if s != spectator && seen != nil && !lg.over && s == int(p.Turn()) {
		p := seen
		buf := moveBufs.Get().(*[]rules.Move)
		moves := p.LegalMoves((*buf)[:0])
		f.Legal = make([]string, 0, len(moves))
		for _, m := range moves {
			text := notation.Coord(p, m)
			f.Legal = append(f.Legal, text)
			if outs := p.Outcomes(m); len(outs) > 1 {
				if f.Chances == nil {
					f.Chances = map[string]string{}
				}
				f.Chances[text] = fmt.Sprintf("%d/%d", outs[0].Num, outs[0].Den)
			}
		}
		f.Actions = face.Actions(lg.g.Variant, p, moves)
		moveBufs.Put(buf)
	}
	return mustJSON(f)
}

// lastSquares returns the squares of the last ply of plies: from and to,
// the square of a drop, or nil (a variant's own move).
func lastSquares(plies []game.Ply) []string {
	if len(plies) == 0 {
		return nil
	}
	m := plies[len(plies)-1].Move
	switch m.Kind() {
	case rules.Special:
		return nil
	case rules.Drop:
		return []string{m.To().String()}
	}
	return []string{m.From().String(), m.To().String()}
}

// describe returns v's description of p (face.Describe), nil where
// there is nothing to say. p is what the receiver may see.
func describe(v *rules.Variant, p *rules.Position) *face.Description {
	d := face.Describe(v, p)
	if d.Empty() {
		return nil
	}
	return &d
}

// boardPart returns the piece placement of p's plain FEN (no ranks or
// variant fields), as board widgets read it.
func boardPart(p *rules.Position) string {
	f := p.PlainFEN()
	if i := strings.IndexByte(f, ' '); i >= 0 {
		return f[:i]
	}
	return f
}

func pocket(p *rules.Position, c rules.Color) string {
	var b strings.Builder
	v := p.Variant()
	for t := 1; t <= v.NumTypes(); t++ {
		for range p.Pocket(c, rules.Type(t)) {
			b.WriteByte(v.Letter(rules.Type(t)))
		}
	}
	return b.String()
}

// eventFor returns the event frame of version v as seat s may see it.
// While a game with hidden information is played, a ply event carries no
// position (its fen, board and check are the true board's; the state
// frame after it gives each receiver its view), and a ply of the
// opponent nothing of the move either.
func (lg *liveGame) eventFor(s int, v int64, data []byte) []byte {
	if lg.hidden && !lg.over {
		var e eventJSON
		if json.Unmarshal(data, &e) == nil && e.Kind == "ply" {
			e.FEN, e.Board, e.Check, e.Describe = "", "", "", nil
			if seatIndex(e.Seat) != s {
				e.Move, e.SAN, e.Outcomes, e.Mark, e.Label = "", "", nil, "", ""
			}
			// What the ply did is told of the true position: the
			// state frame after it describes each receiver's view.
			e.Events, e.Removed = nil, nil
			data = mustJSON(e)
		}
	}
	return mustJSON(eventFrame{T: "event", V: v, E: data})
}

// broadcast sends an event to every connection, followed by the state if
// withState, as one queued item per connection. Without hidden information
// every receiver gets the same event frame and one of three states.
func (lg *liveGame) broadcast(v int64, data []byte, withState bool) {
	var shared []byte
	var states [3][]byte // by seat + 1
	for c := range lg.subs {
		var ev []byte
		if lg.hidden {
			ev = lg.eventFor(c.seat, v, data)
		} else {
			if shared == nil {
				shared = lg.eventFor(spectator, v, data)
			}
			ev = shared
		}
		if !withState {
			c.send(ev)
			continue
		}
		i := c.seat + 1
		if states[i] == nil {
			states[i] = lg.state(c.seat)
		}
		c.sendAll([][]byte{ev, states[i]})
	}
}

// join adds a connection: welcome, the events after since, the state.
func (lg *liveGame) join(c *client, since int64) {
	lg.subs[c] = struct{}{}
	lg.srv.study.join(lg.rec.ID, c)
	// The welcome, the missed events and the state are queued as one
	// item, so a long replay does not fill the connection's queue.
	frames := [][]byte{mustJSON(welcomeFrame{T: "welcome", Seat: seatName(c.seat), Game: lg.summary(), Version: lg.version})}
	since = max(since, 0)
	for v := since + 1; v <= lg.version; v++ {
		frames = append(frames, lg.eventFor(c.seat, v, lg.events[v-1]))
	}
	frames = append(frames, lg.state(c.seat))
	c.sendAll(frames)
	lg.checkIdle()
}

// leave removes a connection.
func (lg *liveGame) leave(c *client) {
	delete(lg.subs, c)
	lg.srv.study.leave(lg.rec.ID, c)
	lg.release(c)
	lg.checkIdle()
}

// handle runs one validated frame of a seated client.
func (lg *liveGame) handle(c *client, m clientMsg, read time.Time) {
	ack := func(v int64) {
		c.send(mustJSON(ackFrame{T: "ack", ID: m.ID, V: v}))
		if m.T == "move" {
			lg.srv.ackLat.add(time.Since(read))
		}
	}
	var werr *wireError
	if m.V != nil && *m.V != lg.version {
		werr = &wireError{"stale", fmt.Sprintf("the game is at version %d, not %d", lg.version, *m.V)}
	} else {
		switch m.T {
		case "move":
			werr = lg.play(c.seat, m.Move, ack)
		case "resign":
			werr = lg.resign(c.seat, ack)
		case "draw":
			werr = lg.draw(c.seat, *m.Offer, ack)
		case "abort":
			werr = lg.abort(c.seat, ack)
		case "rematch":
			werr = lg.askRematch(c, ack)
		}
	}
	if werr != nil {
		c.send(errFrame(m.ID, werr.code, werr.msg))
	}
}

// store stores an event other than a ply (commitEvent), answering a
// store failure as the client sees it.
func (lg *liveGame) store(e eventJSON, ack func(int64)) *wireError {
	if _, err := lg.commitEvent(e, nil, ack); err != nil {
		lg.srv.logf("game %s: store: %v", lg.rec.ID, err)
		return &wireError{"internal", "the action could not be stored; try again"}
	}
	return nil
}

func (lg *liveGame) resign(s int, ack func(int64)) *wireError {
	if lg.over {
		return &wireError{"game_over", "the game is over"}
	}
	w := rules.Color(1 - s)
	return lg.store(eventJSON{Kind: "end", Result: rules.Win(w).String(), Reason: "resignation",
		Detail: fmt.Sprintf("%s resigned", seatName(s))}, ack)
}

func (lg *liveGame) draw(s int, offer bool, ack func(int64)) *wireError {
	if lg.over {
		return &wireError{"game_over", "the game is over"}
	}
	switch {
	case offer && lg.offer == 1-s:
		return lg.store(eventJSON{Kind: "end", Result: rules.Draw.String(), Reason: "agreement", Detail: "drawn by agreement"}, ack)
	case offer && lg.offer == s:
		return &wireError{"not_allowed", "your draw offer stands already"}
	case offer:
		if lg.rec.Opponent == "engine" {
			return &wireError{"not_allowed", "the engine does not take draw offers"}
		}
		if lg.turns-lg.offered[s] < drawOfferTurns {
			return &wireError{"not_allowed", "you offered a draw less than two turns ago; offer again once both sides have moved"}
		}
		return lg.store(eventJSON{Kind: "offer", Seat: seatName(s), Offer: "draw"}, ack)
	case lg.offer == s:
		return lg.store(eventJSON{Kind: "offer", Seat: seatName(s), Offer: "draw_withdrawn"}, ack)
	case lg.offer == 1-s:
		return lg.store(eventJSON{Kind: "offer", Seat: seatName(s), Offer: "draw_declined"}, ack)
	}
	return &wireError{"not_allowed", "no draw offer stands"}
}

func (lg *liveGame) abort(s int, ack func(int64)) *wireError {
	if lg.over {
		return &wireError{"game_over", "the game is over"}
	}
	if lg.turns >= 2 {
		return &wireError{"not_allowed", "both sides have moved; resign or offer a draw instead"}
	}
	if lg.g.Rolled() {
		return &wireError{"not_allowed", "the dice have rolled; their outcome stands, so resign or offer a draw instead"}
	}
	return lg.store(eventJSON{Kind: "end", Result: "*", Reason: "abort", Detail: fmt.Sprintf("aborted by %s", seatName(s))}, ack)
}

// askRematch records a seat's rematch request; when both seats (or the
// one human seat against the engine) asked, it creates the new game.
func (lg *liveGame) askRematch(c *client, ack func(int64)) *wireError {
	if !lg.over {
		return &wireError{"not_allowed", "the game is not over"}
	}
	s := c.seat
	if lg.rematchID != "" {
		c.send(mustJSON(rematchFrame{T: "rematch", Game: lg.rematchID, Seat: seatName(1 - s), Token: rematchToken(c.token)}))
		ack(lg.version)
		return nil
	}
	if lg.rematch[s] == "" {
		if err := lg.store(eventJSON{Kind: "offer", Seat: seatName(s), Offer: "rematch"}, ack); err != nil {
			return err
		}
		ack = nil
	}
	lg.rematch[s] = c.token
	if lg.rec.Opponent == "engine" {
		lg.rematch[lg.rec.EngineSeat] = "engine"
	}
	if lg.rematch[0] == "" || lg.rematch[1] == "" || lg.rematch[0] == "asked" || lg.rematch[1] == "asked" {
		if ack != nil {
			ack(lg.version)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), lg.srv.cfg.StoreTimeout)
	defer cancel()
	id, err := lg.srv.createRematch(ctx, lg.rec, lg.rematch)
	if err != nil {
		lg.srv.logf("game %s: rematch: %v", lg.rec.ID, err)
		return &wireError{"internal", "the rematch could not be created"}
	}
	tokens := lg.rematch
	if werr := lg.store(eventJSON{Kind: "rematch", Game: id}, ack); werr != nil {
		return werr
	}
	for sub := range lg.subs {
		if sub.seat >= 0 && sub.token == tokens[sub.seat] {
			// The rematch swaps colours.
			sub.send(mustJSON(rematchFrame{T: "rematch", Game: id, Seat: seatName(1 - sub.seat), Token: rematchToken(sub.token)}))
		}
	}
	return nil
}

// maybeEngine starts the engine's search if it is to move.
func (lg *liveGame) maybeEngine() {
	if lg.over || lg.thinking || lg.rec.Opponent != "engine" {
		return
	}
	p := lg.g.Position()
	if int(p.Turn()) != lg.rec.EngineSeat {
		return
	}
	lg.thinking = true
	v := lg.version
	pos := p.Clone()
	level := lg.rec.Level
	seed := lg.engineSeed()
	key := lg.owner
	if key == "" {
		key = "game " + lg.rec.ID
	}
	var budget time.Duration
	if lg.clock.initial > 0 {
		budget = lg.clock.at(time.Now())[lg.rec.EngineSeat]/30 + lg.clock.inc/2
	}
	var remote *enginebus.Request
	if lg.srv.cfg.EngineBus != nil && !lg.hidden {
		r := enginebus.NewRequest(lg.rec.Variant, lg.rec.Options, lg.g, lg.srv.engines.levelLimits(level, budget), seed)
		if lg.def != nil && !builtinDefinitions()[lg.rec.Definition] {
			// Workers know the built-in variants; any other definition
			// (a saved variant, a file, an older version) goes along.
			r.Definition = string(lg.def)
		}
		remote = &r
	}
	go func() {
		var m rules.Move
		var err error
		if remote != nil {
			m, err = lg.srv.cfg.EngineBus.Think(context.Background(), pos, *remote)
			if err != nil && !errors.Is(err, enginebus.ErrNoWorker) {
				lg.srv.logf("game %s: engine worker: %v; searching here", lg.rec.ID, err)
			}
		}
		if remote == nil || err != nil {
			m, err = lg.srv.engines.think(context.Background(), key, pos, level, budget, seed)
		}
		lg.do(context.Background(), func() {
			lg.thinking = false
			if err != nil {
				lg.srv.logf("game %s: engine: %v", lg.rec.ID, err)
				lg.checkIdle()
				return
			}
			if lg.version != v || lg.over {
				lg.maybeEngine()
				return
			}
			if werr := lg.playMove(m, nil); werr != nil {
				lg.srv.logf("game %s: engine move: %s", lg.rec.ID, werr.msg)
			}
		})
	}()
}

// summary returns the public summary of the game.
func (lg *liveGame) summary() *Summary {
	s := summaryOf(lg.rec, lg.g.Variant)
	s.Version = lg.version
	s.Hidden = lg.hidden
	if !lg.hidden || lg.over { // the start shows terrain and pieces a view may hide
		start := lg.g.Start()
		s.StartFEN = start.FEN()
		s.StartBrd = boardPart(start)
		s.StartDescribe = describe(lg.g.Variant, start)
	}
	if lg.over {
		s.Finished = true
		s.Result = lg.status.Result.String()
		if lg.status.Result == rules.Ongoing {
			s.Result = "*"
		}
		s.Reason = string(lg.status.Reason)
		s.Detail = lg.status.Detail
	}
	s.hideSecrets(lg.g.Variant)
	s.Plies = len(lg.g.Plies)
	return s
}

// engineSeed returns the seed the engine draws its guesses of what it
// cannot see from (csipgs's moderated mode): derived from the game's
// secret seed, so that the game replays once the seed is revealed, and
// so that the engine's moves tell nothing of the seed.
func (lg *liveGame) engineSeed() uint64 {
	h := sha256.Sum256([]byte("anychess engine\n" + lg.seed().Tag()))
	return binary.LittleEndian.Uint64(h[:8])
}

// nonce returns the nonce of the commitment to the game's seed: the one
// drawn with the seed, or for a game stored before nonces were, one
// derived from the seed.
func (lg *liveGame) nonce() string {
	if lg.rec.Nonce != "" {
		return lg.rec.Nonce
	}
	h := sha256.Sum256([]byte("anychess nonce\n" + game.RNGTag(lg.rec.Seed)))
	return hex.EncodeToString(h[:16])
}

// diceState returns what the state frame says of the game's dice: the
// commitment, and once the game is over the seed and nonce; nil for a game
// without chance.
func (lg *liveGame) diceState() *diceJSON {
	if !lg.g.Variant.Chance() {
		return nil
	}
	seed := lg.seed()
	d := &diceJSON{Commit: game.Commitment(seed, lg.nonce()), Gen: seed.Gen}
	if lg.over {
		d.Seed, d.Nonce = seed.Text(), lg.nonce()
	}
	return d
}

// termination is the PGN Termination of a game that ended with status st:
// a fallen flag is a time forfeit, an aborted game is abandoned, and every
// other end (by the rules, a resignation, an agreement) is normal.
func termination(st rules.Status) notation.Termination {
	switch st.Reason {
	case "time":
		return notation.TermTimeForfeit
	case "abort":
		return notation.TermAbandoned
	}
	return notation.TermNormal
}

// pgn returns the game as PGN text: while the game is played, its dice
// appear only as a commitment to their seed; once it is over, the
// Termination tag and a comment after the last move say how it ended.
func (lg *liveGame) pgn() string {
	pg := notation.WriteGame(lg.g)
	pg.SetTag("Event", "anychess game "+lg.rec.ID)
	pg.SetTag("Site", "anychess serve")
	pg.SetTag("Date", lg.rec.Created.Format("2006.01.02"))
	names := [2]string{"white", "black"}
	if lg.rec.Opponent == "engine" {
		names[lg.rec.EngineSeat] = "anychess level " + strconv.Itoa(lg.rec.Level)
	}
	pg.SetTag("White", names[0])
	pg.SetTag("Black", names[1])
	if lg.def != nil {
		// A built-in variant as this program embeds it is named by its
		// hash alone; any other definition is carried whole.
		notation.SetDefinition(pg, lg.def, !builtinDefinitions()[lg.rec.Definition])
	}
	if lg.over {
		reason := lg.status.Detail
		if reason == "" {
			reason = string(lg.status.Reason)
		}
		if err := notation.SetTermination(pg, termination(lg.status), reason); err != nil {
			lg.srv.logf("game %s: pgn: %v", lg.rec.ID, err)
		}
	}
	var b strings.Builder
	if err := pgn.Write(&b, pg); err != nil {
		return ""
	}
	return b.String()
}
