package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/match"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/tune"
	"github.com/anychess/anychess/variant"
)

func runNet(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("net", "", stderr)
	var pf posFlags
	fs.StringVar(&pf.variant, "variant", "", "variant name or alias (default chess, or the -file variant)")
	fs.StringVar(&pf.file, "file", "", "variant file to load (TOML); its network goes beside it")
	engine := fs.String("engine", "", "the teacher: an external UCI engine (COMMAND[:opt=value,...], as a match's uci: player) that plays the sample's games and scores their positions")
	depth := fs.Int("depth", 4, "the teacher's search depth a move")
	workers := fs.Int("workers", 1, "teachers playing the sample's games at once, each its own process")
	games := fs.Int("games", 40000, "games in the sample (0: fit the sample as it is)")
	seed := fs.Uint64("seed", 1, "seed of the random plies and moves, and of the fit")
	random := fs.Int("random", 8, "random plies at the start of each game")
	stray := fs.Float64("stray", 0.08, "share of the later moves played at random instead of the teacher's")
	data := fs.String("data", ".", "directory of the sample file VARIANT.netsample")
	out := fs.String("out", "", "network file to write (default: beside -file, else VARIANT.net in -data)")
	hidden := fs.Int("hidden", 128, "hidden units")
	epochs := fs.Int("epochs", 10, "passes over the sample")
	rate := fs.Float64("rate", 0.002, "Adam's step size at the start")
	valid := fs.Int("valid", 40000, "positions at the end of the sample held out to choose the epoch kept")
	clip := fs.Float64("clip", 0, "bound of the network's correction, in units of 400 centipawns (0: none)")
	mirror := fs.Bool("mirror", true, "also train on the positions mirrored left to right")
	quiet := fs.Bool("q", false, "no progress lines")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if *games < 0 || *depth < 1 || *depth > 64 || *random < 0 || !(*stray >= 0 && *stray <= 1) || *epochs < 1 || *valid < 1 || !(*rate > 0 && *rate < 1) || !(*clip >= 0 && *clip <= 100) {
		return fail(stderr, "net", fmt.Errorf("bad flags: -games and -random must not be negative, -valid and -epochs must be positive, -depth 1 to 64, -stray 0 to 1, -rate above 0 and below 1, -clip 0 to 100"))
	}
	if *workers < 1 || *workers > 64 {
		return fail(stderr, "net", fmt.Errorf("-workers must be 1 to 64, got %d", *workers))
	}
	if *hidden < 1 || *hidden > eval.MaxNetworkHidden {
		return fail(stderr, "net", fmt.Errorf("-hidden must be 1 to %d, got %d", eval.MaxNetworkHidden, *hidden))
	}
	v, err := pf.variantOf()
	if err != nil {
		return fail(stderr, "net", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sample := filepath.Join(*data, v.Name()+".netsample")
	if *games > 0 {
		if *engine == "" {
			return fail(stderr, "net", fmt.Errorf("-engine is needed to play the sample's %d games (or -games 0 to fit the sample as it is)", *games))
		}
		var pls []tune.NetPlayer
		for range *workers {
			pl, err := newNetTeacher(*engine, v, *depth)
			if err != nil {
				return fail(stderr, "net", err)
			}
			defer pl.Close()
			pls = append(pls, pl)
		}
		cfg := tune.NetSampleConfig{Games: *games, Seed: *seed, Random: *random, Stray: *stray}
		if !*quiet {
			cfg.Progress = func(g, n int) {
				if g%100 == 0 || g == *games {
					fmt.Fprintf(stderr, "\rsample: %d/%d games, %d positions ", g, *games, n)
				}
			}
		}
		err = tune.NetSample(ctx, v, pls, cfg, sample)
		if !*quiet {
			fmt.Fprintln(stderr)
		}
		if err != nil {
			return fail(stderr, "net", err)
		}
	}
	n, err := eval.NewNetwork(netLetters(v), v.Board().Files, v.Board().Ranks, *hidden)
	if err != nil {
		return fail(stderr, "net", err)
	}
	n.Clip = float32(*clip)
	f, err := os.Open(sample)
	if err != nil {
		return fail(stderr, "net", err)
	}
	linear := eval.NewWeights(v, v.Spec().Weights) // the evaluation without a network
	ps, err := tune.ReadNetSample(f, v, n, linear.Evaluate)
	f.Close()
	if err != nil {
		return fail(stderr, "net", fmt.Errorf("%s: %w", sample, err))
	}
	if *valid >= len(ps) {
		return fail(stderr, "net", fmt.Errorf("%s: %d positions, not more than the %d held out (-valid)", sample, len(ps), *valid))
	}
	fmt.Fprintf(stdout, "%s: %d positions, %d held out\n", sample, len(ps), *valid)
	fmt.Fprintf(stdout, "held-out loss of the evaluation alone %.6f\n", tune.LinearLoss(ps[len(ps)-*valid:]))
	cfg := tune.NetTrainConfig{Epochs: *epochs, Rate: *rate, Valid: *valid, Seed: *seed, Mirror: *mirror,
		Progress: func(ep int, tr, va float64) {
			fmt.Fprintf(stdout, "epoch %d: training %.6f, held out %.6f\n", ep, tr, va)
		}}
	best, err := tune.TrainNetwork(n, ps, cfg)
	if err != nil {
		return fail(stderr, "net", err)
	}
	dst := *out
	if dst == "" {
		if pf.file != "" {
			dst = variant.NetworkFile(pf.file)
		} else {
			dst = filepath.Join(*data, v.Name()+".net")
		}
	}
	w, err := os.Create(dst)
	if err != nil {
		return fail(stderr, "net", err)
	}
	if _, err := n.WriteTo(w); err != nil {
		w.Close()
		return fail(stderr, "net", err)
	}
	if err := w.Close(); err != nil {
		return fail(stderr, "net", err)
	}
	fmt.Fprintf(stdout, "held-out loss with the network %.6f\nwrote %s\n", best, dst)
	return 0
}

// netLetters returns the piece letters of v, in its types' order.
func netLetters(v *rules.Variant) string {
	var b strings.Builder
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		b.WriteByte(v.Letter(t))
	}
	return b.String()
}

// netTeacher is the network sample's teacher played by an external UCI
// engine at a fixed depth: a scorer of tune's teacher (uciScorer, whose
// NewGame clears the engine's table, so that a game's moves depend on its
// positions alone) that also plays.
type netTeacher struct {
	uciScorer
	depth int
}

func newNetTeacher(spec string, v *rules.Variant, depth int) (*netTeacher, error) {
	sp, err := match.ParseSpec("uci:" + spec)
	if err != nil {
		return nil, fmt.Errorf("-engine: %w", err)
	}
	e, err := match.StartUCI(sp)
	if err != nil {
		return nil, fmt.Errorf("-engine: %w", err)
	}
	return &netTeacher{uciScorer: uciScorer{e: e, v: v}, depth: depth}, nil
}

// Play searches p to the depth and returns the engine's move and score.
func (t *netTeacher) Play(ctx context.Context, p *rules.Position) (rules.Move, int, int, error) {
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	m, infos, err := t.e.Best(ctx, p, fmt.Sprintf("go depth %d", t.depth))
	if err != nil {
		return rules.NoMove, 0, 0, err
	}
	cp, mate, err := lastUCIScore(infos)
	return m, cp, mate, err
}
