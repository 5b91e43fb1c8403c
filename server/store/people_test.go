package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/rating"
)

func TestPeople(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			tests := []struct {
				name string
				run  func(t *testing.T, s Store)
			}{
				{"users and sessions", testUsers},
				{"rated end", testRatedEnd},
				{"claim", testClaim},
				{"games pages", testGamesPages},
				{"leaderboard", testLeaderboard},
				{"concurrent writes", testPeopleConcurrent},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					s := open(t)
					defer s.Close()
					tc.run(t, s)
				})
			}
		})
	}
}

func people(t *testing.T, s Store) People {
	p, ok := s.(People)
	if !ok {
		t.Fatalf("%T does not keep people", s)
	}
	return p
}

func testUsers(t *testing.T, s Store) {
	ctx := context.Background()
	p := people(t, s)
	u := &User{Name: "ann", Display: "Ann", Hash: "h", Created: time.UnixMilli(1_700_000_000_000).UTC()}
	if err := p.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := p.CreateUser(ctx, &User{Name: "ann", Display: "ANN", Hash: "x"}); !errors.Is(err, ErrTaken) {
		t.Errorf("second ann: %v, want ErrTaken", err)
	}
	got, err := p.User(ctx, "ann")
	if err != nil || got.Display != "Ann" || got.Hash != "h" || !got.Created.Equal(u.Created) {
		t.Errorf("User(ann) = %+v, %v", got, err)
	}
	if _, err := p.User(ctx, "bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("User(bob): %v, want ErrNotFound", err)
	}
	now := time.Now()
	for _, se := range []*Session{
		{IDHash: "live", User: "ann", CSRF: "c1", Created: now, Expires: now.Add(time.Hour)},
		{IDHash: "old", User: "ann", CSRF: "c2", Created: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour)},
	} {
		if err := p.CreateSession(ctx, se); err != nil {
			t.Fatal(err)
		}
	}
	if se, err := p.Session(ctx, "live", now); err != nil || se.User != "ann" || se.CSRF != "c1" {
		t.Errorf("Session(live) = %+v, %v", se, err)
	}
	if _, err := p.Session(ctx, "old", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired session: %v, want ErrNotFound", err)
	}
	if err := p.DeleteSession(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Session(ctx, "live", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted session: %v, want ErrNotFound", err)
	}
}

// testRatedEnd checks that the end of a rated game changes both ratings
// by Glicko-2's amounts in the transaction of its end, and that an
// unrated or aborted game changes none.
func testRatedEnd(t *testing.T, s Store) {
	ctx := context.Background()
	p := people(t, s)
	mk := func(id string, rated bool) {
		g := newGame(id)
		g.Users, g.Rated = [2]string{"ann", "bob"}, rated
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	mk("r1", true)
	mk("u1", false)
	mk("a1", true)
	if err := s.Append(ctx, "u1", ev(1, "end"), &End{Result: "1-0", Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "a1", ev(1, "end"), &End{Result: "*", Reason: "abort"}); err != nil {
		t.Fatal(err)
	}
	if rs, err := p.Ratings(ctx, "ann"); err != nil || len(rs) != 0 {
		t.Fatalf("ratings after unrated and aborted games: %+v, %v", rs, err)
	}
	if err := s.Append(ctx, "r1", ev(1, "end"), &End{Result: "0-1", Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	wantW, wantB, err := rating.Game(rating.New(), rating.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	class := rating.ClassOf(5*time.Minute, 3*time.Second)
	for _, c := range []struct {
		user string
		want rating.Rating
	}{{"ann", wantW}, {"bob", wantB}} {
		rs, err := p.Ratings(ctx, c.user)
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: ratings %+v, %v", c.user, rs, err)
		}
		r := rs[0]
		if r.Variant != "chess" || r.Class != class || r.Games != 1 || math.Abs(r.R-c.want.R) > 1e-9 || math.Abs(r.RD-c.want.RD) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", c.user, r, c.want)
		}
		h, err := p.History(ctx, c.user, 0)
		if err != nil || len(h) != 1 || h[0].Game != "r1" || math.Abs(h[0].R-c.want.R) > 1e-9 {
			t.Errorf("%s: history %+v, %v", c.user, h, err)
		}
	}
	gs, err := p.Games(ctx, GamesQuery{User: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	for _, g := range gs {
		outs[g.Game] = g.Outcome
	}
	if outs["r1"] != "win" || outs["u1"] != "loss" || outs["a1"] != "aborted" {
		t.Errorf("bob's outcomes: %v", outs)
	}
	// Rated but established players are not on the leaderboard until
	// their deviation falls; a provisional one is left out.
	if lb, err := p.Leaderboard(ctx, "chess", class, 10); err != nil || len(lb) != 0 {
		t.Errorf("leaderboard of provisional players: %+v, %v", lb, err)
	}
}

func testClaim(t *testing.T, s Store) {
	ctx := context.Background()
	p := people(t, s)
	g := newGame("c1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "c1", ev(1, "end"), &End{Result: "1-0", Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, user, id string
		seat           int
		hash           string
		want           error
	}{
		{"wrong token", "ann", "c1", 0, "bb", ErrNotFound},
		{"no such game", "ann", "zz", 0, "aa", ErrNotFound},
		{"bad seat", "ann", "c1", 2, "aa", ErrNotFound},
		{"white", "ann", "c1", 0, "aa", nil},
		{"white again", "bob", "c1", 0, "aa", ErrNotFound},
		{"black by the same user", "ann", "c1", 1, "bb", ErrConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := p.Claim(ctx, tc.user, tc.id, tc.seat, tc.hash); !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
				t.Errorf("Claim: %v, want %v", err, tc.want)
			}
		})
	}
	got, _, err := s.Load(ctx, "c1")
	if err != nil || got.Users != [2]string{"ann", ""} || got.Rated {
		t.Errorf("claimed game: %+v, %v", got, err)
	}
	gs, err := p.Games(ctx, GamesQuery{User: "ann"})
	if err != nil || len(gs) != 1 || gs[0].Outcome != "win" || gs[0].Rated {
		t.Errorf("ann's games: %+v, %v", gs, err)
	}
}

func testGamesPages(t *testing.T, s Store) {
	ctx := context.Background()
	p := people(t, s)
	base := time.UnixMilli(1_700_000_000_000).UTC()
	for i := range 25 {
		g := newGame(fmt.Sprintf("p%02d", i))
		g.Created = base.Add(time.Duration(i/2) * time.Second) // pairs share a time: the id breaks ties
		g.Users = [2]string{"ann", ""}
		if i%3 == 0 {
			g.Variant = "shatranj"
		}
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if err := s.Append(ctx, g.ID, ev(1, "end"), &End{Result: "1-0", Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name string
		q    GamesQuery
		want int
	}{
		{"all", GamesQuery{User: "ann", Limit: 7}, 25},
		{"variant", GamesQuery{User: "ann", Variant: "shatranj", Limit: 3}, 9},
		{"wins", GamesQuery{User: "ann", Outcome: "win", Limit: 4}, 13},
		{"both", GamesQuery{User: "ann", Variant: "chess", Outcome: "win", Limit: 2}, 8},
		{"nobody", GamesQuery{User: "bob"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[string]bool{}
			var last *PlayerGame
			q := tc.q
			for range 100 {
				page, err := p.Games(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				for i := range page {
					g := page[i]
					if seen[g.Game] {
						t.Fatalf("%s twice", g.Game)
					}
					seen[g.Game] = true
					if last != nil && (g.Created.After(last.Created) || g.Created.Equal(last.Created) && g.Game > last.Game) {
						t.Errorf("%s after %s: not newest first", g.Game, last.Game)
					}
					if q.Variant != "" && g.Variant != q.Variant || q.Outcome != "" && g.Outcome != q.Outcome {
						t.Errorf("%+v does not match %+v", g, q)
					}
					last = &page[i]
				}
				if len(page) < q.Limit || len(page) == 0 {
					break
				}
				q.Before = page[len(page)-1].Cursor()
			}
			if len(seen) != tc.want {
				t.Errorf("%d games, want %d", len(seen), tc.want)
			}
		})
	}
	if _, err := p.Games(ctx, GamesQuery{User: "ann", Before: "x"}); !errors.Is(err, ErrBadCursor) {
		t.Errorf("bad cursor: %v", err)
	}
}

// TestGamesIndex fills a SQLite database with 100,000 games of one user
// (and others') and checks that SQLite plans each page of the user's
// games, with every filter and a cursor, as one index range read in order:
// no table scan and no sort.
func TestGamesIndex(t *testing.T) {
	ctx := context.Background()
	st, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO game_players (user_name, game_id, seat, variant, created_ms,
		opponent, rated, class, outcome, result) VALUES (?, ?, ?, ?, ?, '', 1, 'blitz', ?, '1-0')`)
	if err != nil {
		t.Fatal(err)
	}
	variants := []string{"chess", "shatranj", "vazir", "crazy"}
	outs := []string{"win", "loss", "draw", "aborted"}
	for i := range 110_000 {
		user := "ann"
		if i%11 == 10 {
			user = fmt.Sprintf("u%d", i%97)
		}
		if _, err := ins.ExecContext(ctx, user, fmt.Sprintf("g%06d", i), i%2, variants[i%4], 1_700_000_000_000+int64(i)*1000, outs[(i/4)%4]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []GamesQuery{
		{User: "ann", Limit: 50},
		{User: "ann", Variant: "vazir", Limit: 50},
		{User: "ann", Outcome: "draw", Limit: 50},
		{User: "ann", Variant: "chess", Outcome: "win", Limit: 50},
		{User: "ann", Before: "1700100000000.g100000", Limit: 50},
		{User: "ann", Variant: "crazy", Outcome: "loss", Before: "1700100000000.g100000", Limit: 50},
	} {
		query, args, err := s.gamesQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		plan := explain(t, s.db, query, args)
		if !strings.Contains(plan, "USING INDEX game_players_") || strings.Contains(plan, "TEMP B-TREE") || strings.Contains(plan, "SCAN game_players\n") {
			t.Errorf("%+v: plan\n%s", q, plan)
		}
		page, err := s.Games(ctx, q)
		if err != nil || len(page) != 50 {
			t.Errorf("%+v: %d games, %v", q, len(page), err)
		}
	}
}

func explain(t *testing.T, db *sql.DB, query string, args []any) string {
	t.Helper()
	rows, err := db.Query(`EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}

// TestMigrateOldDatabase opens a database made before accounts existed (the
// games' schema as it was, with a game in it), on SQLite and on PostgreSQL
// when ANYCHESS_TEST_PG is set, and checks that its game loads and that
// accounts, claims and ratings work on it.
func TestMigrateOldDatabase(t *testing.T) {
	type backend struct {
		driver, dsn string
		open        func() (Store, error)
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	backends := map[string]backend{
		"sqlite": {"sqlite", "file:" + path, func() (Store, error) { return OpenSQLite(ctx, path) }},
	}
	if url := os.Getenv("ANYCHESS_TEST_PG"); url != "" {
		u, err := PostgresSchema(ctx, url, "anychess_store_migrate", true)
		if err != nil {
			t.Fatal(err)
		}
		backends["postgres"] = backend{"pgx", u, func() (Store, error) { return OpenPostgres(ctx, u) }}
	}
	for name, b := range backends {
		t.Run(name, func(t *testing.T) {
			db, err := sql.Open(b.driver, b.dsn)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range oldSchema {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			s, err := b.open()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			testMigrated(t, s)
		})
	}
}

// oldSchema is the games' schema before accounts, with a finished game.
var oldSchema = []string{
	`CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT NOT NULL, fen TEXT NOT NULL,
		seed BIGINT NOT NULL, white_hash TEXT NOT NULL, black_hash TEXT NOT NULL, opponent TEXT NOT NULL,
		level INTEGER NOT NULL, engine_seat INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,
		days INTEGER NOT NULL, created_ms BIGINT NOT NULL, finished INTEGER NOT NULL, result TEXT NOT NULL,
		reason TEXT NOT NULL, rematch_of TEXT NOT NULL, nonce TEXT NOT NULL DEFAULT '', dice_key TEXT NOT NULL DEFAULT '', wake_ms BIGINT)`,
	`CREATE INDEX games_finished ON games (finished, created_ms)`,
	`CREATE TABLE events (game_id TEXT NOT NULL, version BIGINT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
		at_ms BIGINT NOT NULL, PRIMARY KEY (game_id, version))`,
	`INSERT INTO games VALUES ('old', 'chess', '{}', '', 0, 'aa', 'bb', 'human', 0, 0, 60000, 0, 0, 1700000000000, 1, '0-1', 'resignation', '', '', '', 0)`,
	`INSERT INTO events VALUES ('old', 1, 'end', '{}', 1700000000001)`,
}

func testMigrated(t *testing.T, s Store) {
	ctx := context.Background()
	g, evs, err := s.Load(ctx, "old")
	if err != nil || len(evs) != 1 || g.Users != [2]string{} || g.Rated || g.Result != "0-1" {
		t.Fatalf("old game: %+v, %v", g, err)
	}
	p := people(t, s)
	if err := p.CreateUser(ctx, &User{Name: "ann", Display: "ann", Hash: "h", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := p.Claim(ctx, "ann", "old", 1, "bb"); err != nil {
		t.Fatal(err)
	}
	gs, err := p.Games(ctx, GamesQuery{User: "ann"})
	if err != nil || len(gs) != 1 || gs[0].Outcome != "win" || gs[0].Class != rating.Bullet {
		t.Errorf("claimed old game: %+v, %v", gs, err)
	}
}

// testLeaderboard checks that the leaderboard lists established ratings
// of its variant and class, best first, and leaves provisional ones out.
func testLeaderboard(t *testing.T, s Store) {
	ctx := context.Background()
	sq := s.(*sqlStore)
	for _, r := range []struct {
		user, variant, class string
		r, rd                float64
	}{
		{"ann", "chess", "blitz", 1700, 60},
		{"bob", "chess", "blitz", 1900, 80},
		{"cat", "chess", "blitz", 2100, 200}, // provisional
		{"dan", "chess", "rapid", 2000, 50},
		{"eve", "vazir", "blitz", 2000, 50},
	} {
		if _, err := sq.db.ExecContext(ctx, sq.q(`INSERT INTO ratings (user_name, variant, class, rating, rd, vol, games, updated_ms)
			VALUES (?, ?, ?, ?, ?, 0.06, 30, 0)`), r.user, r.variant, r.class, r.r, r.rd); err != nil {
			t.Fatal(err)
		}
	}
	lb, err := people(t, s).Leaderboard(ctx, "chess", rating.Blitz, 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range lb {
		names = append(names, r.User)
	}
	if fmt.Sprint(names) != "[bob ann]" {
		t.Errorf("leaderboard %v, want [bob ann]", names)
	}
}

// testPeopleConcurrent writes accounts, sessions and appends at once, some
// of them refused: they share the writer's group commits, and a refusal
// fails only itself.
func testPeopleConcurrent(t *testing.T, s Store) {
	ctx := context.Background()
	p := people(t, s)
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 4 {
			case 0, 1: // every name twice
				errs[i] = p.CreateUser(ctx, &User{Name: fmt.Sprintf("u%d", i/4), Display: "x", Hash: "h", Created: time.Now()})
			case 2:
				errs[i] = p.CreateSession(ctx, &Session{IDHash: fmt.Sprintf("s%d", i), User: "u0", CSRF: "c", Created: time.Now(), Expires: time.Now().Add(time.Hour)})
			case 3:
				errs[i] = p.Claim(ctx, "nobody", "g", 0, "wrong")
			}
		}()
	}
	wg.Wait()
	taken := 0
	for i, err := range errs {
		switch {
		case i%4 < 2 && errors.Is(err, ErrTaken):
			taken++
		case i%4 == 3 && errors.Is(err, ErrNotFound):
		case err != nil:
			t.Errorf("write %d: %v", i, err)
		}
	}
	if taken != 10 {
		t.Errorf("%d names refused as taken, want 10", taken)
	}
	for i := range 10 {
		if _, err := p.User(ctx, fmt.Sprintf("u%d", i)); err != nil {
			t.Errorf("u%d: %v", i, err)
		}
	}
}
