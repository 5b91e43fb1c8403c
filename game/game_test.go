package game_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

func TestGame(t *testing.T) {
	v, _ := vtest.Builtins().Get("chess")
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

// TestRolled: a game has rolled once a ply had several outcomes (a
// Vazir capture try), not before, and never in a game without chance.
func TestRolled(t *testing.T) {
	reg := catalog.MustDefault()
	tests := []struct {
		variant, fen string
		moves        []string
		want         bool
	}{
		{"chess", "", []string{"e4", "e5", "Nf3"}, false},
		{"vazir", "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0", nil, false},
		{"vazir", "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0", []string{"d1d2"}, false},
		{"vazir", "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0", []string{"d1d5"}, true},
	}
	for _, tc := range tests {
		v, err := reg.Get(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		var start *rules.Position
		if tc.fen != "" {
			if start, err = v.ParseFEN(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		g := game.New(v, start)
		for _, s := range tc.moves {
			m, err := notation.ParseMove(g.Position(), s)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m, 0); err != nil {
				t.Fatal(err)
			}
		}
		if got := g.Rolled(); got != tc.want {
			t.Errorf("%s %v: rolled %v, want %v", tc.variant, tc.moves, got, tc.want)
		}
	}
}

// TestTurnOver follows turns of several plies: a failed Vazir try keeps
// the turn, a success or the last try passes it, and a game that ends
// inside a turn (VZ-15a) ends the turn too.
func TestTurnOver(t *testing.T) {
	vz, err := catalog.MustDefault().Get("vazir")
	if err != nil {
		t.Fatal(err)
	}
	if vz, err = vz.Configure(map[string]string{"MPT": "2"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, fen string
		plies     []string // coordinates, "~" for a failed try
		over      []bool   // TurnOver after each ply
	}{
		{"a success", "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0", []string{"a1a8"}, []bool{true}},
		{"a failure, then a success", "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0", []string{"a1a8~", "a1a8"}, []bool{false, true}},
		{"the tries used up", "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0", []string{"a1a8~", "a1a8~", "a8a1"}, []bool{false, true, true}},
		{"the extra king move", "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", []string{"f7f2~", "f7f2~", "h1g2"}, []bool{false, false, true}},
		{"mated inside the turn", "k07/5R02/8/8/8/8/5n9P0P0/6B0K0 w - - 0 1 t0", []string{"f7f2~", "g1f2~"}, []bool{false, true}},
	} {
		p, err := vz.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		g := game.New(vz, p)
		for i, s := range tc.plies {
			mover := g.Position().Turn()
			text, failed := strings.CutSuffix(s, "~")
			m, err := notation.ParseCoord(g.Position(), text)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			k := 0
			if failed {
				k = 1
			}
			if err := g.Play(m, k); err != nil {
				t.Fatalf("%s: ply %d: %v", tc.name, i, err)
			}
			if got := game.TurnOver(g.Position(), mover); got != tc.over[i] {
				t.Errorf("%s: TurnOver after ply %d (%s) = %v", tc.name, i, s, got)
			}
		}
	}
	// In chess every ply ends its turn.
	v, _ := vtest.Builtins().Get("chess")
	g := game.New(v, nil)
	m, _ := notation.ParseMove(g.Position(), "e4")
	if err := g.Play(m, 0); err != nil || !game.TurnOver(g.Position(), rules.White) {
		t.Errorf("chess e4: %v", err)
	}
}
