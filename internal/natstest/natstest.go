// Package natstest starts a NATS server (Debian's nats-server, which
// test.sh installs) on a free loopback port for the tests.
package natstest

import (
	"bufio"
	"context"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// Binary returns the nats-server program: on the PATH, or where Debian's
// package puts it.
func Binary() string {
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	return "/usr/sbin/nats-server"
}

var listening = regexp.MustCompile(`Listening for client connections on (\S+:\d+)`)

// Start runs a NATS server for the test and returns its URL. The server
// stops when the test ends. A machine without nats-server fails the test:
// test.sh installs it.
func Start(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, Binary(), "-a", "127.0.0.1", "-p", "-1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("nats-server (install Debian's nats-server, as test.sh does): %v", err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case a := <-addr:
		return "nats://" + a
	case <-time.After(20 * time.Second):
		t.Fatalf("nats-server did not say where it listens")
	}
	return ""
}
