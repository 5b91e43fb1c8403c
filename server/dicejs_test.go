package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
)

// TestDiceJS: the page's dice (web/src/dice.mjs, run by node) roll what
// the game's roller rolls, ChaCha8 (new games) and PCG (games stored
// before) alike, over several of ChaCha8's re-keyings, and compute
// game.Commitment.
func TestDiceJS(t *testing.T) {
	var keys [3][32]byte
	for i := range keys[1] {
		keys[1][i] = byte(i)
		keys[2][i] = byte(255 - 3*i)
	}
	seeds := []game.Seed{game.PCGSeed(0), game.PCGSeed(42), game.PCGSeed(1 << 63), game.PCGSeed(18446744073709551615)}
	for _, k := range keys {
		seeds = append(seeds, game.ChaCha8Seed(k))
	}
	const n = 700 // ChaCha8 re-keys every 124 words
	dens := []int{2, 3, 7, 10, 11, 19, 64, 1 << 20, 1000003, 1<<40 + 15}
	for _, seed := range seeds {
		script := nodeModule(t, "dice.mjs", "roller, commitment") + `
const r = roller("` + seed.Gen + `", "` + seed.Text() + `");
const dens = [` + intsJS(dens) + `];
const out = [];
for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) out.push(r.intN(dens[i % dens.length]));
out.push(await commitment("` + seed.Tag() + `", "00112233445566778899aabbccddeeff"));
console.log(out.join(" "));`
		got := strings.Join(nodeScript(t, script, -1), "\n")
		r := seed.Roller()
		var want []string
		for i := range n {
			want = append(want, strconv.Itoa(r.Roll(dens[i%len(dens)])))
		}
		want = append(want, game.Commitment(seed, "00112233445566778899aabbccddeeff"))
		if got != strings.Join(want, " ") {
			t.Errorf("seed %s:\n node %.300s\n go   %.300s", seed.Tag(), got, strings.Join(want, " "))
		}
	}
}

// intsJS writes a list of ints as JavaScript array elements.
func intsJS(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
