// Package store keeps the server's games: each game's settings and the
// ordered events that happened in it (plies with their chance outcomes,
// offers, results). A game is rebuilt by replaying its events, so the store
// knows nothing of the rules.
//
// Two backends share one implementation over database/sql: an embedded
// SQLite database (modernc.org/sqlite, pure Go, the default) and
// PostgreSQL (through pgx's database/sql driver). Appends of many games are
// written in group commits: concurrent appends wait together for one
// transaction, so the cost of a commit is shared.
package store

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned for a game the store does not hold.
var ErrNotFound = errors.New("store: game not found")

// ErrInUse is returned when another process (another server) has the
// SQLite database open: one server at a time uses it.
var ErrInUse = errors.New("the database is in use by another server")

// ErrConflict is returned when an event's version is not the next one of
// its game (another event took that version), or a game id is taken.
var ErrConflict = errors.New("store: version conflict")

// Game is a game's settings and summary as stored.
type Game struct {
	ID         string
	Variant    string            // the registry name
	Options    map[string]string // the variant's per-game options
	FEN        string            // the start position; "" for the variant's (or drawn) start
	Seed       uint64            // the PCG seed of the dice and random set-up of a game stored before DiceKey
	DiceKey    string            // the ChaCha8 seed of the game's dice and random set-up, 64 hex digits; "" in games stored before (PCG, Seed)
	Nonce      string            // the nonce of the commitment to the seed (game.NewSecret); "" in games stored before it existed
	TokenHash  [2]string         // hex SHA-256 of each seat's token, white then black
	Opponent   string            // "human" or "engine"
	Level      int               // the engine's level, if Opponent is "engine"
	EngineSeat int               // 0 white, 1 black: the engine's seat, if any
	Initial    time.Duration     // clock: initial time (0: no clock)
	Increment  time.Duration     // clock: increment per turn
	Days       int               // correspondence: days per move (0: none)
	Created    time.Time
	Finished   bool
	Result     string // "1-0", "0-1", "1/2-1/2", "*"
	Reason     string
	Version    int64  // the version of the last event
	RematchOf  string // the game this one is a rematch of, if any
	// Wake is when the server must next act on the game without a client
	// (a running clock's flag, the engine's move), as its last event left
	// it; zero: never. A game stored before wake times were kept reads as
	// due at once (the Unix epoch) if it has a clock or the engine.
	Wake  time.Time
	Plies int // the number of its "ply" events, as read (Create ignores it)
	// Definition is the hash of the variant definition the game is played
	// under (Definitions); "" for a variant without a file, and in games
	// stored before definitions were kept.
	Definition string
	// Users are the accounts playing each seat, white then black; ""
	// for an anonymous player (or the engine).
	Users [2]string
	// Rated is set for a game between two accounts whose result changes
	// their ratings (in the same transaction as its end).
	Rated bool
}

// Event is one thing that happened in a game, with its version.
type Event struct {
	Version int64
	Kind    string // "ply", "offer", "end", ...
	Data    []byte // JSON, owned by the server
	At      time.Time
	Wake    time.Time // the game's Wake after this event; zero: never
	// Fence, if set, is the lease under which a node of a cluster
	// writes the event: Append fails with ErrFenced unless the lease
	// is still the writer's, and renews it in the same transaction.
	// The lease's epoch is stored with the event (Epoch).
	Fence *Fence
	// Epoch is the lease epoch the event was written under (0: none),
	// as Load returns it.
	Epoch int64
}

// End marks the game finished with its result, written with the event
// that ends it.
type End struct {
	Result, Reason string
}

// Filter selects games for List.
type Filter struct {
	Finished *bool // nil: all games
	Waking   bool  // only games with a Wake time
	Limit    int   // 0: no limit
}

// Store is what the server needs from a database. Every method may block
// and takes a context. Implementations are safe for concurrent use.
type Store interface {
	// Create stores a new game with no events (its Version is 0).
	Create(ctx context.Context, g *Game) error
	// Append stores ev as the next event of game id: ev.Version must be
	// the game's version plus one, else ErrConflict. With end non-nil the
	// game is marked finished in the same transaction. When Append returns
	// nil the event is durable.
	Append(ctx context.Context, id string, ev Event, end *End) error
	// Load returns a game and all its events in version order.
	Load(ctx context.Context, id string) (*Game, []Event, error)
	// List returns games' summaries, newest first.
	List(ctx context.Context, f Filter) ([]Game, error)
	// Close waits for pending writes and closes the database.
	Close() error
}
