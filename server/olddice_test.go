package server

import (
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// TestOldPCGGame: a game stored before ChaCha8 (a PCG seed, no dice key)
// is played on with its PCG dice, reveals "PCG:<seed>" at the end, and
// verifies; a new game's state names ChaCha8 from the start.
func TestOldPCGGame(t *testing.T) {
	ts := newTestServer(t, "", nil)
	var tokens [2]string
	rec := &store.Game{ID: "oldpcg", Variant: "vazir", Options: map[string]string{"MPT": "2"}, Seed: 987654321,
		Nonce: "0123456789abcdef0123456789abcdef", Opponent: "human", Created: time.Now().UTC(), Result: "*"}
	for i := range 2 {
		tokens[i], rec.TokenHash[i] = newToken()
	}
	if err := ts.store.Create(ctxT(t), rec); err != nil {
		t.Fatal(err)
	}
	w, b := join(t, ts, rec.ID, tokens[0], 0), join(t, ts, rec.ID, tokens[1], 0)
	if st := w.stateAt(0); st.Dice == nil || st.Dice.Gen != game.GenPCG {
		t.Fatalf("the old game's dice: %+v", st.Dice)
	}
	v, on := playUntil(t, [2]*seatClient{w, b}, 0, func(*loadtest.Frame) bool { return rolls(plyEvents(t, w)) >= 2 })
	if on {
		if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
			t.Fatalf("resign: %s %s", f.Code, f.Message)
		}
	}
	end := w.final()
	if end.Dice == nil || end.Dice.Gen != game.GenPCG || end.Dice.Seed != "987654321" {
		t.Fatalf("the end reveals %+v", end.Dice)
	}
	if n := checkRolls(t, plyEvents(t, w), end.Dice.Gen, end.Dice.Seed); n == 0 {
		t.Errorf("no roll checked at version %d", v)
	}
	text := getPGN(t, ts, rec.ID)
	if tagOf(text, "RNG") != "PCG:987654321" {
		t.Errorf("RNG tag %q", tagOf(text, "RNG"))
	}
	games, err := pgn.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := notation.ReadGame(catalog.MustDefault(), games[0])
	if err != nil {
		t.Fatal(err)
	}
	if n, err := game.Verify(g); err != nil || n == 0 {
		t.Errorf("verify: %d rolls, %v\n%s", n, err, text)
	}

	_, nw, _, _ := humanGame(t, ts, map[string]any{"variant": "vazir"})
	if st := nw.stateAt(0); st.Dice == nil || st.Dice.Gen != game.GenChaCha8 {
		t.Errorf("a new game's dice: %+v", st.Dice)
	}
}
