package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// miniText is Gardner's minichess under name, its knight moving as
// knight (a Betza string).
func miniText(name, knight string) string {
	return fmt.Sprintf(`# Gardner's minichess
name = %q
title = "Mini"
start = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"

[board]
files = 5
ranks = 5

[[piece]]
letter = "K"
name = "king"
betza = "K"
royal = true

[[piece]]
letter = "Q"
name = "queen"
betza = "Q"

[[piece]]
letter = "R"
name = "rook"
betza = "R"

[[piece]]
letter = "B"
name = "bishop"
betza = "B"

[[piece]]
letter = "N"
name = "knight"
betza = %q

[[piece]]
letter = "P"
name = "pawn"
betza = "fmWfcF"

[pawn]
letter = "P"

[promotion]
ranks = [5]
pieces = "QRBN"
mandatory = true
`, name, knight)
}

// ridersText is a 16x16 board whose first ranks are full of queens.
func ridersText() string {
	return "name = \"riders\"\nstart = \"qqqqqqqkqqqqqqqq/" + strings.Repeat("16/", 14) + "QQQQQQQKQQQQQQQQ w - - 0 1\"\n" +
		"[board]\nfiles = 16\nranks = 16\n[[piece]]\nletter = \"K\"\nname = \"king\"\nbetza = \"K\"\nroyal = true\n" +
		"[[piece]]\nletter = \"Q\"\nname = \"queen\"\nbetza = \"Q\"\n"
}

// postVariant posts text to path and returns the status and the body.
func postVariant(t *testing.T, ts *testServer, path, text string) (int, []byte) {
	t.Helper()
	body, _ := json.Marshal(VariantText{Text: text})
	resp, err := http.Post(ts.URL+path, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func checkVariant(t *testing.T, ts *testServer, text string) (int, VariantCheck) {
	t.Helper()
	st, body := postVariant(t, ts, "/api/variants/check", text)
	var c VariantCheck
	if st == http.StatusOK {
		if err := json.Unmarshal(body, &c); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
	return st, c
}

func TestCheckVariant(t *testing.T) {
	ts := newTestServer(t, "", nil)
	good := miniText("mini", "N")
	v, err := catalog.MustDefault().Compile([]byte(good), "mini")
	if err != nil {
		t.Fatal(err)
	}
	st, c := checkVariant(t, ts, good)
	if st != http.StatusOK || !c.OK || len(c.Errors) != 0 || c.Name != "mini" || c.Board == nil || *c.Board != (BoardSize{5, 5}) ||
		c.Start != v.StartFEN() || c.Taken || c.Saved {
		t.Fatalf("good file: %d %+v", st, c)
	}
	want := []uint64{rules.Perft(v.Start(), 1), rules.Perft(v.Start(), 2), rules.Perft(v.Start(), 3)}
	if fmt.Sprint(c.Perft) != fmt.Sprint(want) {
		t.Errorf("perft %v, want %v", c.Perft, want)
	}
	if len(c.Pieces) != 6 || c.Pieces[1].Letter != "Q" || c.Pieces[1].Value <= c.Pieces[4].Value || c.Pieces[4].Value <= 0 ||
		len(c.Pieces[4].Moves) != 8 || c.Pieces[4].From != "c3" {
		t.Errorf("pieces %+v", c.Pieces)
	}
	if _, c := checkVariant(t, ts, strings.Replace(good, `"mini"`, `"chess"`, 1)); !c.OK || !c.Taken {
		t.Errorf("a file named chess: %+v, want ok and taken", c)
	}

	tests := []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"malformed", "name = \"bad\"\n[board\nfiles = 8\n", 2, 7, "expected"},
		{"unknown key", strings.Replace(good, "[board]\n", "[board]\ncolour = 1\n", 1), 7, 1, `unknown key "board.colour"`},
		{"bad start", strings.Replace(good, "rnbqk/", "rnbqkq/", 1), 4, 1, "start position"},
		{"bad betza", miniText("mini", "N!"), 34, 1, "piece N (knight)"},
		{"bad promotion", strings.Replace(good, `pieces = "QRBN"`, `pieces = "QRBNX"`, 1), 44, 1, "promotion piece X"},
		{"16x16 riders", ridersText(), 0, 0, "variant beyond the limits: board 16x16: at most 12x12"},
		{"too long", good + "# " + strings.Repeat("x", 70000) + "\n", 0, 0, "at most 65536 are accepted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, c := checkVariant(t, ts, tc.text)
			if st != http.StatusOK || c.OK || len(c.Errors) == 0 || c.Pieces != nil || c.Perft != nil {
				t.Fatalf("%d %+v, want ok false with errors", st, c)
			}
			e := c.Errors[0]
			if !strings.Contains(e.Message, tc.msg) || tc.line != 0 && (e.Line != tc.line || e.Col != tc.col) {
				t.Errorf("error %+v, want line %d col %d and %q", e, tc.line, tc.col, tc.msg)
			}
		})
	}
	// A file of 1 MiB is refused before it is read.
	st, body := postVariant(t, ts, "/api/variants/check", strings.Repeat("#", 1<<20))
	if st != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), `"too_large"`) || !strings.Contains(string(body), "at most 65536 bytes") {
		t.Errorf("1 MiB: %d %s", st, body)
	}
	resp, err := http.Post(ts.URL+"/api/variants/check", "text/plain", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a text/plain body: %s", resp.Status)
	}
}

// TestCheckDoesNotBlockGames: checks of refused and good files, more than
// may run at once, are all answered while another game's moves are
// played.
func TestCheckDoesNotBlockGames(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Variants.Checks = 1 })
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	texts := []string{ridersText(), "name = \"bad\"\n[board\n", strings.Repeat("#", 1<<20), miniText("mini", "N"), miniText("mini2", "NW")}
	var wg sync.WaitGroup
	results := make([]int, 4*len(texts))
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, body := postVariant(t, ts, "/api/variants/check", texts[i%len(texts)])
			var c VariantCheck
			json.Unmarshal(body, &c)
			switch {
			case st == http.StatusRequestEntityTooLarge:
				results[i] = 2
			case st == http.StatusOK && c.OK && len(c.Perft) == 3:
				results[i] = 1
			case st == http.StatusOK && !c.OK:
				results[i] = 2
			}
		}()
	}
	cs := [2]*seatClient{w, b}
	for i, m := range scholar {
		cs[i%2].mustMove(m)
	}
	if f := w.final(); f.Status.Result != "1-0" {
		t.Errorf("the game ended %+v", f.Status)
	}
	wg.Wait()
	for i, r := range results {
		if want := map[bool]int{true: 1, false: 2}[i%len(texts) >= 3]; r != want {
			t.Errorf("check %d of %.30q: %d, want %d", i, texts[i%len(texts)], r, want)
		}
	}
}

// saveVariant saves text and returns the status and answer.
func saveVariant(t *testing.T, ts *testServer, text string) (int, SavedInfo, string) {
	t.Helper()
	st, body := postVariant(t, ts, "/api/variants", text)
	var info SavedInfo
	if st == http.StatusCreated {
		json.Unmarshal(body, &info)
	}
	return st, info, string(body)
}

func getText(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestSaveVariantBounds(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Variants.SavesPerHour = 5; c.Variants.MaxSaved = 2 })
	tests := []struct {
		name, text string
		status     int
		code       string
	}{
		{"a built-in name", miniText("chess", "N"), http.StatusConflict, "name_taken"},
		{"beyond the limits", ridersText(), http.StatusBadRequest, "bad_variant"},
		{"saved", miniText("mini", "N"), http.StatusCreated, ""},
		{"another", miniText("mini2", "N"), http.StatusCreated, ""},
		{"one too many", miniText("mini3", "N"), http.StatusForbidden, "too_many_variants"},
		{"rate", miniText("mini", "W"), http.StatusTooManyRequests, "rate_limited"},
	}
	for _, tc := range tests {
		st, _, body := saveVariant(t, ts, tc.text)
		if st != tc.status || !strings.Contains(body, tc.code) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, st, body, tc.status, tc.code)
		}
	}
	if st, text := getText(t, ts.URL+"/api/variants/mini/file"); st != http.StatusOK || text != miniText("mini", "N") {
		t.Errorf("the saved file: %d %q", st, text)
	}
	if st, text := getText(t, ts.URL+"/api/variants/chess/file"); st != http.StatusOK || !strings.Contains(text, `name = "chess"`) {
		t.Errorf("chess's file: %d %.80q", st, text)
	}
	if st, _ := getText(t, ts.URL+"/api/variants/vazir/file"); st != http.StatusNotFound {
		t.Errorf("vazir's file: %d, want 404", st)
	}
	resp, err := http.Post(ts.URL+"/api/games", "application/json", strings.NewReader(`{"variant":"mini","opponent":"engine","level":7}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "levels 1..6") {
		t.Errorf("an engine game of level 7: %d %s", resp.StatusCode, b)
	}
	g := create(t, ts, map[string]any{"variant": "mini", "opponent": "engine", "level": 6})
	if g["id"] == "" {
		t.Errorf("an engine game of level 6: %v", g)
	}
}

// gamePGN returns a game's PGN, parsed.
func gamePGN(t *testing.T, ts *testServer, id string) (string, *pgn.Game) {
	t.Helper()
	st, text := getText(t, ts.URL+"/api/games/"+id+"/pgn")
	if st != http.StatusOK {
		t.Fatalf("pgn: %d %s", st, text)
	}
	games, err := pgn.Parse(text)
	if err != nil || len(games) != 1 {
		t.Fatalf("pgn %q: %v", text, err)
	}
	return text, games[0]
}

// TestSavedVariantReplaced: a game of a saved variant keeps the variant's
// definition when the variant is replaced, and after a restart: it
// replays, and its record carries the definition it was played under.
func TestSavedVariantReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ts := newTestServer(t, path, nil)
	st, v1, body := saveVariant(t, ts, miniText("mini", "N"))
	if st != http.StatusCreated || v1.Replaced || !strings.HasPrefix(v1.Definition, "sha256:") {
		t.Fatalf("save: %d %s", st, body)
	}
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "mini"})
	w.mustMove("Nc3")
	b.mustMove("Nc3")
	st, v2, body := saveVariant(t, ts, miniText("mini", "D")) // the knight becomes a dabbaba
	if st != http.StatusCreated || !v2.Replaced || v2.Definition == v1.Definition {
		t.Fatalf("replace: %d %s", st, body)
	}
	text1, _ := gamePGN(t, ts, id)
	ts.stop()

	ts2 := newTestServer(t, path, nil)
	spec := join(t, ts2, id, "", 0)
	if st := spec.frames[len(spec.frames)-1]; st.V != 2 {
		t.Fatalf("the old game after the restart: v%d", st.V)
	}
	text2, pg := gamePGN(t, ts2, id)
	if text2 != text1 {
		t.Errorf("the old game's PGN changed with the restart:\n%s\nwas\n%s", text2, text1)
	}
	hash, def, err := notation.Definition(pg)
	if err != nil || hash != v1.Definition || string(def) != miniText("mini", "N") {
		t.Fatalf("the PGN's definition %s %q %v, want %s", hash, def, err, v1.Definition)
	}
	// The record replays under the definition it carries, not the
	// variant now saved under its name.
	v, err := catalog.MustDefault().Compile(def, "definition")
	if err != nil {
		t.Fatal(err)
	}
	g, err := notation.ReadGame(oneVariant{v}, pg)
	if err != nil || len(g.Plies) != 2 {
		t.Fatalf("the record under its definition: %v", err)
	}
	var sum Summary
	if st, text := getText(t, ts2.URL+"/api/games/"+id); st != http.StatusOK || json.Unmarshal([]byte(text), &sum) != nil || sum.Definition != v1.Definition || sum.Plies != 2 {
		t.Errorf("the old game's summary: %d %s", st, text)
	}
	// The saved variant is back after the restart, as replaced: a new
	// game plays it.
	if st, text := getText(t, ts2.URL+"/api/variants/mini/file"); st != http.StatusOK || text != miniText("mini", "D") {
		t.Errorf("the saved file after the restart: %d %q", st, text)
	}
	id2, w2, _, _ := humanGame(t, ts2, map[string]any{"variant": "mini"})
	if f := w2.move("Nc3"); f.T != "error" {
		t.Errorf("a knight's move in the new game: %s", f.T)
	}
	w2.mustMove("Nb3")
	_, pg2 := gamePGN(t, ts2, id2)
	if h, _, err := notation.Definition(pg2); err != nil || h != v2.Definition {
		t.Errorf("the new game's definition %s %v, want %s", h, err, v2.Definition)
	}
	var list []VariantInfo
	if st, text := getText(t, ts2.URL+"/api/variants"); st != http.StatusOK || json.Unmarshal([]byte(text), &list) != nil {
		t.Fatalf("variants: %d", st)
	}
	if last := list[len(list)-1]; last.Name != "mini" || last.Pieces[4].Betza != "D" {
		t.Errorf("the lobby's last variant %+v, want the saved mini", last)
	}
}

// TestBuiltinDefinition: a chess game records chess's definition, and its
// record names it without carrying the built-in text.
func TestBuiltinDefinition(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, _, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	w.mustMove("e4")
	reg := catalog.MustDefault()
	_, want, _, err := variant.DefinitionOf(reg.File, "chess")
	if err != nil {
		t.Fatal(err)
	}
	text, pg := gamePGN(t, ts, id)
	hash, def, err := notation.Definition(pg)
	if err != nil || hash != want || def != nil || strings.Contains(text, "VariantFile") {
		t.Errorf("chess record: %s %q %v\n%s", hash, def, err, text)
	}
	id = create(t, ts, map[string]any{"variant": "vazir"})["id"]
	if _, pg := gamePGN(t, ts, id); len(pg.Tags) == 0 {
		t.Error("a vazir record without tags")
	} else if h, ok := pg.Tag(notation.DefinitionTag); ok {
		t.Errorf("a vazir record names a definition %s", h)
	}
}

// oneVariant is a registry of one variant.
type oneVariant struct{ v *rules.Variant }

func (o oneVariant) Get(name string) (*rules.Variant, error) {
	if strings.EqualFold(name, o.v.Name()) {
		return o.v, nil
	}
	return nil, fmt.Errorf("unknown variant %q", name)
}
func (o oneVariant) Variants() []*rules.Variant        { return []*rules.Variant{o.v} }
func (o oneVariant) Aliases(v *rules.Variant) []string { return []string{v.Name()} }

// TestSavedVariantBase: a saved variant whose base is another saved
// variant keeps the base as it stood when it was saved, after the base is
// replaced and after a restart.
func TestSavedVariantBase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ts := newTestServer(t, path, nil)
	child := "base = \"mini\"\nname = \"child\"\ntitle = \"Child\"\n"
	for _, text := range []string{miniText("mini", "N"), child, miniText("mini", "D")} {
		if st, _, body := saveVariant(t, ts, text); st != http.StatusCreated {
			t.Fatalf("save: %d %s", st, body)
		}
	}
	for round, srv := range []*testServer{ts, nil} {
		if srv == nil {
			ts.stop()
			srv = newTestServer(t, path, nil)
		}
		_, w, _, _ := humanGame(t, srv, map[string]any{"variant": "child"})
		if f := w.move("Nc3"); f.T != "ack" {
			t.Errorf("round %d: the child's knight: %s %s", round, f.Code, f.Message)
		}
		if st, text := getText(t, srv.URL+"/api/variants/child/file"); st != http.StatusOK || text != child {
			t.Errorf("round %d: the child's file %d %q", round, st, text)
		}
	}
}
