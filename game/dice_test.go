package game_test

import (
	"errors"
	"math/rand/v2"
	"strings"
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

// TestParseSeed: RNG tags of both generators read back; anything else is
// ErrRNG.
func TestParseSeed(t *testing.T) {
	key := strings.Repeat("0123456789abcdef", 4)
	for _, tag := range []string{"PCG:0", "PCG:18446744073709551615", "ChaCha8:" + key} {
		s, err := game.ParseSeed(tag)
		if err != nil || s.Tag() != tag {
			t.Errorf("ParseSeed(%q): %q, %v", tag, s.Tag(), err)
		}
	}
	for _, bad := range []string{"", "ChaCha8", "ChaCha8:" + key[:62], "ChaCha8:" + strings.ToUpper(key), "ChaCha8:" + key[:63] + "g", "chacha8:" + key, "PCG:x", "MT:1"} {
		if _, err := game.ParseSeed(bad); !errors.Is(err, game.ErrRNG) {
			t.Errorf("ParseSeed(%q): %v", bad, err)
		}
	}
	if _, err := game.ParseSeed("MT:1"); err == nil || !strings.Contains(err.Error(), "PCG:<seed> or ChaCha8:<64 hex digits>") {
		t.Errorf("ParseSeed(%q): %v, want the two forms named", "MT:1", err)
	}
}

// TestChaCha8Roller: a ChaCha8 seed rolls what math/rand/v2's ChaCha8 with
// that seed rolls, and its set-up stream is another.
func TestChaCha8Roller(t *testing.T) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i * 7)
	}
	seed := game.ChaCha8Seed(key)
	r, ref, setup := seed.Roller(), rand.New(rand.NewChaCha8(key)), seed.Setup().Roller()
	same := 0
	for i := range 1000 {
		n := 2 + i%97
		x, want, y := r.Roll(n), ref.IntN(n), setup.Roll(n)
		if x != want {
			t.Fatalf("roll %d: %d, math/rand/v2 %d", i, x, want)
		}
		if x == y {
			same++
		}
	}
	if same > 200 {
		t.Errorf("the set-up stream matched the dice %d times in 1000", same)
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
