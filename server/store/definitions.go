package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Definitions keeps the exact definitions games of data variants were
// played under, and the variants users saved. The SQL store implements
// it; a server over a store without it records no definitions and saves
// no variants.
type Definitions interface {
	// PutDefinition keeps a variant definition under its hash (the
	// SHA-256 of text, hex), once: a hash already kept is left alone.
	PutDefinition(ctx context.Context, hash string, text []byte) error
	// Definition returns the text kept under hash, or ErrNotFound.
	Definition(ctx context.Context, hash string) ([]byte, error)
	// SaveVariant stores a saved variant, replacing the one of its name.
	SaveVariant(ctx context.Context, v SavedVariant) error
	// SavedVariants returns the saved variants, oldest first.
	SavedVariants(ctx context.Context) ([]SavedVariant, error)
}

// SavedVariant is a variant file a user saved on the server.
type SavedVariant struct {
	Name   string    // the variant's name in the file
	Text   []byte    // the file as saved
	Client string    // the client that saved it
	Saved  time.Time // when
	// Definition is the hash of its definition (Definitions), made when
	// it was saved: the file with its base merged in as the base then
	// stood.
	Definition string
}

// definitionSchema creates the tables of definitions and saved variants.
var definitionSchema = []string{
	`CREATE TABLE IF NOT EXISTS definitions (
		hash TEXT PRIMARY KEY,
		text TEXT NOT NULL,
		created_ms BIGINT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS saved_variants (
		name TEXT PRIMARY KEY,
		text TEXT NOT NULL,
		client TEXT NOT NULL,
		saved_ms BIGINT NOT NULL,
		definition TEXT NOT NULL
	)`,
}

// definitionColumn is the games column that records the hash of a game's
// variant definition ("" for none: a variant without a file, or a game
// stored before definitions were kept).
var definitionColumn = [2]string{"definition", "TEXT NOT NULL DEFAULT ''"}

// createDefinitionTables creates definitionSchema's tables.
func createDefinitionTables(ctx context.Context, db *sql.DB) error {
	for _, q := range definitionSchema {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// PutDefinition implements Definitions. It is written by the writer
// goroutine, as every write is.
func (s *sqlStore) PutDefinition(ctx context.Context, hash string, text []byte) error {
	return s.write(ctx, "definition "+hash, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO definitions (hash, text, created_ms)
				SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
				WHERE NOT EXISTS (SELECT 1 FROM definitions WHERE hash = CAST(? AS TEXT))`),
			hash, string(text), time.Now().UnixMilli(), hash)
		if err != nil {
			return fmt.Errorf("store: %s: definition %s: %w", s.d.name, hash, err)
		}
		return nil
	})
}

// Definition implements Definitions.
func (s *sqlStore) Definition(ctx context.Context, hash string) ([]byte, error) {
	var text string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT text FROM definitions WHERE hash = ?`), hash).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: definition %s: %w", hash, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %s: definition %s: %w", s.d.name, hash, err)
	}
	return []byte(text), nil
}

// SaveVariant implements Definitions.
func (s *sqlStore) SaveVariant(ctx context.Context, v SavedVariant) error {
	return s.write(ctx, "variant "+v.Name, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM saved_variants WHERE name = ?`), v.Name); err != nil {
			return fmt.Errorf("store: %s: save variant %s: %w", s.d.name, v.Name, err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO saved_variants (name, text, client, saved_ms, definition) VALUES (?, ?, ?, ?, ?)`),
			v.Name, string(v.Text), v.Client, v.Saved.UnixMilli(), v.Definition); err != nil {
			return fmt.Errorf("store: %s: save variant %s: %w", s.d.name, v.Name, err)
		}
		return nil
	})
}

// SavedVariants implements Definitions.
func (s *sqlStore) SavedVariants(ctx context.Context) ([]SavedVariant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, text, client, saved_ms, definition FROM saved_variants ORDER BY saved_ms, name`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: saved variants: %w", s.d.name, err)
	}
	defer rows.Close()
	var out []SavedVariant
	for rows.Next() {
		var v SavedVariant
		var text string
		var at int64
		if err := rows.Scan(&v.Name, &text, &v.Client, &at, &v.Definition); err != nil {
			return nil, fmt.Errorf("store: %s: saved variants: %w", s.d.name, err)
		}
		v.Text, v.Saved = []byte(text), time.UnixMilli(at).UTC()
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: saved variants: %w", s.d.name, err)
	}
	return out, nil
}
