package server

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

// TestRestartMidTurn: a server is killed (SIGKILL) with a Vazir game in
// the middle of a turn (a try failed, the same player tries again) and a
// Crazy Chess game in the denial window; after the restart both games are
// where they were, and play goes on from there.
func TestRestartMidTurn(t *testing.T) {
	dir := t.TempDir()
	sub := startChild(t, dir, nil)
	defer func() { sub.Kill() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	type seats struct {
		id     string
		tokens [2]string
	}
	create := func(req map[string]any) seats {
		g, err := loadtest.CreateGame(ctx, sub.URL, req)
		if err != nil {
			t.Fatal(err)
		}
		s := seats{id: g["id"], tokens: [2]string{g["token"], loadtest.InviteToken(g["invite"])}}
		if g["seat"] == "black" {
			s.tokens[0], s.tokens[1] = s.tokens[1], s.tokens[0]
		}
		return s
	}
	// open joins a seat and returns its connection and current state.
	open := func(base string, g seats, seat int) (*loadtest.Client, *loadtest.Frame) {
		t.Helper()
		c, err := loadtest.Join(ctx, base, g.id, g.tokens[seat], 0)
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := c.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "state" })
		if err != nil {
			c.CloseNow()
			t.Fatal(err)
		}
		return c, st
	}
	// state returns a seat's current state.
	state := func(base string, g seats, seat int) *loadtest.Frame {
		t.Helper()
		c, st := open(base, g, seat)
		c.CloseNow()
		return st
	}
	// play sends a move for a seat, which must be acknowledged, and
	// returns the state after it.
	play := func(base string, g seats, seat int, move string) *loadtest.Frame {
		t.Helper()
		c, st := open(base, g, seat)
		defer c.CloseNow()
		if !slices.Contains(st.Legal, move) {
			t.Fatalf("game %s: %s is not among %v", g.id, move, st.Legal)
		}
		if err := c.Send(ctx, map[string]any{"t": "move", "id": 1, "move": move}); err != nil {
			t.Fatal(err)
		}
		a, _, err := c.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "ack" || f.T == "error" })
		if err != nil {
			t.Fatal(err)
		}
		if a.T != "ack" {
			t.Fatalf("game %s: %s: %s %s", g.id, move, a.Code, a.Message)
		}
		after, _, err := c.ReadUntil(ctx, func(f *loadtest.Frame) bool { return f.T == "state" && f.V > st.V })
		if err != nil {
			t.Fatal(err)
		}
		return after
	}

	// Vazir: a rank-0 rook tries to take a rank-9 rook (1/10) until a try
	// fails, in a new game each time it succeeds.
	var vz seats
	for range 8 {
		vz = create(map[string]any{"variant": "vazir", "fen": "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0"})
		if st := play(sub.URL, vz, 0, "d1d5"); st.Turn == "white" && st.Counter == 1 {
			break
		}
		vz.id = ""
	}
	if vz.id == "" {
		t.Fatal("no try failed in eight games")
	}
	// Crazy Chess: White moves, Black may deny.
	cz := create(map[string]any{"variant": "crazychess"})
	if st := state(sub.URL, cz, 1); st.Turn != "white" {
		t.Fatalf("crazy: %s to move", st.Turn)
	}
	play(sub.URL, cz, 0, "e2-e4")
	if st := state(sub.URL, cz, 1); !slices.Contains(st.Legal, "DENY") {
		t.Fatalf("crazy: no denial offered: %v", st.Legal)
	}

	if err := sub.Kill(); err != nil {
		t.Fatal(err)
	}
	sub = startChild(t, dir, nil)

	if st := state(sub.URL, vz, 0); st.Turn != "white" || st.Counter != 1 || !slices.Contains(st.Legal, "d1d5") {
		t.Fatalf("vazir after the restart: %s to move, counter %d, legal %v", st.Turn, st.Counter, st.Legal)
	}
	play(sub.URL, vz, 0, "d1d5") // the second try is acknowledged
	st := state(sub.URL, cz, 1)
	t.Logf("after the restart: vazir game %s mid-turn, crazy game %s: %s to move with %d moves, DENY among them", vz.id, cz.id, st.Turn, len(st.Legal))
	if st.Turn != "black" || !slices.Contains(st.Legal, "DENY") {
		t.Fatalf("crazy after the restart: %s to move, legal %v", st.Turn, st.Legal)
	}
	if after := play(sub.URL, cz, 1, "DENY"); after.Turn != "white" || slices.Contains(state(sub.URL, cz, 0).Legal, "e2-e4") {
		t.Fatalf("crazy: after the denial %s to move; e2-e4 may not be replayed", after.Turn)
	}
}
