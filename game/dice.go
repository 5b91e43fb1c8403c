package game

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// ErrRNG is wrapped by errors about an RNG tag.
var ErrRNG = errors.New("bad RNG tag")

// Roller is a rules.Roller drawing from a seeded source (ChaCha8 or PCG),
// so that a game driven by it replays bit-exactly from its seed. It is not
// safe for concurrent use.
type Roller struct {
	r *rand.Rand
}

// NewRoller returns a Roller drawing from PCG seeded with seed (the
// generator of local games and of server games stored before ChaCha8).
func NewRoller(seed uint64) *Roller {
	return &Roller{r: rand.New(rand.NewPCG(seed, 0x7661_7a69_72))}
}

// NewChaCha8Roller returns a Roller drawing from math/rand/v2's ChaCha8
// seeded with key.
func NewChaCha8Roller(key [32]byte) *Roller {
	return &Roller{r: rand.New(rand.NewChaCha8(key))}
}

// Roll returns a uniform integer in [0, n).
func (r *Roller) Roll(n int) int { return r.r.IntN(n) }

// Rand returns the underlying source, for set-up hooks that shuffle.
func (r *Roller) Rand() *rand.Rand { return r.r }

// The generators an RNG tag names.
const (
	GenPCG     = "PCG"     // "PCG:<seed in decimal>": NewRoller
	GenChaCha8 = "ChaCha8" // "ChaCha8:<seed in 64 hex digits>": NewChaCha8Roller
)

// RNGTag returns the value of the RNG tag of a game driven by
// NewRoller(seed): "PCG:<seed>".
func RNGTag(seed uint64) string { return PCGSeed(seed).Tag() }

// ParseRNGTag reads an RNG tag written by RNGTag (a PCG seed) and returns
// the seed.
func ParseRNGTag(s string) (uint64, error) {
	name, num, ok := strings.Cut(s, ":")
	if !ok || name != GenPCG {
		return 0, fmt.Errorf("%w: %q (want %s:<seed>)", ErrRNG, s, GenPCG)
	}
	seed, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %w", ErrRNG, s, err)
	}
	return seed, nil
}

// Seed is the seed of a game's dice with its generator: ChaCha8 with a
// 256-bit seed (the server's games), or PCG with a 64-bit seed (games the
// server stored before, and local games). The zero Seed is PCG seed 0.
type Seed struct {
	Gen string   // GenChaCha8 or GenPCG ("" is GenPCG)
	Key [32]byte // ChaCha8's seed
	PCG uint64   // PCG's seed
}

// PCGSeed returns the Seed of NewRoller(seed).
func PCGSeed(seed uint64) Seed { return Seed{Gen: GenPCG, PCG: seed} }

// ChaCha8Seed returns the Seed of NewChaCha8Roller(key).
func ChaCha8Seed(key [32]byte) Seed { return Seed{Gen: GenChaCha8, Key: key} }

// IsChaCha8 reports whether s is a ChaCha8 seed.
func (s Seed) IsChaCha8() bool { return s.Gen == GenChaCha8 }

// Tag returns the RNG tag's value for s: "ChaCha8:<64 hex digits>" or
// "PCG:<decimal>".
func (s Seed) Tag() string {
	if s.IsChaCha8() {
		return GenChaCha8 + ":" + hex.EncodeToString(s.Key[:])
	}
	return GenPCG + ":" + strconv.FormatUint(s.PCG, 10)
}

// Text returns the seed alone as the tag writes it: 64 hex digits for
// ChaCha8, decimal for PCG.
func (s Seed) Text() string {
	_, text, _ := strings.Cut(s.Tag(), ":")
	return text
}

// ParseSeed reads an RNG tag's value written by Seed.Tag (or RNGTag).
func ParseSeed(tag string) (Seed, error) {
	name, text, _ := strings.Cut(tag, ":")
	switch name {
	case GenPCG:
		seed, err := ParseRNGTag(tag)
		return PCGSeed(seed), err
	case GenChaCha8:
		var key [32]byte
		if len(text) != 64 || strings.ToLower(text) != text {
			return Seed{}, fmt.Errorf("%w: %q (want %s:<64 lower-case hex digits>)", ErrRNG, tag, GenChaCha8)
		}
		if _, err := hex.Decode(key[:], []byte(text)); err != nil {
			return Seed{}, fmt.Errorf("%w: %q: %w", ErrRNG, tag, err)
		}
		return ChaCha8Seed(key), nil
	}
	return Seed{}, fmt.Errorf("%w: %q (want %s:<seed> or %s:<64 hex digits>)", ErrRNG, tag, GenPCG, GenChaCha8)
}

// Roller returns a roller drawing from s.
func (s Seed) Roller() *Roller {
	if s.IsChaCha8() {
		return NewChaCha8Roller(s.Key)
	}
	return NewRoller(s.PCG)
}

// Setup returns the seed of the stream that draws the start of a game
// whose dice come from s, so that the dice stream begins with the first
// roll: for PCG, SetupSeed of its seed; for ChaCha8, the SHA-256 of
// "anychess setup\n" and the seed's bytes.
func (s Seed) Setup() Seed {
	if s.IsChaCha8() {
		return ChaCha8Seed(sha256.Sum256(append([]byte("anychess setup\n"), s.Key[:]...)))
	}
	return PCGSeed(SetupSeed(s.PCG))
}
