package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// post sends body to the server's game creation with content type ct and
// returns the status and the decoded answer.
func post(t *testing.T, ts *testServer, ct, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, ts.URL+"/api/games", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// errCode returns the code of a JSON error answer.
func errCode(ans map[string]any) string {
	e, _ := ans["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// TestCreateNeedsJSON checks that a game is created only from a JSON
// body: a text/plain or form body, which any site can make a visitor's
// browser send, is refused with 415 and creates nothing.
func TestCreateNeedsJSON(t *testing.T) {
	ts := newTestServer(t, "", nil)
	body := `{"variant":"chess"}`
	for _, tc := range []struct {
		ct   string
		want int
	}{
		{"text/plain", http.StatusUnsupportedMediaType},
		{"text/plain; charset=utf-8", http.StatusUnsupportedMediaType},
		{"application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"", http.StatusUnsupportedMediaType},
		{"application/json; charset=utf-8", http.StatusCreated},
		{"application/json", http.StatusCreated},
	} {
		st, ans := post(t, ts, tc.ct, body)
		if st != tc.want {
			t.Errorf("Content-Type %q: status %d, want %d (%v)", tc.ct, st, tc.want, ans)
		}
		if tc.want == http.StatusUnsupportedMediaType && errCode(ans) != "unsupported_media_type" {
			t.Errorf("Content-Type %q: answer %v", tc.ct, ans)
		}
	}
	games, err := ts.store.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Errorf("%d games stored, want the 2 created with JSON", len(games))
	}
}

// TestCreateRate checks that one client creates at most the burst of
// games at once; the next is refused with 429 and a Retry-After.
func TestCreateRate(t *testing.T) {
	ts := newTestServer(t, "", nil)
	burst := int(ts.lim.CreateBurst)
	for i := range burst {
		if st, ans := post(t, ts, "application/json", `{"variant":"chess"}`); st != http.StatusCreated {
			t.Fatalf("game %d: %d %v", i, st, ans)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/games", strings.NewReader(`{"variant":"chess"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("game %d: %s, Retry-After %q; want 429 with Retry-After", burst+1, resp.Status, resp.Header.Get("Retry-After"))
	}
}

// TestRequestRate checks the per-client request rate: a client that
// floods the API is answered 429 with a JSON error.
func TestRequestRate(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.RequestRate, c.Limits.RequestBurst = 1, 5 })
	codes := map[int]int{}
	for range 8 {
		resp, err := http.Get(ts.URL + "/api/variants")
		if err != nil {
			t.Fatal(err)
		}
		var ans map[string]any
		if resp.StatusCode == http.StatusTooManyRequests {
			json.NewDecoder(resp.Body).Decode(&ans)
			if errCode(ans) != "rate_limited" {
				t.Errorf("429 answer %v", ans)
			}
		}
		resp.Body.Close()
		codes[resp.StatusCode]++
	}
	if codes[http.StatusOK] != 5 || codes[http.StatusTooManyRequests] != 3 {
		t.Errorf("statuses %v, want 5 OK then 3 rate limited", codes)
	}
}

// TestBodyLimit checks that a body over Limits.MaxBody is refused with 413.
func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.MaxBody = 100 })
	st, ans := post(t, ts, "application/json", `{"variant":"chess","fen":"`+strings.Repeat(" ", 200)+`"}`)
	if st != http.StatusRequestEntityTooLarge || errCode(ans) != "too_large" {
		t.Errorf("status %d %v, want 413 too_large", st, ans)
	}
}

// TestSummaryNotLoaded checks that the summary of a game that is not in
// memory comes from the store without loading it, and says what the live
// game's summary says.
func TestSummaryNotLoaded(t *testing.T) {
	ts := newTestServer(t, "", nil)
	get := func(id string) map[string]any {
		resp, err := http.Get(ts.URL + "/api/games/" + id)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	for _, tc := range []struct {
		name  string
		req   map[string]any
		moves []string
	}{
		{"new", map[string]any{"variant": "chess"}, nil},
		{"played", map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": 60000, "increment_ms": 0}}, []string{"e4", "e5", "Nf3"}},
		{"mated", map[string]any{"variant": "chess"}, scholar},
		{"seeded", map[string]any{"variant": "vazir"}, nil},
		{"hidden", map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "true"}}, nil},
		{"hidden terrain", map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "true", "Terrain": "d4,e5"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, w, b, _ := humanGame(t, ts, tc.req)
			cs := [2]*seatClient{w, b}
			for i, m := range tc.moves {
				cs[i%2].mustMove(m)
			}
			live := get(id)
			w.c.CloseNow()
			b.c.CloseNow()
			// Unload the game: the server forgets it once nobody is there.
			waitUnloaded(t, ts, id)
			stored := get(id)
			if ts.Stats().GamesLive != 0 {
				t.Errorf("GET of a game loaded it: %d games live", ts.Stats().GamesLive)
			}
			lb, _ := json.Marshal(live)
			sb, _ := json.Marshal(stored)
			if bytes.Contains(sb, []byte("Terrain")) || bytes.Contains(lb, []byte("Terrain")) {
				t.Errorf("the summary of a hidden game in play names its terrain:\nstored %s\nlive %s", sb, lb)
			}
			if !bytes.Equal(lb, sb) {
				t.Errorf("summary from the store\n%s\nlive\n%s", sb, lb)
			}
		})
	}
	resp, err := http.Get(ts.URL + "/api/games/nosuchgame")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown game: %s", resp.Status)
	}
}

// waitUnloaded unloads game id once its connections are gone.
func waitUnloaded(t *testing.T, ts *testServer, id string) {
	t.Helper()
	for {
		ts.mu.Lock()
		lg := ts.games[id]
		ts.mu.Unlock()
		if lg == nil {
			return
		}
		gone := false
		lg.call(ctxT(t), func() {
			if len(lg.subs) == 0 && !lg.thinking {
				ts.unload(lg)
				gone = true
			}
		})
		if gone {
			<-lg.done
			return
		}
		select {
		case <-ctxT(t).Done():
			t.Fatal("the game keeps its connections")
		default:
		}
	}
}

// TestEngineGamesPerClient checks that one client plays at most
// Limits.EngineGames engine games at once: one more is refused with 429,
// a game it leaves no longer counts, and a seat's hello to one more is
// refused.
func TestEngineGamesPerClient(t *testing.T) {
	ts := newTestServer(t, "", nil)
	n := ts.lim.EngineGames
	var games []map[string]string
	for i := range n {
		g, err := loadtest.CreateGame(ctxT(t), ts.URL, map[string]any{"variant": "chess", "opponent": "engine", "level": 1})
		if err != nil {
			t.Fatalf("engine game %d: %v", i, err)
		}
		games = append(games, g)
	}
	engineGame := `{"variant":"chess","opponent":"engine","level":1}`
	if st, ans := post(t, ts, "application/json", engineGame); st != http.StatusTooManyRequests || errCode(ans) != "too_many_engine_games" {
		t.Errorf("engine game %d: %d %v", n+1, st, ans)
	}
	// A game with a person is not an engine game.
	if st, ans := post(t, ts, "application/json", `{"variant":"chess"}`); st != http.StatusCreated {
		t.Errorf("human game: %d %v", st, ans)
	}
	// A game the client joined and left no longer counts: one more may be
	// created, and then a seat's hello to the one left is refused.
	sc := join(t, ts, games[0]["id"], games[0]["token"], 0)
	sc.c.Close()
	for ts.engineGames("127.0.0.1") == n { // until the server has seen it leave
		select {
		case <-ctxT(t).Done():
			t.Fatal("the game left still counts")
		case <-time.After(time.Millisecond):
		}
	}
	if st, ans := post(t, ts, "application/json", engineGame); st != http.StatusCreated {
		t.Fatalf("engine game after leaving one: %d %v", st, ans)
	}
	c, err := loadtest.Join(ctxT(t), ts.URL, games[0]["id"], games[0]["token"], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	f, _, err := c.ReadUntil(ctxT(t), func(f *loadtest.Frame) bool { return f.T == "error" || f.T == "welcome" })
	if err != nil || f.T != "error" || f.Code != "too_many_engine_games" {
		t.Errorf("hello to a fifth engine game: %+v %v", f, err)
	}
	// A spectator may watch it all the same.
	join(t, ts, games[0]["id"], "", 0)
}

// TestDrawOfferBound checks that a seat offers a draw at most once in two
// turns, so offers and withdrawals cannot grow the record without moves.
func TestDrawOfferBound(t *testing.T) {
	ts := newTestServer(t, "", nil)
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	offer := func(sc *seatClient, on bool) string {
		f := sc.do(map[string]any{"t": "draw", "offer": on})
		if f.T == "ack" {
			return "ack"
		}
		return f.Code
	}
	steps := []struct {
		who  *seatClient
		do   string // "offer", "withdraw" or a move
		want string
	}{
		{w, "offer", "ack"},
		{w, "withdraw", "ack"},
		{w, "offer", "not_allowed"}, // the same turn
		{b, "offer", "ack"},
		{b, "withdraw", "ack"},
		{w, "e4", ""},
		{b, "offer", "not_allowed"}, // one turn later
		{b, "e5", ""},
		{w, "offer", "ack"}, // two turns later
		{w, "withdraw", "ack"},
		{b, "offer", "ack"},
	}
	for i, s := range steps {
		switch s.do {
		case "offer", "withdraw":
			if got := offer(s.who, s.do == "offer"); got != s.want {
				t.Fatalf("step %d: %s %s: %s, want %s", i, s.who.seat, s.do, got, s.want)
			}
		default:
			s.who.mustMove(s.do)
		}
	}
}

// engineGames returns how many engine games count for client key.
func (s *Server) engineGames(key string) int {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	return len(s.limits.engineGames[key])
}
