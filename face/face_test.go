package face_test

import (
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

// stubFace is a face that chooses greedily the last move, and describes
// a position by its side to move.
type stubFace struct{}

func (stubFace) GreedyMove(_ *rules.Position, moves []rules.Move, _ func(*rules.Position, []rules.Move) []rules.Move, _ *rand.Rand) rules.Move {
	return moves[len(moves)-1]
}

func (stubFace) Describe(p *rules.Position) face.Description {
	return face.Description{Turn: p.Turn().String() + " moves"}
}

func (stubFace) DescribePly(*rules.Position) []string { return []string{"a ply"} }

func chess(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFaceDefaultsAndOwn(t *testing.T) {
	plain := chess(t)
	own := plain.WithFace(stubFace{})
	first := plain.Start().LegalMoves(nil)[0]
	rng := rand.New(rand.NewPCG(1, 2))
	best := func(_ *rules.Position, ms []rules.Move) []rules.Move { return ms[:1] }
	tests := []struct {
		name     string
		v        *rules.Variant
		greedy   rules.Move
		turn     string
		plyWords int
	}{
		{"no face: defaults", plain, first, "", 0},
		{"a face: its own", own, plain.Start().LegalMoves(nil)[19], "white moves", 1},
	}
	for _, tc := range tests {
		p := tc.v.Start()
		if got := face.GreedyMove(tc.v, p, p.LegalMoves(nil), best, rng); got != tc.greedy {
			t.Errorf("%s: greedy %v, want %v", tc.name, got, tc.greedy)
		}
		if got := face.Describe(tc.v, p).Turn; got != tc.turn {
			t.Errorf("%s: turn %q, want %q", tc.name, got, tc.turn)
		}
		if got := len(face.DescribePly(tc.v, p)); got != tc.plyWords {
			t.Errorf("%s: %d words of a ply, want %d", tc.name, got, tc.plyWords)
		}
		if face.Hidden(tc.v) {
			t.Errorf("%s: hidden", tc.name)
		}
	}
}
