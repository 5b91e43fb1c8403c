package server

import (
	"testing"

	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/server/loadtest"
)

// TestPGNTermination: the PGN of a finished game names how it ended with
// a standard Termination value, and says it in words in a comment after
// the last move (before the moves of a game without any).
func TestPGNTermination(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		name    string
		clock   bool // a 50 ms clock that White's flag falls on after the moves
		moves   []string
		seat    int              // who acts after the moves
		actions []map[string]any // the seat's actions, then the other's
		term    string
		comment string
	}{
		{name: "checkmate", moves: []string{"f3", "e5", "g4", "Qh4#"}, term: "normal", comment: "white is checkmated and loses"},
		{name: "resignation", moves: []string{"e4"}, seat: 1, actions: []map[string]any{{"t": "resign"}}, term: "normal", comment: "black resigned"},
		{name: "agreement", moves: []string{"e4", "e5", "Nf3", "Nc6"}, actions: []map[string]any{{"t": "draw", "offer": true}, {"t": "draw", "offer": true}},
			term: "normal", comment: "drawn by agreement"},
		{name: "abort", seat: 0, actions: []map[string]any{{"t": "abort"}}, term: "abandoned", comment: "aborted by white"},
		{name: "flag", clock: true, moves: []string{"e4", "e5"}, term: "time forfeit", comment: "white ran out of time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := map[string]any{"variant": "chess"}
			if tc.clock {
				req["clock"] = map[string]any{"initial_ms": 50, "increment_ms": 0}
			}
			id, w, b, _ := humanGame(t, ts, req)
			cs := [2]*seatClient{w, b}
			for i, m := range tc.moves {
				cs[i%2].mustMove(m)
			}
			for i, a := range tc.actions {
				if f := cs[(tc.seat+i)%2].do(a); f.T != "ack" {
					t.Fatalf("%v: %s %s", a, f.Code, f.Message)
				}
			}
			st := w.until(func(f *loadtest.Frame) bool { return f.T == "state" && f.Status.Reason != "" })
			games, err := pgn.Parse(getPGN(t, ts, id))
			if err != nil || len(games) != 1 {
				t.Fatalf("PGN: %v, %d games", err, len(games))
			}
			pg := games[0]
			if term, _ := pg.Tag("Termination"); term != tc.term {
				t.Errorf("Termination %q, want %q (status %+v)", term, tc.term, st.Status)
			}
			comments := pg.Comment
			if n := len(pg.Moves); n > 0 {
				comments = pg.Moves[n-1].Comments
			}
			if len(comments) != 1 || comments[0] != tc.comment || tc.comment != st.Status.Detail {
				t.Errorf("closing comments %q, want %q (status %+v)", comments, tc.comment, st.Status)
			}
		})
	}
}
