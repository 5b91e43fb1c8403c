package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// testServer is a server on a loopback port with its store.
type testServer struct {
	*Server
	URL   string
	http  *httptest.Server
	store store.Store
	path  string
}

// openStore opens the SQLite store at path that a test server runs on.
func openStore(t testing.TB, path string) store.Store {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func newTestServer(t testing.TB, path string, mod func(*Config)) *testServer {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "games.db")
	}
	st := openStore(t, path)
	cfg := Config{Store: st, EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	ts := &testServer{Server: s, URL: hs.URL, http: hs, store: st, path: path}
	t.Cleanup(ts.stop)
	return ts
}

func (ts *testServer) stop() {
	if ts.http == nil {
		return
	}
	ts.http.CloseClientConnections()
	ts.http.Close()
	ts.Server.Close()
	ts.store.Close()
	ts.http = nil
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// seatClient is a client with the frames it received.
type seatClient struct {
	t      *testing.T
	c      *loadtest.Client
	frames []*loadtest.Frame
	seat   string
	nextID int64
}

func join(t *testing.T, ts *testServer, id, token string, since int64) *seatClient {
	t.Helper()
	return joinURL(t, ts.URL, id, token, since)
}

// joinURL joins a game at the server at url.
func joinURL(t *testing.T, url, id, token string, since int64) *seatClient {
	t.Helper()
	c, err := loadtest.Join(ctxT(t), url, id, token, since)
	if err != nil {
		t.Fatal(err)
	}
	sc := &seatClient{t: t, c: c}
	t.Cleanup(func() { c.CloseNow() })
	w := sc.until(func(f *loadtest.Frame) bool { return f.T == "welcome" || f.T == "error" })
	if w.T == "error" {
		t.Fatalf("hello: %s %s", w.Code, w.Message)
	}
	sc.seat = w.Seat
	sc.until(func(f *loadtest.Frame) bool { return f.T == "state" })
	return sc
}

// until reads frames until ok, keeping all of them.
func (sc *seatClient) until(ok func(*loadtest.Frame) bool) *loadtest.Frame {
	sc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		f, err := sc.c.Read(ctx)
		if err != nil {
			last := ""
			for i := max(0, len(sc.frames)-4); i < len(sc.frames); i++ {
				f := sc.frames[i]
				last += fmt.Sprintf("\n  %s v%d turn %s legal %v status %+v: %.300s", f.T, f.V, f.Turn, f.Legal, f.Status, f.Raw)
			}
			sc.t.Fatalf("%s: %v (after %d frames; the last:%s)", sc.seat, err, len(sc.frames), last)
		}
		sc.frames = append(sc.frames, f)
		if ok(f) {
			return f
		}
	}
}

// stateAt reads until the state of version v.
func (sc *seatClient) stateAt(v int64) *loadtest.Frame {
	sc.t.Helper()
	for i := len(sc.frames) - 1; i >= 0; i-- {
		if f := sc.frames[i]; f.T == "state" {
			if f.V >= v {
				return f
			}
			break
		}
	}
	return sc.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.V >= v })
}

// waitState returns the last state received if ok holds for it, else the
// next state for which ok holds.
func (sc *seatClient) waitState(ok func(*loadtest.Frame) bool) *loadtest.Frame {
	sc.t.Helper()
	for i := len(sc.frames) - 1; i >= 0; i-- {
		if f := sc.frames[i]; f.T == "state" {
			if ok(f) {
				return f
			}
			break
		}
	}
	return sc.until(func(f *loadtest.Frame) bool { return f.T == "state" && ok(f) })
}

// final returns the state that shows the game's result.
func (sc *seatClient) final() *loadtest.Frame {
	sc.t.Helper()
	for _, f := range sc.frames {
		if f.T == "state" && f.Status.Result != "*" {
			return f
		}
	}
	return sc.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Status.Result != "*" })
}

// do sends a frame with a fresh id and returns the ack or error for it.
func (sc *seatClient) do(msg map[string]any) *loadtest.Frame {
	sc.t.Helper()
	sc.nextID++
	id := sc.nextID
	msg["id"] = id
	if err := sc.c.Send(ctxT(sc.t), msg); err != nil {
		sc.t.Fatal(err)
	}
	return sc.until(func(f *loadtest.Frame) bool { return (f.T == "ack" || f.T == "error") && f.ID == id })
}

func (sc *seatClient) move(m string) *loadtest.Frame {
	sc.t.Helper()
	return sc.do(map[string]any{"t": "move", "move": m})
}

func (sc *seatClient) mustMove(m string) int64 {
	sc.t.Helper()
	f := sc.move(m)
	if f.T != "ack" {
		sc.t.Fatalf("%s %s: %s %s", sc.seat, m, f.Code, f.Message)
	}
	return f.V
}

// events returns the versions and bodies of the event frames received.
func (sc *seatClient) events() ([]int64, []loadtest.Event) {
	var vs []int64
	var es []loadtest.Event
	for _, f := range sc.frames {
		if f.T == "event" {
			e, err := f.Event()
			if err != nil {
				sc.t.Fatal(err)
			}
			vs = append(vs, f.V)
			es = append(es, e)
		}
	}
	return vs, es
}

func create(t *testing.T, ts *testServer, req map[string]any) map[string]string {
	t.Helper()
	g, err := loadtest.CreateGame(ctxT(t), ts.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// humanGame creates a game between two people and joins both seats.
func humanGame(t *testing.T, ts *testServer, req map[string]any) (id string, w, b *seatClient, tokens [2]string) {
	t.Helper()
	g := create(t, ts, req)
	tokens = [2]string{g["token"], loadtest.InviteToken(g["invite"])}
	if g["seat"] == "black" {
		tokens[0], tokens[1] = tokens[1], tokens[0]
	}
	w = join(t, ts, g["id"], tokens[0], 0)
	b = join(t, ts, g["id"], tokens[1], 0)
	return g["id"], w, b, tokens
}

var scholar = []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"}

func TestOrderingAndVersions(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	spec := join(t, ts, id, "", 0)
	if spec.seat != "spectator" || w.seat != "white" || b.seat != "black" {
		t.Fatalf("seats %s %s %s", w.seat, b.seat, spec.seat)
	}
	for i, m := range scholar {
		c := w
		if i%2 == 1 {
			c = b
		}
		if v := c.mustMove(m); v != int64(i+1) {
			t.Fatalf("move %d acked as version %d", i+1, v)
		}
		w.stateAt(int64(i + 1))
		b.stateAt(int64(i + 1))
	}
	for _, c := range []*seatClient{w, b, spec} {
		end := c.final()
		if end.Status.Result != "1-0" || end.Status.Reason != "checkmate" {
			t.Errorf("%s: final status %+v", c.seat, end.Status)
		}
		vs, es := c.events()
		if len(vs) != 8 {
			t.Fatalf("%s got %d events, want 8", c.seat, len(vs))
		}
		for i, v := range vs {
			if v != int64(i+1) {
				t.Errorf("%s: event %d has version %d", c.seat, i, v)
			}
		}
		if es[6].SAN != "Qxf7#" || es[7].Kind != "end" || es[7].Result != "1-0" {
			t.Errorf("%s: last events %+v %+v", c.seat, es[6], es[7])
		}
	}
	// The mover gets its ack before the event of its move.
	ackAt, evAt := -1, -1
	for i, f := range w.frames {
		if f.T == "ack" && f.V == 7 {
			ackAt = i
		}
		if f.T == "event" && f.V == 7 {
			evAt = i
		}
	}
	if ackAt < 0 || evAt < ackAt {
		t.Errorf("ack of version 7 at frame %d, event at %d", ackAt, evAt)
	}
	if pg := getPGN(t, ts, id); !strings.Contains(pg, "Qxf7#") || !strings.Contains(pg, `[Result "1-0"]`) {
		t.Errorf("pgn:\n%s", pg)
	}
}

func TestReconnectReplay(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, b, tokens := humanGame(t, ts, map[string]any{"variant": "greatshatranj"})
	moves := []string{"e2e3", "e7e6", "d2d3", "d7d6", "c2c3", "c7c6"}
	w.mustMove(moves[0])
	b.mustMove(moves[1])
	w.stateAt(2)
	// Black drops its connection, White plays on.
	b.c.CloseNow()
	w.mustMove(moves[2])
	b2 := join(t, ts, id, tokens[1], 2)
	vs, es := b2.events()
	if len(vs) != 1 || vs[0] != 3 || es[0].Move != moves[2] {
		t.Fatalf("reconnect since 2: versions %v events %+v", vs, es)
	}
	st := b2.frames[len(b2.frames)-1]
	if st.T != "state" || st.V != 3 || len(st.Legal) == 0 || st.Turn != "black" {
		t.Fatalf("state after replay: %+v", st)
	}
	b2.mustMove(moves[3])
	// A spectator from scratch gets everything.
	spec := join(t, ts, id, "", 0)
	if vs, _ := spec.events(); len(vs) != 4 {
		t.Fatalf("spectator got versions %v", vs)
	}
	// since beyond the game's version gives no events.
	late := join(t, ts, id, "", 99)
	if vs, _ := late.events(); len(vs) != 0 {
		t.Fatalf("since 99 got %v", vs)
	}
}

// TestSecurityFrames reads every frame each client of a game gets.
func TestSecurityFrames(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, b, tokens := humanGame(t, ts, map[string]any{"variant": "chess"})
	spec := join(t, ts, id, "", 0)
	intruder := join(t, ts, id, "", 0)

	// Nobody but a seat's token acts for it.
	tests := []struct {
		c    *seatClient
		msg  map[string]any
		code string
	}{
		{spec, map[string]any{"t": "move", "move": "e2e4"}, "not_your_seat"},
		{spec, map[string]any{"t": "resign"}, "not_your_seat"},
		{b, map[string]any{"t": "move", "move": "e2e4"}, "not_your_turn"},
		{b, map[string]any{"t": "move", "move": "e7e5"}, "not_your_turn"},
		{intruder, map[string]any{"t": "hello", "token": strings.Repeat("0", 64)}, "bad_frame"},
	}
	for _, tc := range tests {
		if f := tc.c.do(tc.msg); f.T != "error" || f.Code != tc.code {
			t.Errorf("%s %v: %s %s, want error %s", tc.c.seat, tc.msg, f.T, f.Code, tc.code)
		}
	}
	// A wrong token opens no seat.
	c, err := loadtest.Join(ctxT(t), ts.URL, id, tokens[0]+"x", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if f, err := c.Read(ctxT(t)); err != nil || f.T != "error" || f.Code != "bad_token" {
		t.Errorf("wrong token: %+v %v", f, err)
	}
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6"} {
		cl := w
		if i%2 == 1 {
			cl = b
		}
		cl.mustMove(m)
		for _, o := range []*seatClient{w, b, spec} {
			o.stateAt(int64(i + 1))
		}
	}
	w.do(map[string]any{"t": "draw", "offer": true})
	b.do(map[string]any{"t": "draw", "offer": true})
	for _, o := range []*seatClient{w, b, spec} {
		o.final()
	}
	// Rematch: each seat gets its own token, nobody else any token.
	w.do(map[string]any{"t": "rematch"})
	b.do(map[string]any{"t": "rematch"})
	rw := w.until(func(f *loadtest.Frame) bool { return f.T == "rematch" })
	rb := b.until(func(f *loadtest.Frame) bool { return f.T == "rematch" })
	if rw.Token != rematchToken(tokens[0]) || rw.Seat != "black" || rb.Token != rematchToken(tokens[1]) || rb.Seat != "white" {
		t.Errorf("rematch frames %+v %+v", rw, rb)
	}
	spec.until(func(f *loadtest.Frame) bool {
		e, _ := f.Event()
		return f.T == "event" && e.Kind == "rematch"
	})
	secrets := []string{tokens[0], tokens[1], rw.Token, rb.Token, hashToken(tokens[0]), hashToken(tokens[1])}
	for _, c := range []*seatClient{w, b, spec, intruder} {
		for _, f := range c.frames {
			for i, s := range secrets {
				own := (c == w && (i == 0 || i == 2)) || (c == b && (i == 1 || i == 3))
				if strings.Contains(string(f.Raw), s) && !(own && f.T == "rematch") {
					t.Errorf("%s received secret %d in %s", c.seat, i, f.Raw)
				}
			}
			if f.T == "state" && len(f.Legal) > 0 && f.Turn != c.seat {
				t.Errorf("%s received legal moves of %s: %s", c.seat, f.Turn, f.Raw)
			}
		}
	}
	// The rematch is playable with the derived tokens, colours swapped.
	var rid string
	json.Unmarshal(rw.Game, &rid)
	nw := join(t, ts, rid, rb.Token, 0)
	if nw.seat != "white" {
		t.Errorf("rematch seat %s", nw.seat)
	}
	nw.mustMove("d4")
}

func TestValidation(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, _, tokens := humanGame(t, ts, map[string]any{"variant": "chess"})
	raw := func(c *seatClient, b string) *loadtest.Frame {
		if err := c.c.SendRaw(ctxT(t), []byte(b)); err != nil {
			t.Fatal(err)
		}
		return c.until(func(f *loadtest.Frame) bool { return f.T == "error" || f.T == "ack" })
	}
	tests := []struct {
		frame, code string
	}{
		{`not json`, "bad_frame"},
		{`[1,2]`, "bad_frame"},
		{`{}`, "bad_frame"},
		{`{"t":"fly"}`, "bad_frame"},
		{`{"t":"move","move":5}`, "bad_frame"},
		{`{"t":"move","move":"e2e4","extra":1}`, "bad_frame"},
		{`{"t":"move","move":"e2e4"} {"t":"move"}`, "bad_frame"},
		{`{"t":"move","id":-1,"move":"e2e4"}`, "bad_frame"},
		{`{"t":"move"}`, "bad_move"},
		{`{"t":"move","move":"` + strings.Repeat("a", 100) + `"}`, "bad_move"},
		{`{"t":"move","move":"e2 e4"}`, "bad_move"},
		{`{"t":"move","move":"exd5~"}`, "bad_move"},
		{`{"t":"move","move":"e2e5"}`, "illegal"},
		{`{"t":"move","move":"Ke2"}`, "illegal"},
		{`{"t":"move","move":"zz"}`, "illegal"},
		{`{"t":"move","move":"e2e4","v":7}`, "stale"},
		{`{"t":"draw"}`, "bad_frame"},
		{`{"t":"draw","offer":false}`, "not_allowed"},
		{`{"t":"rematch"}`, "not_allowed"},
		{`{"t":"hello"}`, "bad_frame"},
	}
	for _, tc := range tests {
		if f := raw(w, tc.frame); f.T != "error" || f.Code != tc.code {
			t.Errorf("%s: %s %s %q, want error %s", tc.frame, f.T, f.Code, f.Message, tc.code)
		}
	}
	// Nothing changed the game.
	g, evs, err := ts.store.Load(ctxT(t), id)
	if err != nil || g.Version != 0 || len(evs) != 0 {
		t.Fatalf("game after invalid frames: version %d, %v", g.Version, err)
	}
	// A frame before hello.
	c, err := loadtest.Dial(ctxT(t), ts.URL, id)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.Send(ctxT(t), map[string]any{"t": "move", "move": "e2e4", "id": 3})
	if f, err := c.Read(ctxT(t)); err != nil || f.Code != "need_hello" || f.ID != 3 {
		t.Errorf("move before hello: %+v %v", f, err)
	}
	// A frame over the size limit closes the connection.
	big, _ := loadtest.Join(ctxT(t), ts.URL, id, tokens[0], 0)
	defer big.CloseNow()
	big.SendRaw(ctxT(t), []byte(`{"t":"ping","pad":"`+strings.Repeat("x", MaxFrame)+`"}`))
	for {
		if _, err := big.Read(ctxT(t)); err != nil {
			if st := websocket.CloseStatus(err); st != websocket.StatusMessageTooBig {
				t.Errorf("a frame over the limit: closed with %v (%v), want 1009", st, err)
			}
			break
		}
	}
	// The rate limit refuses a flood, and the game is still as it was.
	var limited bool
	for i := range 60 {
		w.c.Send(ctxT(t), map[string]any{"t": "ping", "id": 1000 + i})
	}
	for range 60 {
		f := w.until(func(f *loadtest.Frame) bool { return f.T == "pong" || f.T == "error" })
		if f.Code == "rate_limited" {
			limited = true
		}
	}
	if !limited {
		t.Error("60 pings at once were not rate limited")
	}
	if g, _, _ := ts.store.Load(ctxT(t), id); g.Version != 0 {
		t.Errorf("version %d after the flood", g.Version)
	}
}

func TestCreateErrors(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		body string
		code string
	}{
		{`{"variant":"nope"}`, "unknown_variant"},
		{`{"variant":"vazir","options":{"MPT":"x"}}`, "bad_option"},
		{`{"variant":"chess","options":{"MPT":"2"}}`, "bad_option"},
		{`{"variant":"chess","fen":"garbage"}`, "bad_fen"},
		{`{"variant":"chess","color":"green"}`, "bad_request"},
		{`{"variant":"chess","opponent":"engine","level":99}`, "bad_request"},
		{`{"variant":"chess","clock":{"initial_ms":-5}}`, "bad_request"},
		{`{"variant":"chess","days":30}`, "bad_request"},
		{`{"variant":"chess","unknown":1}`, "bad_request"},
		{`{"variant":"chess","fen":"` + strings.Repeat("x", 20000) + `"}`, "too_large"},
	}
	for _, tc := range tests {
		resp, err := http.Post(ts.URL+"/api/games", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode/100 != 4 || e.Error.Code != tc.code {
			t.Errorf("%.60s: %d %s %q, want %s", tc.body, resp.StatusCode, e.Error.Code, e.Error.Message, tc.code)
		}
	}
	resp, err := http.Get(ts.URL + "/api/games/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("missing game: %d", resp.StatusCode)
	}
	resp, err = http.Get(ts.URL + "/api/variants")
	if err != nil {
		t.Fatal(err)
	}
	var vs []VariantInfo
	json.NewDecoder(resp.Body).Decode(&vs)
	resp.Body.Close()
	names := map[string]bool{}
	for _, v := range vs {
		names[v.Name] = true
	}
	for _, n := range []string{"chess", "greatshatranj", "chatrang", "vazir"} {
		if !names[n] {
			t.Errorf("variant %s missing from /api/variants", n)
		}
	}
}

func TestActions(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		name   string
		moves  []string
		seat   int // who acts
		action map[string]any
		result string
		reason string
	}{
		{"resign", []string{"e4"}, 1, map[string]any{"t": "resign"}, "1-0", "resignation"},
		{"abort", []string{"e4"}, 1, map[string]any{"t": "abort"}, "*", "abort"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
			cs := [2]*seatClient{w, b}
			for i, m := range tc.moves {
				cs[i%2].mustMove(m)
			}
			if f := cs[tc.seat].do(tc.action); f.T != "ack" {
				t.Fatalf("%v: %s %s", tc.action, f.Code, f.Message)
			}
			st := w.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Status.Reason != "" })
			if st.Status.Result != tc.result || st.Status.Reason != tc.reason {
				t.Errorf("status %+v", st.Status)
			}
			if f := cs[0].move("d4"); f.Code != "game_over" {
				t.Errorf("move after the end: %s %s", f.T, f.Code)
			}
		})
	}
	t.Run("no abort after both moved", func(t *testing.T) {
		_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
		w.mustMove("e4")
		b.mustMove("e5")
		if f := w.do(map[string]any{"t": "abort"}); f.Code != "not_allowed" {
			t.Errorf("abort: %s %s", f.T, f.Code)
		}
	})
	t.Run("draw declined", func(t *testing.T) {
		_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
		w.do(map[string]any{"t": "draw", "offer": true})
		b.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Offer == "white" })
		if f := b.do(map[string]any{"t": "draw", "offer": false}); f.T != "ack" {
			t.Fatalf("decline: %s", f.Code)
		}
		st := w.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.V == 2 })
		if st.Offer != "" || st.Status.Result != "*" {
			t.Errorf("after decline: %+v", st)
		}
	})
}

func TestClockFlag(t *testing.T) {
	ts := newTestServer(t, "", nil)
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": 400, "increment_ms": 0}})
	w.mustMove("e4")
	b.mustMove("e5") // White's clock starts now
	st := w.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Status.Reason != "" })
	if st.Status.Result != "0-1" || st.Status.Reason != "time" {
		t.Errorf("status %+v", st.Status)
	}
}

func TestEngineGame(t *testing.T) {
	ts := newTestServer(t, "", nil)
	for _, variant := range []string{"chess", "greatshatranj", "chatrang", "vazir"} {
		t.Run(variant, func(t *testing.T) {
			g := create(t, ts, map[string]any{"variant": variant, "opponent": "engine", "level": 1, "color": "black"})
			if g["invite"] != "" {
				t.Errorf("engine game with an invite")
			}
			c := join(t, ts, g["id"], g["token"], 0)
			// The engine (White) moves first; we answer with the first legal
			// move. The state of our own move's version may give us the
			// move again (a Vazir capture that missed).
			after := int64(0)
			for n := 0; n < 12; n++ {
				st := c.waitState(func(f *loadtest.Frame) bool {
					return f.V >= after && (f.Turn == "black" && len(f.Legal) > 0 || f.Status.Result != "*")
				})
				if st.Status.Result != "*" {
					return
				}
				after = c.mustMove(st.Legal[0])
			}
			vs, es := c.events()
			engine := 0
			for _, e := range es {
				if e.Kind == "ply" && e.Seat == "white" {
					engine++
				}
			}
			if engine < 6 || vs[len(vs)-1] != int64(len(vs)) {
				t.Errorf("engine played %d plies; versions %v", engine, vs)
			}
		})
	}
}

// TestReload closes a server and opens another on the same database: the
// games are as they were, every stored ply replayed with its dice rolled
// again to the same outcomes, and play goes on with the dice where they
// were.
func TestReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ts := newTestServer(t, path, nil)
	// Play Vazir until a die has been rolled (a capture that may fail)
	// and ten plies are recorded, in a new game if one ends before.
	var id string
	var w, b *seatClient
	var tokens [2]string
	var v int64
	on := false
	for game := 0; game < 5 && !on; game++ {
		id, w, b, tokens = humanGame(t, ts, map[string]any{"variant": "vazir", "options": map[string]string{"MPT": "2"}})
		v, on = playUntil(t, [2]*seatClient{w, b}, 0, func(*loadtest.Frame) bool {
			es := plyEvents(t, w)
			return rolls(es) > 0 && len(es) >= 10
		})
	}
	if !on {
		t.Fatal("five games ended before a die was rolled")
	}
	before := eventBodies(w)
	rolled := rolls(plyEvents(t, w))
	fen := w.stateAt(v).FEN
	ts.stop()

	ts2 := newTestServer(t, path, nil)
	spec := join(t, ts2, id, "", 0)
	st := spec.frames[len(spec.frames)-1]
	if st.FEN != fen || st.V != v {
		t.Fatalf("after reload: v%d %s, want v%d %s", st.V, st.FEN, v, fen)
	}
	after := eventBodies(spec)
	if len(after) != len(before) {
		t.Fatalf("after reload %d events, before %d", len(after), len(before))
	}
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Errorf("event %d before the reload %s, after %s", i+1, before[i], after[i])
		}
	}
	// Play on until a die is rolled after the reload.
	w2 := join(t, ts2, id, tokens[0], v)
	b2 := join(t, ts2, id, tokens[1], v)
	v, on = playUntil(t, [2]*seatClient{w2, b2}, v, func(*loadtest.Frame) bool { return rolls(plyEvents(t, w2)) > 0 })
	if n := rolls(plyEvents(t, w2)); n == 0 {
		t.Fatalf("the game ended at version %d with no roll after the reload", v)
	}
	if on {
		if f := w2.do(map[string]any{"t": "resign"}); f.T != "ack" {
			t.Fatalf("resign: %s %s", f.Code, f.Message)
		}
	}
	// Every roll, before the reload and after, is the seed's.
	end := w2.final()
	all := plyEvents(t, join(t, ts2, id, "", 0))
	if n := checkRolls(t, all, end.Dice.Gen, end.Dice.Seed); n <= rolled {
		t.Errorf("%d rolls checked, %d of them before the reload", n, rolled)
	}
}

// playUntil plays a game between two seats from version v: the seat to
// move plays a move decided by chance where it has one (so that dice
// roll), else one of its moves, until done holds for its state or the game
// ends. It returns the version reached and whether the game goes on.
func playUntil(t *testing.T, cs [2]*seatClient, v int64, done func(st *loadtest.Frame) bool) (int64, bool) {
	t.Helper()
	for range 400 {
		st := cs[0].stateAt(v)
		if st.Status.Result != "*" || st.Status.Reason != "" {
			return v, false
		}
		seat := 0
		if st.Turn == "black" {
			seat = 1
			st = cs[1].stateAt(v) // the legal moves go to the seat to move
		}
		if done(st) {
			return v, true
		}
		m := chanceMove(t, st)
		if m == "" {
			m = st.Legal[int(v)*7%len(st.Legal)]
		}
		v = cs[seat].mustMove(m)
	}
	t.Fatalf("nothing happened in 400 plies")
	return v, false
}

// chanceMove returns a move of a state's legal moves that is decided by
// chance, or "" if it has none.
func chanceMove(t *testing.T, st *loadtest.Frame) string {
	t.Helper()
	var sf stateFrame
	if err := json.Unmarshal(st.Raw, &sf); err != nil {
		t.Fatal(err)
	}
	if len(sf.Chances) == 0 {
		return ""
	}
	return slices.Sorted(maps.Keys(sf.Chances))[int(st.V)%len(sf.Chances)]
}

// eventBodies returns the bodies of the event frames a client received,
// as the server sent them.
func eventBodies(sc *seatClient) [][]byte {
	var out [][]byte
	for _, f := range sc.frames {
		if f.T == "event" {
			out = append(out, f.E)
		}
	}
	return out
}

// plyEvents returns the ply events a client received.
func plyEvents(t *testing.T, sc *seatClient) []eventJSON {
	t.Helper()
	var out []eventJSON
	for _, body := range eventBodies(sc) {
		var e eventJSON
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		if e.Kind == "ply" {
			out = append(out, e)
		}
	}
	return out
}

// rolls returns how many of the plies rolled a die.
func rolls(plies []eventJSON) int {
	n := 0
	for _, e := range plies {
		if e.Roll > 0 {
			n++
		}
	}
	return n
}

// checkRolls checks every die of the plies, in order, as a page does once
// the seed (decimal) is revealed: game.NewRoller(seed) rolls each face
// with Roll(den), from the first roll on. It returns how many it checked.
func checkRolls(t *testing.T, plies []eventJSON, gen, seed string) int {
	t.Helper()
	s, err := game.ParseSeed(gen + ":" + seed)
	if err != nil {
		t.Fatalf("seed %s %q: %v", gen, seed, err)
	}
	r := s.Roller()
	n := 0
	for _, e := range plies {
		if len(e.Outcomes) < 2 {
			continue
		}
		_, den, _ := strings.Cut(e.Outcomes[0].P, "/")
		d, err := strconv.Atoi(den)
		if err != nil {
			t.Fatalf("ply %d: outcome %q", e.Ply, e.Outcomes[0].P)
		}
		if face := r.Roll(d) + 1; face != e.Roll {
			t.Errorf("ply %d rolled %d of %d, the seed gives %d", e.Ply, e.Roll, d, face)
		}
		n++
	}
	return n
}

func newBenchServer(b *testing.B) *testServer {
	return newTestServer(b, "", func(c *Config) { c.Logf = func(string, ...any) {} })
}

// TestEngineDoesNotStall keeps the engine busy at its highest level in
// several games while two people play another game: their moves are
// acknowledged at once, since no game's owner waits for the engine.
func TestEngineDoesNotStall(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.EngineMaxTime = 3 * time.Second })
	for range 3 {
		g := create(t, ts, map[string]any{"variant": "greatshatranj", "opponent": "engine", "level": MaxLevel, "color": "black"})
		join(t, ts, g["id"], g["token"], 0)
	}
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"} {
		c := w
		if i%2 == 1 {
			c = b
		}
		start := time.Now()
		c.mustMove(m)
		if d := time.Since(start); d > time.Second {
			t.Errorf("move %s acknowledged after %s while the engine thinks", m, d)
		}
	}
}
