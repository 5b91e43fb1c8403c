package uci_test

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

	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// TestTranscripts plays the command files in testdata/*.txt. Lines:
//
//	> cmd    send a command
//	< text   the next reply line is exactly text
//	~ re     the next reply line matches the regular expression re
//	* re     skip reply lines until one matches re
//	# ...    a comment
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runTranscript(t, f) })
	}
}

func runTranscript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- uci.Run(context.Background(), inR, outW, variant.MustDefault(), search.New(16))
		outW.Close()
	}()
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(n int) (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(10 * time.Second):
			t.Fatalf("%s:%d: no reply within 10 s", file, n)
			return "", false
		}
	}
	for n, line := range strings.Split(string(data), "\n") {
		n++
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, arg := line[:1], strings.TrimPrefix(line[1:], " ")
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
			re := regexp.MustCompile("^" + arg + "$")
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
			t.Fatalf("%s:%d: bad transcript line %q", file, n, line)
		}
	}
	io.WriteString(inW, "quit\n")
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
