package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A cluster's nodes share one store, and each live game is owned by one
// node at a time: the holder of its lease. A lease lasts a while after its
// last renewal (a node renews all of its leases in one statement, and
// each event it writes renews its game's); it is taken over only once it
// has expired, and every take-over increases the game's epoch. A node
// writes a game's events under its lease (Event.Fence): the write renews
// the lease and fails with ErrFenced, in the same transaction, unless the
// lease is still the writer's with the same epoch and unexpired, so a node
// paused past its lease cannot write after another took the game over.
// Each event records the epoch it was written under. Times are the
// database's clock, so the nodes' clocks need not agree.

// ErrFenced is returned by Append for an event whose Fence is no longer
// the game's lease: another node owns the game, or the lease expired.
var ErrFenced = errors.New("store: the game's lease is lost")

// Fence is the lease a node writes a game's events under.
type Fence struct {
	Node  string
	Epoch int64
	// Lease is how long the write renews the lease for.
	Lease time.Duration
}

// Lease is a game's lease as it stands.
type Lease struct {
	Game, Node string
	Epoch      int64
	// Expires is when the lease ends unless renewed; a released lease
	// has expired.
	Expires time.Time
	// Now is the database's clock when the lease was read.
	Now time.Time
}

// Live reports whether the lease was held when read.
func (l Lease) Live() bool { return l.Expires.After(l.Now) }

// Leases is what a cluster's node needs from the store besides Store.
// The SQL stores implement it.
type Leases interface {
	// Acquire takes game's lease for node for d if it is free, expired
	// or node's own, with the next epoch. It returns the lease as it
	// then stands (another node's, if not taken: Node differs) and, when
	// taken, the lease it replaced (zero if the game had none).
	Acquire(ctx context.Context, game, node string, d time.Duration) (now, before Lease, err error)
	// Renew extends for d every unexpired lease of node and returns
	// their games. (On PostgreSQL a lease whose row another transaction
	// has locked is not waited for: it is returned, still held, and
	// extended by a later renewal.)
	Renew(ctx context.Context, node string, d time.Duration) ([]string, error)
	// Release ends node's lease of game at epoch at once, if it still
	// holds it: the lease then has no node and expires at its release.
	Release(ctx context.Context, game, node string, epoch int64) error
	// LeaseOf returns game's lease; ErrNotFound if it never had one.
	LeaseOf(ctx context.Context, game string) (Lease, error)
	// Orphans returns up to limit unfinished games whose wake time
	// (Game.Wake) comes within the next `within` and whose lease is not
	// held: games that need a node although no client asks for them.
	Orphans(ctx context.Context, within time.Duration, limit int) ([]string, error)
}

// The database's clock in Unix milliseconds.
const (
	postgresNow = `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)`
	sqliteNow   = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`
)

// createLeases makes the leases table and the events' epoch column.
func createLeases(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS leases (
		game_id TEXT PRIMARY KEY,
		node TEXT NOT NULL,
		epoch BIGINT NOT NULL,
		expires_ms BIGINT NOT NULL
	)`); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS leases_node ON leases (node, expires_ms)`); err != nil {
		return err
	}
	return addColumn(ctx, db, "events", "epoch", "BIGINT NOT NULL DEFAULT 0")
}

// fence checks and renews f, the lease an event of game is written
// under, in the event's transaction.
func (s *sqlStore) fence(ctx context.Context, tx *sql.Tx, game string, f *Fence) error {
	res, err := tx.StmtContext(ctx, s.stFence).ExecContext(ctx, ms(f.Lease), game, f.Node, f.Epoch)
	if err != nil {
		return fmt.Errorf("store: %s: lease of %s: %w", s.d.name, game, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("store: append %s under epoch %d of %s: %w", game, f.Epoch, f.Node, ErrFenced)
	}
	return nil
}

// lease reads game's lease in tx (locking its row on PostgreSQL).
func (s *sqlStore) lease(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, game string, lock bool) (Lease, error) {
	query := `SELECT node, epoch, expires_ms, ` + s.d.nowMS + ` FROM leases WHERE game_id = ?`
	if lock && s.d.dollar {
		query += ` FOR UPDATE`
	}
	l := Lease{Game: game}
	var exp, now int64
	err := q.QueryRowContext(ctx, s.q(query), game).Scan(&l.Node, &l.Epoch, &exp, &now)
	if errors.Is(err, sql.ErrNoRows) {
		return l, fmt.Errorf("store: lease of %s: %w", game, ErrNotFound)
	}
	if err != nil {
		return l, fmt.Errorf("store: %s: lease of %s: %w", s.d.name, game, err)
	}
	l.Expires, l.Now = time.UnixMilli(exp).UTC(), time.UnixMilli(now).UTC()
	return l, nil
}

// dbNow reads the database's clock.
func (s *sqlStore) dbNow(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (time.Time, error) {
	var now int64
	if err := q.QueryRowContext(ctx, `SELECT `+s.d.nowMS).Scan(&now); err != nil {
		return time.Time{}, fmt.Errorf("store: %s: clock: %w", s.d.name, err)
	}
	return time.UnixMilli(now).UTC(), nil
}

// leaseWrite runs the write of a lease that may be another node's (a
// take-over) in a transaction of its own. On PostgreSQL it does not join
// the group commits: the lease's row may be locked by another node's
// transaction (one paused there, until the database ends it), and a group
// waiting on it would hold up the node's other writes. The node's own
// leases (Renew, Release) are written in its group commits, after the
// events that lock and renew them: a transaction of their own would wait
// on those rows. SQLite has one writer, the writer goroutine.
func (s *sqlStore) leaseWrite(ctx context.Context, id string, write func(ctx context.Context, tx *sql.Tx) error) error {
	if !s.d.dollar {
		return s.submit(ctx, &appendReq{id: id, write: write, done: make(chan error, 1)})
	}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return errors.New("store: closed")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: begin: %w", s.d.name, err)
	}
	defer tx.Rollback()
	if err := write(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: commit: %w", s.d.name, err)
	}
	return nil
}

// Acquire implements Leases.
func (s *sqlStore) Acquire(ctx context.Context, game, node string, d time.Duration) (now, before Lease, err error) {
	err = s.leaseWrite(ctx, game, func(ctx context.Context, tx *sql.Tx) error {
		now, before = Lease{}, Lease{}
		old, err := s.lease(ctx, tx, game, true)
		if errors.Is(err, ErrNotFound) {
			// The game's first lease. Another node may be inserting it
			// too: the insert then waits for that node's transaction and
			// inserts nothing, and the lease it made is read instead.
			t, terr := s.dbNow(ctx, tx)
			if terr != nil {
				return terr
			}
			var n int64
			res, ierr := tx.ExecContext(ctx, s.q(`INSERT INTO leases (game_id, node, epoch, expires_ms) VALUES (?, ?, 1, ?) ON CONFLICT (game_id) DO NOTHING`),
				game, node, t.Add(d).UnixMilli())
			if ierr == nil {
				n, ierr = res.RowsAffected()
			}
			if ierr != nil {
				return fmt.Errorf("store: %s: lease of %s: %w", s.d.name, game, ierr)
			}
			if n == 1 {
				now = Lease{Game: game, Node: node, Epoch: 1, Expires: t.Add(d), Now: t}
				return nil
			}
			old, err = s.lease(ctx, tx, game, true)
		}
		switch {
		case err != nil:
			return err
		case old.Live() && old.Node != node:
			now = old // held by another
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE leases SET node = ?, epoch = ?, expires_ms = ? WHERE game_id = ? AND epoch = ?`),
			node, old.Epoch+1, old.Now.Add(d).UnixMilli(), game, old.Epoch); err != nil {
			return fmt.Errorf("store: %s: lease of %s: %w", s.d.name, game, err)
		}
		before = old
		now = Lease{Game: game, Node: node, Epoch: old.Epoch + 1, Expires: old.Now.Add(d), Now: old.Now}
		return nil
	})
	return now, before, err
}

// Renew implements Leases.
func (s *sqlStore) Renew(ctx context.Context, node string, d time.Duration) ([]string, error) {
	var games []string
	err := s.submit(ctx, &appendReq{id: node, done: make(chan error, 1), write: func(ctx context.Context, tx *sql.Tx) error {
		games = games[:0]
		query := `UPDATE leases SET expires_ms = ` + s.d.nowMS + ` + ? WHERE node = ? AND expires_ms > ` + s.d.nowMS + ` RETURNING game_id`
		args := []any{ms(d), node}
		if s.d.dollar {
			// A lease row locked by another node's transaction (an
			// Acquire of that game, on a node paused in the middle of
			// it) is not waited for: the node's other leases are
			// renewed at once, that one at a later renewal, and the
			// games returned are those whose lease the node holds.
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE leases SET expires_ms = `+s.d.nowMS+` + ? WHERE game_id IN
				(SELECT game_id FROM leases WHERE node = ? AND expires_ms > `+s.d.nowMS+` FOR UPDATE SKIP LOCKED)`), ms(d), node); err != nil {
				return fmt.Errorf("store: %s: renew %s: %w", s.d.name, node, err)
			}
			query = `SELECT game_id FROM leases WHERE node = ? AND expires_ms > ` + s.d.nowMS
			args = []any{node}
		}
		rows, err := tx.QueryContext(ctx, s.q(query), args...)
		if err != nil {
			return fmt.Errorf("store: %s: renew %s: %w", s.d.name, node, err)
		}
		defer rows.Close()
		for rows.Next() {
			var g string
			if err := rows.Scan(&g); err != nil {
				return fmt.Errorf("store: %s: renew %s: %w", s.d.name, node, err)
			}
			games = append(games, g)
		}
		return rows.Err()
	}})
	return games, err
}

// Release implements Leases. The lease's row stays, with no node and
// expiring at its release, so that the game's next epoch follows this one
// and its next owner knows when it was given up.
func (s *sqlStore) Release(ctx context.Context, game, node string, epoch int64) error {
	return s.submit(ctx, &appendReq{id: game, done: make(chan error, 1), write: func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE leases SET node = '', expires_ms = `+s.d.nowMS+` WHERE game_id = ? AND node = ? AND epoch = ?`), game, node, epoch); err != nil {
			return fmt.Errorf("store: %s: release %s: %w", s.d.name, game, err)
		}
		return nil
	}})
}

// LeaseOf implements Leases.
func (s *sqlStore) LeaseOf(ctx context.Context, game string) (Lease, error) {
	return s.lease(ctx, s.db, game, false)
}

// Orphans implements Leases.
func (s *sqlStore) Orphans(ctx context.Context, within time.Duration, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id FROM games WHERE finished = 0 AND wake_ms > 0 AND wake_ms < `+s.d.nowMS+` + ?
		AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.game_id = games.id AND leases.expires_ms > `+s.d.nowMS+`)
		ORDER BY wake_ms LIMIT ?`), ms(within), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %s: orphans: %w", s.d.name, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %s: orphans: %w", s.d.name, err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
