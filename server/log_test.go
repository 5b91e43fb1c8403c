package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogJSON checks that the server's log lines, written by a JSON
// handler, parse and carry the level, the message, the game of a line
// about a game and, on a node of a cluster, the node's name.
func TestLogJSON(t *testing.T) {
	tests := []struct {
		name    string
		cluster *ClusterConfig
		named   string // the name the node runs under, if not the configured one
		format  string
		args    []any
		want    map[string]string // fields and their values; "" wants the field absent
	}{
		{"game line on a node", &ClusterConfig{Node: "node-a"}, "", "game %s: store: %v", []any{"abc123", errors.New("disk full")},
			map[string]string{"level": "WARN", "msg": "store: disk full", "game": "abc123", "node": "node-a"}},
		{"server line on a node", &ClusterConfig{Node: "node-b"}, "", "server: session: %v", []any{errors.New("gone")},
			map[string]string{"level": "WARN", "msg": "server: session: gone", "node": "node-b", "game": ""}},
		{"node with its default name", &ClusterConfig{}, "n0123456789ab", "game %s: end: %v", []any{"g2", errors.New("x")},
			map[string]string{"level": "WARN", "msg": "end: x", "game": "g2", "node": "n0123456789ab"}},
		{"one process", nil, "", "game %s: rematch: %v", []any{"g1", errors.New("no")},
			map[string]string{"level": "WARN", "msg": "rematch: no", "game": "g1", "node": ""}},
		{"game line of another shape", nil, "", "game %d: x", []any{7},
			map[string]string{"level": "WARN", "msg": "game 7: x", "game": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := &Server{cfg: Config{Logger: slog.New(slog.NewJSONHandler(&buf, nil)), Cluster: tt.cluster}}
			if tt.named != "" {
				s.cluster = &cluster{node: tt.named} // as newCluster names a node left unnamed
			}
			s.logf(tt.format, tt.args...)
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != 1 {
				t.Fatalf("want one line, got %q", buf.String())
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
				t.Fatalf("line %q: %v", lines[0], err)
			}
			for k, want := range tt.want {
				got, ok := rec[k]
				if want == "" {
					if ok {
						t.Errorf("%s = %v, want none", k, got)
					}
					continue
				}
				if got != want {
					t.Errorf("%s = %v, want %q (line %s)", k, got, want, lines[0])
				}
			}
			if _, ok := rec["time"]; !ok {
				t.Errorf("no time in %s", lines[0])
			}
		})
	}
}

// TestLogConfig checks that New keeps the Logger it is given, and that
// Logf, when set, takes the lines instead.
func TestLogConfig(t *testing.T) {
	var buf bytes.Buffer
	var lines []string
	st := openStore(t, filepath.Join(t.TempDir(), "games.db"))
	defer st.Close()
	s, err := New(Config{Store: st, EngineWorkers: 1, EngineHashMB: 1, Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.logf("server: pieces of %s: %v", "x", errors.New("bad"))
	if !strings.Contains(buf.String(), `"msg":"server: pieces of x: bad"`) {
		t.Errorf("Logger got %q", buf.String())
	}
	buf.Reset()
	s2, err := New(Config{Store: st, EngineWorkers: 1, EngineHashMB: 1, Logger: slog.New(slog.NewJSONHandler(&buf, nil)),
		Logf: func(f string, a ...any) { lines = append(lines, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	s2.logf("server: x %d", 1)
	if buf.Len() != 0 || len(lines) != 1 {
		t.Errorf("with Logf: Logger got %q, Logf %q", buf.String(), lines)
	}
}
