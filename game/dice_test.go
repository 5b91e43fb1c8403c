package game_test

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

func TestRNGTag(t *testing.T) {
	seed, err := game.ParseRNGTag(game.RNGTag(1234567890123))
	if err != nil || seed != 1234567890123 {
		t.Errorf("round trip: %d, %v", seed, err)
	}
	for _, bad := range []string{"", "PCG", "MT:1", "PCG:-1", "PCG:x"} {
		if _, err := game.ParseRNGTag(bad); !errors.Is(err, game.ErrRNG) {
			t.Errorf("game.ParseRNGTag(%q): %v", bad, err)
		}
	}
}

func TestRollerDeterministic(t *testing.T) {
	a, b := game.NewRoller(7), game.NewRoller(7)
	for i := range 100 {
		x, y := a.Roll(10), b.Roll(10)
		if x != y || x < 0 || x >= 10 {
			t.Fatalf("roll %d: %d and %d", i, x, y)
		}
	}
}

func TestChoose(t *testing.T) {
	outs := []rules.Outcome{{Num: 2, Den: 5}, {Num: 3, Den: 5}}
	for u, want := range []int{0, 0, 1, 1, 1} {
		if k, err := rules.Choose(fixed(u), outs); err != nil || k != want {
			t.Errorf("face %d: outcome %d, %v; want %d", u, k, err, want)
		}
	}
	if _, err := rules.Choose(fixed(5), outs); !errors.Is(err, rules.ErrRoller) {
		t.Errorf("face out of range: %v", err)
	}
	if k, err := rules.Choose(fixed(99), rules.Certain); k != 0 || err != nil {
		t.Errorf("certain: %d, %v", k, err)
	}
}

type fixed int

func (f fixed) Roll(int) int { return int(f) }
