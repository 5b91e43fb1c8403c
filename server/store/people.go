package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/rating"
)

// User is an account.
type User struct {
	Name    string // the canonical name: lower case, the account's key
	Display string // the name as it was signed up
	Hash    string // the password's hash (the server's encoding)
	Created time.Time
}

// Session is a signed-in browser: the SHA-256 of its cookie, the user and
// the session's CSRF token.
type Session struct {
	IDHash  string
	User    string
	CSRF    string
	Created time.Time
	Expires time.Time
}

// Rating is a user's Glicko-2 rating in one variant and time class.
type Rating struct {
	User    string
	Variant string
	Class   rating.Class
	rating.Rating
	Games   int
	Updated time.Time
}

// RatingPoint is a user's rating after one rated game.
type RatingPoint struct {
	Variant string
	Class   rating.Class
	At      time.Time
	R, RD   float64
	Game    string
}

// PlayerGame is one game in a user's list of games.
type PlayerGame struct {
	Game     string
	Seat     int // 0 white, 1 black
	Variant  string
	Created  time.Time
	Opponent string // the other seat's user name, "engine:N" for the engine at level N, "" anonymous
	Rated    bool
	Class    rating.Class
	Outcome  string // "win", "loss", "draw" for the user; "aborted"; "" while played
	Result   string // the game's result, "1-0", "0-1", "1/2-1/2", "*"
}

// GamesQuery selects a page of a user's games, newest first.
type GamesQuery struct {
	User    string
	Variant string // "" all
	Outcome string // "" all, or "win", "loss", "draw", "aborted"
	// Before is a cursor (PlayerGame.Cursor of the last game of the
	// previous page); "" the first page.
	Before string
	Limit  int
}

// Cursor is the position of g in its user's list: the Before of the next
// page.
func (g PlayerGame) Cursor() string {
	return strconv.FormatInt(g.Created.UnixMilli(), 10) + "." + g.Game
}

// ErrBadCursor is returned for a Before that no page gave.
var ErrBadCursor = errors.New("store: bad cursor")

// ErrTaken is returned when a user name is taken.
var ErrTaken = errors.New("store: user name taken")

// People is what the store keeps of accounts, sessions, ratings and each
// user's games. The SQL stores implement it; the server finds it by a type
// assertion.
type People interface {
	// CreateUser stores a new account; ErrTaken if its name is.
	CreateUser(ctx context.Context, u *User) error
	// User returns an account by canonical name, or ErrNotFound.
	User(ctx context.Context, name string) (*User, error)
	// CreateSession stores a session.
	CreateSession(ctx context.Context, s *Session) error
	// Session returns an unexpired session by its cookie's hash, or
	// ErrNotFound.
	Session(ctx context.Context, idHash string, now time.Time) (*Session, error)
	// DeleteSession removes a session (signing out); none is no error.
	DeleteSession(ctx context.Context, idHash string) error
	// Claim sets user as the player of seat of game id if tokenHash is
	// that seat's and it has no player yet; ErrNotFound otherwise. A
	// claimed game stays unrated.
	Claim(ctx context.Context, user, id string, seat int, tokenHash string) error
	// Ratings returns a user's ratings in every variant and class they
	// were rated in.
	Ratings(ctx context.Context, user string) ([]Rating, error)
	// History returns a user's rating after each rated game, oldest
	// first, the newest limit of them.
	History(ctx context.Context, user string, limit int) ([]RatingPoint, error)
	// Games returns a page of a user's games.
	Games(ctx context.Context, q GamesQuery) ([]PlayerGame, error)
	// Leaderboard returns the best established ratings (deviation at most
	// rating.ProvisionalRD) of a variant and class.
	Leaderboard(ctx context.Context, variant string, class rating.Class, limit int) ([]Rating, error)
}

// peopleSchema is the schema of accounts and ratings; made after the
// games' schema, and on a database of games made before it existed.
var peopleSchema = []string{
	`CREATE TABLE IF NOT EXISTS users (
		name TEXT PRIMARY KEY,
		display TEXT NOT NULL,
		hash TEXT NOT NULL,
		created_ms BIGINT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS sessions (
		id_hash TEXT PRIMARY KEY,
		user_name TEXT NOT NULL,
		csrf TEXT NOT NULL,
		created_ms BIGINT NOT NULL,
		expires_ms BIGINT NOT NULL
	)`,
	`CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_name)`,
	`CREATE TABLE IF NOT EXISTS ratings (
		user_name TEXT NOT NULL,
		variant TEXT NOT NULL,
		class TEXT NOT NULL,
		rating DOUBLE PRECISION NOT NULL,
		rd DOUBLE PRECISION NOT NULL,
		vol DOUBLE PRECISION NOT NULL,
		games INTEGER NOT NULL,
		updated_ms BIGINT NOT NULL,
		PRIMARY KEY (user_name, variant, class)
	)`,
	`CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, class, rating)`,
	`CREATE TABLE IF NOT EXISTS rating_history (
		user_name TEXT NOT NULL,
		variant TEXT NOT NULL,
		class TEXT NOT NULL,
		at_ms BIGINT NOT NULL,
		rating DOUBLE PRECISION NOT NULL,
		rd DOUBLE PRECISION NOT NULL,
		game_id TEXT NOT NULL,
		PRIMARY KEY (user_name, game_id)
	)`,
	`CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history (user_name, at_ms)`,
	`CREATE TABLE IF NOT EXISTS game_players (
		user_name TEXT NOT NULL,
		game_id TEXT NOT NULL,
		seat INTEGER NOT NULL,
		variant TEXT NOT NULL,
		created_ms BIGINT NOT NULL,
		opponent TEXT NOT NULL,
		rated INTEGER NOT NULL,
		class TEXT NOT NULL,
		outcome TEXT NOT NULL,
		result TEXT NOT NULL,
		PRIMARY KEY (user_name, game_id)
	)`,
	// One index per filter of a user's list of games, each ending in the
	// keyset (created_ms, game_id), so a page is one index range.
	`CREATE INDEX IF NOT EXISTS game_players_all ON game_players (user_name, created_ms, game_id)`,
	`CREATE INDEX IF NOT EXISTS game_players_variant ON game_players (user_name, variant, created_ms, game_id)`,
	`CREATE INDEX IF NOT EXISTS game_players_outcome ON game_players (user_name, outcome, created_ms, game_id)`,
	`CREATE INDEX IF NOT EXISTS game_players_both ON game_players (user_name, variant, outcome, created_ms, game_id)`,
	`CREATE INDEX IF NOT EXISTS game_players_game ON game_players (game_id)`,
}

// migratePeople adds the games' player columns and the people's tables to
// a database, whenever it was made.
func migratePeople(ctx context.Context, db *sql.DB) error {
	for _, c := range [][2]string{{"white_user", "TEXT NOT NULL DEFAULT ''"}, {"black_user", "TEXT NOT NULL DEFAULT ''"}, {"rated", "INTEGER NOT NULL DEFAULT 0"}} {
		if err := addColumn(ctx, db, "games", c[0], c[1]); err != nil {
			return err
		}
	}
	for _, q := range peopleSchema {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// opponentName is how a seat's opponent is listed in game_players.
func opponentName(g *Game, seat int) string {
	if g.Opponent == "engine" {
		return "engine:" + strconv.Itoa(g.Level)
	}
	return g.Users[1-seat]
}

// createPlayers lists a new game in its players' lists of games.
func (s *sqlStore) createPlayers(ctx context.Context, tx *sql.Tx, g *Game) error {
	class := rating.ClassOf(g.Initial, g.Increment)
	for seat, u := range g.Users {
		if u == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO game_players (user_name, game_id, seat, variant, created_ms,
			opponent, rated, class, outcome, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', '*')`),
			u, g.ID, seat, g.Variant, g.Created.UnixMilli(), opponentName(g, seat), boolInt(g.Rated), string(class)); err != nil {
			return fmt.Errorf("store: %s: players of %s: %w", s.d.name, g.ID, err)
		}
	}
	return nil
}

// outcomes returns each seat's outcome of a result.
func outcomes(result string) [2]string {
	switch result {
	case "1-0":
		return [2]string{"win", "loss"}
	case "0-1":
		return [2]string{"loss", "win"}
	case "1/2-1/2":
		return [2]string{"draw", "draw"}
	}
	return [2]string{"aborted", "aborted"}
}

// endPeople records a game's end for its players, in the transaction of
// the event that ends it: each player's outcome, and for a rated game with
// a result both ratings (Glicko-2, one game as a rating period) and their
// history.
func (s *sqlStore) endPeople(ctx context.Context, tx *sql.Tx, id string, end *End) error {
	var users [2]string
	var rated int
	var variant string
	var initial, inc int64
	err := tx.QueryRowContext(ctx, s.q(`SELECT white_user, black_user, rated, variant, initial_ms, increment_ms FROM games WHERE id = ?`), id).
		Scan(&users[0], &users[1], &rated, &variant, &initial, &inc)
	if err != nil {
		return fmt.Errorf("store: %s: players of %s: %w", s.d.name, id, err)
	}
	if users[0] == "" && users[1] == "" {
		return nil
	}
	out := outcomes(end.Result)
	for seat := range 2 {
		if users[seat] == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE game_players SET outcome = ?, result = ? WHERE user_name = ? AND game_id = ?`),
			out[seat], end.Result, users[seat], id); err != nil {
			return fmt.Errorf("store: %s: outcome of %s: %w", s.d.name, id, err)
		}
	}
	var score float64
	switch end.Result {
	case "1-0":
		score = 1
	case "0-1":
		score = 0
	case "1/2-1/2":
		score = 0.5
	default:
		return nil // aborted: nobody's rating changes
	}
	if rated == 0 || users[0] == "" || users[1] == "" || users[0] == users[1] {
		return nil
	}
	class := rating.ClassOf(time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond)
	var before [2]rating.Rating
	var games [2]int
	for seat := range 2 {
		r, n, err := s.ratingTx(ctx, tx, users[seat], variant, class)
		if err != nil {
			return err
		}
		before[seat], games[seat] = r, n
	}
	w, b, err := rating.Game(before[0], before[1], score)
	if err != nil {
		return fmt.Errorf("store: rating %s: %w", id, err)
	}
	now := time.Now().UnixMilli()
	for seat, r := range [2]rating.Rating{w, b} {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO ratings (user_name, variant, class, rating, rd, vol, games, updated_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_name, variant, class) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
				vol = excluded.vol, games = excluded.games, updated_ms = excluded.updated_ms`),
			users[seat], variant, string(class), r.R, r.RD, r.Vol, games[seat]+1, now); err != nil {
			return fmt.Errorf("store: %s: rating of %s: %w", s.d.name, users[seat], err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO rating_history (user_name, variant, class, at_ms, rating, rd, game_id)
			VALUES (?, ?, ?, ?, ?, ?, ?)`), users[seat], variant, string(class), now, r.R, r.RD, id); err != nil {
			return fmt.Errorf("store: %s: rating history of %s: %w", s.d.name, users[seat], err)
		}
	}
	return nil
}

// ratingTx reads a user's rating and rated games in a variant and class;
// a new player's if none.
func (s *sqlStore) ratingTx(ctx context.Context, tx *sql.Tx, user, variant string, class rating.Class) (rating.Rating, int, error) {
	var r rating.Rating
	var n int
	err := tx.QueryRowContext(ctx, s.q(`SELECT rating, rd, vol, games FROM ratings WHERE user_name = ? AND variant = ? AND class = ?`),
		user, variant, string(class)).Scan(&r.R, &r.RD, &r.Vol, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return rating.New(), 0, nil
	}
	if err != nil {
		return r, 0, fmt.Errorf("store: %s: rating of %s: %w", s.d.name, user, err)
	}
	return r, n, nil
}

// CreateUser implements People.
func (s *sqlStore) CreateUser(ctx context.Context, u *User) error {
	return s.write(ctx, "user "+u.Name, func(ctx context.Context, tx *sql.Tx) error {
		return s.createUserTx(ctx, tx, u)
	})
}

// write runs f in a transaction of the writer goroutine, as appends are:
// one connection writes, so SQLite's writers never wait on each other.
func (s *sqlStore) write(ctx context.Context, what string, f func(ctx context.Context, tx *sql.Tx) error) error {
	return s.submit(ctx, &appendReq{id: what, write: f, done: make(chan error, 1)})
}

func (s *sqlStore) createUserTx(ctx context.Context, tx *sql.Tx, u *User) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO users (name, display, hash, created_ms) VALUES (?, ?, ?, ?)`),
		u.Name, u.Display, u.Hash, u.Created.UnixMilli())
	if err != nil {
		if s.d.isUnique(err) {
			return fmt.Errorf("store: user %s: %w", u.Name, ErrTaken)
		}
		return fmt.Errorf("store: %s: user %s: %w", s.d.name, u.Name, err)
	}
	return nil
}

// User implements People.
func (s *sqlStore) User(ctx context.Context, name string) (*User, error) {
	var u User
	var created int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT name, display, hash, created_ms FROM users WHERE name = ?`), name).
		Scan(&u.Name, &u.Display, &u.Hash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: user %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %s: user %s: %w", s.d.name, name, err)
	}
	u.Created = time.UnixMilli(created).UTC()
	return &u, nil
}

// CreateSession implements People.
func (s *sqlStore) CreateSession(ctx context.Context, se *Session) error {
	return s.write(ctx, "session", func(ctx context.Context, tx *sql.Tx) error {
		return s.createSessionTx(ctx, tx, se)
	})
}

func (s *sqlStore) createSessionTx(ctx context.Context, tx *sql.Tx, se *Session) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO sessions (id_hash, user_name, csrf, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)`),
		se.IDHash, se.User, se.CSRF, se.Created.UnixMilli(), se.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: %s: session: %w", s.d.name, err)
	}
	return nil
}

// Session implements People.
func (s *sqlStore) Session(ctx context.Context, idHash string, now time.Time) (*Session, error) {
	var se Session
	var created, expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT id_hash, user_name, csrf, created_ms, expires_ms FROM sessions WHERE id_hash = ? AND expires_ms > ?`),
		idHash, now.UnixMilli()).Scan(&se.IDHash, &se.User, &se.CSRF, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: session: %w", ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %s: session: %w", s.d.name, err)
	}
	se.Created, se.Expires = time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	return &se, nil
}

// DeleteSession implements People. Expired sessions go with it.
func (s *sqlStore) DeleteSession(ctx context.Context, idHash string) error {
	return s.write(ctx, "sign out", func(ctx context.Context, tx *sql.Tx) error {
		return s.deleteSessionTx(ctx, tx, idHash)
	})
}

func (s *sqlStore) deleteSessionTx(ctx context.Context, tx *sql.Tx, idHash string) error {
	_, err := tx.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE id_hash = ? OR expires_ms < ?`), idHash, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("store: %s: sign out: %w", s.d.name, err)
	}
	return nil
}

// Claim implements People.
func (s *sqlStore) Claim(ctx context.Context, user, id string, seat int, tokenHash string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("store: claim %s: seat %d: %w", id, seat, ErrNotFound)
	}
	col, hashCol := "white_user", "white_hash"
	if seat == 1 {
		col, hashCol = "black_user", "black_hash"
	}
	return s.write(ctx, "claim "+id, func(ctx context.Context, tx *sql.Tx) error {
		return s.claimTx(ctx, tx, user, id, seat, tokenHash, col, hashCol)
	})
}

func (s *sqlStore) claimTx(ctx context.Context, tx *sql.Tx, user, id string, seat int, tokenHash, col, hashCol string) error {
	res, err := tx.ExecContext(ctx, s.q(`UPDATE games SET `+col+` = ? WHERE id = ? AND `+hashCol+` = ? AND `+hashCol+` <> '' AND `+col+` = ''`),
		user, id, tokenHash)
	if err != nil {
		return fmt.Errorf("store: %s: claim %s: %w", s.d.name, id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("store: claim %s: %w", id, ErrNotFound)
	}
	g, err := scanGame(tx.QueryRowContext(ctx, s.q(`SELECT `+gameColumns+` FROM games WHERE id = ?`), id))
	if err != nil {
		return fmt.Errorf("store: %s: claim %s: %w", s.d.name, id, err)
	}
	out := ""
	if g.Finished {
		out = outcomes(g.Result)[seat]
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO game_players (user_name, game_id, seat, variant, created_ms,
		opponent, rated, class, outcome, result) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`),
		user, id, seat, g.Variant, g.Created.UnixMilli(), opponentName(g, seat),
		string(rating.ClassOf(g.Initial, g.Increment)), out, g.Result); err != nil {
		if s.d.isUnique(err) { // the user holds the other seat already
			return fmt.Errorf("store: claim %s: %w", id, ErrConflict)
		}
		return fmt.Errorf("store: %s: claim %s: %w", s.d.name, id, err)
	}
	if other := g.Users[1-seat]; other != "" {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE game_players SET opponent = ? WHERE user_name = ? AND game_id = ?`), user, other, id); err != nil {
			return fmt.Errorf("store: %s: claim %s: %w", s.d.name, id, err)
		}
	}
	return nil
}

// Ratings implements People.
func (s *sqlStore) Ratings(ctx context.Context, user string) ([]Rating, error) {
	return s.ratings(ctx, `SELECT user_name, variant, class, rating, rd, vol, games, updated_ms FROM ratings WHERE user_name = ? ORDER BY variant, class`, user)
}

// Leaderboard implements People.
func (s *sqlStore) Leaderboard(ctx context.Context, variant string, class rating.Class, limit int) ([]Rating, error) {
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	return s.ratings(ctx, `SELECT user_name, variant, class, rating, rd, vol, games, updated_ms FROM ratings
		WHERE variant = ? AND class = ? AND rd <= ? ORDER BY rating DESC, user_name LIMIT `+strconv.Itoa(limit),
		variant, string(class), rating.ProvisionalRD)
}

func (s *sqlStore) ratings(ctx context.Context, query string, args ...any) ([]Rating, error) {
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: ratings: %w", s.d.name, err)
	}
	defer rows.Close()
	var out []Rating
	for rows.Next() {
		var r Rating
		var class string
		var updated int64
		if err := rows.Scan(&r.User, &r.Variant, &class, &r.R, &r.RD, &r.Vol, &r.Games, &updated); err != nil {
			return nil, fmt.Errorf("store: %s: ratings: %w", s.d.name, err)
		}
		r.Class = rating.Class(class)
		r.Updated = time.UnixMilli(updated).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: ratings: %w", s.d.name, err)
	}
	return out, nil
}

// History implements People.
func (s *sqlStore) History(ctx context.Context, user string, limit int) ([]RatingPoint, error) {
	if limit <= 0 || limit > 5000 {
		limit = 5000
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT variant, class, at_ms, rating, rd, game_id FROM rating_history
		WHERE user_name = ? ORDER BY at_ms DESC, game_id DESC LIMIT `+strconv.Itoa(limit)), user)
	if err != nil {
		return nil, fmt.Errorf("store: %s: history: %w", s.d.name, err)
	}
	defer rows.Close()
	var out []RatingPoint
	for rows.Next() {
		var p RatingPoint
		var class string
		var at int64
		if err := rows.Scan(&p.Variant, &class, &at, &p.R, &p.RD, &p.Game); err != nil {
			return nil, fmt.Errorf("store: %s: history: %w", s.d.name, err)
		}
		p.Class, p.At = rating.Class(class), time.UnixMilli(at).UTC()
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: history: %w", s.d.name, err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// gamesQuery builds the query of a page of a user's games: one range of
// the index that matches the filters.
func (s *sqlStore) gamesQuery(q GamesQuery) (string, []any, error) {
	query := `SELECT game_id, seat, variant, created_ms, opponent, rated, class, outcome, result FROM game_players WHERE user_name = ?`
	args := []any{q.User}
	if q.Variant != "" {
		query += ` AND variant = ?`
		args = append(args, q.Variant)
	}
	if q.Outcome != "" {
		query += ` AND outcome = ?`
		args = append(args, q.Outcome)
	}
	if q.Before != "" {
		msText, id, ok := strings.Cut(q.Before, ".")
		at, err := strconv.ParseInt(msText, 10, 64)
		if !ok || err != nil || id == "" {
			return "", nil, fmt.Errorf("%w: %q", ErrBadCursor, q.Before)
		}
		// A row value, which both databases read as one range of the
		// index (an OR of two ranges would need a sort).
		query += ` AND (created_ms, game_id) < (?, ?)`
		args = append(args, at, id)
	}
	limit := q.Limit
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	query += ` ORDER BY created_ms DESC, game_id DESC LIMIT ` + strconv.Itoa(limit)
	return s.q(query), args, nil
}

// Games implements People.
func (s *sqlStore) Games(ctx context.Context, q GamesQuery) ([]PlayerGame, error) {
	query, args, err := s.gamesQuery(q)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: games of %s: %w", s.d.name, q.User, err)
	}
	defer rows.Close()
	out := []PlayerGame{}
	for rows.Next() {
		var g PlayerGame
		var created int64
		var rated int
		var class string
		if err := rows.Scan(&g.Game, &g.Seat, &g.Variant, &created, &g.Opponent, &rated, &class, &g.Outcome, &g.Result); err != nil {
			return nil, fmt.Errorf("store: %s: games of %s: %w", s.d.name, q.User, err)
		}
		g.Created, g.Rated, g.Class = time.UnixMilli(created).UTC(), rated != 0, rating.Class(class)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: games of %s: %w", s.d.name, q.User, err)
	}
	return out, nil
}
