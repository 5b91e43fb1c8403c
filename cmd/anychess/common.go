package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/rules"
)

// posFlags are the flags of every command that works on a position.
type posFlags struct {
	variant string
	fen     string
	file    string
}

func (pf *posFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&pf.variant, "variant", "", "variant name or alias (default chess, or the -file variant)")
	fs.StringVar(&pf.fen, "fen", "", "position in FEN (default the variant's start)")
	fs.StringVar(&pf.file, "file", "", "variant file to load (TOML)")
}

// position resolves the flags into a position.
func (pf *posFlags) position() (*rules.Position, error) {
	reg, err := catalog.Default()
	if err != nil {
		return nil, err
	}
	name := pf.variant
	if pf.file != "" {
		v, err := reg.Load(pf.file)
		if err != nil {
			return nil, err
		}
		if name == "" {
			name = v.Name()
		}
	}
	if name == "" {
		name = "chess"
	}
	v, err := reg.Get(name)
	if err != nil {
		return nil, err
	}
	if pf.fen == "" {
		return v.Start(), nil
	}
	return v.ParseFEN(pf.fen)
}

// newFlags returns a flag set that reports errors to stderr and does not exit.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: anychess %s [flags] %s\n\nFlags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns the exit status to use if parsing
// stopped the command (0 for -h, 2 for a bad flag), and whether to go on.
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// fail prints an error for command name and returns exit status 1.
func fail(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "anychess %s: %v\n", name, err)
	return 1
}
