package xboard_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/protocol/xboard"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// TestTranscripts plays the command files in testdata/*.txt against Run.
// Each line of a file is one of:
//
//	> cmd    send a command
//	< text   the next reply line is exactly text
//	~ re     the next reply line matches the regular expression re
//	* re     skip reply lines until one matches re
//	# ...    a comment
//
// After the last line the transcript sends quit, and Run must return nil.
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { playTranscript(t, f) })
	}
}

func playTranscript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- xboard.Run(context.Background(), inR, outW, variant.MustDefault(), search.New(16))
		outW.Close()
	}()
	replies := make(chan string, 4096)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 4096), 1<<20)
		for sc.Scan() {
			replies <- sc.Text()
		}
		close(replies)
	}()
	next := func(n int) (string, bool) {
		select {
		case l, ok := <-replies:
			return l, ok
		case <-time.After(20 * time.Second):
			t.Fatalf("%s:%d: no reply within 20 s", file, n)
			return "", false
		}
	}
	for n, text := range strings.Split(string(data), "\n") {
		n++
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		kind, arg := text[:1], strings.TrimPrefix(text[1:], " ")
		switch kind {
		case ">":
			if _, err := io.WriteString(inW, arg+"\n"); err != nil {
				t.Fatal(err)
			}
		case "<":
			got, ok := next(n)
			if !ok || got != arg {
				t.Fatalf("%s:%d: got %q, want %q", file, n, got, arg)
			}
		case "~", "*":
			re := regexp.MustCompile("^(?:" + arg + ")$")
			for {
				got, ok := next(n)
				if !ok {
					t.Fatalf("%s:%d: output ended, want /%s/", file, n, arg)
				}
				if re.MatchString(got) {
					break
				}
				if kind == "~" {
					t.Fatalf("%s:%d: got %q, want /%s/", file, n, got, arg)
				}
			}
		default:
			t.Fatalf("%s:%d: bad transcript line %q", file, n, text)
		}
	}
	io.WriteString(inW, "quit\n")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after quit")
	}
	for l := range replies {
		if strings.HasPrefix(l, "Error") || strings.HasPrefix(l, "Illegal") {
			t.Errorf("%s: unexpected reply after the transcript: %q", file, l)
		}
	}
}

// TestEndOfInput: Run returns nil when the input ends, still sending a move
// it was thinking about, and ctx's error when ctx ends it.
func TestEndOfInput(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("new\nsd 1\nusermove e2e4\n")
	if err := xboard.Run(context.Background(), in, &out, variant.MustDefault(), search.New(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !regexp.MustCompile(`(?m)^move [a-h][1-8][a-h][1-8]$`).MatchString(out.String()) {
		t.Errorf("no move before the end of input: %q", out.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	inR, inW := io.Pipe()
	defer inW.Close()
	if err := xboard.Run(ctx, inR, io.Discard, variant.MustDefault(), search.New(1)); err != context.Canceled {
		t.Errorf("Run with a cancelled context: %v", err)
	}
}

// TestLongLine: a line longer than MaxLine is refused and the session goes
// on.
func TestLongLine(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader(strings.Repeat("x", xboard.MaxLine+10) + "\nping 1\n" + strings.Repeat("y", 3*xboard.MaxLine))
	if err := xboard.Run(context.Background(), in, &out, variant.MustDefault(), search.New(1)); err != nil {
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
	if err := xboard.Run(context.Background(), strings.NewReader(sb.String()), &out, variant.MustDefault(), search.New(1)); err != nil {
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
