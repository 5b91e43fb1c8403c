package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// describeOf returns the description a state frame carries, nil for none.
func describeOf(t *testing.T, raw []byte) *face.Description {
	t.Helper()
	var f stateFrame
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f.Describe
}

// TestDescribeFrames checks that the state frames carry the variant's
// description and the ply events its words for what the ply did (Crazy
// Chess: stacks, the denial right, a chain of removals in order).
func TestDescribeFrames(t *testing.T) {
	ts := newTestServer(t, "", nil)
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "crazychess", "fen": "(rp)3kb2/7p/8/8/8/8/7P/R3K3 w - - 0 1 w - 0"})
	d := describeOf(t, w.stateAt(0).Raw)
	if d == nil {
		t.Fatal("no description in the state")
	}
	i := slices.IndexFunc(d.Squares, func(s face.Square) bool { return s.Square == "a8" })
	if i < 0 || d.Squares[i].Label != "1" || d.Squares[i].Mark != "stack" || d.Squares[i].Title != "r p (bottom to top)" {
		t.Errorf("squares %+v, want a8 a stack of r p with one passenger", d.Squares)
	}
	if !slices.Contains(d.Counters, face.Counter{Name: "denial right", Value: "white"}) {
		t.Errorf("counters %+v lack the denial right", d.Counters)
	}
	w.mustMove("Ra1xa8")
	for _, c := range []*seatClient{w, b} {
		c.stateAt(1)
		plies := plyEvents(t, c)
		got := plies[len(plies)-1].Events
		if want := []string{"r a8", "R a8", "p a8 self-capture"}; !slices.Equal(got, want) {
			t.Errorf("%s: events %q, want %q", c.seat, got, want)
		}
		// The position after the ply: the stack is gone, the right stays.
		if d := plies[len(plies)-1].Describe; d == nil || len(d.Squares) != 0 || !slices.Contains(d.Counters, face.Counter{Name: "denial right", Value: "white"}) {
			t.Errorf("%s: the ply's description %+v, want no marked square and the denial right", c.seat, d)
		}
	}
}

// pieceCounter is a face that describes a position by the pieces on it:
// a description built from the true position instead of a player's view
// tells where the unseen pieces stand.
type pieceCounter struct{}

func (pieceCounter) Describe(p *rules.Position) face.Description {
	return face.Description{Notes: []string{fmt.Sprintf("%d pieces", len(p.Pieces(rules.White))+len(p.Pieces(rules.Black)))}}
}

func (pieceCounter) DescribePly(p *rules.Position) []string {
	return []string{fmt.Sprintf("%d pieces", len(p.Pieces(rules.White))+len(p.Pieces(rules.Black)))}
}

// TestDescribeHidden checks that while a hidden game is played each seat's
// description is built from its view, a spectator gets none, and no ply
// event carries the variant's words about the true position.
func TestDescribeHidden(t *testing.T) {
	reg := newFogRegistry(t)
	reg.extra[0] = reg.extra[0].WithFace(pieceCounter{})
	ts := newTestServer(t, "", func(c *Config) { c.Registry = reg })
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "fogchess"})
	spec := join(t, ts, id, "", 0)
	for _, tc := range []struct {
		c    *seatClient
		want string // "": no description
	}{
		{w, "16 pieces"},
		{b, "16 pieces"},
		{spec, ""},
	} {
		d := describeOf(t, tc.c.stateAt(0).Raw)
		got := ""
		if d != nil {
			got = d.Notes[0]
		}
		if got != tc.want {
			t.Errorf("%s is told %q, want %q", tc.c.seat, got, tc.want)
		}
	}
	w.mustMove("e2e4")
	for _, c := range []*seatClient{w, b, spec} {
		c.stateAt(1)
		plies := plyEvents(t, c)
		if e := plies[len(plies)-1]; e.Events != nil || e.Describe != nil {
			t.Errorf("%s is told of the ply %q %+v", c.seat, e.Events, e.Describe)
		}
	}
}
