package game_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/vazir"
)

// playCommitted plays a Vazir game the way a server does: a secret seed
// and nonce, the start and every outcome from one roller, the commitment
// published, the secret revealed at the end. moves picks each move (the
// capture first when there is one, so that dice roll).
func playCommitted(t *testing.T, seed game.Seed, nonce string, plies int) *game.Game {
	t.Helper()
	v, err := vazir.New(vazir.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := seed.Roller()
	start, err := v.Setup(r)
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, start)
	g.SetCommitment(seed, nonce)
	for range plies {
		p := g.Position()
		if p.Status().Over() {
			break
		}
		ms := p.LegalMoves(nil)
		m := ms[len(ms)/2]
		for _, c := range ms {
			if p.IsCapture(c) {
				m = c
				break
			}
		}
		k, err := rules.Choose(r, p.Outcomes(m))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m, k); err != nil {
			t.Fatal(err)
		}
	}
	g.Reveal(seed, nonce)
	return g
}

// TestNewSecret: new games' dice are ChaCha8 with a 256-bit seed, the
// RNG tag names the generator and carries the whole seed, and the nonce
// has 128 bits.
func TestNewSecret(t *testing.T) {
	a, nonce, err := game.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := game.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	tag := a.Tag()
	if !a.IsChaCha8() || !strings.HasPrefix(tag, "ChaCha8:") || len(tag) != len("ChaCha8:")+64 || a == b {
		t.Errorf("secret %q (and %q), want two ChaCha8 seeds of 64 hex digits", tag, b.Tag())
	}
	if len(nonce) != 32 {
		t.Errorf("nonce %q, want 32 hex digits", nonce)
	}
	if back, err := game.ParseSeed(tag); err != nil || back != a {
		t.Errorf("ParseSeed(%q): %q, %v", tag, back.Tag(), err)
	}
}

// TestVerify: a game's dice verify from its revealed seed, new (ChaCha8)
// and old (PCG) alike; a changed outcome, another seed (one bit of a
// ChaCha8 key changed is enough) or another nonce does not.
func TestVerify(t *testing.T) {
	secret, nonce, err := game.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		seed  game.Seed
		other game.Seed
	}{
		{"chacha8", secret, func() game.Seed { o := secret; o.Key[31] ^= 1; return o }()},
		{"pcg", game.PCGSeed(12345), game.PCGSeed(12346)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := playCommitted(t, tc.seed, nonce, 120)
			commit, _ := g.Tag(game.CommitTag)
			if !strings.HasPrefix(commit, "sha256:") || len(commit) != len("sha256:")+64 {
				t.Fatalf("commitment %q", commit)
			}
			if strings.Contains(commit, tc.seed.Text()) || strings.Contains(commit, nonce) {
				t.Fatal("the commitment shows the secret")
			}
			if tag, _ := g.Tag("RNG"); tag != tc.seed.Tag() {
				t.Fatalf("RNG tag %q, want %q", tag, tc.seed.Tag())
			}
			rolls, err := game.Verify(g)
			if err != nil {
				t.Fatal(err)
			}
			if rolls == 0 {
				t.Fatal("no outcome was checked: the test game rolled no dice")
			}
			flipped := false
			for i := range g.Plies {
				if len(replayOutcomes(t, g, i)) > 1 {
					flipped = true
					bad := *g
					bad.Plies = append([]game.Ply(nil), g.Plies...)
					bad.Plies[i].Outcome = 1 - bad.Plies[i].Outcome
					if _, err := game.VerifyRolls(&bad, tc.seed); !errors.Is(err, game.ErrVerify) {
						t.Errorf("a flipped outcome at ply %d verifies: %v", i+1, err)
					}
					break
				}
			}
			if !flipped {
				t.Error("no ply with several outcomes to flip")
			}
			wrongSeed := *g
			wrongSeed.Tags = append([]game.Tag(nil), g.Tags...)
			wrongSeed.SetTag("RNG", tc.other.Tag())
			if _, err := game.Verify(&wrongSeed); !errors.Is(err, game.ErrVerify) {
				t.Errorf("another seed verifies: %v", err)
			}
			wrongNonce := *g
			wrongNonce.Tags = append([]game.Tag(nil), g.Tags...)
			wrongNonce.SetTag(game.NonceTag, strings.Repeat("0", 32))
			if _, err := game.Verify(&wrongNonce); !errors.Is(err, game.ErrVerify) {
				t.Errorf("another nonce verifies: %v", err)
			}
			hidden := *g
			hidden.Tags = nil
			if _, err := game.Verify(&hidden); !errors.Is(err, game.ErrVerify) {
				t.Errorf("a game without its seed verifies: %v", err)
			}
		})
	}
}

// replayOutcomes returns the outcomes of ply i of g.
func replayOutcomes(t *testing.T, g *game.Game, i int) []rules.Outcome {
	t.Helper()
	var outs []rules.Outcome
	g.Replay(func(p *rules.Position, j int) {
		if j == i {
			outs = p.Outcomes(g.Plies[i].Move)
		}
	})
	return outs
}
