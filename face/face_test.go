package face_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

// stubFace is a face that makes a player always choosing the first legal
// move, chooses greedily the last move, and describes a position by its
// side to move.
type stubFace struct{}

type firstPlayer struct{}

func (firstPlayer) Search(_ context.Context, p *rules.Position, _ search.Limits, _ func(search.Info)) (search.Result, error) {
	ms := p.LegalMoves(nil)
	if len(ms) == 0 {
		return search.Result{}, face.ErrNoMove
	}
	return search.Result{Best: ms[0]}, nil
}

func (firstPlayer) SearchView(_ context.Context, view *rules.Position, _ search.Limits, exclude []rules.Move) (rules.Move, error) {
	for _, m := range view.LegalMoves(nil) {
		if !contains(exclude, m) {
			return m, nil
		}
	}
	return rules.NoMove, face.ErrNoMove
}

func contains(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func (stubFace) NewPlayer(*search.Engine, uint64) face.Player { return firstPlayer{} }

func (stubFace) GreedyMove(_ *rules.Position, moves []rules.Move, _ func(*rules.Position, []rules.Move) []rules.Move, _ *rand.Rand) rules.Move {
	return moves[len(moves)-1]
}

func (stubFace) Describe(p *rules.Position) face.Description {
	return face.Description{Turn: p.Turn().String() + " moves"}
}

func (stubFace) DescribePly(*rules.Position) []string { return []string{"a ply"} }

func chess(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := variant.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFaceDefaultsAndOwn(t *testing.T) {
	plain := chess(t)
	own := plain.WithFace(stubFace{})
	e := search.New(1)
	lim := search.Limits{Depth: 1}
	first := plain.Start().LegalMoves(nil)[0]
	rng := rand.New(rand.NewPCG(1, 2))
	best := func(_ *rules.Position, ms []rules.Move) []rules.Move { return ms[:1] }
	tests := []struct {
		name string
		v    *rules.Variant
		// wants
		player   bool // the variant's own player (first legal move)
		greedy   rules.Move
		turn     string
		plyWords int
	}{
		{"no face: defaults", plain, false, first, "", 0},
		{"a face: its own", own, true, plain.Start().LegalMoves(nil)[19], "white moves", 1},
	}
	for _, tc := range tests {
		p := tc.v.Start()
		pl := face.NewPlayer(tc.v, e, 1)
		res, err := pl.Search(context.Background(), p, lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := res.Best == first; got != tc.player {
			t.Errorf("%s: plays %v; the first legal move %v: %v, want %v", tc.name, res.Best, first, got, tc.player)
		}
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

// TestPlayHidden checks the moderator loop: moves the moderator refuses
// are excluded, and a player refused too often gives up.
func TestPlayHidden(t *testing.T) {
	s := chess(t).Spec()
	s.Name = "fogtest"
	s.Hooks.View = func(p *rules.Position, c rules.Color) rules.View {
		return rules.View{Viewer: c, Position: p.Clone()}
	}
	refuse := 3
	s.Hooks.Moderate = func(p, view *rules.Position, m rules.Move) (rules.Move, error) {
		if refuse > 0 {
			refuse--
			return rules.NoMove, rules.ErrRefused
		}
		return m, nil
	}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	v = v.WithFace(stubFace{})
	if !face.Hidden(v) {
		t.Fatal("a variant with a view hook is not hidden")
	}
	p := v.Start()
	m, refused, err := face.Play(context.Background(), face.NewPlayer(v, nil, 0), p, search.Limits{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := p.LegalMoves(nil)[3]; m != want || refused != 3 {
		t.Errorf("played %v after %d refusals, want %v after 3", m, refused, want)
	}
	refuse = 100
	if _, _, err := face.Play(context.Background(), face.NewPlayer(v, nil, 0), p, search.Limits{}, 5); err == nil || errors.Is(err, face.ErrNoMove) {
		t.Errorf("refused for ever: %v, want an error", err)
	}
}
