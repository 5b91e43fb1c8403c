package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// backends returns the stores the suite runs on: SQLite always, and
// PostgreSQL when ANYCHESS_TEST_PG holds its URL.
func backends(t *testing.T) map[string]func(t *testing.T) Store {
	m := map[string]func(t *testing.T) Store{
		"sqlite": func(t *testing.T) Store {
			s, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	if url := os.Getenv("ANYCHESS_TEST_PG"); url != "" {
		m["postgres"] = func(t *testing.T) Store {
			u, err := PostgresSchema(context.Background(), url, "anychess_store_test", true)
			if err != nil {
				t.Fatal(err)
			}
			s, err := OpenPostgres(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	return m
}

func newGame(id string) *Game {
	return &Game{
		ID: id, Variant: "chess", Options: map[string]string{"MPT": "2"}, Seed: 1<<63 + 5, Nonce: "00ff" + id,
		DiceKey:   strings.Repeat("0f", 32),
		TokenHash: [2]string{"aa", "bb"}, Opponent: "human", Initial: 5 * time.Minute,
		Increment: 3 * time.Second, Created: time.UnixMilli(1_700_000_000_000).UTC(), Result: "*",
	}
}

func ev(v int64, kind string) Event {
	return Event{Version: v, Kind: kind, Data: []byte(fmt.Sprintf(`{"n":%d}`, v)), At: time.UnixMilli(1_700_000_000_000 + v).UTC()}
}

func TestStore(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			tests := []struct {
				name string
				run  func(t *testing.T, s Store)
			}{
				{"create and load", testCreateLoad},
				{"append in order", testAppend},
				{"conflicts", testConflicts},
				{"end and list", testEndList},
				{"concurrent group commits", testConcurrent},
				{"wake times", testWake},
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

func testCreateLoad(t *testing.T, s Store) {
	ctx := context.Background()
	g := newGame("g1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, evs, err := s.Load(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 0 || got.Seed != g.Seed || got.Nonce != g.Nonce || got.DiceKey != g.DiceKey || got.Options["MPT"] != "2" || got.Initial != g.Initial ||
		got.Increment != g.Increment || !got.Created.Equal(g.Created) || got.TokenHash != g.TokenHash {
		t.Errorf("loaded %+v, want %+v", got, g)
	}
	if _, _, err := s.Load(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("load missing: %v, want ErrNotFound", err)
	}
	if err := s.Create(ctx, newGame("g1")); !errors.Is(err, ErrConflict) {
		t.Errorf("create twice: %v, want ErrConflict", err)
	}
}

func testAppend(t *testing.T, s Store) {
	ctx := context.Background()
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	for v := int64(1); v <= 20; v++ {
		if err := s.Append(ctx, "g", ev(v, "ply"), nil); err != nil {
			t.Fatal(err)
		}
	}
	g, evs, err := s.Load(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != 20 || len(evs) != 20 {
		t.Fatalf("version %d with %d events, want 20", g.Version, len(evs))
	}
	for i, e := range evs {
		if e.Version != int64(i+1) || string(e.Data) != fmt.Sprintf(`{"n":%d}`, i+1) || e.Kind != "ply" {
			t.Errorf("event %d: %+v", i, e)
		}
	}
}

func testConflicts(t *testing.T, s Store) {
	ctx := context.Background()
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "g", ev(1, "ply"), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		v    int64
		want error
	}{
		{"g", 1, ErrConflict},
		{"g", 3, ErrConflict},
		{"g", 0, ErrConflict},
		{"missing", 1, ErrNotFound},
	} {
		if err := s.Append(ctx, tc.id, ev(tc.v, "ply"), nil); !errors.Is(err, tc.want) {
			t.Errorf("append %s v%d: %v, want %v", tc.id, tc.v, err, tc.want)
		}
	}
	if g, evs, _ := s.Load(ctx, "g"); g.Version != 1 || len(evs) != 1 {
		t.Errorf("after conflicts: version %d, %d events", g.Version, len(evs))
	}
}

func testEndList(t *testing.T, s Store) {
	ctx := context.Background()
	for i := range 5 {
		g := newGame(fmt.Sprintf("g%d", i))
		g.Created = g.Created.Add(time.Duration(i) * time.Second)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Append(ctx, "g3", ev(1, "end"), &End{Result: "1-0", Reason: "checkmate"}); err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	fin, err := s.List(ctx, Filter{Finished: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if len(fin) != 1 || fin[0].ID != "g3" || fin[0].Result != "1-0" || fin[0].Reason != "checkmate" || !fin[0].Finished {
		t.Errorf("finished games: %+v", fin)
	}
	live, err := s.List(ctx, Filter{Finished: &no, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 3 || live[0].ID != "g4" || live[1].ID != "g2" {
		t.Errorf("live games: %v", ids(live))
	}
	all, _ := s.List(ctx, Filter{})
	if len(all) != 5 {
		t.Errorf("all games: %v", ids(all))
	}
}

// testWake checks that each event stores the game's wake time, that a
// game reads back its last one, and that List with Waking lists only the
// games with one.
func testWake(t *testing.T, s Store) {
	ctx := context.Background()
	at := time.UnixMilli(1_800_000_000_123).UTC()
	for i := range 4 {
		if err := s.Create(ctx, newGame(fmt.Sprintf("w%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		id   string
		ev   Event
		end  *End
		want time.Time
	}{
		{"w0", Event{Version: 1, Kind: "ply", Data: []byte(`{}`), At: at, Wake: at.Add(time.Minute)}, nil, at.Add(time.Minute)},
		{"w1", Event{Version: 1, Kind: "ply", Data: []byte(`{}`), At: at, Wake: at}, nil, at},
		{"w1", Event{Version: 2, Kind: "ply", Data: []byte(`{}`), At: at}, nil, time.Time{}}, // the wake is over
		{"w2", Event{Version: 1, Kind: "ply", Data: []byte(`{}`), At: at, Wake: at.Add(time.Hour)}, nil, at.Add(time.Hour)},
		{"w2", Event{Version: 2, Kind: "end", Data: []byte(`{}`), At: at}, &End{Result: "0-1", Reason: "time"}, time.Time{}},
	}
	for i, st := range steps {
		if err := s.Append(ctx, st.id, st.ev, st.end); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		g, _, err := s.Load(ctx, st.id)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Wake.Equal(st.want) {
			t.Errorf("step %d: %s wakes at %v, want %v", i, st.id, g.Wake, st.want)
		}
	}
	no := false
	waking, err := s.List(ctx, Filter{Finished: &no, Waking: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(waking); len(got) != 1 || got[0] != "w0" || !waking[0].Wake.Equal(at.Add(time.Minute)) {
		t.Errorf("waking games %v, want w0", got)
	}
}

func ids(gs []Game) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func testConcurrent(t *testing.T, s Store) {
	ctx := context.Background()
	const games, plies = 20, 25
	for i := range games {
		if err := s.Create(ctx, newGame(fmt.Sprintf("c%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := int64(1); v <= plies; v++ {
				if err := s.Append(ctx, fmt.Sprintf("c%d", i), ev(v, "ply"), nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range games {
		g, evs, err := s.Load(ctx, fmt.Sprintf("c%d", i))
		if err != nil || g.Version != plies || len(evs) != plies {
			t.Fatalf("game c%d: %v, %d events", i, err, len(evs))
		}
	}
}

// TestMigration: a database made before games had a nonce opens, its
// games load with an empty nonce, and new games keep theirs.
func TestMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range schema { // the tables as they were before the nonce column
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO games (id, variant, options, fen, seed, white_hash, black_hash, opponent,
		level, engine_seat, initial_ms, increment_ms, days, created_ms, finished, result, reason, rematch_of)
		VALUES ('old', 'vazir', '{}', '', 7, 'a', 'b', 'human', 0, 0, 0, 0, 0, 0, 0, '*', '', '')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g, _, err := s.Load(ctx, "old")
	if err != nil || g.Seed != 7 || g.Nonce != "" || g.DiceKey != "" || !g.Wake.IsZero() || g.Definition != "" {
		t.Fatalf("old game: %+v, %v", g, err)
	}
	// An unfinished game with a clock stored before wake times is due at
	// once: the server loads it to look at its clock.
	if _, err := s.(*sqlStore).db.Exec(`INSERT INTO games (id, variant, options, fen, seed, white_hash, black_hash, opponent,
		level, engine_seat, initial_ms, increment_ms, days, created_ms, finished, result, reason, rematch_of)
		VALUES ('oldclock', 'chess', '{}', '', 7, 'a', 'b', 'human', 0, 0, 60000, 0, 0, 0, 0, '*', '', '')`); err != nil {
		t.Fatal(err)
	}
	no := false
	waking, err := s.List(ctx, Filter{Finished: &no, Waking: true})
	if err != nil || len(waking) != 1 || waking[0].ID != "oldclock" || !waking[0].Wake.Equal(time.Unix(0, 0)) {
		t.Fatalf("waking games after the migration: %v %v", ids(waking), err)
	}
	n := newGame("new")
	if err := s.Create(ctx, n); err != nil {
		t.Fatal(err)
	}
	if g, _, err := s.Load(ctx, "new"); err != nil || g.Nonce != n.Nonce || g.DiceKey != n.DiceKey {
		t.Fatalf("new game: %+v, %v", g, err)
	}
}
