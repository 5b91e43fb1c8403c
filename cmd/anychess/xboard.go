package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/protocol/xboard"
	"github.com/anychess/anychess/search"
)

// runXBoard runs the engine under the XBoard protocol (CECP version 2) on
// standard input and output.
func runXBoard(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("xboard", "", stderr)
	hash := fs.Int("hash", 16, "transposition table size in MB (XBoard's memory command overrides it)")
	files := fs.String("file", "", "variant files to offer besides the built-in ones: a file, a directory of *.toml files, or a list separated by ':' (as the VariantPath option)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "anychess xboard: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if most := search.MaxHashMB(); *hash < 1 || *hash > most {
		fmt.Fprintf(stderr, "anychess xboard: -hash %d: want 1 to %d MB (the machine's memory)\n", *hash, most)
		return 2
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "xboard", err)
	}
	if *files != "" {
		if _, err := reg.LoadPath(*files); err != nil {
			return fail(stderr, "xboard", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := xboard.Run(ctx, stdin, stdout, reg, search.New(*hash)); err != nil && ctx.Err() == nil {
		return fail(stderr, "xboard", err)
	}
	return 0
}
