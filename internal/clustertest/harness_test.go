package clustertest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

func TestMain(m *testing.M) { Main(m) }

func TestCheckEpochs(t *testing.T) {
	ev := func(v, epoch int64) StoredEvent { return StoredEvent{Version: v, Kind: "ply", Epoch: epoch} }
	tests := []struct {
		name   string
		events []StoredEvent
		bad    string // a word of the error; "" for none
	}{
		{"none", nil, ""},
		{"one epoch", []StoredEvent{ev(1, 1), ev(2, 1), ev(3, 1)}, ""},
		{"owners in turn", []StoredEvent{ev(1, 1), ev(2, 1), ev(3, 2), ev(4, 5), ev(5, 5)}, ""},
		{"an old owner writes again", []StoredEvent{ev(1, 1), ev(2, 2), ev(3, 1)}, "under epoch 1 after"},
		{"back and forth", []StoredEvent{ev(1, 1), ev(2, 2), ev(3, 2), ev(4, 1), ev(5, 2)}, "under epoch 1 after"},
		{"a gap", []StoredEvent{ev(1, 1), ev(3, 1)}, "has version 3"},
		{"not from 1", []StoredEvent{ev(2, 1)}, "has version 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckEpochs(tc.events)
			switch {
			case tc.bad == "" && err != nil:
				t.Errorf("CheckEpochs: %v", err)
			case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
				t.Errorf("CheckEpochs: %v, want an error with %q", err, tc.bad)
			}
		})
	}
}

// game is a game played by two Players.
type game struct {
	id      string
	players [2]*Player
	done    [2]chan error
}

// plies returns the most plies either player has seen.
func (g *game) plies() int { return max(g.players[0].Plies(), g.players[1].Plies()) }

// ended reports whether either player has seen the game's end.
func (g *game) ended() bool { return g.players[0].Ended() || g.players[1].Ended() }

// startGames creates n chess games without a clock through url and starts
// their players there, each game's from an address of its own
// (127.1.net.i+1).
func startGames(ctx context.Context, t *testing.T, url func() string, n, net int, think time.Duration) []*game {
	t.Helper()
	var games []*game
	for i := range n {
		from := fmt.Sprintf("127.1.%d.%d", net, i+1)
		var g map[string]string
		var err error
		for try := 0; try < 20; try++ { // a node may just be going
			if g, err = loadtest.CreateGame(loadtest.From(ctx, from), url(), map[string]any{"variant": "chess"}); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		gm := &game{id: g["id"]}
		tokens := [2]string{g["token"], loadtest.InviteToken(g["invite"])}
		for s := range 2 {
			p := &Player{URL: url, Game: gm.id, Token: tokens[s], From: from, Think: think, Seed: uint64(i*2 + s + 1)}
			gm.players[s] = p
			gm.done[s] = make(chan error, 1)
			go func() { gm.done[s] <- p.Run(ctx) }()
		}
		games = append(games, gm)
	}
	return games
}

// waitFor waits up to d for ok, checking every 50 ms, and fails the test
// with what's message otherwise.
func waitFor(t *testing.T, d time.Duration, ok func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, what())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPlies waits until every game has at least want(g) plies or has
// ended.
func waitPlies(t *testing.T, d time.Duration, games []*game, want func(i int) int) {
	t.Helper()
	waitFor(t, d, func() bool {
		for i, g := range games {
			if !g.ended() && g.plies() < want(i) {
				return false
			}
		}
		return true
	}, func() string {
		var b strings.Builder
		for i, g := range games {
			if !g.ended() && g.plies() < want(i) {
				fmt.Fprintf(&b, "game %s has %d plies, want %d (white: %d connections, last errors %v; black: %d connections, last errors %v)\n",
					g.id, g.plies(), want(i), g.players[0].Dials(), lastN(g.players[0].Errors(), 3), g.players[1].Dials(), lastN(g.players[1].Errors(), 3))
			}
		}
		return b.String()
	})
}

// pliesNow returns each game's plies.
func pliesNow(games []*game) []int {
	out := make([]int, len(games))
	for i, g := range games {
		out[i] = g.plies()
	}
	return out
}

// lastN returns the last n of s.
func lastN(s []string, n int) []string { return s[max(0, len(s)-n):] }

// finish stops the games: their players stop moving, White resigns
// where the game goes on, and both players must see the end.
func finish(ctx context.Context, t *testing.T, games []*game) {
	t.Helper()
	for _, g := range games {
		for _, p := range g.players {
			p.Hold(1)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(games))
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !g.ended() {
				if err := g.players[0].Resign(ctx); err != nil {
					errs[i] = err
					return
				}
			}
			for s := range 2 {
				select {
				case err := <-g.done[s]:
					if err != nil {
						errs[i] = fmt.Errorf("player %d: %w", s, err)
					}
				case <-ctx.Done():
					errs[i] = fmt.Errorf("player %d did not see the end: %w", s, ctx.Err())
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("game %s: %v", games[i].id, err)
		}
	}
}

// checkGames checks the ended games in the store: every move a player
// had acknowledged is stored at its version with the same text, both
// players saw every stored event in order, and (with epochs) no two
// owners wrote a game's events at once.
func checkGames(ctx context.Context, t *testing.T, c *Cluster, games []*game, epochs bool) (acked int) {
	t.Helper()
	for _, g := range games {
		evs, err := c.Events(ctx, g.id, epochs)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 || evs[len(evs)-1].Kind != "end" {
			t.Errorf("game %s: the store does not end with the game's end: %+v", g.id, evs)
		}
		if epochs {
			if err := CheckEpochs(evs); err != nil {
				t.Errorf("game %s: %v", g.id, err)
			}
		}
		for s, p := range g.players {
			for v, m := range p.Acks() {
				acked++
				if v < 1 || v > int64(len(evs)) {
					t.Errorf("game %s: player %d's move %s acknowledged as version %d, which the store (%d events) lacks", g.id, s, m, v, len(evs))
					continue
				}
				if e := evs[v-1]; e.Kind != "ply" || e.Move != m {
					t.Errorf("game %s: player %d's move %s acknowledged as version %d; the store has %s %s", g.id, s, m, v, e.Kind, e.Move)
				}
			}
			for _, e := range evs {
				if !p.Saw(e.Version) {
					t.Errorf("game %s: player %d never saw version %d (%s %s)", g.id, s, e.Version, e.Kind, e.Move)
				}
			}
			for _, pr := range p.Problems() {
				t.Errorf("game %s: player %d: %s", g.id, s, pr)
			}
		}
	}
	return acked
}

// TestSingleNode runs the harness on one node (no NATS) behind haproxy:
// games played through the balancer are stored as the players saw them.
func TestSingleNode(t *testing.T) {
	c := Start(t, Options{Nodes: 1, Single: true})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 4, 0, 5*time.Millisecond)
	waitPlies(t, 30*time.Second, games, func(int) int { return 10 })
	finish(ctx, t, games)
	if acked := checkGames(ctx, t, c, games, false); acked < 4*10 {
		t.Errorf("%d moves acknowledged, want at least 40", acked)
	}
}

// TestPlayersReconnect pauses the one node behind the balancer past two
// of haproxy's health checks: haproxy takes it out and closes the
// connections it served, and once it is resumed every player reconnects
// with since and its game goes on, with every acknowledged move stored
// and every event seen once, in order.
func TestPlayersReconnect(t *testing.T) {
	c := Start(t, Options{Nodes: 1, Single: true})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 3, 0, 5*time.Millisecond)
	waitPlies(t, 30*time.Second, games, func(int) int { return 4 })
	at := pliesNow(games)
	c.Stop(0)
	time.Sleep(1500 * time.Millisecond)
	c.Cont(0)
	waitPlies(t, 30*time.Second, games, func(i int) int { return at[i] + 6 })
	finish(ctx, t, games)
	checkGames(ctx, t, c, games, false)
	for _, g := range games {
		for s, p := range g.players {
			if p.Dials() < 2 {
				t.Errorf("game %s: player %d kept its one connection through the pause: %v", g.id, s, p.Errors())
			}
		}
	}
}
