package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// ErrPGN is wrapped by errors about a PGN game's content (as opposed to its
// syntax, which package pgn reports).
var ErrPGN = errors.New("bad PGN game")

// variantAliases maps Variant tag values other programs write to ours.
var variantAliases = map[string]string{
	"standard": "chess", "from position": "chess", "normal": "chess", "": "chess",
}

// findVariant resolves a PGN Variant tag: a name or alias in any case,
// spaces, hyphens and underscores ignored, or a variant's title.
func findVariant(reg *variant.Registry, tag string) (*rules.Variant, error) {
	key := strings.ToLower(strings.TrimSpace(tag))
	if a, ok := variantAliases[key]; ok {
		key = a
	}
	if v, err := reg.Get(key); err == nil {
		return v, nil
	}
	squash := strings.NewReplacer(" ", "", "-", "", "_", "")
	for _, v := range reg.Variants() {
		for _, name := range append(reg.Aliases(v), v.Title()) {
			if squash.Replace(strings.ToLower(name)) == squash.Replace(key) {
				return v, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: unknown variant %q", ErrPGN, tag)
}

// ReadGame replays a parsed PGN game: the variant comes from the Variant tag
// (chess if there is none), the start from the FEN tag, and each move is
// read as SAN or coordinates. Comments and NAGs are kept with their plies.
func ReadGame(reg *variant.Registry, pg *pgn.Game) (*game.Game, error) {
	vt, _ := pg.Tag("Variant")
	v, err := findVariant(reg, vt)
	if err != nil {
		return nil, err
	}
	start := v.Start()
	if fen, ok := pg.Tag("FEN"); ok {
		start, err = v.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("%w: FEN tag: %w", ErrPGN, err)
		}
	}
	g := game.New(v, start)
	for _, t := range pg.Tags {
		g.Tags = append(g.Tags, game.Tag{Name: t.Name, Value: t.Value})
	}
	g.Comments = pg.Comment
	for i, pm := range pg.Moves {
		p := g.Position()
		m, err := ParseMove(p, pm.Text)
		if err != nil {
			return nil, fmt.Errorf("%w: move %d (%s): %w", ErrPGN, i/2+1, pm.Text, err)
		}
		if err := g.Play(m, 0); err != nil {
			return nil, fmt.Errorf("%w: move %d (%s): %w", ErrPGN, i/2+1, pm.Text, err)
		}
		pl := &g.Plies[len(g.Plies)-1]
		pl.NAGs, pl.Comments = pm.NAGs, pm.Comments
	}
	var recorded rules.Result
	switch pg.Result {
	case "1-0":
		recorded = rules.WhiteWins
	case "0-1":
		recorded = rules.BlackWins
	case "1/2-1/2":
		recorded = rules.Draw
	}
	// A result the final position does not give by rule (a resignation, an
	// agreed draw, a loss on time) is kept on the game.
	if recorded != rules.Ongoing && g.Position().Status().Result != recorded {
		g.Result = recorded
		g.Reason = "as recorded"
	}
	return g, nil
}

// WriteGame turns a game into PGN: the seven-tag roster, then Variant
// (left out for chess, so that ordinary tools read the game), SetUp and FEN
// when the game does not start from the variant's start, the other tags,
// and the moves in SAN with their comments and NAGs. The result is the
// game's, or the rule's if the final position ends the game.
func WriteGame(g *game.Game) *pgn.Game {
	pg := &pgn.Game{Comment: g.Comments}
	for _, t := range g.Tags {
		switch t.Name {
		case "Variant", "SetUp", "FEN", "Result":
			continue
		}
		pg.Tags = append(pg.Tags, pgn.Tag{Name: t.Name, Value: t.Value})
	}
	result := g.Status().Result
	pg.SetTag("Result", result.String())
	if g.Variant.Name() != "chess" {
		pg.SetTag("Variant", g.Variant.Name())
	}
	if fen := g.Start().FEN(); fen != g.Variant.StartFEN() {
		pg.SetTag("SetUp", "1")
		pg.SetTag("FEN", fen)
	}
	g.Replay(func(p *rules.Position, i int) {
		pl := g.Plies[i]
		pg.Moves = append(pg.Moves, pgn.Move{Text: SAN(p, pl.Move), NAGs: pl.NAGs, Comments: pl.Comments})
	})
	pg.Result = result.String()
	return pg
}
