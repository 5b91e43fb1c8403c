package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// runVerify checks the dice of finished games with chance: the revealed
// seed (ChaCha8, or PCG in games stored before) matches the commitment
// published at the start, and every outcome in the record followed from
// the seed (game.Verify). A record that carries its variant's definition
// (notation.DefinitionTag) is replayed under it, whatever the registry
// now holds under the variant's name; one that names a definition without
// carrying it is replayed only if it is the registry's. A game of a
// variant without chance has no dice: it is checked by replaying its
// moves by the rules.
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "[FILE.pgn] (standard input if none)", stderr)
	variants := fs.String("variants", "", "variant files to load: a file or a directory of *.toml files, several separated by '"+string(os.PathListSeparator)+"'")
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
	if *variants != "" {
		if _, err := reg.LoadPath(*variants); err != nil {
			return fail(stderr, "verify", err)
		}
	}
	status := 0
	for i, pg := range games {
		vreg, defNote, err := recordRegistry(reg, pg)
		if err != nil {
			fmt.Fprintf(stdout, "game %d: not read: %v\n", i+1, err)
			status = 1
			continue
		}
		g, err := notation.ReadGame(vreg, pg)
		if err != nil {
			fmt.Fprintf(stdout, "game %d: not read: %v\n", i+1, err)
			status = 1
			continue
		}
		if _, ok := g.Tag("RNG"); !ok && !g.Variant.Chance() && !g.Variant.Seeded() {
			fmt.Fprintf(stdout, "game %d: ok: its %d plies replay by the rules; %s has no chance, so there are no dice to check%s\n",
				i+1, len(g.Plies), g.Variant.Name(), defNote)
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
		fmt.Fprintf(stdout, "game %d: ok: %d outcomes follow from the %s seed; the seed and nonce %s%s%s\n", i+1, rolls, gen, commit, startNote(g), defNote)
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

// recordRegistry returns the registry a record is replayed with, and a
// note for the report: reg, or, for a record that carries its variant's
// definition, reg with that definition compiled in place of the variant
// of its name. A record that names a definition it does not carry is an
// error unless the definition is the registry's.
func recordRegistry(reg *variant.Registry, pg *pgn.Game) (notation.Variants, string, error) {
	hash, def, err := notation.Definition(pg)
	if err != nil || hash == "" {
		return reg, "", err
	}
	if def != nil {
		v, err := reg.Compile(def, "the record's variant definition")
		if err != nil {
			return nil, "", err
		}
		note := "; replayed under the variant definition the record carries, " + hash
		if cur, err := reg.Get(v.Name()); err == nil {
			if _, h, ok, err := variant.DefinitionOf(reg.File, cur.Name()); err == nil && ok && h != hash {
				note += ", not the registry's " + v.Name() + " (" + h + ")"
			}
		}
		return overlay{reg, v}, note, nil
	}
	tag, ok := pg.Tag("Variant")
	if !ok {
		tag = "chess" // as ReadGame reads a record without the tag
	}
	v, err := reg.Get(tag)
	if err != nil {
		return nil, "", fmt.Errorf("%w: it names variant definition %s without carrying it, and %w", notation.ErrPGN, hash, err)
	}
	_, h, ok, err := variant.DefinitionOf(reg.File, v.Name())
	if err != nil || !ok || h != hash {
		return nil, "", fmt.Errorf("%w: it names variant definition %s without carrying it, and the registry's %s is another (%s)", notation.ErrPGN, hash, v.Name(), h)
	}
	return reg, "; replayed under the registry's " + v.Name() + ", the variant definition the record names", nil
}

// overlay is a registry with one variant put in place of the variant of
// its name, or added.
type overlay struct {
	*variant.Registry
	v *rules.Variant
}

// Get returns the overlaid variant for its name, else the registry's.
func (o overlay) Get(name string) (*rules.Variant, error) {
	if strings.EqualFold(name, o.v.Name()) {
		return o.v, nil
	}
	return o.Registry.Get(name)
}

// Variants returns the registry's variants with the overlaid one in place
// of its name's.
func (o overlay) Variants() []*rules.Variant {
	out := []*rules.Variant{o.v}
	for _, v := range o.Registry.Variants() {
		if v.Name() != o.v.Name() {
			out = append(out, v)
		}
	}
	return out
}

// Aliases returns the overlaid variant's name alone, else the registry's.
func (o overlay) Aliases(v *rules.Variant) []string {
	if v == o.v {
		return []string{v.Name()}
	}
	return o.Registry.Aliases(v)
}
