package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process is an external engine: a program spoken to line by line on its
// standard input and output. It keeps the last lines exchanged for error
// messages. The UCI and XBoard players embed it.
type process struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser

	lines chan string   // the engine's output, line by line
	stop  chan struct{} // closed by close: output is dropped from then on
	dead  chan struct{} // closed when the process has exited
	once  sync.Once
	log   []string // the last lines exchanged
}

// startProcess runs the program at path.
func startProcess(path, name string) (*process, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{name: name, cmd: cmd, in: in,
		lines: make(chan string, 256), stop: make(chan struct{}), dead: make(chan struct{})}
	go p.readOutput(out)
	return p, nil
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
			return "", fmt.Errorf("the engine exited (last lines: %s)", p.lastLines(4))
		}
		p.remember("< " + l)
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
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
