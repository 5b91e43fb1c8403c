package game

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/anychess/anychess/rules"
)

// Fair dice: a server that rolls for both players draws a secret seed and
// a nonce when a game starts and publishes only a commitment to them (the
// RNGCommit tag). New games draw a 256-bit ChaCha8 seed; games stored
// before drew a 64-bit PCG seed, and still verify, as the RNG tag names the
// generator. Every chance outcome comes from the seed's roller
// (Seed.Roller), in order; the start, where chance draws it, from a stream
// of its own (Seed.Setup). When the game ends the seed
// (RNG tag) and the nonce (RNGNonce tag) are revealed, and anyone can check
// with Verify that they match the commitment and that every outcome in the
// record followed from them. Neither player sees a roll before it is made;
// since the seed is fixed before the first move, no choice of moves can
// steer a roll either.

// The tags of a committed game.
const (
	CommitTag = "RNGCommit" // "sha256:" and 64 hex digits, published at the start
	NonceTag  = "RNGNonce"  // 32 hex digits, revealed at the end with the RNG tag
)

// ErrVerify is wrapped by Verify's errors: a commitment that does not
// match, or an outcome that did not follow from the seed.
var ErrVerify = errors.New("dice do not verify")

// SetupSeed returns the seed of the roller that draws the start of a game
// whose dice come from NewRoller(seed): a separate stream, so that the dice
// stream begins with the first roll and can be checked without replaying
// the set-up (a web page does so). It is splitmix64 of seed.
func SetupSeed(seed uint64) uint64 { return rules.Mix64(seed) }

// NewSecret draws a ChaCha8 seed (256 bits) and a nonce (128 bits) from
// the operating system's secure random source.
func NewSecret() (seed Seed, nonce string, err error) {
	var b [32 + 16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Seed{}, "", fmt.Errorf("game: secret: %w", err)
	}
	return ChaCha8Seed([32]byte(b[:32])), hex.EncodeToString(b[32:]), nil
}

// Commitment returns the commitment to seed and nonce: "sha256:" and the
// hex SHA-256 of "anychess rng\n", the RNG tag of the seed (Seed.Tag: the
// generator and the whole seed), "\n" and the nonce. The nonce keeps anyone
// from trying seeds against it.
func Commitment(seed Seed, nonce string) string {
	h := sha256.Sum256([]byte("anychess rng\n" + seed.Tag() + "\n" + nonce))
	return "sha256:" + hex.EncodeToString(h[:])
}

// SetCommitment sets the tags a committed game shows while it is played:
// the commitment, and nothing that reveals the seed.
func (g *Game) SetCommitment(seed Seed, nonce string) {
	g.SetTag(CommitTag, Commitment(seed, nonce))
}

// Reveal sets the tags that let anyone check the dice after the game: the
// seed with its generator (RNG) and the nonce (RNGNonce).
func (g *Game) Reveal(seed Seed, nonce string) {
	g.SetTag("RNG", seed.Tag())
	g.SetTag(NonceTag, nonce)
}

// Verify checks g's dice. With an RNGCommit tag, the revealed seed (RNG
// tag, ChaCha8 or PCG) and nonce (RNGNonce tag) must give that commitment.
// Then the game is replayed with the seed's roller: where the variant draws its start by
// chance (Variant.Seeded) and the roller's draw gives the recorded start,
// the draw comes first (otherwise the start was given, or drawn from its
// own stream, Seed.Setup); every ply with more than one outcome must have the
// outcome rules.Choose draws for it. It reports how many outcomes were
// checked.
func Verify(g *Game) (rolls int, err error) {
	tag, ok := g.Tag("RNG")
	if !ok {
		return 0, fmt.Errorf("%w: no RNG tag (the seed is revealed when the game ends)", ErrVerify)
	}
	seed, err := ParseSeed(tag)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrVerify, err)
	}
	if commit, ok := g.Tag(CommitTag); ok {
		nonce, _ := g.Tag(NonceTag)
		if want := Commitment(seed, nonce); subtle.ConstantTimeCompare([]byte(commit), []byte(want)) != 1 {
			return 0, fmt.Errorf("%w: the seed and nonce give %s, the game committed to %s", ErrVerify, want, commit)
		}
	}
	return VerifyRolls(g, seed)
}

// VerifyRolls replays g with seed's roller (see Verify) and reports how
// many outcomes it checked, or the first ply whose outcome did not follow.
func VerifyRolls(g *Game, seed Seed) (int, error) {
	r := seed.Roller()
	if g.Variant.Seeded() {
		if p, err := g.Variant.Setup(r); err != nil || p.FEN() != g.start.FEN() {
			r = seed.Roller() // the start was given, not drawn
		}
	}
	p := g.start.Clone()
	rolls := 0
	for i, pl := range g.Plies {
		outs := p.Outcomes(pl.Move)
		if len(outs) > 1 {
			k, err := rules.Choose(r, outs)
			if err != nil {
				return rolls, fmt.Errorf("%w: ply %d: %w", ErrVerify, i+1, err)
			}
			if k != pl.Outcome {
				return rolls, fmt.Errorf("%w: ply %d: the seed gives outcome %d (%s), the record %d (%s)",
					ErrVerify, i+1, k, outs[k].Label, pl.Outcome, label(outs, pl.Outcome))
			}
			rolls++
		}
		p.MakeOutcome(pl.Move, pl.Outcome)
	}
	return rolls, nil
}

// StartDrawn reports whether g's start is the one its variant draws from
// seed (Variant.Seeded): by a roller of its own, seed.Setup(), or by the
// dice roller itself before its first roll (PCG games recorded before the
// set-up had a stream of its own). It is false for a variant whose start
// is not drawn, and for a start that was given.
func StartDrawn(g *Game, seed Seed) bool {
	if !g.Variant.Seeded() {
		return false
	}
	want := g.start.FEN()
	for _, s := range []Seed{seed.Setup(), seed} {
		if p, err := g.Variant.Setup(s.Roller()); err == nil && p.FEN() == want {
			return true
		}
	}
	return false
}

// label returns the label of outcome k, or "none" if there is no such
// outcome.
func label(outs []rules.Outcome, k int) string {
	if k < 0 || k >= len(outs) {
		return "none"
	}
	return outs[k].Label
}
