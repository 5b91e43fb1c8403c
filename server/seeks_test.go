package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/anychess/anychess/level"
	"github.com/anychess/anychess/rating"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// lobbyOf opens b's lobby feed.
func lobbyOf(t *testing.T, b *browser) *loadtest.Lobby {
	t.Helper()
	l, err := loadtest.OpenLobby(ctxT(t), b.ts.URL, b.c, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// await reads l's events until one of kind event for which ok holds.
func await(t *testing.T, l *loadtest.Lobby, event string, ok func(json.RawMessage) bool) json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		ev, err := l.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", event, err)
		}
		if ev.Event == event && (ok == nil || ok(ev.Data)) {
			return ev.Data
		}
	}
}

func hasID(id string) func(json.RawMessage) bool {
	return func(d json.RawMessage) bool {
		var v struct{ ID string }
		json.Unmarshal(d, &v)
		return v.ID == id
	}
}

// postSeek posts a seek for lobby l; it returns the status and the seek or
// error code.
func postSeek(b *browser, l *loadtest.Lobby, req map[string]any) (int, SeekInfo, string) {
	b.t.Helper()
	req["visitor"] = l.Visitor
	var out struct {
		SeekInfo
		Error struct{ Code string }
	}
	resp := b.do("POST", "/api/seeks", req, &out)
	return resp.StatusCode, out.SeekInfo, out.Error.Code
}

func accept(b *browser, l *loadtest.Lobby, id string) (int, Paired, string) {
	b.t.Helper()
	var out struct {
		Paired
		Error struct{ Code string }
	}
	resp := b.do("POST", "/api/seeks/"+id+"/accept", map[string]any{"visitor": l.Visitor}, &out)
	return resp.StatusCode, out.Paired, out.Error.Code
}

var blitz = map[string]any{"initial_ms": 180000, "increment_ms": 2000}

// TestSeekPairs posts a seek that every lobby sees live and another
// visitor accepts: both are told the game, and its seats are theirs.
func TestSeekPairs(t *testing.T) {
	ts := newTestServer(t, "", nil)
	a, b, c := newBrowser(t, ts), newBrowser(t, ts), newBrowser(t, ts)
	la, lb, lc := lobbyOf(t, a), lobbyOf(t, b), lobbyOf(t, c)
	st, sk, code := postSeek(a, la, map[string]any{"variant": "chess", "color": "white", "clock": blitz})
	if st != http.StatusCreated {
		t.Fatalf("post: %d %s", st, code)
	}
	if sk.Class != rating.Blitz || sk.Rated || sk.User != "" || sk.Variant != "chess" {
		t.Errorf("seek %+v", sk)
	}
	for _, l := range []*loadtest.Lobby{la, lb, lc} {
		await(t, l, "seek", hasID(sk.ID))
	}
	st, p, code := accept(b, lb, sk.ID)
	if st != http.StatusCreated || p.Seat != "black" || p.Game == "" || len(p.Token) != 64 {
		t.Fatalf("accept: %d %s %+v", st, code, p)
	}
	var own Paired
	json.Unmarshal(await(t, la, "paired", nil), &own)
	if own.Game != p.Game || own.Seat != "white" || own.Seek != sk.ID || own.Token == p.Token {
		t.Fatalf("poster told %+v, accepter %+v", own, p)
	}
	await(t, lc, "unseek", hasID(sk.ID))
	w := join(t, ts, p.Game, own.Token, 0)
	bl := join(t, ts, p.Game, p.Token, 0)
	if w.seat != "white" || bl.seat != "black" {
		t.Errorf("seats %s and %s", w.seat, bl.seat)
	}
	if st, _, code := accept(c, lc, sk.ID); st != http.StatusNotFound {
		t.Errorf("accepting a taken seek: %d %s", st, code)
	}
}

// TestSeekNotSelf: no one is paired with themself, as the same visitor or
// as the same account on another visitor.
func TestSeekNotSelf(t *testing.T) {
	ts := newTestServer(t, "", nil)
	a := newBrowser(t, ts)
	a.signup("ann", "the right password")
	la := lobbyOf(t, a)
	la2 := lobbyOf(t, a) // another tab of the same browser: another visitor, the same account
	if la.Visitor == la2.Visitor {
		t.Fatal("two feeds, one visitor")
	}
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
	for _, l := range []*loadtest.Lobby{la, la2} {
		if st, _, code := accept(a, l, sk.ID); st != http.StatusConflict || code != "own_seek" {
			t.Errorf("self-accept: %d %s", st, code)
		}
	}
	// Quick pairing does not pair ann with her own seek either.
	var q QuickAnswer
	a.do("POST", "/api/seeks/quick", map[string]any{"visitor": la2.Visitor, "variant": "chess", "clock": blitz}, &q)
	if q.Paired != nil || q.Seek == nil {
		t.Errorf("quick pairing with her own seek: %+v", q)
	}
}

// TestSeekOwnerLeaves: a seek goes when its owner's feed closes and the
// grace passes; a visitor who comes back within the grace keeps it.
func TestSeekOwnerLeaves(t *testing.T) {
	tests := []struct {
		name  string
		grace time.Duration
		back  bool
	}{
		{"leaves", 20 * time.Millisecond, false},
		{"comes back", time.Hour, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, "", func(c *Config) { c.Lobby.Grace = tc.grace })
			a, b := newBrowser(t, ts), newBrowser(t, ts)
			la, lb := lobbyOf(t, a), lobbyOf(t, b)
			_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess", "clock": blitz})
			await(t, lb, "seek", hasID(sk.ID))
			la.Close()
			if !tc.back {
				await(t, lb, "unseek", hasID(sk.ID))
				if st, _, _ := accept(b, lb, sk.ID); st != http.StatusNotFound {
					t.Errorf("accepting a gone seek: %d", st)
				}
				return
			}
			again, err := loadtest.OpenLobby(ctxT(t), ts.URL, a.c, la.Visitor)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if again.Visitor != la.Visitor {
				t.Fatalf("came back as %s, not %s", again.Visitor, la.Visitor)
			}
			var list []SeekInfo
			json.Unmarshal(await(t, again, "seeks", nil), &list)
			if len(list) != 1 || list[0].ID != sk.ID {
				t.Errorf("seeks on coming back: %+v", list)
			}
			if st, _, code := accept(b, lb, sk.ID); st != http.StatusCreated {
				t.Errorf("accept: %d %s", st, code)
			}
			await(t, again, "paired", nil)
		})
	}
}

func TestSeekRefusals(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Lobby.SeeksPerVisitor = 2; c.Lobby.MaxSeeks = 3 })
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	tests := []struct {
		name   string
		who    *browser
		l      *loadtest.Lobby
		req    map[string]any
		status int
		code   string
	}{
		{"unknown variant", a, la, map[string]any{"variant": "nope"}, 400, "unknown_variant"},
		{"bad option", a, la, map[string]any{"variant": "chess", "options": map[string]string{"Nope": "1"}}, 400, "bad_option"},
		{"bad clock", a, la, map[string]any{"variant": "chess", "clock": map[string]any{"initial_ms": -1}}, 400, "bad_request"},
		{"bad colour", a, la, map[string]any{"variant": "chess", "color": "green"}, 400, "bad_request"},
		{"rated anonymous", a, la, map[string]any{"variant": "chess", "rated": true}, 403, "not_signed_in"},
		{"range on a casual seek", a, la, map[string]any{"variant": "chess", "rating_min": 1000}, 400, "bad_request"},
		{"no visitor", a, nil, map[string]any{"variant": "chess"}, 409, "no_lobby"},
		{"first", a, la, map[string]any{"variant": "chess"}, 201, ""},
		{"second", a, la, map[string]any{"variant": "chess", "days": 3}, 201, ""},
		{"third of one visitor", a, la, map[string]any{"variant": "chess"}, 429, "too_many_seeks"},
		{"third in all", b, lb, map[string]any{"variant": "chess"}, 201, ""},
		{"fourth in all", b, lb, map[string]any{"variant": "chess"}, 429, "too_many_seeks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.l
			if l == nil {
				l = &loadtest.Lobby{Visitor: "0123"}
			}
			st, _, code := postSeek(tc.who, l, tc.req)
			if st != tc.status || code != tc.code {
				t.Errorf("%d %s, want %d %s", st, code, tc.status, tc.code)
			}
		})
	}
}

// TestSeekHiddenVariant: a moderated csipgs seek carries its options into
// the game, and the lobby does not show the secret ones.
func TestSeekHiddenVariant(t *testing.T) {
	ts := newTestServer(t, "", nil)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	st, sk, code := postSeek(a, la, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "Terrain": "c4,f5"}})
	if st != http.StatusCreated {
		t.Fatalf("post: %d %s", st, code)
	}
	if !sk.Hidden || sk.Options["Terrain"] != "" || sk.Options["Moderated"] != "1" {
		t.Errorf("seek shows %+v", sk)
	}
	_, p, _ := accept(b, lb, sk.ID)
	rec, _, err := ts.store.Load(ctxT(t), p.Game)
	if err != nil || rec.Options["Terrain"] != "c4,f5" || rec.Options["Moderated"] != "1" || rec.Rated {
		t.Errorf("game %+v, %v", rec, err)
	}
}

// TestSeekRated: a rated seek is for accounts, within its rating range;
// the game it makes is rated between them, and its end changes both
// ratings by Glicko-2's amounts.
func TestSeekRated(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ann, bob, anon := newBrowser(t, ts), newBrowser(t, ts), newBrowser(t, ts)
	ann.signup("ann", "the right password")
	bob.signup("bob", "the right password")
	la, lb, ln := lobbyOf(t, ann), lobbyOf(t, bob), lobbyOf(t, anon)
	if la.User != "ann" || ln.User != "" {
		t.Fatalf("feeds of %q and %q", la.User, ln.User)
	}
	_, high, _ := postSeek(ann, la, map[string]any{"variant": "chess", "clock": blitz, "rated": true, "rating_min": 1600, "rating_max": 2000})
	_, sk, _ := postSeek(ann, la, map[string]any{"variant": "chess", "clock": blitz, "rated": true, "color": "black", "rating_min": 1400, "rating_max": 1600})
	if sk.Rating != 1500 || !sk.Provisional || !sk.Rated || sk.User != "ann" {
		t.Errorf("seek %+v", sk)
	}
	for _, tc := range []struct {
		name   string
		who    *browser
		l      *loadtest.Lobby
		id     string
		status int
		code   string
	}{
		{"anonymous", anon, ln, sk.ID, 403, "not_signed_in"},
		{"out of range", bob, lb, high.ID, 403, "out_of_range"},
		{"another account's visitor", bob, la, sk.ID, 409, "no_lobby"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if st, _, code := accept(tc.who, tc.l, tc.id); st != tc.status || code != tc.code {
				t.Errorf("%d %s, want %d %s", st, code, tc.status, tc.code)
			}
		})
	}
	st, p, code := accept(bob, lb, sk.ID)
	if st != http.StatusCreated || p.Seat != "white" {
		t.Fatalf("accept: %d %s %+v", st, code, p)
	}
	var own Paired
	json.Unmarshal(await(t, la, "paired", nil), &own)
	rec, _, err := ts.store.Load(ctxT(t), p.Game)
	if err != nil || !rec.Rated || rec.Users != [2]string{"bob", "ann"} {
		t.Fatalf("game %+v, %v", rec, err)
	}
	w := join(t, ts, p.Game, p.Token, 0)
	join(t, ts, p.Game, own.Token, 0)
	if f := w.move("e4"); f.T != "ack" {
		t.Fatalf("e4: %s", f.Message)
	}
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	wantBob, wantAnn, err := rating.Game(rating.New(), rating.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	people := ts.store.(store.People)
	for _, c := range []struct {
		user string
		want rating.Rating
	}{{"bob", wantBob}, {"ann", wantAnn}} {
		rs, err := people.Ratings(ctxT(t), c.user)
		if err != nil || len(rs) != 1 || rs[0].Class != rating.Blitz || math.Abs(rs[0].R-c.want.R) > 1e-9 ||
			math.Abs(rs[0].RD-c.want.RD) > 1e-9 || math.Abs(rs[0].Vol-c.want.Vol) > 1e-12 {
			t.Errorf("%s: %+v, %v; want %+v", c.user, rs, err, c.want)
		}
	}
	if !(wantAnn.R > 1500) {
		t.Errorf("the winner's rating %v did not rise", wantAnn.R)
	}
}

// TestQuickPairing: the first visitor's quick pairing posts a seek, the
// second's takes it.
func TestQuickPairing(t *testing.T) {
	ts := newTestServer(t, "", nil)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	var controls map[string][]QuickControl
	a.do("GET", "/api/seeks/quick", nil, &controls)
	if len(controls["chess"]) == 0 || len(controls["vazir"]) == 0 {
		t.Fatalf("quick controls %v", controls)
	}
	qc := controls["chess"][3]
	body := func(l *loadtest.Lobby) map[string]any {
		return map[string]any{"visitor": l.Visitor, "variant": "chess", "clock": map[string]any{"initial_ms": qc.InitialMS, "increment_ms": qc.IncMS}}
	}
	var qa, qb QuickAnswer
	if st := a.do("POST", "/api/seeks/quick", body(la), &qa).StatusCode; st != http.StatusAccepted || qa.Seek == nil {
		t.Fatalf("first: %d %+v", st, qa)
	}
	if st := b.do("POST", "/api/seeks/quick", body(lb), &qb).StatusCode; st != http.StatusCreated || qb.Paired == nil {
		t.Fatalf("second: %d %+v", st, qb)
	}
	var own Paired
	json.Unmarshal(await(t, la, "paired", nil), &own)
	if own.Game != qb.Paired.Game || own.Seat == qb.Paired.Seat {
		t.Errorf("poster %+v, accepter %+v", own, qb.Paired)
	}
}

// TestEngineLevels: the engine's levels are listed with their measured
// Elo, growing with the level, and not as rated players.
func TestEngineLevels(t *testing.T) {
	ts := newTestServer(t, "", nil)
	var levels []LevelInfo
	getJSON(t, ts.URL+"/api/engine/levels", &levels)
	if len(levels) != MaxLevel {
		t.Fatalf("%d levels", len(levels))
	}
	for i, l := range levels {
		want := level.At(i + 1)
		if l.Level != i+1 || l.Rated || !l.Engine || l.Elo != want.Elo || l.Margin != want.Margin || l.Depth != want.Depth || l.MaxMS <= 0 {
			t.Errorf("level %+v, want %v", l, want)
		}
		if i > 0 && l.Elo <= levels[i-1].Elo {
			t.Errorf("level %d's Elo %d is not above level %d's %d", i+1, l.Elo, i, levels[i-1].Elo)
		}
	}
}

func jsonInto(t *testing.T, data json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}

// TestLobbyOutlivesTimeouts: a lobby feed stays open longer than the HTTP
// server's read and write timeouts.
func TestLobbyOutlivesTimeouts(t *testing.T) {
	ts := newTestServer(t, "", nil)
	hs := httptest.NewUnstartedServer(ts.Server.Handler())
	hs.Config.ReadTimeout = 300 * time.Millisecond
	hs.Config.WriteTimeout = 300 * time.Millisecond
	hs.Start()
	defer hs.Close()
	l, err := loadtest.OpenLobby(ctxT(t), hs.URL, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	await(t, l, "seeks", nil)
	time.Sleep(time.Second)
	b := newBrowser(t, ts)
	lb := lobbyOf(t, b)
	_, sk, code := postSeek(b, lb, map[string]any{"variant": "chess"})
	if sk.ID == "" {
		t.Fatalf("post: %s", code)
	}
	await(t, l, "seek", hasID(sk.ID))
}

// TestAcceptRateCountsPairings: only an accept that makes a game counts
// toward the client's creation rate; seeks found taken do not.
func TestAcceptRateCountsPairings(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Limits.CreateBurst = 2; c.Limits.CreateRate = 0.001 })
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := lobbyOf(t, a), lobbyOf(t, b)
	for range 5 {
		if st, _, code := accept(b, lb, "taken"); st != http.StatusNotFound {
			t.Fatalf("accepting a gone seek: %d %s", st, code)
		}
	}
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess"})
	if st, _, code := accept(b, lb, sk.ID); st != http.StatusCreated {
		t.Fatalf("accept: %d %s", st, code)
	}
}

// TestSeekTakenOnce: of visitors accepting one seek at once, exactly one
// gets the game.
func TestSeekTakenOnce(t *testing.T) {
	ts := newTestServer(t, "", nil)
	a := newBrowser(t, ts)
	la := lobbyOf(t, a)
	_, sk, _ := postSeek(a, la, map[string]any{"variant": "chess"})
	const n = 8
	type try struct {
		b *browser
		l *loadtest.Lobby
	}
	var tries []try
	for range n {
		b := newBrowser(t, ts)
		tries = append(tries, try{b, lobbyOf(t, b)})
	}
	codes := make(chan int, n)
	for _, tr := range tries {
		go func() {
			st, _, _ := accept(tr.b, tr.l, sk.ID)
			codes <- st
		}()
	}
	got := map[int]int{}
	for range n {
		got[<-codes]++
	}
	if got[http.StatusCreated] != 1 || got[http.StatusNotFound] != n-1 {
		t.Errorf("answers %v: want one 201 and %d 404", got, n-1)
	}
}

// TestLobbyFeedsBatch: events queued while feeds hold back (Batch) reach
// every feed whole, each once, in order.
func TestLobbyFeedsBatch(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.Lobby.Batch = 300 * time.Millisecond })
	var ls []*loadtest.Lobby
	var bs []*browser
	for range 4 {
		b := newBrowser(t, ts)
		bs = append(bs, b)
		ls = append(ls, lobbyOf(t, b))
	}
	var ids []string
	for i := range 8 {
		_, sk, code := postSeek(bs[i%4], ls[i%4], map[string]any{"variant": "chess", "days": i%3 + 1})
		if sk.ID == "" {
			t.Fatalf("post: %s", code)
		}
		ids = append(ids, sk.ID)
	}
	for _, l := range ls {
		var got []string
		for len(got) < len(ids) {
			var sk SeekInfo
			jsonInto(t, await(t, l, "seek", nil), &sk)
			got = append(got, sk.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(ids) {
			t.Errorf("seeks %v, want %v", got, ids)
		}
	}
}

// TestSeekPostRate: posting seeks counts toward the client's creation
// rate, so that no client can flood every lobby feed with seeks.
func TestSeekPostRate(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) {
		c.Limits.CreateBurst = 3
		c.Limits.CreateRate = 0.001
		c.Lobby.SeeksPerVisitor = 100
	})
	a := newBrowser(t, ts)
	la := lobbyOf(t, a)
	var got []int
	for range 5 {
		st, sk, _ := postSeek(a, la, map[string]any{"variant": "chess"})
		got = append(got, st)
		if sk.ID != "" {
			a.do("POST", "/api/seeks/"+sk.ID+"/cancel", map[string]any{"visitor": la.Visitor}, nil)
		}
	}
	if fmt.Sprint(got) != "[201 201 201 429 429]" {
		t.Errorf("answers %v, want three seeks then 429", got)
	}
}
