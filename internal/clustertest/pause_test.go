package clustertest

import (
	"context"
	"testing"
	"time"
)

// TestClusterPauseUnderLoad pauses the node owning the most games with
// SIGSTOP for three times the lease while games are played through the
// balancer: every game goes on on the other nodes meanwhile, and once the
// node is resumed the store shows no game with two owners at once and
// every acknowledged move.
func TestClusterPauseUnderLoad(t *testing.T) {
	c := Start(t, Options{Nodes: 3, Lease: lease})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := startGames(ctx, t, c.BalancerURL, 12, 6, 20*time.Millisecond)
	waitPlies(t, 20*time.Second, games, func(int) int { return 4 })
	victim, owned := busiest(ctx, t, c)
	if owned == 0 {
		t.Fatal("no node owns a game")
	}
	at := pliesNow(games)
	c.Stop(victim)
	stopped := time.Now()
	waitPlies(t, 3*lease+5*time.Second, games, func(i int) int { return at[i] + more })
	t.Logf("every game played %d more plies %s after %s (%d games) was paused", more, time.Since(stopped).Round(time.Millisecond), c.Node(victim).Name, owned)
	if d := 3*lease - time.Since(stopped); d > 0 {
		time.Sleep(d)
	}
	c.Cont(victim)
	at = pliesNow(games)
	waitPlies(t, 20*time.Second, games, func(i int) int { return at[i] + 2 })
	finish(ctx, t, games)
	checkGames(ctx, t, c, games, true)
}
