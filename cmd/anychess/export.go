package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// runExport rewrites game records: as they are (normalised), as plain PGN
// for tools that know no turn tokens (-plain), or, for a game with hidden
// information, as one player saw it (-for white|black).
func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("export", "[FILE.pgn] (standard input if none)", stderr)
	plain := fs.Bool("plain", false, "plain PGN: each turn as its effective move (Vazir's failed tries in comments)")
	forSide := fs.String("for", "", "a game with hidden information as this player saw it: white or black")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() > 1 || *plain && *forSide != "" {
		fs.Usage()
		return 2
	}
	var viewer rules.Color
	if *forSide != "" {
		c, err := parseColor(*forSide)
		if err != nil {
			return fail(stderr, "export", err)
		}
		viewer = c
	}
	games, _, err := readPGNArg(fs, stdin)
	if err != nil {
		return fail(stderr, "export", err)
	}
	reg := catalog.MustDefault()
	for i, pg := range games {
		g, err := notation.ReadGame(reg, pg)
		if err != nil {
			return fail(stderr, "export", fmt.Errorf("game %d: %w", i+1, err))
		}
		var out *pgn.Game
		switch {
		case *plain:
			out = notation.WritePlainGame(g)
		case *forSide != "":
			if !face.Hidden(g.Variant) {
				return fail(stderr, "export", fmt.Errorf("game %d: -for needs a game with hidden information (each player sees all of the others)", i+1))
			}
			out = seenBy(g, viewer)
		default:
			out = notation.WriteGame(g)
		}
		if err := pgn.Write(stdout, out); err != nil {
			return fail(stderr, "export", fmt.Errorf("game %d: %w", i+1, err))
		}
	}
	return 0
}

// seenBy returns the record of a game with hidden information as player
// c saw it: the tags but the start position and the secret options (the
// terrain, hidden until seen), with the tags Viewer and ViewFEN
// (the start as c saw it); c's turns whole, and of the opponent's what c
// learnt (face.Observe): a ply c did not see is "--", with what c saw
// of it in a comment.
func seenBy(g *game.Game, c rules.Color) *pgn.Game {
	full := notation.WriteGame(g)
	out := &pgn.Game{Result: full.Result}
	secret := map[string]bool{"FEN": true, "SetUp": true}
	for _, o := range g.Variant.Options() {
		secret[o.Name] = o.Secret // the terrain: c knows only what it saw
	}
	for _, t := range full.Tags {
		if !secret[t.Name] {
			out.Tags = append(out.Tags, t)
		}
	}
	out.Tags = append(out.Tags, pgn.Tag{Name: "Viewer", Value: c.String()})
	if v := g.Start().View(c); v.Position != nil {
		out.Tags = append(out.Tags, pgn.Tag{Name: "ViewFEN", Value: v.Position.FEN()})
	}
	var texts, notes []string
	var num int
	var black bool
	flush := func() {
		if len(texts) == 0 {
			return
		}
		mv := pgn.Move{Text: strings.Join(texts, ","), Num: num, Black: black}
		if len(notes) > 0 {
			mv.Comments = []string{strings.Join(notes, "; ")}
		}
		out.Moves = append(out.Moves, mv)
		texts, notes = texts[:0], notes[:0]
	}
	var mover rules.Color
	g.Replay(func(p *rules.Position, i int) {
		if len(texts) > 0 && game.TurnOver(p, mover) {
			flush()
		}
		if len(texts) == 0 {
			mover, num, black = p.Turn(), p.Fullmove(), p.Turn() == rules.Black
		}
		text, note := face.Observe(g.Variant, p, g.Plies[i].Move, c)
		if text == "" {
			text = "--"
		}
		texts = append(texts, text)
		if note != "" {
			notes = append(notes, note)
		}
	})
	flush()
	return out
}
