package server

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/anychess/anychess/rating"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
)

// ratedGame plays a rated blitz game of chess between two accounts through
// a seek: white resigns after one move. It returns the game's id.
func ratedGame(t *testing.T, ts *testServer, white, black *browser) string {
	t.Helper()
	lw, lb := lobbyOf(t, white), lobbyOf(t, black)
	_, sk, code := postSeek(white, lw, map[string]any{"variant": "chess", "clock": blitz, "rated": true, "color": "white"})
	if sk.ID == "" {
		t.Fatalf("post: %s", code)
	}
	st, p, code := accept(black, lb, sk.ID)
	if st != http.StatusCreated {
		t.Fatalf("accept: %d %s", st, code)
	}
	var own Paired
	jsonInto(t, await(t, lw, "paired", nil), &own)
	w := join(t, ts, p.Game, own.Token, 0)
	if f := w.move("e4"); f.T != "ack" {
		t.Fatalf("e4: %s", f.Message)
	}
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	lw.Close()
	lb.Close()
	return p.Game
}

// TestProfile: after a rated game, each player's page shows its rating
// (provisional), its graph's point and the game, which opens in replay or
// analysis; the game's summary shows both players with their ratings.
func TestProfile(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ann, bob := newBrowser(t, ts), newBrowser(t, ts)
	ann.signup("Ann", "the right password")
	bob.signup("bob", "the right password")
	id := ratedGame(t, ts, ann, bob)
	wantAnn, wantBob, _ := rating.Game(rating.New(), rating.New(), 0)

	var p Profile
	if st := ann.do("GET", "/api/users/ANN", nil, &p).StatusCode; st != http.StatusOK {
		t.Fatalf("profile: %d", st)
	}
	if p.User != "ann" || p.Display != "Ann" || len(p.Ratings) != 1 || p.Ratings[0].Rating != int(wantAnn.R+0.5) ||
		!p.Ratings[0].Provisional || p.Ratings[0].Class != rating.Blitz || p.Ratings[0].Games != 1 {
		t.Errorf("profile %+v", p)
	}
	if h := p.History["chess"]; len(h) != 1 || h[0].Game != id || h[0].Rating != p.Ratings[0].Rating {
		t.Errorf("history %+v", p.History)
	}
	var page GamesPage
	bob.do("GET", "/api/users/bob/games", nil, &page)
	if len(page.Games) != 1 || page.Games[0].Game != id || page.Games[0].Outcome != "win" || page.Games[0].Opponent != "ann" ||
		!page.Games[0].Rated || page.Games[0].Replay != "/#/game/"+id || page.Games[0].Analysis != "/#/analysis/game/"+id || page.Next != "" {
		t.Errorf("bob's games %+v", page)
	}
	var sum Summary
	getJSON(t, ts.URL+"/api/games/"+id, &sum)
	if !sum.Rated || sum.White == nil || sum.White.User != "ann" || sum.White.Rating != int(wantAnn.R+0.5) || !sum.White.Provisional ||
		sum.Black == nil || sum.Black.Rating != int(wantBob.R+0.5) {
		t.Errorf("summary players %+v %+v rated %v", sum.White, sum.Black, sum.Rated)
	}
	if st := ann.do("GET", "/api/users/nobody", nil, nil).StatusCode; st != http.StatusNotFound {
		t.Errorf("unknown user's profile: %d", st)
	}
	// Provisional ratings are not on the leaderboard.
	var lb Leaderboard
	getJSON(t, ts.URL+"/api/leaderboard/chess", &lb)
	if lb.Variant != "chess" || len(lb.Classes) != len(rating.Classes) || len(lb.Classes[rating.Blitz]) != 0 {
		t.Errorf("leaderboard %+v", lb)
	}
}

// TestUserGamesPages walks a user's games page by page with each filter.
func TestUserGamesPages(t *testing.T) {
	ts := newTestServer(t, "", nil)
	b := newBrowser(t, ts)
	b.signup("ann", "the right password")
	base := time.Now().UTC().Truncate(time.Second)
	for i := range 9 {
		g := &store.Game{ID: fmt.Sprintf("g%d", i), Variant: "chess", Options: map[string]string{}, Opponent: "human",
			Created: base.Add(time.Duration(i/3) * time.Second), Result: "*", Users: [2]string{"ann", ""}}
		if i%3 == 0 {
			g.Variant = "vazir"
		}
		if err := ts.store.Create(ctxT(t), g); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if err := ts.store.Append(ctxT(t), g.ID, store.Event{Version: 1, Kind: "end", Data: []byte(`{}`), At: base}, &store.End{Result: "0-1", Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		query string
		want  int
	}{
		{"limit=2", 9},
		{"variant=vazir&limit=2", 3},
		{"result=loss&limit=2", 5},
		{"variant=chess&result=loss&limit=1", 3},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			seen := map[string]bool{}
			next := ""
			for range 20 {
				var page GamesPage
				if st := b.do("GET", "/api/users/ann/games?"+tc.query+"&before="+next, nil, &page).StatusCode; st != http.StatusOK {
					t.Fatalf("%d", st)
				}
				for _, g := range page.Games {
					if seen[g.Game] {
						t.Fatalf("%s twice", g.Game)
					}
					seen[g.Game] = true
				}
				if next = page.Next; next == "" {
					break
				}
			}
			if len(seen) != tc.want {
				t.Errorf("%d games, want %d", len(seen), tc.want)
			}
		})
	}
	for _, q := range []string{"result=won", "variant=nope", "limit=0", "limit=101", "before=zz"} {
		if st := b.do("GET", "/api/users/ann/games?"+q, nil, nil).StatusCode; st != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, st)
		}
	}
}

// TestCreatorAccount: a game a signed-in visitor creates is listed as its
// own; its opponent's seat stays anonymous.
func TestCreatorAccount(t *testing.T) {
	ts := newTestServer(t, "", nil)
	b := newBrowser(t, ts)
	b.signup("ann", "the right password")
	var g CreateResponse
	if st := b.do("POST", "/api/games", map[string]any{"variant": "chess", "color": "black"}, &g).StatusCode; st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	rec, _, err := ts.store.Load(ctxT(t), g.ID)
	if err != nil || rec.Users != [2]string{"", "ann"} || rec.Rated {
		t.Errorf("game %+v, %v", rec, err)
	}
	// Anonymous creation stays anonymous.
	anon := create(t, ts, map[string]any{"variant": "chess"})
	if rec, _, _ := ts.store.Load(ctxT(t), anon["id"]); rec.Users != [2]string{} {
		t.Errorf("anonymous game's players %v", rec.Users)
	}
}

// TestRematchKeepsAccounts: the rematch of a rated game between accounts
// swaps their colours, so each account keeps its player.
func TestRematchKeepsAccounts(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ann, bob := newBrowser(t, ts), newBrowser(t, ts)
	ann.signup("ann", "the right password")
	bob.signup("bob", "the right password")
	la, lb := lobbyOf(t, ann), lobbyOf(t, bob)
	_, sk, _ := postSeek(ann, la, map[string]any{"variant": "chess", "clock": blitz, "rated": true, "color": "white"})
	_, p, _ := accept(bob, lb, sk.ID)
	var own Paired
	jsonInto(t, await(t, la, "paired", nil), &own)
	w, b := join(t, ts, p.Game, own.Token, 0), join(t, ts, p.Game, p.Token, 0)
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s", f.Message)
	}
	w.do(map[string]any{"t": "rematch"})
	b.do(map[string]any{"t": "rematch"})
	rw := w.until(func(f *loadtest.Frame) bool { return f.T == "rematch" })
	var gid string
	jsonInto(t, rw.Game, &gid)
	rec, _, err := ts.store.Load(ctxT(t), gid)
	if err != nil {
		t.Fatal(err)
	}
	if rw.Seat != "black" || rec.Users != [2]string{"bob", "ann"} || !rec.Rated {
		t.Errorf("rematch %s as %s: players %v rated %v; want bob then ann, rated", gid, rw.Seat, rec.Users, rec.Rated)
	}
}
