// Package tune learns the weights of the evaluation (package eval) for a
// variant from games the engine plays against itself, by Texel's method:
// self-play at a fixed node budget writes quiet positions with the game's
// result to a sample file, which can be resumed after an interruption;
// a deeper search may score each position (Label), resumable too; a fit
// then finds the weights whose evaluation, through a logistic curve, best
// predicts the results, or a blend of each result with the expected
// result of the position's score (Data.Blend) (the mean squared error, minimised by Adam's
// gradient descent after the curve's scale K is fitted to the starting
// weights, and stopped where the loss of validation games, left out of
// the fit, is lowest: all the positions of a game share its one result,
// so a sample holds as many independent results as games).
package tune

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// Config says how to play the sample's games. Games are numbered from 0;
// game i depends only on the variant, the seed, i and the settings, so a
// sample is the same however many workers play it and however often it
// is interrupted.
type Config struct {
	Games       int    // games in the sample
	Nodes       int64  // nodes per move
	Seed        uint64 // seed of the openings and of chance
	RandomPlies int    // random moves at the start of each game (8 if 0)
	MaxPlies    int    // a game this long is scored a draw (400 if 0)
	Workers     int    // games played at once (1 if 0)
	HashMB      int    // each engine's transposition table (8 if 0)
	ResignScore int    // a game is scored a win once the engine's score stays this high... (1000 if 0)
	ResignPlies int    // ...for this many plies in a row (6 if 0)
}

func (c *Config) defaults() {
	if c.RandomPlies == 0 {
		c.RandomPlies = 8
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 400
	}
	if c.Workers < 1 {
		c.Workers = 1
	}
	if c.HashMB == 0 {
		c.HashMB = 8
	}
	if c.ResignScore == 0 {
		c.ResignScore = 1000
	}
	if c.ResignPlies == 0 {
		c.ResignPlies = 6
	}
}

// header is the first line of a sample file: what must match to resume it.
func (c Config) header(v *rules.Variant) string {
	return fmt.Sprintf("# anychess tune sample: variant %s seed %d nodes %d random %d maxplies %d resign %d/%d",
		v.Name(), c.Seed, c.Nodes, c.RandomPlies, c.MaxPlies, c.ResignScore, c.ResignPlies) + optionsText(v)
}

// Position is one position of the sample with the result of its game for
// White: 1 a win, 0.5 a draw, 0 a loss; and, once Label has scored it,
// the score of a search for White in centipawns.
type Position struct {
	Game   int
	FEN    string
	Result float64
	Score  float64 // the search's score, if Scored
	Scored bool
}

// Progress reports the sample's state while games are played.
type Progress struct {
	Games, Total int           // games done (resumed ones included) and wanted
	Positions    int           // positions in the sample
	Elapsed      time.Duration // since this run started
	ETA          time.Duration // estimated time left (0 until a game of this run is done)
}

// ErrSample marks a sample file that cannot be resumed.
var ErrSample = errors.New("bad sample file")

// Generate plays the games of c missing from the sample file path (all of
// them if it does not exist), appending each finished game's positions, and
// calls progress after each game and at the start. A game cut short by
// ctx leaves nothing in the file; run Generate again to go on. It returns
// the whole sample.
func Generate(ctx context.Context, v *rules.Variant, c Config, path string, progress func(Progress)) ([]Position, error) {
	c.defaults()
	if c.Nodes < 1 {
		return nil, fmt.Errorf("tune: nodes per move must be positive, got %d", c.Nodes)
	}
	if c.Games < 0 {
		return nil, fmt.Errorf("tune: games must not be negative, got %d", c.Games)
	}
	have, err := ReadSample(path, c.header(v))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := rewrite(path, func(w *bufio.Writer) {
		fmt.Fprintln(w, c.header(v))
		writeGames(w, have)
	})
	if err != nil {
		return nil, err
	}
	defer f.Close()

	var todo []int
	for g := 0; g < c.Games; g++ {
		if !have.Games[g] {
			todo = append(todo, g)
		}
	}
	start := time.Now()
	positions := have.Positions
	games := len(have.Games)
	newGames := 0
	report := func() {
		if progress == nil {
			return
		}
		elapsed := time.Since(start)
		progress(Progress{Games: games, Total: max(c.Games, games), Positions: len(positions),
			Elapsed: elapsed, ETA: eta(elapsed, newGames, len(todo)-newGames)})
	}
	report()
	err = runGames(ctx, todo, c.Workers, c.HashMB, f, func(eng *search.Engine, g int) (string, func(), error) {
		ps, res, err := playGame(ctx, v, c, eng, g)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		for _, fen := range ps {
			fmt.Fprintf(&b, "p %d %s %s\n", g, resultText(res), fen)
		}
		fmt.Fprintf(&b, "g %d %s %d\n", g, resultText(res), len(ps))
		return b.String(), func() {
			for _, fen := range ps {
				positions = append(positions, Position{Game: g, FEN: fen, Result: res})
			}
			games++
			newGames++
			report()
		}, nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(positions, func(i, j int) bool { return positions[i].Game < positions[j].Game })
	return positions, nil
}

func resultText(r float64) string {
	switch r {
	case 1:
		return "1-0"
	case 0:
		return "0-1"
	}
	return "1/2-1/2"
}

// Sample is a sample file's content: its finished games and their
// positions.
type Sample struct {
	Header    string
	Games     map[int]bool
	Positions []Position
}

func writeGames(w io.Writer, s Sample) {
	byGame := map[int][]Position{}
	for _, p := range s.Positions {
		byGame[p.Game] = append(byGame[p.Game], p)
	}
	res := map[int]float64{}
	for _, p := range s.Positions {
		res[p.Game] = p.Result
	}
	var gs []int
	for g := range s.Games {
		gs = append(gs, g)
	}
	sort.Ints(gs)
	for _, g := range gs {
		for _, p := range byGame[g] {
			fmt.Fprintf(w, "p %d %s %s\n", g, resultText(p.Result), p.FEN)
		}
		fmt.Fprintf(w, "g %d %s %d\n", g, resultText(res[g]), len(byGame[g]))
	}
}

// ReadSample reads the sample file path: its header, then lines
// "p GAME RESULT FEN" for positions and "g GAME RESULT N" closing a
// finished game of N positions. Positions of a game that was not closed
// are left out. If header is not empty, the file's must equal it.
func ReadSample(path, header string) (Sample, error) {
	s := Sample{Games: map[int]bool{}}
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	open := map[int][]Position{}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			s.Header = text
			if header != "" && text != header {
				return s, fmt.Errorf("%w: %s was made with other settings:\n  %s\nnot\n  %s", ErrSample, path, text, header)
			}
			continue
		}
		if text == "" {
			continue
		}
		kind, rest, _ := strings.Cut(text, " ")
		gs, rest, _ := strings.Cut(rest, " ")
		rs, rest, ok := strings.Cut(rest, " ")
		g, err := strconv.Atoi(gs)
		res, rok := parseResult(rs)
		if err != nil || g < 0 || !rok || !ok {
			// The last line may be cut short by an interruption.
			continue
		}
		switch kind {
		case "p":
			open[g] = append(open[g], Position{Game: g, FEN: rest, Result: res})
		case "g":
			n, err := strconv.Atoi(rest)
			if err != nil || n != len(open[g]) || s.Games[g] {
				continue
			}
			s.Games[g] = true
			s.Positions = append(s.Positions, open[g]...)
			delete(open, g)
		}
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("%w: %s: %v", ErrSample, path, err)
	}
	return s, nil
}

func parseResult(s string) (float64, bool) {
	switch s {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}

// playGame plays game g of the sample and returns its quiet positions (the
// side to move not in check, and the engine's move neither a capture nor a
// promotion) as text and the result for White.
func playGame(ctx context.Context, v *rules.Variant, c Config, eng *search.Engine, g int) ([]string, float64, error) {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(g)))
	roll := roller{rng}
	eng.Clear()
	p := v.Start()
	if v.Seeded() {
		var err error
		if p, err = v.Setup(roll); err != nil {
			return nil, 0, err
		}
	}
	buf := make([]rules.Move, 0, rules.MaxMoves)
	var fens []string
	streak, streakSide := 0, 0
	for ply := 0; ; ply++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if r, over := ResultScore(p.Status().Result); over {
			return fens, r, nil
		}
		if ply >= c.MaxPlies {
			return fens, 0.5, nil
		}
		var m rules.Move
		if ply < c.RandomPlies {
			ms := p.LegalMoves(buf[:0])
			m = ms[rng.IntN(len(ms))]
		} else {
			res := eng.Search(ctx, p, search.Limits{Nodes: c.Nodes}, nil)
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
			m = res.Best
			if m == rules.NoMove {
				return nil, 0, fmt.Errorf("tune: game %d: no move in %s", g, p.FEN())
			}
			if quiet(p, m) {
				fens = append(fens, p.FEN())
			}
			// Adjudicate a game the engine sees as decided.
			score := res.Info.Score
			if res.Info.Mate != 0 {
				score = c.ResignScore * sign(res.Info.Mate)
			}
			side := 1
			if p.Turn() == rules.Black {
				side = -1
			}
			if abs(score) >= c.ResignScore {
				if s := side * sign(score); s == streakSide {
					streak++
				} else {
					streak, streakSide = 1, s
				}
			} else {
				streak = 0
			}
			if streak >= c.ResignPlies {
				if streakSide > 0 {
					return fens, 1, nil
				}
				return fens, 0, nil
			}
		}
		k, err := rules.Choose(roll, p.Outcomes(m))
		if err != nil {
			return nil, 0, err
		}
		p.MakeOutcome(m, k)
	}
}

// quiet reports whether a sample keeps p, whose move is m: the side to
// move is not in check and m is neither a capture nor a promotion, so
// that the static evaluation should match the search.
func quiet(p *rules.Position, m rules.Move) bool {
	return !p.InCheck() && !p.IsCapture(m) && m.Kind() != rules.Promotion
}

// ResultScore returns the score of the result r for White, as a sample
// keeps it (1 a win, 0.5 a draw, 0 a loss), and false for a game that
// goes on.
func ResultScore(r rules.Result) (float64, bool) {
	switch r {
	case rules.WhiteWins:
		return 1, true
	case rules.BlackWins:
		return 0, true
	case rules.Draw:
		return 0.5, true
	}
	return 0, false
}

// optionsText returns the variant's options as the header of a sample
// names them (" NAME=VALUE" each): a sample played with other options is
// not resumed.
func optionsText(v *rules.Variant) string {
	var b strings.Builder
	for _, o := range v.Options() {
		b.WriteString(" " + o.Name + "=" + o.Value)
	}
	return b.String()
}

// roller rolls dice for chance moves and random set-ups from the game's
// generator.
type roller struct{ r *rand.Rand }

func (r roller) Roll(n int) int { return r.r.IntN(n) }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
