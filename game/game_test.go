package game_test

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

func TestGame(t *testing.T) {
	v, _ := variant.MustDefault().Get("chess")
	g := game.New(v, nil)
	for _, s := range []string{"f3", "e5", "g4", "Qh4#"} {
		m, err := notation.ParseMove(g.Position(), s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m, 0); err != nil {
			t.Fatal(err)
		}
	}
	if st := g.Status(); st.Result != rules.BlackWins || st.Reason != rules.ReasonCheckmate {
		t.Errorf("status %v", st)
	}
	// A move that is not legal, or an outcome the move does not have, is refused.
	if err := g.Play(rules.NewMove(0, 0, rules.Normal), 0); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("illegal move: %v", err)
	}
	if !g.Undo() || len(g.Plies) != 3 || g.Status().Over() {
		t.Errorf("after undo: %d plies, %v", len(g.Plies), g.Status())
	}
	m, _ := notation.ParseMove(g.Position(), "Qh4")
	if err := g.Play(m, 1); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("outcome 1 of a certain move: %v", err)
	}
	// Replay sees each position before its ply.
	var sans []string
	g.Replay(func(p *rules.Position, i int) { sans = append(sans, notation.SAN(p, g.Plies[i].Move)) })
	if len(sans) != 3 || sans[2] != "g4" {
		t.Errorf("replay %v", sans)
	}
	// A result set on the game (a resignation) wins over the position.
	g.Result, g.Reason = rules.WhiteWins, "black resigns"
	if st := g.Status(); st.Result != rules.WhiteWins || st.Detail != "black resigns" {
		t.Errorf("set result: %v", st)
	}
	g.SetTag("White", "a")
	g.SetTag("White", "b")
	if w, ok := g.Tag("White"); !ok || w != "b" || len(g.Tags) != 1 {
		t.Errorf("tags %v", g.Tags)
	}
	if g.Start().FEN() != v.StartFEN() {
		t.Error("start changed")
	}
}
