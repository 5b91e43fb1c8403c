package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/internal/natstest"
	"github.com/anychess/anychess/search"
)

func TestWorkerFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "-nats URL is required"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-engines", "0"}, "-engines 0"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-hash", "0"}, "-hash 0"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-log", "xml"}, `-log "xml": want text or json`},
	} {
		var out, errOut bytes.Buffer
		if st := worker(context.Background(), tc.args, &out, &errOut); st != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: status %d, stderr %q, want 2 and %q", tc.args, st, errOut.String(), tc.want)
		}
	}
	var out, errOut bytes.Buffer
	if st := worker(context.Background(), []string{"-nats", "nats://127.0.0.1:1"}, &out, &errOut); st != 1 || !strings.Contains(errOut.String(), "NATS nats://127.0.0.1:1") {
		t.Errorf("no NATS server: status %d, stderr %q", st, errOut.String())
	}
}

// TestWorkerServes: anychess worker answers a search and, stopped, says
// how many it served.
func TestWorkerServes(t *testing.T) {
	url := natstest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- worker(ctx, []string{"-nats", url, "-engines", "1", "-hash", "1"}, &out, &errOut) }()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	reg, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	v, _ := reg.Get("chess")
	g := game.New(v, nil)
	req := enginebus.NewRequest("chess", nil, g, search.Limits{Depth: 2, MoveTime: 5 * time.Second}, 1)
	c := &enginebus.Client{NC: nc}
	for range 500 { // until the worker listens
		m, err := c.Think(context.Background(), g.Position(), req)
		if errors.Is(err, enginebus.ErrNoWorker) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err != nil || !g.Position().Playable(m) {
			t.Fatalf("%v %v", m, err)
		}
		break
	}
	cancel()
	if st := <-done; st != 0 {
		t.Fatalf("status %d, stderr %q", st, errOut.String())
	}
	if !strings.Contains(out.String(), "stopped; searches answered: 1\n") {
		t.Errorf("output %q", out.String())
	}
}
