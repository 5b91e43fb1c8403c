package csipgs

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
)

// TestGameRecord plays a random game through game.Game, writes it as PGN
// with turn tokens ("Ke1e2,&Q>Y=FfR") and the option tags, and reads it
// back into the same game.
func TestGameRecord(t *testing.T) {
	o := DefaultOptions()
	o.MaxTurns = 40
	o.Relay = true
	v := newVariant(t, o)
	reg := vtest.Builtins()
	if err := reg.Register(v, nil); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	g := game.New(v, v.Start())
	for !g.Status().Over() {
		moves := g.Position().LegalMoves(nil)
		m := moves[r.IntN(len(moves))]
		if DesignPhase(g.Position()) && r.IntN(3) > 0 {
			m = moves[0]
		}
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	var sb strings.Builder
	if err := pgn.Write(&sb, notation.WriteGame(g)); err != nil {
		t.Fatal(err)
	}
	text := sb.String()
	if !strings.Contains(text, `[Variant "csipgs"]`) || !strings.Contains(text, `[Relay "1"]`) || !strings.Contains(text, ",&") {
		t.Fatalf("record:\n%s", text)
	}
	gs, err := pgn.Parse(text)
	if err != nil || len(gs) != 1 {
		t.Fatalf("parse: %v", err)
	}
	back, err := notation.ReadGame(reg, gs[0])
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, text)
	}
	if back.Position().FEN() != g.Position().FEN() || len(back.Plies) != len(g.Plies) {
		t.Errorf("read back to %s, want %s", back.Position().FEN(), g.Position().FEN())
	}
}
