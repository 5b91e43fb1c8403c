package search

import (
	"context"
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

// TestGravity checks that history scores approach but never pass ±histMax.
func TestGravity(t *testing.T) {
	for _, bonus := range []int{histBonus(1), histBonus(30), -histBonus(30)} {
		var h int32
		for range 10000 {
			gravity(&h, bonus)
			if h > histMax || h < -histMax {
				t.Fatalf("bonus %d: score %d beyond ±%d", bonus, h, histMax)
			}
		}
		if bonus > 0 && h < histMax*9/10 || bonus < 0 && h > -histMax*9/10 {
			t.Errorf("bonus %d: score %d, want near ±%d", bonus, h, histMax)
		}
	}
}

// TestHistoryKept checks that the main thread's history of quiet moves
// carries from one search of a game to the next, and that Clear and
// another variant start it afresh.
func TestHistoryKept(t *testing.T) {
	ctx := context.Background()
	s := seeSearcher(t, "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	e, p := s.e, s.p
	e.Search(ctx, p, Limits{Depth: 6}, nil)
	learned := e.main.history
	if *learned == (histTable{v: learned.v}) {
		t.Fatal("a search of depth 6 learned no history")
	}
	tests := []struct {
		name  string
		setup func() *rules.Position
		kept  bool
	}{
		{"next search", func() *rules.Position { return p }, true},
		{"after Clear", func() *rules.Position { e.Clear(); return p }, false},
		{"another variant", func() *rules.Position {
			v, err := vtest.Builtins().Get("greatshatranj")
			if err != nil {
				t.Fatal(err)
			}
			return v.Start()
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := tt.setup()
			got := e.newSearcher(ctx, pos, Limits{}).history
			if kept := *got == *learned; kept != tt.kept {
				t.Errorf("history kept %v, want %v", kept, tt.kept)
			}
		})
	}
}
