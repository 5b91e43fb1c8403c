package server

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

// TestSeeksLoadSmall runs the seeks load generator against a server in
// the test: every poster is paired, every accepter accepts once.
func TestSeeksLoadSmall(t *testing.T) {
	ts := newTestServer(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := loadtest.RunSeeks(ctx, loadtest.SeeksConfig{URL: ts.URL, Visitors: 40, Ramp: 200 * time.Millisecond, Timeout: time.Minute}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if rep.Paired != 20 || rep.Failed != 0 || rep.PairP99 <= 0 || rep.AcceptP99 <= 0 || rep.NotifyP99 <= 0 {
		t.Errorf("report:\n%s", rep)
	}
	if n := ts.lobbyCount(); n != 0 {
		t.Errorf("%d seeks left", n)
	}
}

func (ts *testServer) lobbyCount() int {
	ts.lobby.mu.Lock()
	defer ts.lobby.mu.Unlock()
	return len(ts.lobby.seeks)
}
