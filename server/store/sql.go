package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver
)

// dialect holds what differs between the SQL databases.
type dialect struct {
	name       string
	dollar     bool // placeholders $1, $2 instead of ?
	checkpoint bool // the store checkpoints the WAL itself (SQLite)
	isUnique   func(error) bool
	nowMS      string // an expression for the database's clock in Unix milliseconds
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS games (
		id TEXT PRIMARY KEY,
		variant TEXT NOT NULL,
		options TEXT NOT NULL,
		fen TEXT NOT NULL,
		seed BIGINT NOT NULL,
		white_hash TEXT NOT NULL,
		black_hash TEXT NOT NULL,
		opponent TEXT NOT NULL,
		level INTEGER NOT NULL,
		engine_seat INTEGER NOT NULL,
		initial_ms BIGINT NOT NULL,
		increment_ms BIGINT NOT NULL,
		days INTEGER NOT NULL,
		created_ms BIGINT NOT NULL,
		finished INTEGER NOT NULL,
		result TEXT NOT NULL,
		reason TEXT NOT NULL,
		rematch_of TEXT NOT NULL
	)`,
	`CREATE INDEX IF NOT EXISTS games_finished ON games (finished, created_ms)`,
	`CREATE TABLE IF NOT EXISTS events (
		game_id TEXT NOT NULL,
		version BIGINT NOT NULL,
		kind TEXT NOT NULL,
		data TEXT NOT NULL,
		at_ms BIGINT NOT NULL,
		PRIMARY KEY (game_id, version)
	)`,
}

// addColumn adds a column to a table made before the column existed, on
// SQLite and PostgreSQL alike (neither fails on a table that has it: the
// column is looked for first).
func addColumn(ctx context.Context, db *sql.DB, table, column, decl string) error {
	// The query names the column in a comment, so that its text differs
	// per column: PostgreSQL refuses to reuse a statement prepared (and
	// cached by pgx) before an earlier call altered the table.
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table+" WHERE 1 = 0 -- "+column)
	if err != nil {
		return err
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		return err
	}
	for _, c := range cols {
		if strings.EqualFold(c, column) {
			return nil
		}
	}
	_, err = db.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+column+" "+decl)
	return err
}

// sqlStore implements Store over database/sql.
type sqlStore struct {
	db *sql.DB
	d  dialect

	// Prepared statements of the append path (parsed once).
	stExists, stInsert, stFinish, stWake, stFence *sql.Stmt

	unlock  func() error // releases the lock on the database, if any
	reqs    chan *appendReq
	wg      sync.WaitGroup
	closeMu sync.RWMutex
	closed  bool
}

// appendReq is one Append (or Create, if game is set, or another write,
// if write is set) waiting for its group commit.
type appendReq struct {
	game *Game
	id   string
	ev   Event
	end  *End
	// write, if set, is another write (accounts, sessions, claims) made in
	// the group's transaction instead of an append.
	write func(ctx context.Context, tx *sql.Tx) error
	done  chan error
}

// maxBatch is the most appends written in one transaction.
const maxBatch = 256

// OpenSQLite opens (creating if needed) the SQLite database file path. It
// holds an exclusive lock on path+".lock" until Close: a second store on
// the same file, in this process or another, fails with ErrInUse.
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return nil, err
	}
	// Write transactions take the write lock when they begin (_txlock),
	// so a transaction that reads first never fails to upgrade its lock.
	// Automatic checkpoints are off: the writer checkpoints (see writer).
	// Pages of 1 KiB (set when the file is created) keep the WAL small: a
	// group commit writes one page of the events' index per game in it.
	dsn := "file:" + path + "?_pragma=page_size(1024)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_pragma=cache_size(-32768)&_pragma=wal_autocheckpoint(0)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	d := dialect{name: "sqlite " + path, checkpoint: true, nowMS: sqliteNow, isUnique: func(err error) bool {
		return strings.Contains(err.Error(), "UNIQUE constraint") || strings.Contains(err.Error(), "constraint failed")
	}}
	s, err := newSQL(ctx, db, d)
	if err != nil {
		unlock()
		return nil, err
	}
	s.unlock = unlock
	return s, nil
}

// sessionLimits bound, on each PostgreSQL connection, how long a
// statement waits for a row lock and how long a transaction may stay open
// with no statement running. A process paused in the middle of a
// transaction (or a node of a cluster that stopped there) would otherwise
// hold its row locks, and with them every other writer that needs those
// rows, for as long as it stays paused. Its transaction is then rolled
// back: nothing it wrote there was acknowledged.
var sessionLimits = [][2]string{{"lock_timeout", "1000"}, {"idle_in_transaction_session_timeout", "2000"}}

// withSessionLimits adds sessionLimits to a PostgreSQL URL as run-time
// parameters, unless the URL sets them itself.
func withSessionLimits(url string) string {
	for _, p := range sessionLimits {
		if strings.Contains(url, p[0]+"=") {
			continue
		}
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		url += sep + p[0] + "=" + p[1]
	}
	return url
}

// schemaLock is the PostgreSQL advisory lock key held while the schema is
// made or migrated.
const schemaLock = "7263548101"

// OpenPostgres opens the PostgreSQL database at url
// (postgres://user:pass@host:port/db).
func OpenPostgres(ctx context.Context, url string) (Store, error) {
	db, err := sql.Open("pgx", withSessionLimits(url))
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db.SetMaxOpenConns(8)
	d := dialect{name: "postgres", dollar: true, nowMS: postgresNow, isUnique: func(err error) bool {
		return strings.Contains(err.Error(), "23505") || strings.Contains(err.Error(), "duplicate key")
	}}
	// The nodes of a cluster may start at once on a new database: the
	// schema is made and migrated by one at a time, under an advisory
	// lock held by one connection.
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+schemaLock+`)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: postgres: schema lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+schemaLock+`)`)
	return newSQL(ctx, db, d)
}

// Open opens the store named by url: "postgres://..." or
// "postgresql://..." for PostgreSQL, "sqlite:PATH" or a plain path for SQLite.
func Open(ctx context.Context, url string) (Store, error) {
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return OpenPostgres(ctx, url)
	case strings.HasPrefix(url, "sqlite:"):
		return OpenSQLite(ctx, strings.TrimPrefix(url, "sqlite:"))
	default:
		return OpenSQLite(ctx, url)
	}
}

func newSQL(ctx context.Context, db *sql.DB, d dialect) (*sqlStore, error) {
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", d.name, err)
	}
	for _, q := range schema {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			return nil, fmt.Errorf("store: %s schema: %w", d.name, err)
		}
	}
	if err := createDefinitionTables(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s schema: %w", d.name, err)
	}
	// wake_ms is NULL in games stored before it existed (Game.Wake).
	for _, c := range [][2]string{{"nonce", "TEXT NOT NULL DEFAULT ''"}, {"dice_key", "TEXT NOT NULL DEFAULT ''"}, {"wake_ms", "BIGINT"}, definitionColumn} {
		if err := addColumn(ctx, db, "games", c[0], c[1]); err != nil {
			db.Close()
			return nil, fmt.Errorf("store: %s schema: %w", d.name, err)
		}
	}
	if err := createLeases(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s schema: %w", d.name, err)
	}
	if err := migratePeople(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s schema: %w", d.name, err)
	}
	s := &sqlStore{db: db, d: d, reqs: make(chan *appendReq, 4096)}
	for _, p := range []struct {
		st    **sql.Stmt
		query string
	}{
		{&s.stExists, `SELECT 1 FROM games WHERE id = ?`},
		{&s.stInsert, `INSERT INTO events (game_id, version, kind, data, at_ms, epoch)
			SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			WHERE COALESCE((SELECT MAX(version) FROM events WHERE game_id = CAST(? AS TEXT)), 0) = CAST(? AS BIGINT)`},
		{&s.stFinish, `UPDATE games SET finished = 1, result = ?, reason = ? WHERE id = ?`},
		{&s.stWake, `UPDATE games SET wake_ms = ? WHERE id = ?`},
		{&s.stFence, `UPDATE leases SET expires_ms = ` + d.nowMS + ` + ? WHERE game_id = ? AND node = ? AND epoch = ? AND expires_ms > ` + d.nowMS},
	} {
		st, err := db.PrepareContext(ctx, s.q(p.query))
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("store: %s prepare: %w", d.name, err)
		}
		*p.st = st
	}
	s.wg.Add(1)
	go s.writer()
	return s, nil
}

// q rewrites ? placeholders for the dialect.
func (s *sqlStore) q(query string) string {
	if !s.d.dollar {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// Create implements Store. It is written by the writer goroutine like an
// append, so only one connection ever writes (SQLite's writers never wait
// on each other's locks).
func (s *sqlStore) Create(ctx context.Context, g *Game) error {
	return s.submit(ctx, &appendReq{id: g.ID, game: g, done: make(chan error, 1)})
}

func (s *sqlStore) createTx(ctx context.Context, tx *sql.Tx, g *Game) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return fmt.Errorf("store: options: %w", err)
	}
	if g.Options == nil {
		opts = []byte("{}")
	}
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO games (id, variant, options, fen, seed,
		white_hash, black_hash, opponent, level, engine_seat, initial_ms, increment_ms, days,
		created_ms, finished, result, reason, rematch_of, nonce, dice_key, wake_ms, definition, white_user, black_user, rated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		g.ID, g.Variant, string(opts), g.FEN, int64(g.Seed), g.TokenHash[0], g.TokenHash[1],
		g.Opponent, g.Level, g.EngineSeat, ms(g.Initial), ms(g.Increment), g.Days,
		g.Created.UnixMilli(), boolInt(g.Finished), g.Result, g.Reason, g.RematchOf, g.Nonce, g.DiceKey, wakeMS(g.Wake),
		g.Definition, g.Users[0], g.Users[1], boolInt(g.Rated))
	if err != nil {
		if s.d.isUnique(err) {
			return fmt.Errorf("store: create %s: %w", g.ID, ErrConflict)
		}
		return fmt.Errorf("store: %s: create %s: %w", s.d.name, g.ID, err)
	}
	return s.createPlayers(ctx, tx, g)
}

// wakeMS is a wake time as stored: Unix milliseconds, 0 for none.
func wakeMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return max(t.UnixMilli(), 1)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Append implements Store: the request joins the next group commit.
func (s *sqlStore) Append(ctx context.Context, id string, ev Event, end *End) error {
	return s.submit(ctx, &appendReq{id: id, ev: ev, end: end, done: make(chan error, 1)})
}

// submit hands a write to the writer goroutine and waits for its commit.
func (s *sqlStore) submit(ctx context.Context, r *appendReq) error {
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return errors.New("store: closed")
	}
	select {
	case s.reqs <- r:
	case <-ctx.Done():
		s.closeMu.RUnlock()
		return fmt.Errorf("store: write %s: %w", r.id, ctx.Err())
	}
	s.closeMu.RUnlock()
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		// The write may still happen; the caller treats it as not done,
		// and a reload will show whether it landed.
		return fmt.Errorf("store: write %s: %w", r.id, ctx.Err())
	}
}

// writer runs the group commits until the request channel is closed.
// With SQLite it also checkpoints the WAL, at most once a second, between
// two commits: no write runs meanwhile, so the checkpoint copies every
// frame and the next commit starts the WAL over. (A checkpoint that runs
// while writes go on, as SQLite's automatic one or another connection's,
// lets the WAL grow without end under steady writes, and one that waits
// for the writer sleeps in SQLite's busy handler.)
func (s *sqlStore) writer() {
	defer s.wg.Done()
	batch := make([]*appendReq, 0, maxBatch)
	last := time.Now()
	for r := range s.reqs {
		batch = append(batch[:0], r)
	drain:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-s.reqs:
				if !ok {
					break drain
				}
				batch = append(batch, r)
			default:
				break drain
			}
		}
		s.commit(batch)
		if s.d.checkpoint && time.Since(last) >= time.Second {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
			cancel()
			last = time.Now()
		}
	}
}

// commit writes a batch in one transaction; if that fails, each request
// is written in a transaction of its own so one conflict fails only itself.
func (s *sqlStore) commit(batch []*appendReq) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if len(batch) > 1 {
		if err := s.tx(ctx, batch); err == nil {
			for _, r := range batch {
				r.done <- nil
			}
			return
		}
	}
	for _, r := range batch {
		r.done <- s.tx(ctx, []*appendReq{r})
	}
}

// tx writes the requests of batch in one transaction.
func (s *sqlStore) tx(ctx context.Context, batch []*appendReq) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: begin: %w", s.d.name, err)
	}
	defer tx.Rollback()
	for _, r := range batch {
		var err error
		switch {
		case r.write != nil:
			err = r.write(ctx, tx)
		case r.game != nil:
			err = s.createTx(ctx, tx, r.game)
		default:
			err = s.appendTx(ctx, tx, r)
		}
		if err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: commit: %w", s.d.name, err)
	}
	return nil
}

// appendTx writes one event: the insert succeeds only if the event's
// version follows the game's last (one statement, which reads the events'
// primary key), and the first event of a game checks that the game exists.
func (s *sqlStore) appendTx(ctx context.Context, tx *sql.Tx, r *appendReq) error {
	if r.ev.Version == 1 {
		var exists int
		if err := tx.StmtContext(ctx, s.stExists).QueryRowContext(ctx, r.id).Scan(&exists); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: append %s: %w", r.id, ErrNotFound)
		} else if err != nil {
			return fmt.Errorf("store: append %s: %w", r.id, err)
		}
	}
	var epoch int64
	if f := r.ev.Fence; f != nil {
		if err := s.fence(ctx, tx, r.id, f); err != nil {
			return err
		}
		epoch = f.Epoch
	}
	res, err := tx.StmtContext(ctx, s.stInsert).ExecContext(ctx, r.id, r.ev.Version, r.ev.Kind, string(r.ev.Data), r.ev.At.UnixMilli(), epoch, r.id, r.ev.Version-1)
	if err != nil {
		if s.d.isUnique(err) {
			return fmt.Errorf("store: append %s v%d: %w", r.id, r.ev.Version, ErrConflict)
		}
		return fmt.Errorf("store: %s: append %s v%d: %w", s.d.name, r.id, r.ev.Version, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		if r.ev.Version > 1 {
			var exists int
			if err := tx.StmtContext(ctx, s.stExists).QueryRowContext(ctx, r.id).Scan(&exists); errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("store: append %s: %w", r.id, ErrNotFound)
			}
		}
		return fmt.Errorf("store: append %s v%d: %w", r.id, r.ev.Version, ErrConflict)
	}
	if _, err := tx.StmtContext(ctx, s.stWake).ExecContext(ctx, wakeMS(r.ev.Wake), r.id); err != nil {
		return fmt.Errorf("store: wake %s: %w", r.id, err)
	}
	if r.end != nil {
		if _, err := tx.StmtContext(ctx, s.stFinish).ExecContext(ctx, r.end.Result, r.end.Reason, r.id); err != nil {
			return fmt.Errorf("store: %s: finish %s: %w", s.d.name, r.id, err)
		}
		if err := s.endPeople(ctx, tx, r.id, r.end); err != nil {
			return err
		}
	}
	return nil
}

// gameColumns are the columns of a Game; its version is its last event's,
// its plies the number of its ply events.
const gameColumns = `id, variant, options, fen, seed, white_hash, black_hash, opponent, level,
	engine_seat, initial_ms, increment_ms, days, created_ms, finished, result, reason,
	(SELECT COALESCE(MAX(version), 0) FROM events WHERE events.game_id = games.id), rematch_of, nonce, dice_key, wake_ms,
	(SELECT COUNT(*) FROM events WHERE events.game_id = games.id AND events.kind = 'ply'),
	definition, white_user, black_user, rated`

type scanner interface{ Scan(...any) error }

func scanGame(row scanner) (*Game, error) {
	var g Game
	var opts string
	var seed, initial, inc, created int64
	var finished, rated int
	var wake sql.NullInt64
	if err := row.Scan(&g.ID, &g.Variant, &opts, &g.FEN, &seed, &g.TokenHash[0], &g.TokenHash[1],
		&g.Opponent, &g.Level, &g.EngineSeat, &initial, &inc, &g.Days, &created, &finished,
		&g.Result, &g.Reason, &g.Version, &g.RematchOf, &g.Nonce, &g.DiceKey, &wake, &g.Plies,
		&g.Definition, &g.Users[0], &g.Users[1], &rated); err != nil {
		return nil, err
	}
	switch {
	case wake.Valid && wake.Int64 > 0:
		g.Wake = time.UnixMilli(wake.Int64).UTC()
	case !wake.Valid && finished == 0 && (initial > 0 || g.Days > 0 || g.Opponent == "engine"):
		g.Wake = time.Unix(0, 0).UTC() // stored before wake times: due at once
	}
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return nil, fmt.Errorf("store: game %s options: %w", g.ID, err)
	}
	g.Seed = uint64(seed)
	g.Initial = time.Duration(initial) * time.Millisecond
	g.Increment = time.Duration(inc) * time.Millisecond
	g.Created = time.UnixMilli(created).UTC()
	g.Finished = finished != 0
	g.Rated = rated != 0
	return &g, nil
}

// Load implements Store. Events are only ever appended, so the game read
// first and its events read after are consistent; Version is the number
// of events read.
func (s *sqlStore) Load(ctx context.Context, id string) (*Game, []Event, error) {
	g, err := scanGame(s.db.QueryRowContext(ctx, s.q(`SELECT `+gameColumns+` FROM games WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("store: load %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: %s: load %s: %w", s.d.name, id, err)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT version, kind, data, at_ms, epoch FROM events WHERE game_id = ? ORDER BY version`), id)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %s: load %s events: %w", s.d.name, id, err)
	}
	defer rows.Close()
	var evs []Event
	for rows.Next() {
		var ev Event
		var data string
		var at int64
		if err := rows.Scan(&ev.Version, &ev.Kind, &data, &at, &ev.Epoch); err != nil {
			return nil, nil, fmt.Errorf("store: %s: load %s events: %w", s.d.name, id, err)
		}
		if ev.Version != int64(len(evs)+1) {
			return nil, nil, fmt.Errorf("store: load %s: event %d where %d was due", id, ev.Version, len(evs)+1)
		}
		ev.Data = []byte(data)
		ev.At = time.UnixMilli(at).UTC()
		evs = append(evs, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: %s: load %s events: %w", s.d.name, id, err)
	}
	g.Version = int64(len(evs))
	return g, evs, nil
}

// List implements Store.
func (s *sqlStore) List(ctx context.Context, f Filter) ([]Game, error) {
	query := `SELECT ` + gameColumns + ` FROM games`
	var args []any
	var where []string
	if f.Finished != nil {
		where = append(where, `finished = ?`)
		args = append(args, boolInt(*f.Finished))
	}
	if f.Waking {
		where = append(where, `(wake_ms > 0 OR wake_ms IS NULL AND finished = 0 AND (initial_ms > 0 OR days > 0 OR opponent = 'engine'))`)
	}
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, ` AND `)
	}
	query += ` ORDER BY created_ms DESC, id`
	if f.Limit > 0 {
		query += ` LIMIT ` + strconv.Itoa(f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list: %w", s.d.name, err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s: list: %w", s.d.name, err)
		}
		out = append(out, *g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: list: %w", s.d.name, err)
	}
	return out, nil
}

// Close implements Store.
func (s *sqlStore) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	close(s.reqs)
	s.closeMu.Unlock()
	s.wg.Wait()
	err := s.db.Close()
	if s.unlock != nil {
		s.unlock()
	}
	if err != nil {
		return fmt.Errorf("store: %s: close: %w", s.d.name, err)
	}
	return nil
}

// PostgresSchema creates the schema name in the PostgreSQL database at url
// (dropping it first if reset) and returns a URL whose connections use it,
// so that several stores (test suites, deployments) share one database.
func PostgresSchema(ctx context.Context, url, name string, reset bool) (string, error) {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return "", fmt.Errorf("store: schema name %q: want a-z, 0-9 and _", name)
		}
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return "", fmt.Errorf("store: open postgres: %w", err)
	}
	defer db.Close()
	if reset {
		if _, err := db.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+name+` CASCADE`); err != nil {
			return "", fmt.Errorf("store: drop schema %s: %w", name, err)
		}
	}
	if _, err := db.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+name); err != nil {
		return "", fmt.Errorf("store: create schema %s: %w", name, err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + name, nil
}
