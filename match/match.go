package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// TimeControl is the clock of each game: Base time plus Inc per move, or a
// fixed MoveTime per move.
type TimeControl struct {
	Base, Inc time.Duration
	MoveTime  time.Duration
}

// PGN writes the control as the PGN standard's TimeControl tag: "300+2"
// (base and increment in seconds), "300" (no increment), "1/0.1" (a fixed
// time per move: one move in that many seconds, period after period), or
// "-" for no clock.
func (tc TimeControl) PGN() string {
	switch {
	case tc.MoveTime > 0:
		return fmt.Sprintf("1/%g", tc.MoveTime.Seconds())
	case tc.Base <= 0:
		return "-"
	case tc.Inc <= 0:
		return fmt.Sprintf("%g", tc.Base.Seconds())
	}
	return fmt.Sprintf("%g+%g", tc.Base.Seconds(), tc.Inc.Seconds())
}

// termError is a player's failure that ends the game with a given
// Termination.
type termError struct {
	term notation.Termination
	err  error
}

func (e termError) Error() string { return e.err.Error() }
func (e termError) Unwrap() error { return e.err }

// termination returns the Termination of a game a player's error ended.
func termination(err error) notation.Termination {
	var te termError
	switch {
	case errors.As(err, &te):
		return te.term
	case errors.Is(err, notation.ErrIllegal), errors.Is(err, notation.ErrSyntax), errors.Is(err, notation.ErrAmbiguous):
		return notation.TermRulesInfraction
	case errors.Is(err, context.DeadlineExceeded):
		return notation.TermTimeForfeit
	}
	return notation.TermAbandoned
}

// String writes the control as "60+0.6" or "st=0.1".
func (tc TimeControl) String() string {
	if tc.MoveTime > 0 {
		return fmt.Sprintf("st=%g", tc.MoveTime.Seconds())
	}
	return fmt.Sprintf("%g+%g", tc.Base.Seconds(), tc.Inc.Seconds())
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1, with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Config is a match.
type Config struct {
	Variant *rules.Variant
	Games   int
	Players [2]Spec
	// Openings are start positions (FEN, or the variant's own FEN such as
	// Vazir's RFEN); each is played with both colours. Without them a
	// variant whose start is drawn by chance (rules.Variant.Seeded, Vazir's
	// ranks) starts each pair from its own seeded draw (Setup), and other
	// variants from random balanced openings.
	Openings    []string
	RandomPlies int // for random openings: plies of random play (0: none, every pair starts from the variant's start)
	TC          TimeControl
	Concurrency int
	MaxPlies    int // a game this long is drawn at the end of the turn (default 1000)
	// Seed makes the match replay: it seeds the openings, the random
	// players and, in a variant with chance, each game's dice (recorded in
	// the game's RNG tag). Both games of a pair roll the same dice, as
	// they start from the same position: while the two games go alike,
	// luck that favours one colour favours each player once.
	Seed     uint64
	PGN      io.Writer
	Progress func(Stats)
	SPRT     *SPRT
}

// Stats is the score of the first player against the second.
type Stats struct {
	Wins, Draws, Losses int
	Errors              []string // games a player lost by an error (crash, illegal move)
	LLR                 float64  // with an SPRT
	Decision            string   // "H0", "H1" or "" with an SPRT
}

// Games returns the number of games played.
func (s Stats) Games() int { return s.Wins + s.Draws + s.Losses }

// Score returns the first player's score, from 0 to 1.
func (s Stats) Score() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(n)
}

// Elo returns the Elo difference of the first player over the second and a
// 95% confidence interval, from the trinomial distribution of the results.
func (s Stats) Elo() (elo, lo, hi float64) {
	n := float64(s.Games())
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	sc := s.Score()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	variance := w*(1-sc)*(1-sc) + d*(0.5-sc)*(0.5-sc) + l*sc*sc
	se := math.Sqrt(variance / n)
	return eloOf(sc), eloOf(sc - 1.96*se), eloOf(sc + 1.96*se)
}

func eloOf(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/score-1)
}

func scoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// llr is the log-likelihood ratio of the results for elo1 against elo0, by
// the normal approximation of the trinomial model.
func (s Stats) llr(t *SPRT) float64 {
	n := float64(s.Games())
	if n == 0 {
		return 0
	}
	sc := s.Score()
	// The variance is taken with half a game added to each kind of result:
	// a sample without spread (a few wins in a row) would otherwise have
	// a variance near 0 and decide the test after a game or two.
	w, d, l := float64(s.Wins)+0.5, float64(s.Draws)+0.5, float64(s.Losses)+0.5
	rn := w + d + l
	rs := (w + d/2) / rn
	variance := (w*(1-rs)*(1-rs) + d*(0.5-rs)*(0.5-rs) + l*rs*rs) / rn
	s0, s1 := scoreOf(t.Elo0), scoreOf(t.Elo1)
	return n * (s1 - s0) * (2*sc - s0 - s1) / (2 * variance)
}

// String writes the score and Elo difference.
func (s Stats) String() string {
	elo, lo, hi := s.Elo()
	out := fmt.Sprintf("+%d =%d -%d  score %.1f%%  elo %+.0f [%+.0f, %+.0f]", s.Wins, s.Draws, s.Losses, 100*s.Score(), elo, lo, hi)
	if s.Decision != "" || s.LLR != 0 {
		out += fmt.Sprintf("  LLR %.2f", s.LLR)
		if s.Decision != "" {
			out += " " + s.Decision
		}
	}
	return out
}

// Run plays the match and returns the first player's score. Games are
// paired: each opening is played once with each colour.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	if cfg.Games < 1 {
		return Stats{}, errors.New("match: at least one game")
	}
	if cfg.TC.Base <= 0 && cfg.TC.MoveTime <= 0 {
		return Stats{}, errors.New("match: no time control")
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 1000
	}
	if err := checkWeights(cfg.Players, cfg.Variant); err != nil {
		return Stats{}, err
	}
	pairs := (cfg.Games + 1) / 2
	openings := make([]*rules.Position, pairs)
	for i := range openings {
		var err error
		switch {
		case len(cfg.Openings) > 0:
			fen := cfg.Openings[i%len(cfg.Openings)]
			if openings[i], err = cfg.Variant.ParseFEN(fen); err != nil {
				return Stats{}, fmt.Errorf("match: opening %d: %w", i+1, err)
			}
		case cfg.Variant.Seeded():
			if openings[i], err = cfg.Variant.Setup(game.NewRoller(subSeed(cfg.Seed, streamSetup, uint64(i)))); err != nil {
				return Stats{}, fmt.Errorf("match: start of pair %d: %w", i+1, err)
			}
		default:
			openings[i] = randomOpening(cfg.Variant, cfg.RandomPlies, cfg.Seed+uint64(i))
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		stats Stats
		next  int
		wg    sync.WaitGroup
		first error
	)
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= cfg.Games || ctx.Err() != nil {
					return
				}
				firstWhite := i%2 == 0
				res, err := playPaired(ctx, cfg, openings[i/2], firstWhite, uint64(i))
				mu.Lock()
				if err != nil {
					if first == nil && ctx.Err() == nil {
						first = err
					}
					mu.Unlock()
					cancel()
					return
				}
				switch res.score {
				case 1:
					stats.Wins++
				case 0:
					stats.Losses++
				default:
					stats.Draws++
				}
				if res.errNote != "" {
					stats.Errors = append(stats.Errors, res.errNote)
				}
				if cfg.PGN != nil {
					if err := pgn.Write(cfg.PGN, res.record); err != nil {
						stats.Errors = append(stats.Errors, fmt.Sprintf("game %d not written: %v", i+1, err))
					}
				}
				if cfg.SPRT != nil {
					stats.LLR = stats.llr(cfg.SPRT)
					lower := math.Log(cfg.SPRT.Beta / (1 - cfg.SPRT.Alpha))
					upper := math.Log((1 - cfg.SPRT.Beta) / cfg.SPRT.Alpha)
					switch {
					case stats.LLR >= upper:
						stats.Decision = "H1"
						cancel()
					case stats.LLR <= lower:
						stats.Decision = "H0"
						cancel()
					}
				}
				if cfg.Progress != nil {
					cfg.Progress(stats)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return stats, first
	}
	if err := ctx.Err(); err != nil && stats.Decision == "" && stats.Games() < cfg.Games {
		return stats, err
	}
	return stats, nil
}

// randomOpening plays random moves from the start and keeps the first
// position a shallow search judges level; with no plies it is the start.
func randomOpening(v *rules.Variant, plies int, seed uint64) *rules.Position {
	if plies <= 0 {
		return v.Start()
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	e := search.New(1)
	var p *rules.Position
	for try := 0; try < 100; try++ {
		p = v.Start()
		ok := true
		for range plies {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				ok = false
				break
			}
			p.Make(ms[rng.IntN(len(ms))])
		}
		if !ok || p.Status().Over() {
			continue
		}
		res := e.Search(context.Background(), p.Clone(), search.Limits{Depth: 4}, nil)
		if res.Info.Score > -100 && res.Info.Score < 100 {
			break
		}
	}
	q, _ := v.ParseFEN(p.FEN()) // forget the history: the game starts here
	return q
}

type gameResult struct {
	score   float64 // for the first player
	record  *pgn.Game
	errNote string
}

// The streams of subSeed.
const (
	streamSetup uint64 = iota + 1 // the start of a pair in a seeded variant
	streamDice                    // the outcomes of the moves of a pair's games
)

// subSeed derives the seed of item i of a stream from the match's seed
// (splitmix64 steps), so that the streams do not overlap.
func subSeed(seed, stream, i uint64) uint64 {
	x := seed
	for _, v := range []uint64{stream, i} {
		x += v*0x9e3779b97f4a7c15 + 0x6a09e667f3bcc909
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return x
}

// playPaired plays game number seed of the first player against the
// second. In a variant with chance, the outcome of each move with several
// is drawn from the game's own roller, seeded from the match's seed and
// the number of the pair (seed/2) and named in the game's RNG tag.
func playPaired(ctx context.Context, cfg Config, start *rules.Position, firstWhite bool, seed uint64) (gameResult, error) {
	var sides [2]Player // by colour
	var factor [2]float64
	for i, sp := range cfg.Players {
		sp.Seed = cfg.Seed*1000 + seed*2 + uint64(i)
		pl, err := sp.New()
		if err != nil {
			return gameResult{}, err
		}
		defer pl.Close()
		c := i
		if !firstWhite {
			c = 1 - i
		}
		sides[c] = pl
		factor[c] = sp.TimeFactor()
	}
	scale := func(d time.Duration, c rules.Color) time.Duration { return time.Duration(float64(d) * factor[c]) }
	for _, pl := range sides {
		if err := pl.NewGame(ctx, cfg.Variant); err != nil {
			return gameResult{}, err
		}
	}
	g := game.New(cfg.Variant, start)
	var dice *game.Roller
	if cfg.Variant.Chance() {
		ds := subSeed(cfg.Seed, streamDice, seed/2)
		dice = game.NewRoller(ds)
		g.SetTag("RNG", game.RNGTag(ds))
	}
	left := [2]time.Duration{scale(cfg.TC.Base, rules.White), scale(cfg.TC.Base, rules.Black)}
	hidden := face.Hidden(cfg.Variant)
	result, reason, note, term := rules.Ongoing, "", "", notation.TermNormal
	for ply := 0; ; ply++ {
		p := g.Position()
		if st := p.Status(); st.Over() {
			result, reason = st.Result, st.Detail
			break
		}
		if ply >= cfg.MaxPlies && p.Counter() == 0 && p.Phase() == 0 { // at the start of a turn
			result, reason, term = rules.Draw, fmt.Sprintf("the match's limit of %d plies", cfg.MaxPlies), notation.TermAdjudication
			break
		}
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		us := p.Turn()
		them := us.Other()
		clk := Clock{Left: left[us], OppLeft: left[them], Inc: scale(cfg.TC.Inc, us), OppInc: scale(cfg.TC.Inc, them), MoveTime: scale(cfg.TC.MoveTime, us)}
		t0 := time.Now()
		var m rules.Move
		var err error
		if hidden {
			m, err = moveFromView(ctx, sides[us], p, clk)
		} else {
			m, err = sides[us].Move(ctx, g.Start(), p.Clone(), g.Plies[:len(g.Plies):len(g.Plies)], clk)
		}
		used := time.Since(t0)
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		if err == nil {
			err = play(g, m, dice)
		}
		if err != nil {
			result, reason = rules.Win(us.Other()), fmt.Sprintf("%s (%s) failed: %v", sides[us].Name(), us, err)
			note, term = reason, termination(err)
			break
		}
		if cfg.TC.MoveTime == 0 {
			left[us] += clk.Inc - used
			if left[us] < -scale(cfg.TC.Base, us)/20-100*time.Millisecond {
				result, reason, term = rules.Win(us.Other()), fmt.Sprintf("%s lost on time", us), notation.TermTimeForfeit
				break
			}
			left[us] = max(left[us], 0)
		}
	}
	g.Result, g.Reason = result, reason
	wName, bName := sides[rules.White].Name(), sides[rules.Black].Name()
	g.SetTag("Event", "anychess match")
	g.SetTag("White", wName)
	g.SetTag("Black", bName)
	g.SetTag("TimeControl", cfg.TC.PGN())
	rec := notation.WriteGame(g)
	if err := notation.SetTermination(rec, term, reason); err != nil {
		return gameResult{}, err
	}
	score := 0.5
	switch {
	case result == rules.Win(rules.White) && firstWhite, result == rules.Win(rules.Black) && !firstWhite:
		score = 1
	case result != rules.Draw:
		score = 0
	}
	return gameResult{score: score, record: rec, errNote: note}, nil
}

// maxRefusals is how many moves in a row the moderator refuses a player
// before the player loses the game.
const maxRefusals = 32

// refusable is a player told when the moderator refuses its move.
type refusable interface{ Refused(m rules.Move) }

// moveFromView asks pl for its move in a game with hidden information
// (face.Hidden): pl sees its view of p alone, as start position and
// position, with no history (the opponent's moves are hidden). The
// moderator (face.Moderate) judges
// the move of the view on the true position p and gives the move of p it
// stands for; a move it refuses is told to pl (if it listens), and pl is
// asked again, up to maxRefusals times.
func moveFromView(ctx context.Context, pl Player, p *rules.Position, clk Clock) (rules.Move, error) {
	us := p.Turn()
	for range maxRefusals {
		view, err := face.View(p, us)
		if err != nil {
			return rules.NoMove, err
		}
		m, err := pl.Move(ctx, view.Clone(), view, nil, clk)
		if err != nil {
			return m, err
		}
		real, err := face.Moderate(p, view, m)
		if err == nil {
			return real, nil
		}
		if !errors.Is(err, rules.ErrRefused) {
			return rules.NoMove, err
		}
		r, ok := pl.(refusable)
		if !ok {
			return rules.NoMove, fmt.Errorf("%w: %s refused by the moderator (%v)", game.ErrIllegal, notation.Coord(view, m), err)
		}
		r.Refused(m)
	}
	return rules.NoMove, fmt.Errorf("%w: %d moves in a row refused by the moderator", game.ErrIllegal, maxRefusals)
}

// play checks that m may be played in g's position (Position.Playable:
// a legal move, listed or, like a csipgs design outside the catalogue,
// not) and plays it with the
// outcome drawn from dice (the only outcome of a certain move, which draws
// nothing).
func play(g *game.Game, m rules.Move, dice *game.Roller) error {
	p := g.Position()
	if !p.Playable(m) {
		return fmt.Errorf("%w: %v in %s", game.ErrIllegal, m, p.FEN())
	}
	k := 0
	if dice != nil {
		var err error
		if k, err = rules.Choose(dice, p.Outcomes(m)); err != nil {
			return fmt.Errorf("the outcome of %s: %w", notation.Coord(p, m), err)
		}
	}
	return g.Play(m, k)
}
