package server

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/game"
)

// TestDiceJS: the page's dice (web/src/dice.mjs, run by node) roll what
// game.NewRoller rolls, and compute game.Commitment.
func TestDiceJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run ./test.sh, which installs it")
	}
	mod, err := filepath.Abs(filepath.Join("..", "web", "src", "dice.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dens := []int{2, 3, 7, 10, 11, 19, 64, 1 << 20, 1000003}
	for _, seed := range []uint64{0, 42, 1 << 63, 18446744073709551615} {
		script := `import {PCG, STREAM, commitment} from ` + strconv.Quote("file://"+mod) + `;
const r = new PCG(` + strconv.FormatUint(seed, 10) + `n, STREAM);
const out = [];
for (let i = 0; i < 200; i++) out.push(r.intN([` + intsJS(dens) + `][i % ` + strconv.Itoa(len(dens)) + `]));
out.push(await commitment("` + strconv.FormatUint(seed, 10) + `", "00112233445566778899aabbccddeeff"));
console.log(out.join(" "));`
		cmd := exec.Command(node, "--input-type=module", "-e", script)
		got, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, got)
		}
		r := game.NewRoller(seed)
		var want []string
		for i := range 200 {
			want = append(want, strconv.Itoa(r.Roll(dens[i%len(dens)])))
		}
		want = append(want, game.Commitment(seed, "00112233445566778899aabbccddeeff"))
		if strings.TrimSpace(string(got)) != strings.Join(want, " ") {
			t.Errorf("seed %d:\n node %s\n go   %s", seed, strings.TrimSpace(string(got)), strings.Join(want, " "))
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
