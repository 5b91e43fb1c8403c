package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// posFlags are the flags of every command that works on a position.
type posFlags struct {
	variant string
	fen     string
	file    string
	opts    optList // -opt NAME=VALUE
	seed    uint64
	seedSet bool
	rng     *game.Roller
}

func (pf *posFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&pf.variant, "variant", "", "variant name or alias (default chess, or the -file variant)")
	fs.StringVar(&pf.fen, "fen", "", "position in FEN (default the variant's start)")
	fs.StringVar(&pf.file, "file", "", "variant file to load (TOML)")
	fs.Var(&pf.opts, "opt", "a per-game option of the variant, NAME=VALUE (repeatable), e.g. -opt MPT=2")
	fs.Func("seed", "seed of the random start (Vazir's ranks), the dice and random players (default 1)", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("want a number from 0 to %d", uint64(math.MaxUint64))
		}
		pf.seed, pf.seedSet = n, true
		return nil
	})
}

// optList collects -opt flags.
type optList [][2]string

func (o *optList) String() string {
	parts := make([]string, len(*o))
	for i, kv := range *o {
		parts[i] = kv[0] + "=" + kv[1]
	}
	return strings.Join(parts, " ")
}

func (o *optList) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: want NAME=VALUE", s)
	}
	*o = append(*o, [2]string{name, value})
	return nil
}

// roller returns the seeded random source of the command: the start
// position of a seeded variant is drawn from it first, then the dice.
func (pf *posFlags) roller() *game.Roller {
	if pf.rng == nil {
		seed := pf.seed
		if !pf.seedSet {
			seed = 1
		}
		pf.rng = game.NewRoller(seed)
	}
	return pf.rng
}

// variantOf resolves the flags into a variant with its options.
func (pf *posFlags) variantOf() (*rules.Variant, error) {
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
	if len(pf.opts) == 0 {
		return v, nil
	}
	var known []string
	for _, o := range v.AllOptions() {
		known = append(known, o.Name)
	}
	tags := make(map[string]string, len(pf.opts))
	for _, kv := range pf.opts {
		if !slices.Contains(known, kv[0]) {
			if len(known) == 0 {
				return nil, fmt.Errorf("-opt %s: %s has no options", kv[0], v.Name())
			}
			return nil, fmt.Errorf("-opt %s: %s has the options %s", kv[0], v.Name(), strings.Join(known, ", "))
		}
		tags[kv[0]] = kv[1]
	}
	return v.Configure(tags)
}

// position resolves the flags into a position: -fen, or the variant's
// start, drawn with the seed if the variant's start is random.
func (pf *posFlags) position() (*rules.Position, error) {
	v, err := pf.variantOf()
	if err != nil {
		return nil, err
	}
	if pf.fen != "" {
		return v.ParseFEN(pf.fen)
	}
	return v.Setup(pf.roller())
}

// threadsFlag registers the -threads flag of a command that searches.
func threadsFlag(fs *flag.FlagSet) *int {
	return fs.Int("threads", 1, fmt.Sprintf("search threads, 1 to the machine's CPUs (%d)", search.CPUs()))
}

// badThreads reports, on stderr, whether n is not a thread count the
// machine offers (1 to search.CPUs()).
func badThreads(name string, n int, stderr io.Writer) bool {
	if n < 1 || n > search.CPUs() {
		fmt.Fprintf(stderr, "anychess %s: -threads %d: want 1 to %d (the machine's CPUs)\n", name, n, search.CPUs())
		return true
	}
	return false
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

// readPGNArg reads the PGN games of the file named by the command's one
// argument, or of stdin if there is none, and returns them with the name
// to give in errors; a syntax error names it.
func readPGNArg(fs *flag.FlagSet, stdin io.Reader) ([]*pgn.Game, string, error) {
	in, name := stdin, "standard input"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
		f, err := os.Open(name)
		if err != nil {
			return nil, name, err
		}
		defer f.Close()
		in = f
	}
	games, _, err := readPGNText(in, name)
	return games, name, err
}

// readPGNFile reads the games of the PGN file name, and its bytes.
func readPGNFile(name string) ([]*pgn.Game, []byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readPGNText(f, name)
}

// maxPGN bounds the PGN text a command reads.
const maxPGN = 64 << 20

// readPGNText reads the games of PGN text from in, at most maxPGN bytes
// (more is an error, not a record cut short), named name in errors, and
// the text.
func readPGNText(in io.Reader, name string) ([]*pgn.Game, []byte, error) {
	text, err := io.ReadAll(io.LimitReader(in, maxPGN+1))
	if err != nil {
		return nil, nil, err
	}
	if len(text) > maxPGN {
		return nil, nil, fmt.Errorf("%s: more than %d MiB of PGN", name, maxPGN>>20)
	}
	games, err := pgn.Parse(string(text))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return games, text, nil
}
