package variant_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// ridersFile returns a variant file of a files x ranks board whose first
// and last ranks are full of pieces moving as betza, with a king each.
func ridersFile(name string, files, ranks int, betza string) string {
	row := func(c byte) string {
		s := strings.Repeat(string(c), files-1)
		return s[:files/2] + string(c+'K'-'R') + s[files/2:]
	}
	var fen []string
	fen = append(fen, row('r'))
	for i := 0; i < ranks-2; i++ {
		fen = append(fen, fmt.Sprint(files))
	}
	fen = append(fen, row('R'))
	return fmt.Sprintf(`name = %q
start = "%s w - - 0 1"
[board]
files = %d
ranks = %d
[[piece]]
letter = "K"
name = "king"
betza = "K"
royal = true
[[piece]]
letter = "R"
name = "rider"
betza = %q
`, name, strings.Join(fen, "/"), files, ranks, betza)
}

func TestCheckLimits(t *testing.T) {
	reg := vtest.Builtins()
	tests := []struct {
		name, text string
		lim        variant.Limits
		want       string // "" accepted, else a part of the error
	}{
		{"small", ridersFile("small", 8, 8, "Q"), variant.Limits{}, ""},
		{"16x16 riders", ridersFile("big", 16, 16, "Q"), variant.Limits{}, "board 16x16: at most 12x12"},
		{"12x12 riders", ridersFile("riders", 12, 12, "QNC"), variant.Limits{}, "moves together"},
		{"too many moves", ridersFile("leaper", 12, 12, "QNCZ"), variant.Limits{}, `piece R (rider, "QNCZ") has`},
		{"too many pieces", ridersFile("many", 12, 12, "W"), variant.Limits{MaxPieces: 20}, "24 pieces in the start position: at most 20"},
		{"too many types", ridersFile("types", 8, 8, "W"), variant.Limits{MaxTypes: 1}, "2 piece types: at most 1"},
		{"limits off", ridersFile("off", 16, 16, "Q"), variant.Limits{MaxFiles: -1, MaxRanks: -1, MaxMobility: -1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := reg.Compile([]byte(tc.text), tc.name+".toml")
			if err != nil {
				t.Fatal(err)
			}
			err = variant.CheckLimits(v, tc.lim)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, variant.ErrLimit)):
				t.Fatalf("error %v, want one with %q wrapping ErrLimit", err, tc.want)
			}
		})
	}
}

// TestBuiltinsWithinLimits checks that the default limits leave room for
// the built-in data variants, and the figures the docs give for chess.
func TestBuiltinsWithinLimits(t *testing.T) {
	reg := vtest.Builtins()
	for _, v := range reg.Variants() {
		if err := variant.CheckLimits(v, variant.Limits{}); err != nil {
			t.Errorf("%s: %v", v.Name(), err)
		}
	}
	chess, _ := reg.Get("chess")
	want := map[byte]int{'K': 8, 'Q': 27, 'R': 14, 'B': 13, 'N': 8, 'P': 1}
	for t0 := 1; t0 <= chess.NumTypes(); t0++ {
		n, err := variant.CentreMoves(chess, rules.Type(t0))
		if err != nil {
			t.Fatal(err)
		}
		if l := chess.Letter(rules.Type(t0)); n != want[l] {
			t.Errorf("chess %c: %d moves from d4, want %d", l, n, want[l])
		}
	}
	err := variant.CheckLimits(chess, variant.Limits{MaxMobility: 225})
	if err == nil || !strings.Contains(err.Error(), "226 moves together") {
		t.Errorf("chess with mobility 225: %v, want 226 refused", err)
	}
}

func TestCheckText(t *testing.T) {
	if err := variant.CheckText(make([]byte, 64<<10), variant.Limits{}); err != nil {
		t.Errorf("64 KiB: %v", err)
	}
	err := variant.CheckText(make([]byte, 1<<20), variant.Limits{})
	if !errors.Is(err, variant.ErrLimit) || !strings.Contains(err.Error(), "1048576 bytes, at most 65536") {
		t.Errorf("1 MiB: %v", err)
	}
}

func TestDefinition(t *testing.T) {
	reg := vtest.Builtins()
	plain := []byte(ridersFile("plain", 8, 8, "Q"))
	d, err := variant.Definition(plain, "plain.toml", reg.File)
	if err != nil || string(d) != string(plain) {
		t.Errorf("a file without base: %q, %v; want it unchanged", d, err)
	}
	child := []byte("base = \"chess\"\nname = \"nocastle\"\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n")
	d, err = variant.Definition(child, "child.toml", reg.File)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(d), "base = 'chess'") || strings.Contains(string(d), `base = "chess"`) {
		t.Errorf("definition still names its base:\n%s", d)
	}
	want, err := variant.Parse(child, "child.toml", reg.File)
	if err != nil {
		t.Fatal(err)
	}
	got, err := variant.Parse(d, "definition", nil)
	if err != nil {
		t.Fatalf("the definition does not read without a base: %v\n%s", err, d)
	}
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("definition reads as\n%s\nwant\n%s", g, w)
	}
	if _, err := variant.Definition([]byte("name = "), "bad.toml", reg.File); err == nil || !strings.Contains(err.Error(), "bad.toml:1:") {
		t.Errorf("malformed file: %v, want an error naming the line", err)
	}
}

func TestLoadPathChecked(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"big.toml":   ridersFile("big", 16, 16, "Q"),
		"small.toml": ridersFile("small", 8, 8, "Q"),
		// exactly 1 MiB: read, then refused for its length
		"long.toml": ridersFile("long", 8, 8, "Q") + "# " + strings.Repeat("x", 1<<20-len(ridersFile("long", 8, 8, "Q"))-3) + "\n",
	})
	reg := vtest.Builtins()
	vs, err := reg.LoadPathChecked(dir, variant.Limits{}.Check)
	if len(vs) != 1 || vs[0].Name() != "small" {
		t.Errorf("loaded %v, want small alone", vs)
	}
	for _, want := range []string{"big.toml: variant beyond the limits: board 16x16", "long.toml: variant beyond the limits: the file is"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one saying %q", err, want)
		}
	}
	for _, name := range []string{"big", "long"} {
		if _, err := reg.Get(name); err == nil {
			t.Errorf("%s was registered", name)
		}
	}
}

// FuzzLimits: any file that compiles is checked against the limits
// without a panic, and one within them has a definition that compiles to
// the same start and moves.
func FuzzLimits(f *testing.F) {
	reg := vtest.Builtins()
	for _, name := range reg.Names() {
		data, _ := reg.File(name)
		f.Add(data)
	}
	f.Add([]byte(ridersFile("big", 16, 16, "Q")))
	f.Add([]byte("base = \"chess\"\nname = \"x\"\n[board]\nholes = [\"d4\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := reg.Compile(data, "fuzz.toml")
		if err != nil {
			return
		}
		if err := variant.CheckLimits(v, variant.Limits{}); err != nil {
			if !errors.Is(err, variant.ErrLimit) && !errors.Is(err, variant.ErrFile) {
				t.Fatalf("error wraps neither ErrLimit nor ErrFile: %v", err)
			}
			return
		}
		def, err := variant.Definition(data, "fuzz.toml", reg.File)
		if err != nil {
			t.Fatalf("no definition: %v", err)
		}
		w, err := reg.Compile(def, "definition")
		if err != nil {
			t.Fatalf("the definition does not compile: %v\n%s", err, def)
		}
		if w.StartFEN() != v.StartFEN() || rules.Perft(w.Start(), 2) != rules.Perft(v.Start(), 2) {
			t.Fatalf("the definition plays another game:\n%s", def)
		}
	})
}
