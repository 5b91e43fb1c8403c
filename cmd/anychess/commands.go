package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

func runVariants(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("variants", "", stderr)
	file := fs.String("file", "", "also load this variant file")
	long := fs.Bool("l", false, "print each variant's rules summary")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "variants", err)
	}
	if *file != "" {
		if _, err := reg.Load(*file); err != nil {
			return fail(stderr, "variants", err)
		}
	}
	for _, v := range reg.Variants() {
		b := v.Board()
		names := reg.Aliases(v)
		fmt.Fprintf(stdout, "%-14s %-22s %dx%d  aliases: %s\n", v.Name(), v.Title(), b.Files, b.Ranks, strings.Join(names[1:], ", "))
		if *long {
			for _, line := range strings.Split(v.Spec().Description, "\n") {
				fmt.Fprintf(stdout, "    %s\n", line)
			}
			fmt.Fprintf(stdout, "    start: %s\n\n", v.StartFEN())
		}
	}
	return 0
}

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("check", "FILE...", stderr)
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, name := range fs.Args() {
		reg, err := catalog.Default()
		if err != nil {
			return fail(stderr, "check", err)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "anychess check: %v\n", err)
			status = 1
			continue
		}
		v, err := reg.Compile(data, name)
		if err != nil {
			fmt.Fprintf(stderr, "anychess check: %v\n", err)
			status = 1
			continue
		}
		b := v.Board()
		fmt.Fprintf(stdout, "%s: ok: %s (%s), %dx%d, %d piece types, start %s, %d legal moves\n",
			name, v.Name(), v.Title(), b.Files, b.Ranks, v.NumTypes(), v.StartFEN(), len(v.Start().LegalMoves(nil)))
	}
	return status
}

func runShow(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("show", "", stderr)
	var pf posFlags
	pf.register(fs)
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	p, err := pf.position()
	if err != nil {
		return fail(stderr, "show", err)
	}
	fmt.Fprint(stdout, face.Diagram(p, rules.White, face.DiagramOptions{Labels: face.Labels(p.Variant(), p)}))
	fmt.Fprint(stdout, describeText(face.Describe(p.Variant(), p)))
	if st := p.Status(); st.Over() {
		fmt.Fprintf(stdout, "%s\n%s to move; the game is over: %s\n", p.FEN(), p.Turn(), st)
		return 0
	}
	fmt.Fprintf(stdout, "%s\n%s to move; %d legal moves; %s\n", p.FEN(), p.Turn(), len(p.LegalMoves(nil)), p.Status())
	return 0
}

func runMoves(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("moves", "", stderr)
	var pf posFlags
	pf.register(fs)
	useSAN := fs.Bool("san", false, "print moves in SAN instead of coordinate notation")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	p, err := pf.position()
	if err != nil {
		return fail(stderr, "moves", err)
	}
	if st := p.Status(); st.Over() {
		return fail(stderr, "moves", fmt.Errorf("the game is over: %s", st))
	}
	for _, m := range p.LegalMoves(nil) {
		if *useSAN {
			fmt.Fprintln(stdout, notation.SAN(p, m))
		} else {
			fmt.Fprintln(stdout, notation.Coord(p, m))
		}
	}
	return 0
}

func runApply(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("apply", "MOVE...", stderr)
	var pf posFlags
	pf.register(fs)
	roll := fs.Bool("roll", false, "roll the seeded dice for a move whose outcome chance decides (default: the move succeeds unless marked, e.g. exd5~ for a failed try)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	p, err := pf.position()
	if err != nil {
		return fail(stderr, "apply", err)
	}
	var played []string
	rolled := false
	for i, text := range fs.Args() {
		if st := p.Status(); st.Over() {
			return fail(stderr, "apply", fmt.Errorf("move %d %q: the game is over: %s", i+1, text, st))
		}
		m, k, err := notation.ParseElement(p, text)
		marked := k != 0
		if err != nil {
			return fail(stderr, "apply", fmt.Errorf("move %d: %w", i+1, err))
		}
		outs := p.Outcomes(m)
		if !marked && *roll && len(outs) > 1 {
			if k, err = rules.Choose(pf.roller(), outs); err != nil {
				return fail(stderr, "apply", err)
			}
			rolled = true
		}
		played = append(played, notation.Coord(p, m)+outs[k].Mark)
		p.MakeOutcome(m, k)
	}
	if rolled {
		fmt.Fprintln(stdout, strings.Join(played, " "))
	}
	fmt.Fprintln(stdout, p.FEN())
	fmt.Fprintln(stdout, p.Status())
	return 0
}

func runPerft(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("perft", "", stderr)
	var pf posFlags
	pf.register(fs)
	depth := fs.Int("depth", 0, "depth of the move tree (required, 1..20)")
	divide := fs.Bool("divide", false, "print the count below each legal move")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if *depth < 1 || *depth > 20 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "anychess perft: -depth must be from 1 to 20")
		fs.Usage()
		return 2
	}
	p, err := pf.position()
	if err != nil {
		return fail(stderr, "perft", err)
	}
	start := time.Now()
	var nodes uint64
	if *divide {
		moves, counts := rules.Divide(p, *depth)
		for i, m := range moves {
			fmt.Fprintf(stdout, "%s: %d\n", notation.Coord(p, m), counts[i])
			nodes += counts[i]
		}
		fmt.Fprintf(stdout, "moves %d\n", len(moves))
	} else {
		nodes = rules.Perft(p, *depth)
	}
	el := time.Since(start)
	fmt.Fprintf(stdout, "nodes %d\ntime %.3fs\nnps %.0f\n", nodes, el.Seconds(), float64(nodes)/max(el.Seconds(), 1e-9))
	return 0
}
