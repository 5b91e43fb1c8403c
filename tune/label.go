package tune

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// LabelConfig says how to score a sample's positions by search.
type LabelConfig struct {
	Nodes   int64 // nodes of each position's search
	Workers int   // games scored at once (1 if 0)
	HashMB  int   // each engine's transposition table (8 if 0)
	// MateScore is the score of a mate found by the search, in
	// centipawns for the side that mates (3000 if 0).
	MateScore int
	// Teacher, if not nil, scores the positions instead of the variant's
	// own engine: another engine (cmd/anychess supplies an external UCI
	// engine), each position's search limited to Nodes. Its Name replaces
	// the weights' fingerprint in the labels file's header, so that the
	// scores of another teacher are refused.
	Teacher Teacher
}

// Teacher is an engine other than the variant's own that scores the
// sample's positions for Label.
type Teacher interface {
	// Name identifies the teacher and its settings in the labels file's
	// header (a single line).
	Name() string
	// Open starts one scorer for v's positions, used by one goroutine;
	// Label opens one a worker and closes them when it is done.
	Open(ctx context.Context, v *rules.Variant) (Scorer, error)
}

// Scorer is one running teacher.
type Scorer interface {
	// NewGame is called before the positions of each game, in their
	// order: a scorer that keeps anything between searches (a hash
	// table) clears it here, so that a game's scores depend only on its
	// positions.
	NewGame(ctx context.Context) error
	// Score searches p with a limit of nodes and returns its score for
	// the side to move: centipawns if mate is 0, else a mate in mate
	// moves (positive: the side to move mates; cp is then ignored).
	Score(ctx context.Context, p *rules.Position, nodes int64) (cp, mate int, err error)
	// Close ends the scorer.
	Close() error
}

func (c *LabelConfig) defaults() {
	if c.Workers < 1 {
		c.Workers = 1
	}
	if c.HashMB == 0 {
		c.HashMB = 8
	}
	if c.MateScore == 0 {
		c.MateScore = 3000
	}
}

// labelHeader is the first line of a labels file: the settings of the
// search, the fingerprint of the evaluation weights w it searched with
// and the header of the sample it scores.
// With a teacher, its name takes the place of the weights and the hash.
func (c LabelConfig) labelHeader(sampleHeader string, w map[string]float64) string {
	if c.Teacher != nil {
		name := strings.Join(strings.Fields(c.Teacher.Name()), " ")
		return fmt.Sprintf("# anychess tune labels: nodes %d mate %d teacher %s; %s",
			c.Nodes, c.MateScore, name, strings.TrimPrefix(sampleHeader, "# "))
	}
	return fmt.Sprintf("# anychess tune labels: nodes %d hash %d mate %d weights %s; %s",
		c.Nodes, c.HashMB, c.MateScore, weightsPrint(w), strings.TrimPrefix(sampleHeader, "# "))
}

// weightsPrint is a fingerprint of the weights w: "none" without any,
// else the FNV-1a hash of their names and values in the names' order, so
// that scores of an engine with other weights are told apart.
func weightsPrint(w map[string]float64) string {
	if len(w) == 0 {
		return "none"
	}
	names := make([]string, 0, len(w))
	for k := range w {
		names = append(names, k)
	}
	sort.Strings(names)
	h := fnv.New64a()
	for _, k := range names {
		fmt.Fprintf(h, "%s=%s\n", k, strconv.FormatFloat(w[k], 'g', -1, 64))
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// LabelProgress reports the labelling's state: the games scored (resumed
// ones included) and to score, the positions scored, the time since this
// run started and the estimated time left.
type LabelProgress = Progress

// Label scores every position of the sample s (as ReadSample returns it)
// with a search of c.Nodes nodes of v's engine, writing the scores to the
// labels file path and setting each position's Score. The positions of a
// game are searched in their order by one engine cleared at the game's
// start, so a game's scores depend only on its positions and c. Games
// already in the file are kept; a game cut short by ctx leaves nothing in
// it: run Label again to go on. The file is refused if it was made with
// other settings, by an engine with other evaluation weights (v's
// Spec.Weights) or another teacher, or for another sample. With
// c.Teacher, each worker's scorer is started before any game is scored
// (a teacher that cannot start is an error at once) and every game's
// positions are scored by it.
func Label(ctx context.Context, v *rules.Variant, c LabelConfig, s Sample, path string, progress func(LabelProgress)) error {
	c.defaults()
	if c.Nodes < 1 {
		return fmt.Errorf("tune: label nodes must be positive, got %d", c.Nodes)
	}
	header := c.labelHeader(s.Header, v.Spec().Weights)
	have, err := ReadLabels(path, header)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	byGame := map[int][]int{} // game -> indices into s.Positions
	for i, p := range s.Positions {
		byGame[p.Game] = append(byGame[p.Game], i)
	}
	var games []int
	for g := range byGame {
		games = append(games, g)
	}
	sort.Ints(games)
	// Keep only the games whose count of scores matches the sample.
	kept := map[int][]float64{}
	var todo []int
	for _, g := range games {
		if sc, ok := have[g]; ok && len(sc) == len(byGame[g]) {
			kept[g] = sc
		} else {
			todo = append(todo, g)
		}
	}
	f, err := rewrite(path, func(w *bufio.Writer) {
		fmt.Fprintln(w, header)
		for _, g := range games {
			if sc, ok := kept[g]; ok {
				writeLabels(w, g, sc)
			}
		}
	})
	if err != nil {
		return err
	}
	defer f.Close()

	start := time.Now()
	done, newGames, positions := len(kept), 0, 0
	for _, sc := range kept {
		positions += len(sc)
	}
	report := func() {
		if progress == nil {
			return
		}
		elapsed := time.Since(start)
		progress(LabelProgress{Games: done, Total: len(games), Positions: positions,
			Elapsed: elapsed, ETA: eta(elapsed, newGames, len(todo)-newGames)})
	}
	var scorers chan Scorer // the teacher's, one a worker
	if c.Teacher != nil && len(todo) > 0 {
		scorers = make(chan Scorer, c.Workers)
		defer func() {
			close(scorers)
			for sc := range scorers {
				sc.Close()
			}
		}()
		for range min(c.Workers, len(todo)) {
			sc, err := c.Teacher.Open(ctx, v)
			if err != nil {
				return fmt.Errorf("tune: the teacher %s: %w", c.Teacher.Name(), err)
			}
			scorers <- sc
		}
	}
	report()
	// The first error stops the scoring (a teacher that died fails every
	// game after it alike).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		errOnce  sync.Once
		firstErr error
	)
	err = runGames(ctx, todo, c.Workers, c.HashMB, f, func(eng *search.Engine, g int) (string, func(), error) {
		var sc []float64
		var err error
		if scorers != nil {
			t := <-scorers
			sc, err = teachGame(ctx, v, c, t, s.Positions, byGame[g])
			scorers <- t
		} else {
			sc, err = labelGame(ctx, v, c, eng, s.Positions, byGame[g])
		}
		if err != nil {
			if ctx.Err() == nil {
				errOnce.Do(func() { firstErr = err; cancel() })
			}
			return "", nil, err
		}
		var b strings.Builder
		writeLabels(&b, g, sc)
		return b.String(), func() {
			kept[g] = sc
			done++
			newGames++
			positions += len(sc)
			report()
		}, nil
	})
	if firstErr != nil {
		return firstErr
	}
	if err != nil {
		return err
	}
	for g, idx := range byGame {
		for k, i := range idx {
			s.Positions[i].Score, s.Positions[i].Scored = kept[g][k], true
		}
	}
	return nil
}

// labelGame searches the positions idx of ps, one game's, in order and
// returns their scores for White.
func labelGame(ctx context.Context, v *rules.Variant, c LabelConfig, eng *search.Engine, ps []Position, idx []int) ([]float64, error) {
	eng.Clear()
	out := make([]float64, 0, len(idx))
	for _, i := range idx {
		p, err := v.ParseFEN(ps[i].FEN)
		if err != nil {
			return nil, fmt.Errorf("tune: game %d: %w", ps[i].Game, err)
		}
		res := eng.Search(ctx, p, search.Limits{Nodes: c.Nodes}, nil)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, float64(whiteScore(p, res.Info.Score, res.Info.Mate, c.MateScore)))
	}
	return out, nil
}

// teachGame scores the positions idx of ps, one game's, in order with
// the teacher's scorer t and returns their scores for White.
func teachGame(ctx context.Context, v *rules.Variant, c LabelConfig, t Scorer, ps []Position, idx []int) ([]float64, error) {
	if err := t.NewGame(ctx); err != nil {
		return nil, fmt.Errorf("tune: the teacher %s: %w", c.Teacher.Name(), err)
	}
	out := make([]float64, 0, len(idx))
	for _, i := range idx {
		p, err := v.ParseFEN(ps[i].FEN)
		if err != nil {
			return nil, fmt.Errorf("tune: game %d: %w", ps[i].Game, err)
		}
		cp, mate, err := t.Score(ctx, p, c.Nodes)
		if err != nil {
			return nil, fmt.Errorf("tune: the teacher %s: game %d, %s: %w", c.Teacher.Name(), ps[i].Game, ps[i].FEN, err)
		}
		out = append(out, float64(whiteScore(p, cp, mate, c.MateScore)))
	}
	return out, nil
}

// whiteScore turns a score for p's side to move (cp, or a mate in mate
// moves if that is not 0) into centipawns for White, a mate counted as
// mateScore and every score kept within it.
func whiteScore(p *rules.Position, cp, mate, mateScore int) int {
	if mate != 0 {
		cp = mateScore * sign(mate)
	}
	cp = max(-mateScore, min(mateScore, cp))
	if p.Turn() == rules.Black {
		cp = -cp
	}
	return cp
}

// writeLabels writes the line of game g's scores: "s GAME N SCORE...".
func writeLabels(w io.Writer, g int, sc []float64) {
	fmt.Fprintf(w, "s %d %d", g, len(sc))
	for _, x := range sc {
		fmt.Fprint(w, " ", strconv.FormatFloat(x, 'f', -1, 64))
	}
	fmt.Fprintln(w)
}

// ReadLabels reads the labels file path: a header line, then one line
// "s GAME N SCORE..." per game with the scores (centipawns, for White)
// of its N positions in the sample's order. A line cut short by an
// interruption is left out. If header is not empty, the file's must
// equal it.
func ReadLabels(path, header string) (map[int][]float64, error) {
	out := map[int][]float64{}
	f, err := os.Open(path)
	if err != nil {
		return out, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if header != "" && text != header {
				return out, fmt.Errorf("%w: %s was made with other settings or for another sample:\n  %s\nnot\n  %s", ErrSample, path, text, header)
			}
			continue
		}
		fs := strings.Fields(text)
		if len(fs) < 3 || fs[0] != "s" {
			continue
		}
		g, err1 := strconv.Atoi(fs[1])
		n, err2 := strconv.Atoi(fs[2])
		if err1 != nil || err2 != nil || g < 0 || n != len(fs)-3 {
			continue
		}
		scores := make([]float64, n)
		ok := true
		for k := range n {
			x, err := strconv.ParseFloat(fs[3+k], 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				ok = false
				break
			}
			scores[k] = x
		}
		if ok {
			out[g] = scores
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%w: %s: %v", ErrSample, path, err)
	}
	return out, nil
}
