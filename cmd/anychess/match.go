package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/match"
)

func runMatch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("match", "", stderr)
	var pf posFlags
	pf.register(fs)
	games := fs.Int("games", 10, "number of games (played in pairs, each opening with both colours)")
	p1 := fs.String("p1", "engine", "first player: engine[:depth=N,nodes=N,hash=MB,threads=N,timefactor=F,certain=1,belief=0|1,weights=none|FILE], random, greedy, uci:COMMAND[:opt=v,...], xboard:COMMAND[:variant=NAME,opt=v,...] (COMMAND: program and arguments; in double quotes if it has a colon; options dir=PATH, stderr=FILE)")
	p2 := fs.String("p2", "random", "second player")
	tc := fs.String("tc", "10+0.1", "time control: base+increment in seconds")
	st := fs.Float64("st", 0, "seconds per move instead of -tc")
	conc := fs.Int("concurrency", 1, "games played at the same time")
	openings := fs.String("openings", "", "file of start positions, one FEN per line (default: random balanced openings)")
	plies := fs.Int("randomplies", 6, "plies of random play in a random opening (0: every pair from the start)")
	maxPlies := fs.Int("maxplies", 1000, "a game this long is drawn")
	pgnFile := fs.String("pgn", "", "write the games to this PGN file")
	sprt := fs.String("sprt", "", "stop early by SPRT: elo0,elo1[,alpha,beta] (default alpha=beta=0.05)")
	quiet := fs.Bool("q", false, "no progress line")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	fail2 := func(err error) int {
		fmt.Fprintf(stderr, "anychess match: %v\n", err)
		return 2
	}
	if *plies < 0 {
		return fail2(fmt.Errorf("-randomplies %d: want 0 or more", *plies))
	}
	v, err := pf.variantOf()
	if err != nil {
		return fail(stderr, "match", err)
	}
	seed := uint64(1)
	if pf.seedSet {
		seed = pf.seed
	}
	cfg := match.Config{
		Variant: v, Games: *games, Concurrency: *conc, RandomPlies: *plies,
		MaxPlies: *maxPlies, Seed: seed,
	}
	for i, s := range []string{*p1, *p2} {
		if cfg.Players[i], err = match.ParseSpec(s); err != nil {
			return fail2(err)
		}
	}
	if *st > 0 {
		cfg.TC.MoveTime = time.Duration(*st * float64(time.Second))
	} else {
		base, inc, ok := strings.Cut(*tc, "+")
		b, err1 := strconv.ParseFloat(base, 64)
		i, err2 := strconv.ParseFloat(inc, 64)
		if !ok || err1 != nil || err2 != nil || b <= 0 || i < 0 {
			return fail2(fmt.Errorf("-tc %q: want base+increment in seconds, e.g. 10+0.1", *tc))
		}
		cfg.TC.Base, cfg.TC.Inc = time.Duration(b*float64(time.Second)), time.Duration(i*float64(time.Second))
	}
	if pf.fen != "" {
		cfg.Openings = []string{pf.fen}
	}
	if *openings != "" {
		data, err := os.ReadFile(*openings)
		if err != nil {
			return fail(stderr, "match", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(strings.Split(line, ";")[0])
			if line != "" && !strings.HasPrefix(line, "#") {
				cfg.Openings = append(cfg.Openings, line)
			}
		}
		if len(cfg.Openings) == 0 {
			return fail(stderr, "match", errors.New("the openings file has no positions"))
		}
	}
	if *sprt != "" {
		f := strings.Split(*sprt, ",")
		vals := []float64{0, 0, 0.05, 0.05}
		if len(f) != 2 && len(f) != 4 {
			return fail2(fmt.Errorf("-sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", *sprt))
		}
		for i, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fail2(fmt.Errorf("-sprt %q: %v", *sprt, err))
			}
			vals[i] = v
		}
		cfg.SPRT = &match.SPRT{Elo0: vals[0], Elo1: vals[1], Alpha: vals[2], Beta: vals[3]}
	}
	if *pgnFile != "" {
		f, err := os.Create(*pgnFile)
		if err != nil {
			return fail(stderr, "match", err)
		}
		defer f.Close()
		cfg.PGN = f
	}
	if !*quiet {
		cfg.Progress = func(s match.Stats) {
			fmt.Fprintf(stderr, "\r[%d/%d] %s   ", s.Games(), cfg.Games, s)
		}
	}
	fmt.Fprintf(stdout, "%s vs %s, %s, %d games, %s\n", cfg.Players[0], cfg.Players[1], cfg.Variant.Name(), cfg.Games, cfg.TC)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stats, err := match.Run(ctx, cfg)
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	fmt.Fprintf(stdout, "%d games: %s\n", stats.Games(), stats)
	for _, e := range stats.Errors {
		fmt.Fprintf(stdout, "error: %s\n", e)
	}
	if err != nil {
		return fail(stderr, "match", err)
	}
	return 0
}
