package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Lobby is an open lobby feed (GET /api/lobby): its visitor secret and
// the events it streams.
type Lobby struct {
	Visitor string
	User    string
	body    io.ReadCloser
	rd      *bufio.Reader
	events  chan LobbyEvent
	err     error
	done    chan struct{}
}

// LobbyEvent is one event of a lobby feed.
type LobbyEvent struct {
	Event string
	Data  json.RawMessage
}

// OpenLobby opens the lobby feed of the server at base with client hc
// (nil: the client of ctx's source address, see From); resume names a
// visitor to come back as. It returns once the hello event is read.
func OpenLobby(ctx context.Context, base string, hc *http.Client, resume string) (*Lobby, error) {
	if hc == nil {
		hc = httpClient(ctx)
	}
	u := base + "/api/lobby"
	if resume != "" {
		u += "?visitor=" + url.QueryEscape(resume)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil, &StatusError{Op: "lobby", Status: resp.StatusCode, Body: string(b)}
	}
	l := &Lobby{body: resp.Body, rd: bufio.NewReader(resp.Body), events: make(chan LobbyEvent, 1024), done: make(chan struct{})}
	hello, err := l.read()
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	var h struct{ Visitor, User string }
	if hello.Event != "hello" || json.Unmarshal(hello.Data, &h) != nil || h.Visitor == "" {
		resp.Body.Close()
		return nil, fmt.Errorf("lobby: first event %q %s, want hello", hello.Event, hello.Data)
	}
	l.Visitor, l.User = h.Visitor, h.User
	go l.loop()
	return l, nil
}

// read reads one event.
func (l *Lobby) read() (LobbyEvent, error) {
	var ev LobbyEvent
	for {
		line, err := l.rd.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if ev.Event != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event: "):
			ev.Event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.Data = append(ev.Data, line[len("data: "):]...)
		}
	}
}

func (l *Lobby) loop() {
	defer close(l.done)
	defer close(l.events)
	for {
		ev, err := l.read()
		if err != nil {
			l.err = err
			return
		}
		l.events <- ev
	}
}

// Next returns the next event; an error once the feed has ended or ctx
// is done.
func (l *Lobby) Next(ctx context.Context) (LobbyEvent, error) {
	select {
	case ev, ok := <-l.events:
		if !ok {
			if l.err == nil {
				return ev, errors.New("lobby: closed")
			}
			return ev, fmt.Errorf("lobby: %w", l.err)
		}
		return ev, nil
	case <-ctx.Done():
		return LobbyEvent{}, ctx.Err()
	}
}

// Events is the feed's events, closed when it ends.
func (l *Lobby) Events() <-chan LobbyEvent { return l.events }

// Close ends the feed.
func (l *Lobby) Close() error {
	err := l.body.Close()
	go func() {
		for range l.events {
		}
	}()
	<-l.done
	return err
}
