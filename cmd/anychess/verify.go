package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
)

// runVerify checks the dice of finished games with chance: the revealed
// seed (ChaCha8, or PCG in games stored before) matches the commitment
// published at the start, and every outcome in the record followed from
// the seed (game.Verify).
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "[FILE.pgn] (standard input if none)", stderr)
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	games, name, err := readPGNArg(fs, stdin)
	if err != nil {
		return fail(stderr, "verify", err)
	}
	if len(games) == 0 {
		return fail(stderr, "verify", fmt.Errorf("%s: no games", name))
	}
	reg := catalog.MustDefault()
	status := 0
	for i, pg := range games {
		g, err := notation.ReadGame(reg, pg)
		if err != nil {
			fmt.Fprintf(stdout, "game %d: not read: %v\n", i+1, err)
			status = 1
			continue
		}
		rolls, err := game.Verify(g)
		if err != nil {
			fmt.Fprintf(stdout, "game %d: FAILED: %v\n", i+1, err)
			status = 1
			continue
		}
		commit := "no commitment tag"
		if c, ok := g.Tag(game.CommitTag); ok {
			commit = "matches " + c
		}
		tag, _ := g.Tag("RNG")
		gen, _, _ := strings.Cut(tag, ":")
		fmt.Fprintf(stdout, "game %d: ok: %d outcomes follow from the %s seed; the seed and nonce %s%s\n", i+1, rolls, gen, commit, startNote(g))
	}
	return status
}

// startNote says where a verified game's start came from, when the seed
// does not account for it: a variant that draws its start by chance whose
// recorded start is not the seed's draw, or a set-up position.
func startNote(g *game.Game) string {
	if g.Variant.Seeded() {
		tag, _ := g.Tag("RNG")
		if seed, err := game.ParseSeed(tag); err == nil && game.StartDrawn(g, seed) {
			return "; the start was drawn from the seed"
		}
		return "; the start was given, not drawn from the seed: the seed does not vouch for it"
	}
	if g.Start().FEN() != g.Variant.StartFEN() {
		return "; the start was given (a set-up position)"
	}
	return ""
}
