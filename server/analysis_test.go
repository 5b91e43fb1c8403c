package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
)

// other is the address of a client that is not the test's players (who
// connect from 127.0.0.1): a request from the test's loopback proxy that
// forwards it.
const other = "203.0.113.5"

// studyServer is a test server whose loopback clients may speak for
// others through X-Forwarded-For, with a small analysis engine.
func studyServer(t *testing.T, mod func(*StudyConfig)) *testServer {
	return newTestServer(t, "", func(c *Config) {
		c.Limits.TrustedProxies = mustPrefixes(t, "127.0.0.0/8")
		c.Study = StudyConfig{MaxTime: 3 * time.Second, BlunderDepth: 4, BlunderTime: 200 * time.Millisecond}
		if mod != nil {
			mod(&c.Study)
		}
	})
}

// studyGet GETs path from ts as client from ("" for the players' own
// address).
func studyGet(t *testing.T, ctx context.Context, ts *testServer, path, from string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data json.RawMessage
}

// readEvents reads a stream of events until "done" or "error" (or the end).
func readEvents(t *testing.T, resp *http.Response, each func(sseEvent)) []sseEvent {
	t.Helper()
	defer resp.Body.Close()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = json.RawMessage(strings.TrimPrefix(line, "data: "))
		case line == "":
			if cur.name == "" {
				continue
			}
			out = append(out, cur)
			if each != nil {
				each(cur)
			}
			if cur.name == "done" || cur.name == "error" {
				return out
			}
			cur = sseEvent{}
		}
	}
	return out
}

// apiErr decodes an error answer.
func apiErr(t *testing.T, resp *http.Response) (int, string) {
	t.Helper()
	defer resp.Body.Close()
	var e apiError
	json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Error.Code
}

// lines returns the "line" events of a stream.
func lines(t *testing.T, evs []sseEvent) []AnalysisLine {
	t.Helper()
	var out []AnalysisLine
	for _, e := range evs {
		if e.name == "line" {
			var l AnalysisLine
			if err := json.Unmarshal(e.data, &l); err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
	}
	return out
}

// TestAnalysisLines: the analysis of a position streams lines of growing
// depth with their moves in coordinates and SAN, MultiPV lines, White's
// score, and ends with the best move; depth and lines are capped.
func TestAnalysisLines(t *testing.T) {
	ts := studyServer(t, func(c *StudyConfig) { c.MaxDepth = 5; c.MaxLines = 2 })
	ctx := ctxT(t)
	// Black to move takes the bishop that attacks its queen.
	fen := "4k3/8/8/3q4/8/1B6/8/4K3 b - - 0 1"
	resp := studyGet(t, ctx, ts, "/api/analysis?variant=chess&multipv=9&depth=99&fen="+url.QueryEscape(fen), "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	evs := readEvents(t, resp, nil)
	ls := lines(t, evs)
	if len(ls) == 0 || evs[len(evs)-1].name != "done" {
		t.Fatalf("events %v", evs)
	}
	maxPV := 0
	for _, l := range ls {
		if l.Depth > 5 {
			t.Errorf("depth %d beyond the cap 5", l.Depth)
		}
		maxPV = max(maxPV, l.MultiPV)
		if len(l.PV) == 0 || len(l.PV) != len(l.SAN) {
			t.Errorf("line %+v", l)
		}
		if l.White != -l.Score && l.Mate == 0 {
			t.Errorf("black to move: white %d, score %d", l.White, l.Score)
		}
	}
	if maxPV != 2 {
		t.Errorf("lines up to multipv %d, want the cap 2", maxPV)
	}
	last := ls[len(ls)-1]
	var done struct {
		Best    string `json:"best"`
		BestSAN string `json:"best_san"`
	}
	json.Unmarshal(evs[len(evs)-1].data, &done)
	for _, l := range ls {
		if l.MultiPV == 1 && l.Depth == last.Depth && (l.PV[0] != "d5b3" || l.SAN[0] != "Qxb3" || l.Score < 200 || l.White > -200) {
			t.Errorf("best line %+v, want Qxb3 a piece up for Black", l)
		}
	}
	if done.Best != "d5b3" || done.BestSAN != "Qxb3" {
		t.Errorf("done %+v", done)
	}
}

// TestAnalysisEveryVariant: every variant's start position is analysed,
// Vazir's by the search's expectation over its chance moves.
func TestAnalysisEveryVariant(t *testing.T) {
	ts := studyServer(t, func(c *StudyConfig) { c.MaxDepth = 2 })
	for _, v := range catalog.MustDefault().Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			evs := readEvents(t, studyGet(t, ctxT(t), ts, "/api/analysis?variant="+v.Name(), ""), nil)
			if len(evs) == 0 || evs[len(evs)-1].name != "done" {
				t.Fatalf("events %v", evs)
			}
			if !strings.Contains(string(evs[len(evs)-1].data), `"best"`) {
				t.Errorf("done without a best move: %s", evs[len(evs)-1].data)
			}
		})
	}
}

// TestStudyErrors: bad requests get clear errors before any stream.
func TestStudyErrors(t *testing.T) {
	ts := studyServer(t, nil)
	ctx := ctxT(t)
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	w.mustMove("e4")
	b.mustMove("e5")
	tests := []struct {
		path   string
		status int
		code   string
	}{
		{"/api/analysis?variant=chess&fen=" + url.QueryEscape("8/8/8 w - - 0 1"), 400, "bad_fen"},
		{"/api/analysis/position?variant=chess&fen=" + url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"), 400, "bad_fen"},
		{"/api/analysis?variant=nosuch", 400, "unknown_variant"},
		{"/api/analysis/position?variant=chess&options=" + url.QueryEscape(`{"Nope":"1"}`), 400, "bad_option"},
		{"/api/analysis/position?variant=chess&options=notjson", 400, "bad_option"},
		{"/api/analysis/position", 400, "bad_request"},
		{"/api/analysis/position?variant=chess&moves=e4+e4", 400, "bad_request"},
		{"/api/analysis/position?variant=chess&moves=zz9", 400, "bad_request"},
		{"/api/analysis?variant=chess&multipv=0", 400, "bad_request"},
		{"/api/analysis?variant=chess&depth=x", 400, "bad_request"},
		{"/api/analysis/position?game=nosuchgame", 404, "not_found"},
		{"/api/analysis/position?game=" + id + "&ply=9", 400, "bad_request"},
		{"/api/analysis/position?game=" + id + "&ply=-1", 400, "bad_request"},
		{"/api/analysis/position?game=" + id + "&fen=x", 400, "bad_request"},
		{"/api/games/nosuchgame/blunders", 404, "not_found"},
	}
	for _, tc := range tests {
		st, code := apiErr(t, studyGet(t, ctx, ts, tc.path, other))
		if st != tc.status || code != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.path, st, code, tc.status, tc.code)
		}
	}
	// A spectator may study a live game without hidden information.
	var info PositionInfo
	resp := studyGet(t, ctx, ts, "/api/analysis/position?game="+id+"&moves=Nf3", other)
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if resp.StatusCode != 200 || info.Turn != "black" || !strings.HasPrefix(info.FEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b") ||
		!slices.ContainsFunc(info.Legal, func(l LegalMove) bool { return l.SAN == "Nc6" && l.Move == "b8c6" }) || !slices.Equal(info.Last, []string{"g1", "f3"}) {
		t.Errorf("status %d, position %+v", resp.StatusCode, info)
	}
}

// TestStudyRefusals: no analysis of a live game by its players, however
// the position is named, nor of a live game with hidden information by
// anyone; once over, anyone may study either.
func TestStudyRefusals(t *testing.T) {
	ts := studyServer(t, nil)
	ctx := ctxT(t)
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	w.mustMove("e4")
	b.mustMove("e5")
	now := url.QueryEscape("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	asPlayer := []string{
		"/api/analysis?game=" + id,
		"/api/analysis/position?game=" + id + "&ply=1",
		"/api/games/" + id + "/study",
		"/api/games/" + id + "/blunders",
		"/api/analysis?variant=chess&fen=" + now,                   // the position on the board
		"/api/analysis/position?variant=chess&moves=e4+e5",         // reached by moves
		"/api/analysis/position?variant=chess&moves=e4+e5+Nf3+Nc6", // the position passed on the way
	}
	for _, path := range asPlayer {
		if st, code := apiErr(t, studyGet(t, ctx, ts, path, "")); st != 403 || code != "not_allowed" {
			t.Errorf("a player: %s: %d %s, want 403 not_allowed", path, st, code)
		}
	}
	// Another position of the same variant is the player's to study.
	if resp := studyGet(t, ctx, ts, "/api/analysis/position?variant=chess&moves=d4", ""); resp.StatusCode != 200 {
		t.Errorf("another position: %d", resp.StatusCode)
	}
	// A spectator studies the live game.
	if resp := studyGet(t, ctx, ts, "/api/games/"+id+"/study", other); resp.StatusCode != 200 {
		t.Errorf("a spectator: %d", resp.StatusCode)
	}

	// A live game with hidden information: nobody.
	hid, hw, _, _ := humanGame(t, ts, map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "1"}})
	for _, path := range []string{"/api/analysis?game=" + hid, "/api/games/" + hid + "/study", "/api/games/" + hid + "/blunders"} {
		if st, code := apiErr(t, studyGet(t, ctx, ts, path, other)); st != 403 || code != "not_allowed" {
			t.Errorf("a hidden game: %s: %d %s, want 403 not_allowed", path, st, code)
		}
	}

	// Its players may analyse no position of its variant, whose board
	// they would name by their views.
	otherPos := "/api/analysis/position?variant=csipgs&fen=" + url.QueryEscape("4k3/8/8/8/8/8/8/3K4 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}")
	if st, code := apiErr(t, studyGet(t, ctx, ts, otherPos, "")); st != 403 || code != "not_allowed" {
		t.Errorf("a player of a hidden game, another position of its variant: %d %s, want 403 not_allowed", st, code)
	}

	// Over: the players and the hidden game are free to study.
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	if f := hw.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	for _, path := range append(asPlayer[:4:4], "/api/games/"+hid+"/study", "/api/analysis/position?game="+hid, otherPos) {
		resp := studyGet(t, ctx, ts, path, "")
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("after the end: %s: %d", path, resp.StatusCode)
		}
	}
}

// TestAnalysisBounds: a client may run only StudyConfig.PerClient
// analyses at once, all clients together MaxAnalyses.
func TestAnalysisBounds(t *testing.T) {
	ts := studyServer(t, func(c *StudyConfig) { c.PerClient = 1; c.MaxAnalyses = 2; c.MaxTime = 20 * time.Second })
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	open := func(from string) *http.Response {
		resp := studyGet(t, ctx, ts, "/api/analysis?variant=chess", from)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", from, resp.StatusCode)
		}
		// Its first line: it is running.
		r := bufio.NewReader(resp.Body)
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := open(other)
	defer first.Body.Close()
	if st, code := apiErr(t, studyGet(t, ctx, ts, "/api/analysis?variant=chess", other)); st != 429 || code != "rate_limited" {
		t.Errorf("a second analysis of one client: %d %s, want 429", st, code)
	}
	second := open("203.0.113.6")
	defer second.Body.Close()
	if st, code := apiErr(t, studyGet(t, ctx, ts, "/api/games/x/blunders", "203.0.113.7")); st != 404 {
		t.Errorf("blunders of no game: %d %s", st, code) // the game is looked up first
	}
	if st, code := apiErr(t, studyGet(t, ctx, ts, "/api/analysis?variant=chess", "203.0.113.7")); st != 503 || code != "busy" {
		t.Errorf("a third analysis in all: %d %s, want 503 busy", st, code)
	}
	// A closed stream frees its place.
	first.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp := studyGet(t, ctx, ts, "/api/analysis/position?variant=chess", other)
		resp.Body.Close()
		ts.study.mu.Lock()
		n := ts.study.running[other]
		ts.study.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed analysis still counts")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playAll plays moves in turn by w and b, and waits for the end of the
// game on w's connection.
func playAll(moves []string, w, b *seatClient) {
	for i, m := range moves {
		c := w
		if i%2 == 1 {
			c = b
		}
		c.mustMove(m)
	}
	w.final()
}

// TestBlunders: the scholar's mate's 3...Nf6 is marked, with the move
// that was better; no ply of White's is.
func TestBlunders(t *testing.T) {
	ts := studyServer(t, nil)
	ctx := ctxT(t)
	gid, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	playAll(scholar, w, b)
	var sg StudyGame
	resp := studyGet(t, ctx, ts, "/api/games/"+gid+"/study", "")
	json.NewDecoder(resp.Body).Decode(&sg)
	resp.Body.Close()
	var sans []string
	for _, p := range sg.Plies {
		sans = append(sans, p.SAN)
	}
	if !slices.Equal(sans, scholar) || !sg.Game.Finished {
		t.Fatalf("study of the game: %v finished %v", sans, sg.Game.Finished)
	}
	var evals []PlyEval
	evs := readEvents(t, studyGet(t, ctx, ts, "/api/games/"+gid+"/blunders", ""), func(e sseEvent) {
		if e.name == "eval" {
			var pe PlyEval
			json.Unmarshal(e.data, &pe)
			evals = append(evals, pe)
		}
	})
	if len(evals) != len(scholar)+1 || evals[len(evals)-1].White != 1000 {
		t.Fatalf("evals %+v", evals)
	}
	var done struct {
		Threshold int       `json:"threshold"`
		Blunders  []Blunder `json:"blunders"`
	}
	json.Unmarshal(evs[len(evs)-1].data, &done)
	if done.Threshold != 200 || len(done.Blunders) == 0 {
		t.Fatalf("done %s", evs[len(evs)-1].data)
	}
	found := false
	for _, bl := range done.Blunders {
		if bl.Seat == "white" {
			t.Errorf("a white blunder marked: %+v", bl)
		}
		if bl.Ply == 6 && bl.SAN == "Nf6" && bl.Drop > 500 && bl.Best != "" && bl.Best != "Nf6" {
			found = true
		}
	}
	if !found {
		t.Errorf("3...Nf6 not marked: %+v", done.Blunders)
	}
}

// TestStudyStreamOutlivesWriteTimeout: a blunder check streams longer
// than the HTTP server's write timeout, each event moving the deadline.
func TestStudyStreamOutlivesWriteTimeout(t *testing.T) {
	ts := studyServer(t, func(c *StudyConfig) { c.BlunderDepth = 30; c.BlunderTime = 400 * time.Millisecond })
	gid, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	playAll(scholar, w, b)
	hs := httptest.NewUnstartedServer(ts.Server.Handler())
	hs.Config.WriteTimeout = time.Second
	hs.Start()
	defer hs.Close()
	start := time.Now()
	resp, err := http.Get(hs.URL + "/api/games/" + gid + "/blunders")
	if err != nil {
		t.Fatal(err)
	}
	evs := readEvents(t, resp, nil)
	if len(evs) == 0 || evs[len(evs)-1].name != "done" {
		t.Fatalf("after %v: %d events, the last %v", time.Since(start), len(evs), evs[max(len(evs)-1, 0):])
	}
	if time.Since(start) < time.Second {
		t.Fatalf("the check took %v, no longer than the write timeout: the test shows nothing", time.Since(start))
	}
}

// TestAnalysisInTurn: a client allowed one analysis at a time may start
// its next one as soon as it reads the last one's "done".
func TestAnalysisInTurn(t *testing.T) {
	ts := studyServer(t, func(c *StudyConfig) { c.PerClient = 1; c.MaxDepth = 1 })
	for i := range 100 {
		evs := readEvents(t, studyGet(t, ctxT(t), ts, "/api/analysis?variant=chess", ""), nil)
		if len(evs) == 0 || evs[len(evs)-1].name != "done" {
			t.Fatalf("analysis %d: events %v", i, evs)
		}
	}
}
