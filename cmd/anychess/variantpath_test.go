package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProtocolFile: uci and xboard offer the variants of -file besides the
// built-in ones, and refuse a file they cannot load before speaking.
func TestProtocolFile(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		in     string
		status int
		out    string // a line the output must have
		errOut string // a text the error output must have
	}{
		{"uci offers the file's variant", []string{"uci", "-file", "testdata/minichess.toml"}, "uci\nquit\n", 0, " var csipgs var gardner\n", ""},
		{"uci plays it", []string{"uci", "-file", "testdata/minichess.toml"}, "setoption name UCI_Variant value gardner\nposition startpos\ngo perft 1\nquit\n", 0, "Nodes searched: 7\n", ""},
		{"xboard offers the file's variant", []string{"xboard", "-file", "testdata/minichess.toml"}, "xboard\nprotover 2\nquit\n", 0, ",gardner\"\n", ""},
		{"uci refuses a missing file", []string{"uci", "-file", "testdata/none.toml"}, "uci\nquit\n", 1, "", "none.toml"},
		{"xboard refuses a broken file", []string{"xboard", "-file", "testdata/bad.toml"}, "xboard\nquit\n", 1, "", "bad variant file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			st := run(tc.args, strings.NewReader(tc.in), &out, &errOut)
			if st != tc.status {
				t.Fatalf("status %d, want %d; stderr %q", st, tc.status, errOut.String())
			}
			if !strings.Contains(out.String(), tc.out) {
				t.Errorf("output %q lacks %q", out.String(), tc.out)
			}
			if tc.status != 0 && out.Len() > 0 {
				t.Errorf("a refused file, yet output %q", out.String())
			}
			if !strings.Contains(errOut.String(), tc.errOut) {
				t.Errorf("error output %q lacks %q", errOut.String(), tc.errOut)
			}
		})
	}
}
