package xboard_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/internal/transcript"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/protocol/xboard"
	"github.com/anychess/anychess/search"
)

// TestTranscripts plays the command files in testdata/*.txt (see package
// internal/transcript for the format; {{maxhash}} is search.MaxHashMB and
// {{abovemax}} one more); nothing after the transcript may be an error.
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			vars := map[string]string{"maxhash": strconv.Itoa(search.MaxHashMB()), "abovemax": strconv.Itoa(search.MaxHashMB() + 1)}
			rest := transcript.RunVars(t, f, vars, func(in io.Reader, out io.Writer) error {
				return xboard.Run(context.Background(), in, out, vtest.Builtins(), search.New(16))
			})
			for _, l := range rest {
				if strings.HasPrefix(l, "Error") || strings.HasPrefix(l, "Illegal") {
					t.Errorf("%s: unexpected reply after the transcript: %q", f, l)
				}
			}
		})
	}
}

// TestEndOfInput: Run returns nil when the input ends, still sending a move
// it was thinking about, and ctx's error when ctx ends it.
func TestEndOfInput(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("new\nsd 1\nusermove e2e4\n")
	if err := xboard.Run(context.Background(), in, &out, vtest.Builtins(), search.New(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !regexp.MustCompile(`(?m)^move [a-h][1-8][a-h][1-8]$`).MatchString(out.String()) {
		t.Errorf("no move before the end of input: %q", out.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	inR, inW := io.Pipe()
	defer inW.Close()
	if err := xboard.Run(ctx, inR, io.Discard, vtest.Builtins(), search.New(1)); err != context.Canceled {
		t.Errorf("Run with a cancelled context: %v", err)
	}
}

// TestLongLine: a line longer than MaxLine is refused and the session goes
// on.
func TestLongLine(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader(strings.Repeat("x", xboard.MaxLine+10) + "\nping 1\n" + strings.Repeat("y", 3*xboard.MaxLine))
	if err := xboard.Run(context.Background(), in, &out, vtest.Builtins(), search.New(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := "Error (command too long): more than 65536 bytes\npong 1\nError (command too long): more than 65536 bytes\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestGarbage feeds random bytes and every command with odd arguments; the
// engine must answer each and still answer ping.
func TestGarbage(t *testing.T) {
	cmds := []string{"xboard", "protover", "new", "variant", "force", "go", "playother", "usermove", "level",
		"st", "sd", "time", "otim", "ping", "setboard", "undo", "remove", "post", "nopost", "hard", "easy",
		"result", "?", "memory", "analyze", "exit", ".", "hint", "bk", "d", "quit!", "e2e4", "@@@@"}
	argsets := []string{"", " -1", " 0", " 99999999999999999999", " x y z", " 1 2 3", " 1e308", " NaN",
		" 8/8/8/8/8/8/8/8 w - - 0 1", " \x00\xff", " normal", " chatrang"}
	var sb strings.Builder
	sb.WriteString("sd 1\n")
	for _, c := range cmds {
		for _, a := range argsets {
			if c == "analyze" || c == "go" || c == "playother" {
				sb.WriteString("force\n")
				continue
			}
			sb.WriteString(c + a + "\n")
		}
	}
	sb.WriteString("new\nping 42\n")
	var out strings.Builder
	if err := xboard.Run(context.Background(), strings.NewReader(sb.String()), &out, vtest.Builtins(), search.New(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !strings.HasSuffix(out.String(), "pong 42\n") {
		t.Errorf("the session did not survive: %q", tail(out.String()))
	}
}

func tail(s string) string {
	if len(s) > 400 {
		return s[len(s)-400:]
	}
	return s
}

// TestCatalogTranscripts plays testdata/catalog/*.txt against the engine
// with every variant of the catalog (Chess960 among them).
func TestCatalogTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "catalog", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			transcript.Run(t, f, func(in io.Reader, out io.Writer) error {
				return xboard.Run(context.Background(), in, out, catalog.MustDefault(), search.New(16))
			})
		})
	}
}

// TestCores checks that the cores command sets the engine's threads, up to
// the machine's CPUs, and refuses what is not a positive number.
func TestCores(t *testing.T) {
	tests := []struct {
		cmd   string
		want  int    // threads after it
		reply string // a line of the reply, if any
	}{
		{"cores 2", min(2, search.CPUs()), ""},
		{"cores 1000000", search.CPUs(), fmt.Sprintf("# cores 1000000 is more than this machine's %d CPUs: the search uses %d threads", search.CPUs(), search.CPUs())},
		{"cores 1", 1, ""},
		{"cores 0", 3, "Error (cores needs a positive number): cores 0"},
		{"cores many", 3, "Error (cores needs a positive number): cores many"},
		{"cores", 3, "Error (cores needs a number): cores"},
	}
	for _, tc := range tests {
		e := search.New(1)
		e.SetThreads(3)
		var out strings.Builder
		in := strings.NewReader("xboard\nprotover 2\n" + tc.cmd + "\nping 1\n")
		if err := xboard.Run(context.Background(), in, &out, vtest.Builtins(), e); err != nil {
			t.Fatal(err)
		}
		if got := e.Threads(); got != tc.want {
			t.Errorf("%s: %d threads, want %d", tc.cmd, got, tc.want)
		}
		if tc.reply != "" && !strings.Contains(out.String(), tc.reply+"\n") {
			t.Errorf("%s: no %q in the reply:\n%s", tc.cmd, tc.reply, out.String())
		}
	}
}
