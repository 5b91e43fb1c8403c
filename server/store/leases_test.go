package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLeases: a lease is taken when free, refused while another node holds
// it, taken over once expired with the next epoch; an event written under
// a lost lease is refused (ErrFenced) and one under the live lease renews
// it and records its epoch; Renew, Release and Orphans.
func TestLeases(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t)
			defer s.Close()
			ls, ok := s.(Leases)
			if !ok {
				t.Fatalf("%T does not implement Leases", s)
			}
			g := newGame("g1")
			g.Wake = time.Now().Add(-time.Second)
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			if _, err := ls.LeaseOf(ctx, "g1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("LeaseOf a game never leased: %v, want ErrNotFound", err)
			}
			orphans, err := ls.Orphans(ctx, time.Minute, 10)
			if err != nil || !slices.Equal(orphans, []string{"g1"}) {
				t.Fatalf("Orphans before any lease = %v, %v; want [g1]", orphans, err)
			}
			a, before, err := ls.Acquire(ctx, "g1", "A", time.Hour)
			if err != nil || a.Node != "A" || a.Epoch != 1 || before.Node != "" {
				t.Fatalf("first Acquire = %+v (before %+v), %v; want A's epoch 1", a, before, err)
			}
			if orphans, _ := ls.Orphans(ctx, time.Minute, 10); len(orphans) != 0 {
				t.Fatalf("Orphans of a leased game = %v", orphans)
			}
			b, _, err := ls.Acquire(ctx, "g1", "B", time.Hour)
			if err != nil || b.Node != "A" || b.Epoch != 1 {
				t.Fatalf("Acquire of a held lease = %+v, %v; want A's lease unchanged", b, err)
			}
			fa := &Fence{Node: "A", Epoch: 1, Lease: 10 * time.Millisecond}
			e1 := ev(1, "ply")
			e1.Fence = fa
			if err := s.Append(ctx, "g1", e1, nil); err != nil {
				t.Fatalf("append under the live lease: %v", err)
			}
			wrong := ev(2, "ply")
			wrong.Fence = &Fence{Node: "B", Epoch: 1, Lease: time.Hour}
			if err := s.Append(ctx, "g1", wrong, nil); !errors.Is(err, ErrFenced) {
				t.Fatalf("append under another node's name: %v, want ErrFenced", err)
			}
			// The append renewed A's lease for 10ms only: it expires.
			time.Sleep(50 * time.Millisecond)
			if got, err := ls.Renew(ctx, "A", time.Hour); err != nil || len(got) != 0 {
				t.Fatalf("Renew of an expired lease = %v, %v; want none", got, err)
			}
			b, before, err = ls.Acquire(ctx, "g1", "B", time.Hour)
			if err != nil || b.Node != "B" || b.Epoch != 2 || before.Node != "A" || before.Epoch != 1 || before.Live() {
				t.Fatalf("take-over = %+v (before %+v), %v; want B's epoch 2 after A's expired epoch 1", b, before, err)
			}
			late := ev(2, "ply")
			late.Fence = fa
			if err := s.Append(ctx, "g1", late, nil); !errors.Is(err, ErrFenced) {
				t.Fatalf("append under the lost lease: %v, want ErrFenced", err)
			}
			e2 := ev(2, "ply")
			e2.Fence = &Fence{Node: "B", Epoch: 2, Lease: time.Hour}
			if err := s.Append(ctx, "g1", e2, nil); err != nil {
				t.Fatalf("append under the new lease: %v", err)
			}
			_, evs, err := s.Load(ctx, "g1")
			if err != nil || len(evs) != 2 || evs[0].Epoch != 1 || evs[1].Epoch != 2 {
				t.Fatalf("Load = %+v, %v; want two events of epochs 1 and 2", evs, err)
			}
			if got, err := ls.Renew(ctx, "B", time.Hour); err != nil || !slices.Equal(got, []string{"g1"}) {
				t.Fatalf("Renew(B) = %v, %v; want [g1]", got, err)
			}
			if err := ls.Release(ctx, "g1", "B", 2); err != nil {
				t.Fatal(err)
			}
			if l, err := ls.LeaseOf(ctx, "g1"); err != nil || l.Live() || l.Epoch != 2 || l.Node != "" {
				t.Fatalf("LeaseOf after release = %+v, %v; want epoch 2, expired, no node", l, err)
			}
			a, before, err = ls.Acquire(ctx, "g1", "A", time.Hour)
			if err != nil || a.Node != "A" || a.Epoch != 3 || before.Node != "" || before.Epoch != 2 {
				t.Fatalf("Acquire after release = %+v (before %+v), %v; want A's epoch 3 after the released epoch 2", a, before, err)
			}
		})
	}
}

// TestLeasePausedHolder (PostgreSQL): a transaction that stops in the
// middle with a game's lease row locked, as a node paused there would,
// holds up neither the other games' writes nor, once the database ends
// it, the game's take-over.
func TestLeasePausedHolder(t *testing.T) {
	ctx := context.Background()
	st, s := postgresStore(t, "anychess_lease_test")
	for _, p := range sessionLimits {
		var v string
		if err := s.db.QueryRowContext(ctx, "SHOW "+p[0]).Scan(&v); err != nil || v != strings.TrimSuffix(p[1], "000")+"s" {
			t.Errorf("%s = %q, %v; want %ss", p[0], v, err, strings.TrimSuffix(p[1], "000"))
		}
	}
	leaseGames(t, st, s, "A", "g1", "g2")
	paused, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer paused.Rollback()
	if _, err := paused.ExecContext(ctx, `UPDATE leases SET expires_ms = 0 WHERE game_id = 'g1'`); err != nil {
		t.Fatal(err)
	}
	// Another game's event, in a group commit, is written meanwhile.
	e := ev(1, "ply")
	e.Fence = &Fence{Node: "A", Epoch: 1, Lease: time.Hour}
	if err := st.Append(ctx, "g2", e, nil); err != nil {
		t.Fatalf("append to another game while a lease row is locked: %v", err)
	}
	if _, err := paused.ExecContext(ctx, `SELECT 1`); err != nil {
		t.Fatalf("the paused transaction ended before the other game's write: %v", err)
	}
	// The game itself is taken over once the database has ended the
	// paused transaction (idle_in_transaction_session_timeout).
	deadline := time.Now().Add(20 * time.Second)
	for {
		l, _, err := s.Acquire(ctx, "g1", "A", time.Hour)
		if err == nil && l.Node == "A" && l.Epoch == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game's lease was not taken within 20 s of the pause: %+v, %v", l, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := paused.Commit(); err == nil {
		t.Error("the paused transaction committed after the database should have ended it")
	}
}

// TestLeaseFirstAcquireRace (PostgreSQL): two nodes take a game's very
// first lease at once (both players of a new game or of a rematch reach
// different nodes together). The node whose insert waits on the other's
// is answered with the other's lease, not an error.
func TestLeaseFirstAcquireRace(t *testing.T) {
	ctx := context.Background()
	st, s := postgresStore(t, "anychess_lease_race_test")
	if err := st.Create(ctx, newGame("g1")); err != nil {
		t.Fatal(err)
	}
	// Node A's Acquire, stopped after its insert of the new lease.
	first, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback()
	if _, err := first.ExecContext(ctx, `INSERT INTO leases (game_id, node, epoch, expires_ms) VALUES ('g1', 'A', 1, `+postgresNow+` + 3600000)`); err != nil {
		t.Fatal(err)
	}
	type result struct {
		now Lease
		err error
	}
	done := make(chan result, 1)
	go func() {
		now, _, err := s.Acquire(ctx, "g1", "B", time.Hour)
		done <- result{now, err}
	}()
	// Once B's statement waits on A's row lock, A commits.
	for waiting := false; !waiting; {
		select {
		case r := <-done:
			t.Fatalf("B's Acquire returned before A committed: %+v, %v", r.now, r.err)
		default:
		}
		if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO leases%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.now.Node != "A" || r.now.Epoch != 1 {
		t.Fatalf("B's Acquire racing A's first one = %+v, %v; want A's lease of epoch 1", r.now, r.err)
	}
}

// TestLeaseRenewSkipsLockedRow (PostgreSQL): a node's renewal is not held
// up by one of its lease rows locked by another node's transaction (an
// Acquire of that game on a node paused in the middle): its other leases
// are renewed at once.
func TestLeaseRenewSkipsLockedRow(t *testing.T) {
	ctx := context.Background()
	st, s := postgresStore(t, "anychess_lease_renew_test")
	leaseGames(t, st, s, "A", "g1", "g2")
	paused, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer paused.Rollback()
	if _, err := s.lease(ctx, paused, "g1", true); err != nil {
		t.Fatal(err)
	}
	before, err := s.LeaseOf(ctx, "g2")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Renew(ctx, "A", 2*time.Hour)
	slices.Sort(got)
	if err != nil || !slices.Equal(got, []string{"g1", "g2"}) {
		t.Fatalf("Renew(A) while g1's lease row is locked = %v, %v; want [g1 g2], both still held", got, err)
	}
	if after, err := s.LeaseOf(ctx, "g2"); err != nil || !after.Expires.After(before.Expires) {
		t.Fatalf("g2's lease after the renewal: %+v, %v; want extended past %s", after, err, before.Expires)
	}
	if _, err := paused.ExecContext(ctx, `SELECT 1`); err != nil {
		t.Fatalf("the other transaction ended before the renewal: %v", err)
	}
}

// TestRenewDuringSlowCommit (PostgreSQL): a renewal does not wait on the
// lease rows the node's own group commit has locked (its events renew
// them): it is written after that commit, never refused by the lock
// timeout however slow the commit.
func TestRenewDuringSlowCommit(t *testing.T) {
	ctx := context.Background()
	st, s := postgresStore(t, "anychess_renew_test")
	if err := st.Create(ctx, newGame("g1")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Acquire(ctx, "g1", "A", time.Hour); err != nil {
		t.Fatal(err)
	}
	locked := make(chan struct{})
	slow := make(chan error, 1)
	go func() {
		slow <- s.submit(ctx, &appendReq{id: "g1", done: make(chan error, 1), write: func(ctx context.Context, tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `UPDATE leases SET expires_ms = expires_ms + 1 WHERE game_id = 'g1'`); err != nil {
				return err
			}
			close(locked)
			time.Sleep(1500 * time.Millisecond) // longer than lock_timeout
			return nil
		}})
	}()
	<-locked
	games, err := s.Renew(ctx, "A", time.Hour)
	if err != nil || !slices.Equal(games, []string{"g1"}) {
		t.Fatalf("Renew during a slow group commit = %v, %v; want [g1]", games, err)
	}
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
}

// postgresStore opens a store on a fresh PostgreSQL schema named schema,
// closed when the test ends; the test is skipped without ANYCHESS_TEST_PG
// (which test.sh sets), as the suite's PostgreSQL backend is.
func postgresStore(t *testing.T, schema string) (Store, *sqlStore) {
	t.Helper()
	url := os.Getenv("ANYCHESS_TEST_PG")
	if url == "" {
		t.Skip("ANYCHESS_TEST_PG is not set (test.sh sets it)")
	}
	u, err := PostgresSchema(context.Background(), url, schema, true)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenPostgres(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, st.(*sqlStore)
}

// leaseGames creates the games ids in st, each leased to node for an hour.
func leaseGames(t *testing.T, st Store, s *sqlStore, node string, ids ...string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		if err := st.Create(ctx, newGame(id)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Acquire(ctx, id, node, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
}
