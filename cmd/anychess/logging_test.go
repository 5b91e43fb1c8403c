package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNewLogger checks the -log formats of serve and worker: a JSON line
// parses with its level and message, a text line is key=value, and any
// other format is refused.
func TestNewLogger(t *testing.T) {
	tests := []struct {
		format string
		ok     bool
		check  func(t *testing.T, line string)
	}{
		{"json", true, func(t *testing.T, line string) {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if rec["level"] != "WARN" || rec["msg"] != "store: slow" || rec["node"] != "n1" {
				t.Errorf("record %v", rec)
			}
		}},
		{"text", true, func(t *testing.T, line string) {
			for _, want := range []string{"level=WARN", `msg="store: slow"`, "node=n1"} {
				if !strings.Contains(line, want) {
					t.Errorf("%q lacks %s", line, want)
				}
			}
		}},
		{"JSON", false, nil},
		{"", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var buf bytes.Buffer
			l, err := newLogger(tt.format, &buf)
			if !tt.ok {
				if err == nil || !strings.Contains(err.Error(), "want text or json") {
					t.Fatalf("err = %v, want a refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l.With("node", "n1").Warn("store: slow")
			tt.check(t, strings.TrimSpace(buf.String()))
		})
	}
}
