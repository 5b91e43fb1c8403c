package server

import (
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/rules"
)

func TestClockNext(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	sec := time.Second
	day := 24 * time.Hour
	tests := []struct {
		name      string
		c         clockState
		mover     int
		turnOver  bool
		turns     int
		next      int
		over      bool
		at        time.Time
		wantLeft  [2]time.Duration
		wantRun   int
		wantSince time.Time
	}{
		{"first move starts no clock", clockState{initial: 60 * sec, inc: 2 * sec, left: [2]time.Duration{60 * sec, 60 * sec}, running: -1},
			0, true, 1, 1, false, t0, [2]time.Duration{60 * sec, 60 * sec}, -1, time.Time{}},
		{"black's first move starts white's clock", clockState{initial: 60 * sec, inc: 2 * sec, left: [2]time.Duration{60 * sec, 60 * sec}, running: -1},
			1, true, 2, 0, false, t0, [2]time.Duration{60 * sec, 60 * sec}, 0, t0},
		{"a move charges the time and adds the increment", clockState{initial: 60 * sec, inc: 2 * sec, left: [2]time.Duration{60 * sec, 60 * sec}, running: 0, since: t0},
			0, true, 3, 1, false, t0.Add(5 * sec), [2]time.Duration{57 * sec, 60 * sec}, 1, t0.Add(5 * sec)},
		{"a decision that keeps the turn keeps the clock running, no increment", clockState{initial: 60 * sec, inc: 2 * sec, left: [2]time.Duration{60 * sec, 60 * sec}, running: 1, since: t0},
			1, false, 3, 1, false, t0.Add(4 * sec), [2]time.Duration{60 * sec, 56 * sec}, 1, t0.Add(4 * sec)},
		{"the game's end stops the clocks", clockState{initial: 60 * sec, left: [2]time.Duration{60 * sec, 60 * sec}, running: 0, since: t0},
			0, true, 5, 1, true, t0.Add(sec), [2]time.Duration{59 * sec, 60 * sec}, -1, time.Time{}},
		{"correspondence refills the mover's days", clockState{days: 3, left: [2]time.Duration{3 * day, 3 * day}, running: 0, since: t0},
			0, true, 1, 1, false, t0.Add(day), [2]time.Duration{3 * day, 3 * day}, 1, t0.Add(day)},
		{"no clock stays off", clockState{running: -1},
			0, true, 4, 1, false, t0, [2]time.Duration{}, -1, time.Time{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.c.next(tc.mover, tc.turnOver, tc.turns, tc.next, tc.over, tc.at)
			if got.left != tc.wantLeft || got.running != tc.wantRun || (tc.wantRun >= 0 && !got.since.Equal(tc.wantSince)) {
				t.Errorf("got left %v running %d since %v, want %v %d %v", got.left, got.running, got.since, tc.wantLeft, tc.wantRun, tc.wantSince)
			}
		})
	}
}

func TestValidMoveText(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
	}{
		{"e2e4", true}, {"e7e8q", true}, {"Nf3", true}, {"O-O", true}, {"N@e4", true}, {"e8=Q+", true},
		{"DENY", true}, {"j10j9", true}, {"&N>A=royal-F", true}, {"&Q>Y=FfR", true}, {"+N", true}, {"&-", true},
		{"", false}, {"Rxd5~", false}, {"e2 e4", false}, {`e2"e4`, false}, {"é4", false},
		{"e2e4\n", false}, {string(make([]byte, 97)), false},
	}
	for _, tc := range tests {
		if err := validMoveText(tc.text); (err == nil) != tc.ok {
			t.Errorf("validMoveText(%q) = %v, want ok %v", tc.text, err, tc.ok)
		}
	}
}

// TestFlagBareKing: a seat whose time runs out loses, unless its opponent
// has a bare king as the rules mean it (only royal pieces, and nothing in
// reserve to drop), which draws.
func TestFlagBareKing(t *testing.T) {
	reg := newTestRegistry(
		chessLike(t, "royalqueen", func(s *rules.Spec) {
			for i := range s.Pieces {
				if s.Pieces[i].Letter == 'Q' {
					s.Pieces[i].Royal = true
				}
			}
			s.Promotion.Pieces = strings.ReplaceAll(s.Promotion.Pieces, "Q", "") // a royal piece is not a promotion
			s.Castling.Enabled = false                                           // castling needs one royal type
		}),
		chessLike(t, "dropchess", func(s *rules.Spec) { s.Drops = true }))
	ts := newTestServer(t, "", func(c *Config) { c.Registry = reg })
	tests := []struct {
		name, variant, fen string
		moves              [2]string // White's and Black's first moves; then White's clock runs out
		result             string
	}{
		{"a lone king draws", "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", [2]string{"a1a2", "e8d7"}, "1/2-1/2"},
		{"a knight wins", "chess", "4k3/8/8/8/8/8/8/R3K2n w - - 0 1", [2]string{"a1a2", "e8d7"}, "0-1"},
		{"two royal pieces are a bare king", "royalqueen", "3qk3/8/8/8/8/8/8/R3K3 w - - 0 1", [2]string{"a1a2", "e8f7"}, "1/2-1/2"},
		{"a piece in reserve wins", "dropchess", "4k3/8/8/8/8/8/8/R3K3[n] w - - 0 1", [2]string{"a1a2", "e8d7"}, "0-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, w, b, _ := humanGame(t, ts, map[string]any{"variant": tc.variant, "fen": tc.fen,
				"clock": map[string]any{"initial_ms": 50, "increment_ms": 0}})
			w.mustMove(tc.moves[0])
			b.mustMove(tc.moves[1]) // White's clock starts now
			st := w.final()
			if st.Status.Result != tc.result || st.Status.Reason != "time" {
				t.Errorf("status %+v, want %s on time", st.Status, tc.result)
			}
		})
	}
}

func TestBareKing(t *testing.T) {
	reg := catalog.MustDefault()
	tests := []struct {
		variant, fen string
		bare         [2]bool // White's, Black's
	}{
		{"chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", [2]bool{false, true}},
		{"chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", [2]bool{true, true}},
		{"chatrang", "", [2]bool{false, false}},
		{"crazychess", "", [2]bool{false, false}},
		{"crazychess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 w - 0", [2]bool{true, true}},
		{"crazychess", "4k3/8/8/8/8/8/8/4(RK)3 w - - 0 1 w - 0", [2]bool{false, true}}, // a King riding in a Rook
		{"crazychess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 w - 0", [2]bool{false, true}},
		{"csipgs", "", [2]bool{false, false}},
	}
	for _, tc := range tests {
		v, err := reg.Get(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		if tc.fen != "" {
			if p, err = v.ParseFEN(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		for c := range 2 {
			if got := p.Bare(rules.Color(c)); got != tc.bare[c] {
				t.Errorf("%s %s: Bare(%s) = %v", tc.variant, p.FEN(), rules.Color(c), got)
			}
		}
	}
}

// TestCheckSquare: the state names the square of the royal in check, in a
// variant whose check is the core's and in one whose check is its own.
func TestCheckSquare(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct{ variant, fen, want string }{
		{"chess", "4k3/8/8/8/8/8/8/4RK2 b - - 0 1", "e8"},
		{"crazychess", "4K3/8/8/8/3(Rk)4/5N2/8/8 b - - 0 1 w - 0", "d4"},
		{"crazychess", "4K3/8/8/8/3(Rk)4/8/8/8 b - - 0 1 w - 0", ""},
	}
	for _, tc := range tests {
		_, w, _, _ := humanGame(t, ts, map[string]any{"variant": tc.variant, "fen": tc.fen})
		st := w.stateAt(0)
		if st.Check != tc.want {
			t.Errorf("%s %s: check %q, want %q", tc.variant, tc.fen, st.Check, tc.want)
		}
	}
}
