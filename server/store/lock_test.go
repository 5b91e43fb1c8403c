package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneStorePerDatabase: while a store has a SQLite file open, another
// cannot open it (as a second server on the same data folder); once the
// first is closed, it can.
func TestOneStorePerDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	first, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := OpenSQLite(ctx, path); err == nil {
		second.Close()
		first.Close()
		t.Fatal("a second store opened the database the first has open")
	} else if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), path) {
		t.Errorf("second store: %v, want ErrInUse naming %s", err, path)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	again.Close()
}

// TestErrorsNameTheFile: the database's errors, at opening and later,
// say which file they are about.
func TestErrorsNameTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := OpenSQLite(ctx, junk); err == nil {
		s.Close()
		t.Error("a file that is no database opened")
	} else if !strings.Contains(err.Error(), junk) {
		t.Errorf("open: %v, want the file named", err)
	}

	path := filepath.Join(dir, "games.db")
	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE events`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
	}{
		{"load", func() error { _, _, err := s.Load(ctx, "g"); return err }()},
		{"list", func() error { _, err := s.List(ctx, Filter{}); return err }()},
		{"append", s.Append(ctx, "g", Event{Version: 1, Kind: "ply", Data: []byte("{}")}, nil)},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), path) {
			t.Errorf("%s without the events table: %v, want the file named", tc.name, tc.err)
		}
	}
}
