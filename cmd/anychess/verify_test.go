package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// committedGame plays a Vazir game with dice from a committed seed, as the
// server does, and returns its PGN with the secret revealed.
func committedGame(t *testing.T, seed game.Seed, nonce string) string {
	t.Helper()
	v, err := catalog.MustDefault().Get("vazir")
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
	for range 80 {
		p := g.Position()
		if p.Status().Over() {
			break
		}
		ms := p.LegalMoves(nil)
		m := ms[0]
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
	var sb strings.Builder
	if err := pgn.Write(&sb, notation.WriteGame(g)); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// TestVerifyCommand: verify checks the dice of games with ChaCha8 seeds
// (the server's games) and with PCG seeds (games it stored before), and
// finds a broken commitment.
func TestVerifyCommand(t *testing.T) {
	var key [32]byte
	for i := range key {
		key[i] = byte(11 * i)
	}
	for _, seed := range []game.Seed{game.ChaCha8Seed(key), game.PCGSeed(42)} {
		t.Run(seed.Gen, func(t *testing.T) {
			nonce := strings.Repeat("5a", 16)
			text := committedGame(t, seed, nonce)
			if !strings.Contains(text, `[RNG "`+seed.Tag()+`"]`) {
				t.Fatalf("no RNG tag %s in\n%s", seed.Tag(), text)
			}
			dir := t.TempDir()
			good := filepath.Join(dir, "good.pgn")
			if err := os.WriteFile(good, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if st := runVerify([]string{good}, nil, &out, &errb); st != 0 {
				t.Fatalf("status %d: %s%s", st, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), "game 1: ok: ") || !strings.Contains(out.String(), "the "+seed.Gen+" seed") ||
				!strings.Contains(out.String(), "matches sha256:") {
				t.Errorf("output %q", out.String())
			}
			if strings.Contains(out.String(), "ok: 0 outcomes") {
				t.Errorf("the test game rolled no dice: %q", out.String())
			}

			// Another nonce breaks the commitment; from standard input.
			bad := strings.Replace(text, nonce, strings.Repeat("00", 16), 1)
			out.Reset()
			if st := runVerify(nil, strings.NewReader(bad), &out, &errb); st != 1 || !strings.Contains(out.String(), "FAILED") {
				t.Errorf("a changed nonce: status %d, output %q", st, out.String())
			}
			out.Reset()
			errb.Reset()
			if st := runVerify([]string{filepath.Join(dir, "missing.pgn")}, nil, &out, &errb); st != 1 || errb.Len() == 0 {
				t.Errorf("a missing file: status %d, stderr %q", st, errb.String())
			}
		})
	}
}
