package loadtest

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTargets checks the parsing of a list of servers.
func TestTargets(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"http://127.0.0.1:8080", []string{"http://127.0.0.1:8080"}, ""},
		{"http://a:1/, https://b:2", []string{"http://a:1", "https://b:2"}, ""},
		{"", nil, `server ""`},
		{"http://a:1,,http://b:2", nil, `server ""`},
		{"a:1", nil, `server "a:1"`},
		{"ws://a:1", nil, `server "ws://a:1"`},
	}
	for _, tt := range tests {
		got, err := Targets(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Targets(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Targets(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestRunRefuses checks the configurations Run refuses before it makes any
// request.
func TestRunRefuses(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{URL: "http://127.0.0.1:1", Games: 1, Plies: 1, Forward: true}, "forwarding needs at least two servers"},
		{Config{URL: "http://127.0.0.1:1,x", Games: 1, Plies: 1}, `server "x"`},
		{Config{URL: "http://127.0.0.1:1", Games: 0, Plies: 1}, "games and plies"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.cfg, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

// TestRunEngineRefuses checks the engine configurations RunEngine refuses
// before it makes any request.
func TestRunEngineRefuses(t *testing.T) {
	tests := []struct {
		cfg  EngineConfig
		want string
	}{
		{EngineConfig{URL: "http://127.0.0.1:1", Games: 0, Level: 1, Duration: time.Second}, "engine games and a duration"},
		{EngineConfig{URL: "http://127.0.0.1:1", Games: 1, Level: 1}, "engine games and a duration"},
		{EngineConfig{URL: "http://127.0.0.1:1", Games: 1, Level: 9, Duration: time.Second}, "level 9: want 1 to 8"},
		{EngineConfig{URL: "127.0.0.1:1", Games: 1, Level: 1, Duration: time.Second}, `server "127.0.0.1:1"`},
	}
	for _, tt := range tests {
		_, err := RunEngine(context.Background(), tt.cfg, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.cfg, err, tt.want)
		}
	}
}
