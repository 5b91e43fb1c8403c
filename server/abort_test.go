package server

import "testing"

// TestNoAbortAfterRoll: once a chance outcome has been rolled, the game
// can no longer be aborted (its outcome is not erasable), by either seat;
// before, an abort ends it as usual.
func TestNoAbortAfterRoll(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		name  string
		req   map[string]any
		moves []string
		seat  int
		want  string // "ack" or an error code
	}{
		{"chess after one ply", map[string]any{"variant": "chess"}, []string{"e4"}, 1, "ack"},
		{"vazir before any try", map[string]any{"variant": "vazir", "fen": "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0"}, nil, 0, "ack"},
		{"vazir after a try, mover", map[string]any{"variant": "vazir", "fen": "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0"}, []string{"d1d5"}, 0, "not_allowed"},
		{"vazir after a try, other", map[string]any{"variant": "vazir", "fen": "k07/8/8/3r94/8/8/8/3R03K0 w - - 0 1 t0"}, []string{"d1d5"}, 1, "not_allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, w, b, _ := humanGame(t, ts, tc.req)
			cs := [2]*seatClient{w, b}
			for _, m := range tc.moves {
				cs[0].mustMove(m)
			}
			f := cs[tc.seat].do(map[string]any{"t": "abort"})
			got := f.T
			if f.T == "error" {
				got = f.Code
			}
			if got != tc.want {
				t.Errorf("abort: %s %s %q, want %s", f.T, f.Code, f.Message, tc.want)
			}
		})
	}
}
