package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// getPGN fetches a game's PGN from the server.
func getPGN(t *testing.T, ts *testServer, id string) string {
	t.Helper()
	resp, err := http.Get(ts.URL + "/api/games/" + id + "/pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("pgn: %d %v", resp.StatusCode, err)
	}
	return string(b)
}

// TestDiceCommitment: while a Vazir game is played its record shows only
// a commitment to the dice's seed; once it is over the seed and nonce are
// revealed, and every roll verifies against them.
func TestDiceCommitment(t *testing.T) {
	ts := newTestServer(t, "", nil)
	var id string
	var w, b *seatClient
	// Play until a die has been rolled (a capture that may fail), in a new
	// game if one ends before.
	rolled := func() bool {
		_, es := w.events()
		for _, e := range es {
			if e.Roll > 0 {
				return true
			}
		}
		return false
	}
	for game := 0; game < 5 && (w == nil || !rolled()); game++ {
		id, w, b, _ = humanGame(t, ts, map[string]any{"variant": "vazir"})
		cs := [2]*seatClient{w, b}
		for v := int64(0); v < 400 && !rolled(); v++ {
			st := w.stateAt(v)
			if st.Status.Result != "*" || st.Status.Reason != "" {
				break
			}
			seat := 0
			if st.Turn == "black" {
				seat = 1
				st = b.stateAt(v) // the legal moves go to the seat to move
			}
			cs[seat].mustMove(st.Legal[int(v)*7%len(st.Legal)])
		}
	}
	if !rolled() {
		t.Fatal("no die was rolled in five games")
	}
	live := getPGN(t, ts, id)
	if !strings.Contains(live, `[RNGCommit "sha256:`) {
		t.Fatalf("no commitment in the live record:\n%s", live)
	}
	if strings.Contains(live, "[RNG ") || strings.Contains(live, "[RNGNonce ") {
		t.Fatalf("the live record shows the seed:\n%s", live)
	}
	// Every state frame so far carries the commitment and nothing more.
	for _, f := range append(append([]*loadtest.Frame(nil), w.frames...), b.frames...) {
		if f.T != "state" {
			continue
		}
		if f.Dice == nil || f.Dice.Commit != tagOf(live, game.CommitTag) || f.Dice.Seed != "" || f.Dice.Nonce != "" {
			t.Fatalf("a live state's dice: %+v, want only the commitment %s", f.Dice, tagOf(live, game.CommitTag))
		}
	}
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	end := w.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Status.Reason != "" })
	if end.Dice == nil || end.Dice.Seed == "" || len(end.Dice.Nonce) != 32 {
		t.Fatalf("the final state reveals %+v", end.Dice)
	}
	done := getPGN(t, ts, id)
	games, err := pgn.Parse(done)
	if err != nil {
		t.Fatal(err)
	}
	g, err := notation.ReadGame(catalog.MustDefault(), games[0])
	if err != nil {
		t.Fatal(err)
	}
	rolls, err := game.Verify(g)
	if err != nil {
		t.Fatalf("%v\n%s", err, done)
	}
	if rolls == 0 {
		t.Errorf("no roll verified:\n%s", done)
	}
	if c1, c2 := tagOf(live, game.CommitTag), tagOf(done, game.CommitTag); c1 != c2 {
		t.Errorf("the commitment changed: %s, then %s", c1, c2)
	}
	if end.Dice.Gen != game.GenChaCha8 || len(end.Dice.Seed) != 64 {
		t.Errorf("the dice of a new game: %+v, want ChaCha8 with a seed of 64 hex digits", end.Dice)
	}
	if tagOf(done, "RNG") != end.Dice.Gen+":"+end.Dice.Seed || tagOf(done, game.NonceTag) != end.Dice.Nonce {
		t.Errorf("the record reveals %s %s, the state %+v", tagOf(done, "RNG"), tagOf(done, game.NonceTag), end.Dice)
	}
	// The dice stream begins with the first roll (the start is drawn from
	// a stream of its own), so a page checks the rolls without the set-up.
	seed, err := game.ParseSeed(tagOf(done, "RNG"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := g.Variant.Setup(seed.Setup().Roller())
	if err != nil || own.FEN() != g.Start().FEN() {
		t.Errorf("the start is not the draw of the set-up stream: %v", err)
	}
}

// tagOf returns the value of a tag of the first game of PGN text ("" if
// it has none).
func tagOf(text, name string) string {
	games, err := pgn.Parse(text)
	if err != nil || len(games) == 0 {
		return ""
	}
	v, _ := games[0].Tag(name)
	return v
}

// TestDesignAPI: the design editor's prices, and a refused design's fault.
func TestDesignAPI(t *testing.T) {
	ts := newTestServer(t, "", nil)
	get := func(d string) (int, map[string]any) {
		q := ""
		if i := strings.Index(d, "&"); i >= 0 {
			d, q = d[:i], d[i:]
		}
		resp, err := http.Get(ts.URL + "/api/design?d=" + url.QueryEscape(d) + q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body
	}
	st, body := get("royal-bNbW")
	if st != http.StatusOK || body["price"] != float64(6) || body["royal"] != true || !strings.Contains(body["diagram"].(string), "*") {
		t.Errorf("royal-bNbW: %d %v", st, body)
	}
	st, body = get("WXQ")
	e, _ := body["error"].(map[string]any)
	if st != http.StatusBadRequest || e["code"] != "bad_design" || e["pos"] != float64(1) {
		t.Errorf("WXQ: %d %v", st, body)
	}
	// The variant is found by its face; a variant without designs prices
	// nothing.
	for _, tc := range []struct {
		variant string
		status  int
	}{{"csipgs", http.StatusOK}, {"chess", http.StatusBadRequest}, {"nosuch", http.StatusBadRequest}} {
		st, body := get("FfR&variant=" + tc.variant)
		if st != tc.status {
			t.Errorf("variant %s: %d %v, want %d", tc.variant, st, body, tc.status)
		}
	}
	// With a slot, the move that puts the design into it, in the
	// canonical text of the design; no move without a slot.
	for _, tc := range []struct {
		query  string
		status int
		move   any
	}{
		{"FfR&slot=Q", http.StatusOK, "&Q>?=FfR"},
		{"FfR&variant=csipgs&slot=N", http.StatusOK, "&N>?=FfR"},
		{"FfR", http.StatusOK, nil},
		{"FfR&slot=", http.StatusBadRequest, nil},
		{"FfR&slot=QR", http.StatusBadRequest, nil},
		{"WXQ&slot=Q", http.StatusBadRequest, nil},
	} {
		st, body := get(tc.query)
		if st != tc.status || body["move"] != tc.move {
			t.Errorf("%s: %d %v, want %d with move %v", tc.query, st, body, tc.status, tc.move)
		}
	}
	// A game's options price as the game does: fG at the default forward
	// multiplier 0.7, and at 0.5 when the game says so; a bad option is
	// refused, not ignored.
	opts := func(o string) string { return "&variant=csipgs&options=" + url.QueryEscape(o) }
	_, plain := get("fG" + opts(""))
	_, half := get("fG" + opts(`{"GForwardMultiplier":"0.5"}`))
	if plain["exact"] == nil || plain["exact"] == half["exact"] {
		t.Errorf("fG costs %v by default and %v with GForwardMultiplier 0.5", plain["exact"], half["exact"])
	}
	for _, bad := range []string{`{"GForwardMultiplier":"0.9"}`, `{"NoSuch":"1"}`, `[1]`} {
		st, body := get("fG" + opts(bad))
		if e, _ := body["error"].(map[string]any); st != http.StatusBadRequest || e["code"] != "bad_option" {
			t.Errorf("options %s: %d %v, want a bad_option error", bad, st, body)
		}
	}
}

// TestVariantOptionsJSON: the lobby reads each variant's options as
// {name, value}.
func TestVariantOptionsJSON(t *testing.T) {
	ts := newTestServer(t, "", nil)
	resp, err := http.Get(ts.URL + "/api/variants")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var vs []struct {
		Name    string              `json:"name"`
		Options []map[string]string `json:"options"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&vs); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range vs {
		for _, o := range v.Options {
			if v.Name == "vazir" && o["name"] == "MPT" && o["value"] == "3" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no vazir option {name: MPT, value: 3} in %+v", vs)
	}
}

// flakyStore is a store whose appends fail while fail is set.
type flakyStore struct {
	store.Store
	fail atomic.Bool
}

func (s *flakyStore) Append(ctx context.Context, id string, ev store.Event, end *store.End) error {
	if s.fail.Load() {
		return errors.New("the store is down")
	}
	return s.Store.Append(ctx, id, ev, end)
}

// TestStoreFailureKeepsDice: a ply the store refuses is not played: the
// game is as it was, and the die rolled for it is taken back, so that the
// rolls that follow are the seed's, as a replay of the stored game (and a
// page checking them) rolls them.
func TestStoreFailureKeepsDice(t *testing.T) {
	var fs *flakyStore
	ts := newTestServer(t, "", func(c *Config) {
		fs = &flakyStore{Store: c.Store}
		c.Store = fs
	})
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "vazir"})
	cs := [2]*seatClient{w, b}
	v, on := playUntil(t, cs, 0, func(st *loadtest.Frame) bool { return chanceMove(t, st) != "" })
	if !on {
		t.Fatalf("the game ended at version %d before a move decided by chance", v)
	}
	st := w.stateAt(v)
	seat := 0
	if st.Turn == "black" {
		seat = 1
	}
	st = cs[seat].stateAt(v)
	m := chanceMove(t, st)
	fs.fail.Store(true)
	if f := cs[seat].move(m); f.T != "error" || f.Code != "internal" {
		t.Fatalf("%s with the store down: %s %s", m, f.T, f.Code)
	}
	fs.fail.Store(false)
	if now := join(t, ts, id, "", 0).stateAt(v); now.V != v || now.FEN != st.FEN {
		t.Fatalf("after a refused store: v%d %s, want v%d %s", now.V, now.FEN, v, st.FEN)
	}
	v = cs[seat].mustMove(m)
	// A few more rolls, then the end reveals the seed.
	v, on = playUntil(t, cs, v, func(*loadtest.Frame) bool { return rolls(plyEvents(t, w)) >= 3 })
	if on {
		if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
			t.Fatalf("resign: %s %s", f.Code, f.Message)
		}
	}
	end := w.final()
	if n := checkRolls(t, plyEvents(t, join(t, ts, id, "", 0)), end.Dice.Gen, end.Dice.Seed); n == 0 {
		t.Errorf("no roll checked at version %d", v)
	}
}

// TestEngineSeedFromDice: the engine's seed for its guesses follows from
// the game's secret dice seed, whatever the generator, so two games with
// different ChaCha8 keys do not share it.
func TestEngineSeedFromDice(t *testing.T) {
	seeds := map[uint64]string{}
	for _, rec := range []*store.Game{
		{ID: "a", DiceKey: strings.Repeat("01", 32)},
		{ID: "b", DiceKey: strings.Repeat("02", 32)},
		{ID: "c", Seed: 7},
		{ID: "d", Seed: 8},
	} {
		s := (&liveGame{rec: rec}).engineSeed()
		if other, ok := seeds[s]; ok {
			t.Errorf("games %s and %s share the engine seed %d", other, rec.ID, s)
		}
		seeds[s] = rec.ID
	}
}
