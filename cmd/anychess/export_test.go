package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/csipgs"
)

// moderatedGame plays a seeded random moderated csipgs game on a board
// with terrain.
func moderatedGame(t *testing.T, seed uint64) *game.Game {
	t.Helper()
	v, err := catalog.MustDefault().Get("csipgs")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = v.Configure(map[string]string{"Moderated": "1", "Terrain": "c4,f5"}); err != nil {
		t.Fatal(err)
	}
	g := game.New(v, nil)
	rng := rand.New(rand.NewPCG(seed, 1))
	for range 120 {
		p := g.Position()
		if p.Status().Over() {
			break
		}
		ms := p.LegalMoves(nil)
		if err := g.Play(ms[rng.IntN(len(ms))], 0); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestExportSeenBy: a moderated game exported for each player keeps the
// player's own turns whole and shows of the opponent's only what csipgs
// says the player saw, and not the terrain; the full record stays
// readable.
func TestExportSeenBy(t *testing.T) {
	g := moderatedGame(t, 3)
	var sb strings.Builder
	if err := pgn.Write(&sb, notation.WriteGame(g)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), `[Terrain "`) {
		t.Fatalf("the full record has no Terrain tag for the export to hide:\n%s", sb.String())
	}
	file := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		var out, errb bytes.Buffer
		if st := runExport([]string{"-for", c.String(), file}, nil, &out, &errb); st != 0 {
			t.Fatalf("%v: status %d: %s", c, st, errb.String())
		}
		games, err := pgn.Parse(out.String())
		if err != nil || len(games) != 1 {
			t.Fatalf("%v: %v", c, err)
		}
		ex := games[0]
		if v, _ := ex.Tag("Viewer"); v != c.String() {
			t.Errorf("%v: Viewer %q", c, v)
		}
		if _, ok := ex.Tag("FEN"); ok {
			t.Errorf("%v: the export shows the true start", c)
		}
		if terrain, ok := ex.Tag("Terrain"); ok {
			t.Errorf("%v: the export lists the terrain %s (hidden until seen)", c, terrain)
		}
		// Each ply as the player saw it, in order.
		var want []string
		hidden := 0
		g.Replay(func(p *rules.Position, i int) {
			text, note := csipgs.Observed(p, g.Plies[i].Move, c)
			if p.Turn() == c && text != csipgs.FormatMove(p, g.Plies[i].Move) {
				t.Errorf("%v: own ply %d written %q", c, i+1, text)
			}
			if text == "" {
				text = "--"
				hidden++
				if note == "" {
					t.Errorf("%v: ply %d hidden with no note", c, i+1)
				}
			}
			want = append(want, text)
		})
		var got []string
		for _, m := range ex.Moves {
			got = append(got, strings.Split(m.Text, ",")...)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%v: plies\n%v\nwant\n%v", c, got, want)
		}
		if hidden == 0 {
			t.Errorf("%v saw every ply of the opponent: the test game hides nothing", c)
		}
	}
	// A game without views has no per-player export.
	var out, errb bytes.Buffer
	chess := filepath.Join(t.TempDir(), "chess.pgn")
	os.WriteFile(chess, []byte("1. e4 e5 *\n"), 0o644)
	if st := runExport([]string{"-for", "white", chess}, nil, &out, &errb); st != 1 || !strings.Contains(errb.String(), "hidden information") {
		t.Errorf("chess -for: status %d, %q", st, errb.String())
	}
	errb.Reset()
	if st := runExport([]string{"-plain", chess}, nil, &out, &errb); st != 0 || !strings.Contains(out.String(), "1. e4 e5") {
		t.Errorf("chess -plain: status %d, %q %q", st, out.String(), errb.String())
	}
}

// spaces is an endless reader of blanks, PGN's whitespace.
type spaces struct{}

func (spaces) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = ' '
	}
	return len(b), nil
}

// TestReadPGNTextBound: PGN text up to the bound is read whole; beyond it
// is an error, not a record cut short at the bound.
func TestReadPGNTextBound(t *testing.T) {
	if _, text, err := readPGNText(io.LimitReader(spaces{}, maxPGN), "in"); err != nil || len(text) != maxPGN {
		t.Errorf("%d MiB: %d bytes, %v", maxPGN>>20, len(text), err)
	}
	if _, _, err := readPGNText(io.LimitReader(spaces{}, maxPGN+1), "in"); err == nil || !strings.Contains(err.Error(), "more than 64 MiB") {
		t.Errorf("a byte more: %v", err)
	}
}
