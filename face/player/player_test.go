package player_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/face/player"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

// firstFace makes a player that always chooses the first legal move not
// excluded.
type firstFace struct{}

type firstPlayer struct{}

func (firstFace) NewPlayer(*search.Engine, uint64) player.Player { return firstPlayer{} }

func (firstPlayer) Search(_ context.Context, p *rules.Position, _ search.Limits, _ func(search.Info)) (search.Result, error) {
	ms := p.LegalMoves(nil)
	if len(ms) == 0 {
		return search.Result{}, player.ErrNoMove
	}
	return search.Result{Best: ms[0]}, nil
}

func (firstPlayer) SearchView(_ context.Context, view *rules.Position, _ search.Limits, exclude []rules.Move) (rules.Move, error) {
	for _, m := range view.LegalMoves(nil) {
		if !slices.Contains(exclude, m) {
			return m, nil
		}
	}
	return rules.NoMove, player.ErrNoMove
}

func chess(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNew checks that a variant's face makes its player, and that a
// variant without one is played by the plain search.
func TestNew(t *testing.T) {
	plain := chess(t)
	// From this position the search plays the mate Rd8#, not the first
	// legal move.
	p, err := plain.ParseFEN("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	first := p.LegalMoves(nil)[0]
	for _, tc := range []struct {
		name      string
		v         *rules.Variant
		wantFirst bool
	}{
		{"no face: the search", plain, false},
		{"a face: its own player", plain.WithFace(firstFace{}), true},
	} {
		q := p.Clone()
		if tc.v != plain {
			q, _ = tc.v.ParseFEN(p.FEN())
		}
		res, err := player.New(tc.v, search.New(1), 1).Search(context.Background(), q, search.Limits{Depth: 2}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := res.Best == first; got != tc.wantFirst {
			t.Errorf("%s: played %v (the first legal move %v): %v, want %v", tc.name, res.Best, first, got, tc.wantFirst)
		}
	}
}

// refuser sees everything and refuses its first left moves.
type refuser struct{ left int }

func (r *refuser) View(p *rules.Position, c rules.Color) rules.View {
	return rules.View{Viewer: c, Position: p.Clone()}
}

func (r *refuser) Moderate(p, view *rules.Position, m rules.Move) (rules.Move, error) {
	if r.left > 0 {
		r.left--
		return rules.NoMove, rules.ErrRefused
	}
	return m, nil
}

// TestPlayHidden checks the moderator loop: moves the moderator refuses
// are excluded, and a player refused too often gives up.
func TestPlayHidden(t *testing.T) {
	s := chess(t).Spec()
	s.Name = "fogtest"
	fog := &refuser{left: 3}
	s.Ext = fog
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	v = v.WithFace(firstFace{})
	if !face.Hidden(v) {
		t.Fatal("a variant with a view hook is not hidden")
	}
	p := v.Start()
	m, refused, err := player.Play(context.Background(), player.New(v, nil, 0), p, search.Limits{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := p.LegalMoves(nil)[3]; m != want || refused != 3 {
		t.Errorf("played %v after %d refusals, want %v after 3", m, refused, want)
	}
	fog.left = 100
	if _, _, err := player.Play(context.Background(), player.New(v, nil, 0), p, search.Limits{}, 5); err == nil || errors.Is(err, player.ErrNoMove) {
		t.Errorf("refused for ever: %v, want an error", err)
	}
}
