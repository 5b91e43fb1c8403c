package server

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestListPlies checks that the list of games (the lobby) counts each
// game's plies: a draw offer and its decline are events, not plies, and
// a finished game counts the plies that were played.
func TestListPlies(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		name     string
		moves    []string
		offer    bool // White offers a draw and Black declines it after the moves
		resign   bool // then Black resigns
		state    string
		want     int
		finished bool
	}{
		{"new game", nil, false, false, "live", 0, false},
		{"three plies", []string{"e4", "e5", "Nf3"}, false, false, "live", 3, false},
		{"offers are not plies", []string{"d4", "d5"}, true, false, "live", 2, false},
		{"finished", []string{"e4", "e5", "Bc4", "Nc6", "Qh5"}, false, true, "finished", 5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess"})
			cs := [2]*seatClient{w, b}
			for i, m := range tc.moves {
				cs[i%2].mustMove(m)
			}
			if tc.offer {
				if f := w.do(map[string]any{"t": "draw", "offer": true}); f.T != "ack" {
					t.Fatalf("offer: %s %s", f.Code, f.Message)
				}
				if f := b.do(map[string]any{"t": "draw", "offer": false}); f.T != "ack" {
					t.Fatalf("decline: %s %s", f.Code, f.Message)
				}
			}
			if tc.resign {
				if f := b.do(map[string]any{"t": "resign"}); f.T != "ack" {
					t.Fatalf("resign: %s %s", f.Code, f.Message)
				}
			}
			resp, err := http.Get(ts.URL + "/api/games?state=" + tc.state)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var list []Summary
			if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
				t.Fatal(err)
			}
			for _, g := range list {
				if g.ID != id {
					continue
				}
				if g.Plies != tc.want || g.Finished != tc.finished {
					t.Errorf("listed with %d plies, finished %v; want %d, %v", g.Plies, g.Finished, tc.want, tc.finished)
				}
				return
			}
			t.Fatalf("game %s not in the %s list", id, tc.state)
		})
	}
}
