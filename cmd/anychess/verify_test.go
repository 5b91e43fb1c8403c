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

// definedGame plays moves in a game of the variant of file text and
// returns its PGN, naming the variant's definition and, with carry,
// carrying it.
func definedGame(t *testing.T, text string, carry bool, moves ...string) string {
	t.Helper()
	reg := catalog.MustDefault()
	v, err := reg.Compile([]byte(text), "mini.toml")
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, v.Start())
	for _, m := range moves {
		mv, err := notation.ParseMove(g.Position(), m)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(mv, 0); err != nil {
			t.Fatal(err)
		}
	}
	pg := notation.WriteGame(g)
	notation.SetDefinition(pg, []byte(text), carry)
	var sb strings.Builder
	if err := pgn.Write(&sb, pg); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// TestVerifyDefinition: a record that carries its variant's definition
// verifies under it after the registry's variant of that name changed; one
// that names a definition without carrying it verifies only under that
// definition.
func TestVerifyDefinition(t *testing.T) {
	mini, err := os.ReadFile("testdata/minichess.toml")
	if err != nil {
		t.Fatal(err)
	}
	old := string(mini)
	changed := strings.Replace(old, `betza = "N"`, `betza = "D"`, 1) // the knight becomes a dabbaba
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gardner.toml"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, pgn, variants string
		status              int
		want                string
	}{
		{"carried, registry changed", definedGame(t, old, true, "Nc3", "Nc3"), dir, 0,
			"game 1: ok: its 2 plies replay by the rules; gardner has no chance, so there are no dice to check; replayed under the variant definition the record carries, sha256:"},
		{"carried, not in the registry", definedGame(t, old, true, "Nc3"), "", 0, "replayed under the variant definition the record carries"},
		{"named, registry changed", definedGame(t, old, false, "Nc3"), dir, 1, "without carrying it, and the registry's gardner is another"},
		{"named, the registry's", definedGame(t, changed, false, "Nb3"), dir, 0, "replayed under the registry's gardner, the variant definition the record names"},
		{"chess", definedGame(t, string(builtinChess(t)), false, "e4"), "", 0, "replayed under the registry's chess"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if tc.variants != "" {
				args = append(args, "-variants", tc.variants)
			}
			var out, errb bytes.Buffer
			st := runVerify(args, strings.NewReader(tc.pgn), &out, &errb)
			if st != tc.status || !strings.Contains(out.String(), tc.want) {
				t.Errorf("status %d, output %q %s; want %d and %q", st, out.String(), errb.String(), tc.status, tc.want)
			}
		})
	}
	// The carried definition, not the registry's, is the one that differs.
	var out, errb bytes.Buffer
	runVerify([]string{"-variants", dir}, strings.NewReader(definedGame(t, old, true, "Nc3")), &out, &errb)
	if !strings.Contains(out.String(), ", not the registry's gardner (sha256:") {
		t.Errorf("output %q", out.String())
	}
}

func builtinChess(t *testing.T) []byte {
	t.Helper()
	text, ok := catalog.MustDefault().File("chess")
	if !ok {
		t.Fatal("chess has no file")
	}
	return text
}
