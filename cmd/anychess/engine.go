package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

func runUCI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("uci", "", stderr)
	hash := fs.Int("hash", 16, "transposition table size in MB")
	files := fs.String("file", "", "variant files to offer besides the built-in ones: a file, a directory of *.toml files, or a list separated by ':' (as the VariantPath option)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "uci", err)
	}
	if *files != "" {
		if _, err := reg.LoadPath(*files); err != nil {
			return fail(stderr, "uci", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := uci.Run(ctx, stdin, stdout, reg, search.New(*hash)); err != nil && ctx.Err() == nil {
		return fail(stderr, "uci", err)
	}
	return 0
}

// benchPositions are searched by bench: starts and middle games of each
// built-in variant. Changing them changes the signature.
var benchPositions = []struct {
	variant, fen string
	depth        int
}{
	{"chess", "", 11},
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 9},
	{"chess", "r1bqk2r/p3b1pp/1p2p3/2ppnp1P/PP1P4/4BP1P/2PKP1B1/RN1Q2NR w kq - 2 11", 10},
	{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 13},
	{"greatshatranj", "", 10},
	{"greatshatranj", "1negkm1enw/wppp1ppppp/p3p2h2/10/5H1M2/N3P5/PPPP1PPPPP/1WEGK2ENW b - - 7 7", 9},
	{"greatshatranj", "2e2k2n1/wp1npp2pp/pp1M1p3g/5E3w/2P1N2p2/1P1P1P3N/P3PE1PP1/G3K4W w - - 8 37", 9},
	{"chatrang", "", 10},
	{"chatrang", "r2kq1nr/ppp2ppp/2np4/4p3/2B1P1b1/3P1N2/PPP2PPP/RN1QKB1R w - - 0 1", 9},
	{"chatrang", "rn3r2/p5pp/1pp1k2B/2P2p2/8/2Pb3N/P2PKPPP/1R1R4 b - - 0 1", 9},
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("bench", "", stderr)
	hash := fs.Int("hash", 16, "transposition table size in MB")
	quiet := fs.Bool("q", false, "print only the totals")
	threads := threadsFlag(fs)
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if badThreads("bench", *threads, stderr) {
		return 2
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "bench", err)
	}
	var total int64
	var elapsed time.Duration
	for i, b := range benchPositions {
		v, err := reg.Get(b.variant)
		if err != nil {
			return fail(stderr, "bench", err)
		}
		p := v.Start()
		if b.fen != "" {
			if p, err = v.ParseFEN(b.fen); err != nil {
				return fail(stderr, "bench", err)
			}
		}
		e := search.New(*hash)
		e.SetThreads(*threads)
		res := e.Search(context.Background(), p, search.Limits{Depth: b.depth}, nil)
		total += res.Info.Nodes
		elapsed += res.Info.Time
		if !*quiet {
			fmt.Fprintf(stdout, "%2d %-14s depth %2d  %-8s nodes %9d  %6d ms\n", i+1, b.variant, b.depth,
				notation.SAN(p, res.Best), res.Info.Nodes, res.Info.Time.Milliseconds())
		}
	}
	fmt.Fprintf(stdout, "nodes %d\ntime %.3fs\nnps %.0f\n", total, elapsed.Seconds(), float64(total)/max(elapsed.Seconds(), 1e-9))
	return 0
}

func runSearch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("search", "", stderr)
	var pf posFlags
	pf.register(fs)
	depth := fs.Int("depth", 0, "depth limit in plies")
	movetime := fs.Duration("time", 0, "time limit, e.g. 2s (default 1s if no depth)")
	multipv := fs.Int("multipv", 1, "lines to show")
	hash := fs.Int("hash", 64, "transposition table size in MB")
	threads := threadsFlag(fs)
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if badThreads("search", *threads, stderr) {
		return 2
	}
	p, err := pf.position()
	if err != nil {
		return fail(stderr, "search", err)
	}
	lim := search.Limits{Depth: *depth, MoveTime: *movetime, MultiPV: *multipv}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.MoveTime = time.Second
	}
	e := search.New(*hash)
	e.SetThreads(*threads)
	info := func(in search.Info) {
		score := fmt.Sprintf("%+.2f", float64(in.Score)/100)
		if in.Mate != 0 {
			score = fmt.Sprintf("mate %d", in.Mate)
		}
		fmt.Fprintf(stdout, "depth %2d  line %d  %-9s nodes %9d  %s\n", in.Depth, in.MultiPV, score, in.Nodes, sanLine(p, in.PV))
	}
	// The variant's player plays the whole turn (a design is decided, not
	// searched).
	res, err := player.New(p.Variant(), e, 1).Search(context.Background(), p, lim, info)
	if err != nil && !errors.Is(err, player.ErrNoMove) {
		return fail(stderr, "search", err)
	}
	if ph := face.Describe(p.Variant(), p).Phase; ph != "" && res.Best != rules.NoMove {
		fmt.Fprintf(stdout, "%s: the variant's player decides it apart from the search\n", ph)
	}
	if res.Best == rules.NoMove {
		fmt.Fprintf(stdout, "no legal move: %s\n", p.Status())
		return 0
	}
	if res.Info.Nodes > 0 {
		fmt.Fprintf(stdout, "nodes %d  time %.3fs  nps %d\n", res.Info.Nodes, res.Info.Time.Seconds(), res.Info.NPS())
	}
	fmt.Fprintf(stdout, "best %s (%s)\n", notation.SAN(p, res.Best), notation.Coord(p, res.Best))
	return 0
}

// sanLine writes moves from p in SAN.
func sanLine(p *rules.Position, moves []rules.Move) string {
	q := p.Clone()
	s := ""
	for i, m := range moves {
		if i > 0 {
			s += " "
		}
		s += notation.SAN(q, m)
		q.Make(m)
	}
	return s
}
