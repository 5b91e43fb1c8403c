// Package transcript runs protocol transcripts against a line-based server
// (the UCI and XBoard engines), for tests. A transcript file has one line
// per step:
//
//	> cmd    send a command
//	< text   the next reply line is exactly text
//	~ re     the next reply line matches the regular expression re
//	* re     skip reply lines until one matches re
//	# ...    a comment
//
// After the last line the transcript sends "quit" and the server must
// return nil. RunVars replaces each {{name}} in the file by the value the
// test gives for name (a figure of the machine, say) before it runs.
package transcript

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Server runs a protocol session on in and out until quit.
type Server func(in io.Reader, out io.Writer) error

// Timeout bounds the wait for one reply and for the end of the session.
const Timeout = 20 * time.Second

// RunAll runs every testdata/*.txt file of the calling package as a subtest.
func RunAll(t *testing.T, start Server) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { Run(t, f, start) })
	}
}

// Run plays one transcript file against a fresh server and returns the
// reply lines left unread after quit.
func Run(t *testing.T, file string, start Server) []string {
	t.Helper()
	return RunVars(t, file, nil, start)
}

// RunVars is Run with each {{name}} in the file replaced by vars[name]; a
// {{name}} left that vars does not name fails the test.
func RunVars(t *testing.T, file string, vars map[string]string, start Server) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for name, v := range vars {
		text = strings.ReplaceAll(text, "{{"+name+"}}", v)
	}
	if i := strings.Index(text, "{{"); i >= 0 {
		name, _, _ := strings.Cut(text[i+2:], "}}")
		t.Fatalf("%s: no value for {{%s}}", file, name)
	}
	data := []byte(text)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- start(inR, outW)
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
		case <-time.After(Timeout):
			t.Fatalf("%s:%d: no reply within %v", file, n, Timeout)
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
			t.Fatalf("%s: the server returned %v", file, err)
		}
	case <-time.After(Timeout):
		t.Fatalf("%s: the server did not return after quit", file)
	}
	var rest []string
	for l := range replies {
		rest = append(rest, l)
	}
	return rest
}
