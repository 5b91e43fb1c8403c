package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/tune"
	"github.com/anychess/anychess/variant"
)

func runTune(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("tune", "", stderr)
	var pf posFlags
	fs.StringVar(&pf.variant, "variant", "", "variant name or alias (default chess, or the -file variant)")
	fs.StringVar(&pf.file, "file", "", "variant file to load (TOML); its weights go beside it")
	fs.Var(&pf.opts, "opt", "a per-game option of the variant, NAME=VALUE (repeatable): the games of the sample are played with it, e.g. -opt Moderated=1")
	games := fs.Int("games", 1200, "self-play games in the sample (0: fit the sample as it is)")
	nodes := fs.Int64("nodes", 1500, "nodes per move in self-play")
	seed := fs.Uint64("seed", 1, "seed of the random openings and of chance")
	random := fs.Int("random", 8, "random plies at the start of each game")
	workers := fs.Int("workers", runtime.NumCPU(), "games played at once")
	data := fs.String("data", ".", "directory of the sample file VARIANT.sample")
	out := fs.String("out", "", "weights file to write (default: beside -file, else VARIANT.weights.toml in -data)")
	iters := fs.Int("iters", 1000, "gradient descent passes over the sample")
	l2 := fs.Float64("l2", 1e-8, "pull of each weight toward its start, per step size squared")
	fixed := fs.String("fixed", "", "comma-separated parts of names: the weights whose name contains one keep their start")
	initFile := fs.String("init", "", "weights file the fit starts from and is pulled toward (default: the variant's own weights); it may be another variant's whose names are weights of this one")
	valid := fs.Bool("valid", true, "hold out the games whose number ends in 8 as well and return the fit where their loss is lowest")
	labelNodes := fs.Int64("label-nodes", 0, "score every sample position with a search of this many nodes, kept in VARIANT.labels in -data (0: no scores)")
	labelEngine := fs.String("label-engine", "", "score the positions with this external UCI engine (COMMAND[:opt=value,...], as a match's uci: player) at -label-nodes nodes instead of our engine")
	records := fs.String("pgn", "", "take the sample's positions from the games of this PGN file (games of the variant, each with a result) instead of playing games; -random plies of each are left out")
	every := fs.Int("every", 1, "with -pgn, keep one position in this many plies")
	views := fs.Bool("view", false, "fit the evaluation of a sample of each position's view (a variant that hides something: what its side to move sees, the rest drawn as the engine draws it) to the true position's result and score")
	lambda := fs.Float64("lambda", 1, "the fit's target: lambda times the game's result plus 1-lambda times the expected score of the search's score (below 1 needs -label-nodes)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if *records != "" {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "games" || f.Name == "nodes" })
		if set {
			return fail(stderr, "tune", fmt.Errorf("-pgn takes the sample from game records: -games and -nodes do not apply"))
		}
		*games = 0
	}
	if *every < 1 {
		return fail(stderr, "tune", fmt.Errorf("-every must be at least 1, got %d", *every))
	}
	if *lambda < 0 || *lambda > 1 || math.IsNaN(*lambda) {
		return fail(stderr, "tune", fmt.Errorf("-lambda must be in [0, 1], got %v", *lambda))
	}
	if *lambda < 1 && *labelNodes <= 0 {
		return fail(stderr, "tune", fmt.Errorf("-lambda %v blends in search scores: give -label-nodes", *lambda))
	}
	if *labelNodes < 0 {
		return fail(stderr, "tune", fmt.Errorf("-label-nodes must not be negative, got %d", *labelNodes))
	}
	var teacher *uciTeacher
	if *labelEngine != "" {
		if *labelNodes <= 0 {
			return fail(stderr, "tune", fmt.Errorf("-label-engine needs -label-nodes, the nodes of its search of each position"))
		}
		var err error
		if teacher, err = newUCITeacher(*labelEngine); err != nil {
			return fail(stderr, "tune", err)
		}
		if err := teacher.identify(); err != nil {
			return fail(stderr, "tune", err)
		}
	}
	v, err := pf.variantOf()
	if err != nil {
		return fail(stderr, "tune", err)
	}
	if err := eval.CheckWeights(v, v.Spec().Weights); err != nil {
		return fail(stderr, "tune", err)
	}
	if _, ok := v.Ext().(rules.Determinizer); *views && !ok {
		return fail(stderr, "tune", fmt.Errorf("-view: %w (%s; a mode that hides something is set with -opt)", tune.ErrNoViews, v.Name()))
	}
	start := v.Spec().Weights
	if *initFile != "" {
		data, err := os.ReadFile(*initFile)
		if err != nil {
			return fail(stderr, "tune", err)
		}
		if _, start, err = variant.ParseWeights(data, *initFile); err != nil {
			return fail(stderr, "tune", err)
		}
		if err := eval.CheckWeights(v, start); err != nil {
			return fail(stderr, "tune", fmt.Errorf("%s: %w", *initFile, err))
		}
	}
	if *out == "" {
		if pf.file != "" {
			*out = variant.WeightsFile(pf.file)
		} else {
			*out = filepath.Join(*data, v.Name()+".weights.toml")
		}
	}
	if err := os.MkdirAll(*data, 0o755); err != nil {
		return fail(stderr, "tune", err)
	}
	sample := filepath.Join(*data, v.Name()+".sample")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := tune.Config{Games: *games, Nodes: *nodes, Seed: *seed, RandomPlies: *random, Workers: *workers}
	var ps []tune.Position
	// How the sample was played, for the weights file's comment.
	played := fmt.Sprintf("at %d nodes a move (seed %d", *nodes, *seed)
	gamesNoun := "self-play games"
	switch {
	case *records != "":
		var n int
		if ps, n, err = recordsSample(v, *records, *random, *every, sample); err != nil {
			return fail(stderr, "tune", err)
		}
		played = fmt.Sprintf("(the records %s, the first %d plies of each left out, one ply in %d", filepath.Base(*records), *random, *every)
		gamesNoun = "recorded games"
		fmt.Fprintf(stderr, "sample %s: %d positions of %d games of %s\n", sample, len(ps), n, *records)
	case *games > 0:
		ps, err = tune.Generate(ctx, v, cfg, sample, progressLine(stderr, "games"))
		fmt.Fprintln(stderr)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "interrupted: the finished games are in %s; run the same command to go on\n", sample)
			}
			return fail(stderr, "tune", err)
		}
	default:
		s, err := tune.ReadSample(sample, "")
		if err != nil {
			return fail(stderr, "tune", err)
		}
		ps = s.Positions
		// A sample fitted as it is was played with the settings of its
		// header, not those of this command's flags.
		played = "(sample " + strings.TrimPrefix(s.Header, "# anychess tune sample: ")
	}
	if *labelNodes > 0 {
		s, err := tune.ReadSample(sample, "")
		if err != nil {
			return fail(stderr, "tune", err)
		}
		labels := filepath.Join(*data, v.Name()+".labels")
		lc := tune.LabelConfig{Nodes: *labelNodes, Workers: *workers}
		if teacher != nil {
			lc.Teacher = teacher
		}
		err = tune.Label(ctx, v, lc, s, labels, progressLine(stderr, "scored games"))
		fmt.Fprintln(stderr)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "interrupted: the scored games are in %s; run the same command to go on\n", labels)
			}
			return fail(stderr, "tune", err)
		}
		ps = s.Positions
		if teacher != nil {
			played += fmt.Sprintf(", scored by %s at %d nodes, lambda %g", teacher.Name(), *labelNodes, *lambda)
		} else {
			played += fmt.Sprintf(", scored at %d nodes, lambda %g", *labelNodes, *lambda)
		}
	}
	// Every tenth game is held out of the fit to measure it; with -valid,
	// the games before those are held out to stop it.
	var train, held, val []tune.Position
	gameSet := map[int]bool{}
	for _, p := range ps {
		gameSet[p.Game] = true
		switch {
		case p.Game%10 == 9:
			held = append(held, p)
		case p.Game%10 == 8 && *valid:
			val = append(val, p)
		default:
			train = append(train, p)
		}
	}
	// With -view the curve's scale K is that of the true positions: the
	// samples' evaluation is to predict what the true one would, on its
	// scale (a sample knows less, and a K fitted to the samples would be
	// flatter and the scores' targets nearer a half).
	kTrue := 0.0
	if *views {
		d, err := tune.FeaturesFrom(v, start, train)
		if err != nil {
			return fail(stderr, "tune", err)
		}
		kTrue = d.FitK(d.Init)
		for _, part := range []*[]tune.Position{&train, &held, &val} {
			if *part, err = tune.Views(v, *part, *seed); err != nil {
				return fail(stderr, "tune", err)
			}
		}
		played += ", fitted on samples of the side to move's view"
	}
	d, err := tune.FeaturesFrom(v, start, train)
	if err != nil {
		return fail(stderr, "tune", err)
	}
	h, err := tune.FeaturesFrom(v, start, held)
	if err != nil {
		return fail(stderr, "tune", err)
	}
	fmt.Fprintf(stdout, "sample %s: %d positions, %d of them held out (every tenth game)\n", sample, len(ps), h.Len())
	var vd *tune.Data
	if *valid {
		if vd, err = tune.FeaturesFrom(v, start, val); err != nil {
			return fail(stderr, "tune", err)
		}
		if vd.Len() == 0 {
			vd = nil
		}
		fmt.Fprintf(stdout, "%d positions of other games to stop the fit on (numbers ending in 8)\n", len(val))
	}
	steps := tune.DefaultSteps(v, d.Names)
	if *fixed != "" {
		tune.Fix(d.Names, steps, strings.Split(*fixed, ","))
	}
	// K is fitted to the games' results; the search's scores are turned
	// into expected scores by the same curve.
	k := d.FitK(d.Init)
	if *views {
		fmt.Fprintf(stdout, "K of the true positions %.4f (of the samples of their views %.4f)\n", kTrue, k)
		k = kTrue
	}
	// Another engine's scores are on a scale of their own: a K of their
	// own, fitted to the same results, turns them into expected scores.
	kLabel := k
	if teacher != nil && *lambda < 1 {
		kLabel = d.FitLabelK()
		fmt.Fprintf(stdout, "K of the teacher's scores %.4f (of our evaluation %.4f)\n", kLabel, k)
	}
	blend := func(d *tune.Data) (*tune.Data, error) {
		if d == nil {
			return nil, nil // no validation games
		}
		return d.Blend(kLabel, *lambda)
	}
	dt, err1 := blend(d)
	ht, err2 := blend(h)
	vt, err3 := blend(vd)
	if err := cmp.Or(err1, err2, err3); err != nil {
		return fail(stderr, "tune", err)
	}
	res, err := tune.Fit(dt, tune.FitConfig{Iterations: *iters, Steps: steps, L2: *l2, K: k, Valid: vt, Progress: func(it int, loss float64) {
		fmt.Fprintf(stderr, "\rfit %d/%d  loss %.6f   ", it, *iters, loss)
	}})
	fmt.Fprintln(stderr)
	if err != nil {
		return fail(stderr, "tune", err)
	}
	heldBefore, heldAfter := h.Loss(d.Init, res.K), h.Loss(res.Weights, res.K)
	fmt.Fprintf(stdout, "K %.4f\nloss before %.6f\nloss after  %.6f\n", res.K, res.Before, res.Loss)
	if vd != nil {
		fmt.Fprintf(stdout, "validation loss %.6f -> %.6f (the weights of iteration %d of %d)\n", res.ValidBefore, res.ValidAfter, res.Iteration, *iters)
	}
	fmt.Fprintf(stdout, "held-out loss before %.6f\nheld-out loss after  %.6f\n", heldBefore, heldAfter)
	if *lambda < 1 {
		fmt.Fprintf(stdout, "held-out loss against the blended targets %.6f -> %.6f\n", ht.Loss(d.Init, res.K), ht.Loss(res.Weights, res.K))
	}
	w := tune.Written(v, d.Names, res.Weights, steps)
	for j, n := range d.Names {
		if steps[j] != 0 && strings.Contains(n, ".value.") {
			fmt.Fprintf(stdout, "%-12s %7.1f -> %7.1f\n", n, d.Init[j], w[n])
		}
	}
	text := variant.FormatWeights(v.Name(), w,
		fmt.Sprintf("Evaluation weights of %s learned by anychess tune from %d positions", v.Name(), d.Len()),
		fmt.Sprintf("of %d %s %s, l2 %g%s); loss %.6f -> %.6f, K %.4f;", max(*games, len(gameSet)), gamesNoun, played, *l2, fitNote(*initFile, vd != nil, res.Iteration), res.Before, res.Loss, res.K),
		fmt.Sprintf("on %d positions of held-out games %.6f -> %.6f.", h.Len(), heldBefore, heldAfter),
		"Weights not named here keep the evaluation's defaults (see docs/tuning.md).")
	if err := os.WriteFile(*out, text, 0o644); err != nil {
		return fail(stderr, "tune", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// fitNote describes, for the weights file's comment, where the fit
// started and where the validation games stopped it.
func fitNote(init string, valid bool, iteration int) string {
	s := ""
	if init != "" {
		s += ", from " + filepath.Base(init)
	}
	if valid {
		s += fmt.Sprintf(", iteration %d by the validation games", iteration)
	}
	return s
}

// progressLine returns a progress report that rewrites one line of w at
// most once a second (and at the end): what of the games are done, the
// positions, the time taken and the time left.
func progressLine(w io.Writer, what string) func(tune.Progress) {
	last := time.Time{}
	return func(p tune.Progress) {
		if time.Since(last) < time.Second && p.Games < p.Total {
			return
		}
		last = time.Now()
		eta := "?"
		if p.ETA > 0 {
			eta = p.ETA.Round(time.Second).String()
		}
		fmt.Fprintf(w, "\r%s %d/%d  positions %d  elapsed %s  eta %s   ", what, p.Games, p.Total, p.Positions,
			p.Elapsed.Round(time.Second), eta)
	}
}

// recordsSample writes the sample file path from the games of the PGN
// file name (notation.ReadGame), each a game of v by its name and with a
// result, their quiet positions (tune.QuietPositions) with the first skip
// plies left out and one ply in every kept. It returns the positions and
// the number of games.
func recordsSample(v *rules.Variant, name string, skip, every int, path string) ([]tune.Position, int, error) {
	games, text, err := readPGNFile(name)
	if err != nil {
		return nil, 0, err
	}
	reg := catalog.MustDefault()
	var gs []tune.Game
	for i, pg := range games {
		g, err := notation.ReadGame(reg, pg)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: game %d: %w", name, i+1, err)
		}
		if g.Variant.Name() != v.Name() {
			return nil, 0, fmt.Errorf("%s: game %d is a game of %s, not %s", name, i+1, g.Variant.Name(), v.Name())
		}
		// The recorded result (notation.ReadGame keeps one the rules do not
		// give, such as a draw at a match's ply limit), else the rules'.
		res, over := tune.ResultScore(g.Status().Result)
		if !over {
			return nil, 0, fmt.Errorf("%s: game %d has no result (%q)", name, i+1, pg.Result)
		}
		gs = append(gs, tune.Game{FENs: tune.QuietPositions(g, skip, every), Result: res})
	}
	sum := sha256.Sum256(text)
	ps, err := tune.WriteSample(path, tune.RecordsHeader(v, filepath.Base(name), sum[:8], skip, every), gs)
	return ps, len(gs), err
}
