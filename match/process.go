package match

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process is an external engine: a program spoken to line by line on its
// standard input and output. It keeps the last lines exchanged and the last
// lines of its standard error for error messages. The UCI and XBoard
// players embed it.
type process struct {
	name   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr *stderrLog

	lines chan string   // the engine's output, line by line
	stop  chan struct{} // closed by close: output is dropped from then on
	dead  chan struct{} // closed when the process has exited
	once  sync.Once
	log   []string // the last lines exchanged
}

// startProcess runs the spec's program with its arguments in its working
// directory, its standard error appended to the spec's file if it names
// one.
func startProcess(sp Spec) (*process, error) {
	cmd := exec.Command(sp.Path, sp.Args...)
	cmd.Dir = sp.Dir
	cmd.WaitDelay = 2 * time.Second
	el := &stderrLog{}
	if sp.Stderr != "" {
		f, err := os.OpenFile(sp.Stderr, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("the engine's standard error: %w", err)
		}
		el.file = f
	}
	cmd.Stderr = el
	in, err := cmd.StdinPipe()
	if err != nil {
		el.close()
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		el.close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		el.close()
		return nil, err
	}
	p := &process{name: sp.String(), cmd: cmd, in: in, stderr: el,
		lines: make(chan string, 256), stop: make(chan struct{}), dead: make(chan struct{})}
	go p.readOutput(out)
	return p, nil
}

// stderrLog takes an engine's standard error: it keeps the last lines and
// appends everything to a file if there is one.
type stderrLog struct {
	mu      sync.Mutex
	file    *os.File
	partial []byte
	last    []string
}

// stderrLines is how many lines of standard error are kept.
const stderrLines = 8

func (l *stderrLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		l.file.Write(b) // a log that cannot be written does not stop the game
	}
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		if line := strings.TrimSpace(string(l.partial[:i])); line != "" {
			l.last = append(l.last, line)
			if len(l.last) > stderrLines {
				l.last = l.last[len(l.last)-stderrLines:]
			}
		}
		l.partial = l.partial[i+1:]
	}
	if len(l.partial) > 4096 {
		l.partial = l.partial[:0]
	}
	return len(b), nil
}

// lines returns the last lines of standard error, joined for a message.
func (l *stderrLog) lines() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	last := l.last
	if s := strings.TrimSpace(string(l.partial)); s != "" {
		last = append(last[:len(last):len(last)], s)
	}
	return strings.Join(last, " | ")
}

func (l *stderrLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

// readOutput passes the engine's lines on until the output ends, then
// waits for the process.
func (p *process) readOutput(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		select {
		case p.lines <- sc.Text():
		case <-p.stop:
		}
	}
	close(p.lines)
	io.Copy(io.Discard, out) // after a line too long: let the engine go on writing
	p.cmd.Wait()
	p.stderr.close()
	close(p.dead)
}

// send writes commands to the engine, one a line.
func (p *process) send(cmds ...string) error {
	for _, s := range cmds {
		p.remember("> " + s)
		if _, err := io.WriteString(p.in, s+"\n"); err != nil {
			return fmt.Errorf("%s: cannot send %q (the engine exited?): %w", p.name, s, err)
		}
	}
	return nil
}

func (p *process) remember(s string) {
	p.log = append(p.log, s)
	if len(p.log) > 20 {
		p.log = p.log[len(p.log)-20:]
	}
}

// read returns the engine's next line.
func (p *process) read(ctx context.Context) (string, error) {
	select {
	case l, ok := <-p.lines:
		if !ok {
			select { // its standard error is read to the end once it has exited
			case <-p.dead:
			case <-time.After(2 * time.Second):
			}
			return "", fmt.Errorf("the engine exited (last lines: %s)%s", p.lastLines(4), p.stderrNote())
		}
		p.remember("< " + l)
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// stderrNote quotes the last lines of the engine's standard error, for an
// error message ("" if there are none).
func (p *process) stderrNote() string {
	if l := p.stderr.lines(); l != "" {
		return fmt.Sprintf("; its standard error: %s", l)
	}
	return ""
}

// lastLines returns the last n lines exchanged, for an error message.
func (p *process) lastLines(n int) string {
	return strings.Join(p.log[max(len(p.log)-n, 0):], " | ")
}

// close sends quit and ends the process if it does not exit at once.
func (p *process) close() {
	p.once.Do(func() {
		p.send("quit")
		p.in.Close()
		close(p.stop)
		select {
		case <-p.dead:
		case <-time.After(2 * time.Second):
			p.cmd.Process.Kill()
			<-p.dead
		}
	})
}
