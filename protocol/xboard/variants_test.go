package xboard

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

func TestXBetza(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"K", "K"},
		{"Q", "Q"},
		{"R", "R"},
		{"B", "B"},
		{"N", "N"},
		{"WFDA", "KDA"},          // Great Shatranj General
		{"NWD", "WDN"},           // Minister
		{"NFA", "FNA"},           // High Priestess
		{"FA", "FA"},             // Elephant
		{"WD", "WD"},             // Woody
		{"QN", "QN"},             // Chatrang Ferz (an Amazon)
		{"jB", "yafFtgafFgafmF"}, // Chatrang Elephant: two-leg moves
		{"jR", "yafWtgafWgafmW"},
		{"jQ", "yafKtgafKgafmK"},
		{"fcjB", "fyafcFftgafcF"},
		{"jNN", "yafNtgafNgafmN"},
		{"jB3", "jF3"},       // a limited skipping rider keeps XBoard's j
		{"mRcpR", "mRcpR"},   // the xiangqi cannon: XBoard's hopper p
		{"fmWfcF", "fmWfcF"}, // modifiers: directions first, then m or c
		{"mWcF", "mWcF"},     // no K: the modes differ
		{"cK", "cK"},
		{"mQ", "mQ"},
		{"NN", "N0"}, // riders get a range, 0 for unlimited
		{"R4", "W4"},
		{"K2", "K2"},
		{"fRbW", "fRbW"},
		{"vR", "vR"},
		{"fsW", "fsW"},
		{"flF", "flF"},
		{"fF", "fF"},
		{"frbrF", "rF"},
		{"fFbrF", "fbrF"},
		{"ffN", "rflfN"},    // oblique moves are named one by one
		{"fN", "rflffrflN"}, // anychess's lone f on N is four moves
		{"LffN", "rflfNC"},  // the camel is C
		{"J", "Z"},          // the zebra is Z
		{"nN", "nN"},        // lame
		{"nDnA", "nDnA"},    // lame
		{"G", "G"},          // tripper
		{"H", "H"},          // threeleaper
		{"", ""},            // a piece that cannot move
		{"KmWW", "mRK"},     // a king that also slides without capturing
		{"fmWfcFifmnD", "fmWfcFifmnD"},
	} {
		m, err := betza.Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := XBetza(m); got != c.want {
			t.Errorf("XBetza(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestXBetzaDirections checks every single direction of each atom against
// XBoard's own reading of the direction letters (moves.c: dirs1 is the wide
// set of a letter, dirs2 the narrow; a pair on a diagonal or oblique atom is
// the wide set of its first letter and the narrow set of its second).
func TestXBetzaDirections(t *testing.T) {
	// XBoard's eight direction bits of the atom with leap (dx, dy), dx <= dy,
	// turned by its rotation matrices.
	rot := [8][4]int{{1, 0, 0, 1}, {0, 1, 1, 0}, {0, 1, -1, 0}, {1, 0, 0, -1}, {-1, 0, 0, -1}, {0, -1, -1, 0}, {0, -1, 1, 0}, {-1, 0, 0, 1}}
	dirs1 := map[byte]int{'b': 0x3c, 'f': 0xc3, 'l': 0xf0, 'r': 0x0f}
	dirs2 := map[byte]int{'b': 0x18, 'f': 0x81, 'l': 0x60, 'r': 0x06, 's': 0x66, 'v': 0x99}
	perp := func(a, b byte) bool {
		v := func(c byte) bool { return c == 'f' || c == 'b' }
		h := func(c byte) bool { return c == 'l' || c == 'r' }
		return v(a) && h(b) || h(a) && v(b)
	}
	read := func(atom int, letters string) map[betza.Vector]bool {
		dx, dy := atomLeaps[atom][1], atomLeaps[atom][0]
		var set int
		switch {
		case dx == 0:
			for i := 0; i < len(letters); i++ {
				set |= dirs2[letters[i]] & 0x55
			}
		case dx == dy:
			for i := 0; i < len(letters); {
				if i+1 < len(letters) && perp(letters[i], letters[i+1]) {
					set |= dirs1[letters[i]] & dirs1[letters[i+1]] & 0xaa
					i += 2
					continue
				}
				set |= dirs1[letters[i]] & 0xaa
				i++
			}
		default:
			for i := 0; i < len(letters); {
				if i+1 < len(letters) && (perp(letters[i], letters[i+1]) || letters[i] == letters[i+1]) {
					set |= dirs1[letters[i]] & dirs2[letters[i+1]]
					i += 2
					continue
				}
				set |= dirs2[letters[i]]
				i++
			}
		}
		out := make(map[betza.Vector]bool)
		for d := range 8 {
			if set&(1<<d) != 0 {
				vx := dx*rot[d][0] + dy*rot[d][1]
				vy := dx*rot[d][2] + dy*rot[d][3]
				out[betza.Vector{DX: int8(vx), DY: int8(vy)}] = true
			}
		}
		return out
	}
	for atom := range atomLetters {
		all := atomDirs(atom)
		for mask := 1; mask < 1<<len(all)-1; mask++ {
			var dirs []betza.Vector
			want := make(map[betza.Vector]bool)
			for i, d := range all {
				if mask&(1<<i) != 0 {
					dirs = append(dirs, d)
					want[d] = true
				}
			}
			letters := dirLetters(atom, dirs)
			got := read(atom, letters)
			if len(got) != len(want) {
				t.Errorf("%s %v: %q reads as %v", atomLetters[atom], dirs, letters, got)
				continue
			}
			for d := range want {
				if !got[d] {
					t.Errorf("%s %v: %q reads as %v", atomLetters[atom], dirs, letters, got)
					break
				}
			}
		}
	}
}

func TestShiftRanks(t *testing.T) {
	for _, c := range []struct {
		in   string
		d    int
		want string
	}{
		{"a0a1", 1, "a1a2"},
		{"e8e9q", 1, "e9e10q"},
		{"a10a9", -1, "a9a8"},
		{"e9e10q", -1, "e8e9q"},
		{"N@e4", -1, "N@e3"},
		{"e2e4", 0, "e2e4"},
		{"", 1, ""},
	} {
		if got := shiftRanks(c.in, c.d); got != c.want {
			t.Errorf("shiftRanks(%q, %d) = %q, want %q", c.in, c.d, got, c.want)
		}
	}
}

func TestBaseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"5", 5 * time.Minute, true},
		{"0:30", 30 * time.Second, true},
		{"5:30", 5*time.Minute + 30*time.Second, true},
		{"25+5", 25 * time.Minute, true},
		{"0", 0, true},
		{":30", 0, false},
		{"x", 0, false},
		{"1:", 0, false},
		{"1:x", 0, false},
		{"9999999999", 0, false},
	} {
		got, ok := baseTime(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("baseTime(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestLookupVariant(t *testing.T) {
	reg := vtest.Builtins()
	for _, c := range []struct{ in, want string }{
		{"normal", "chess"},
		{"NORMAL", "chess"},
		{"8x8+0_normal", "chess"},
		{"chess", "chess"},
		{"greatshatranj", "greatshatranj"},
		{"great", "greatshatranj"},
		{"greatshat", "greatshatranj"},
		{"10x8+0_greatshat", "greatshatranj"},
		{"10x8_greatshatranj", "greatshatranj"},
		{"chatrang", "chatrang"},
		{"sassanian", "chatrang"},
		{"10x8+2_greatshat", ""},
		{"8x8+0_greatshat", ""},
		{"nosuch", ""},
		{"", ""},
		{"_", ""},
		{"x_chess", ""},
	} {
		v, err := lookupVariant(reg, c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("lookupVariant(%q) = %s, want an error", c.in, v.Name())
		case c.want != "" && err != nil:
			t.Errorf("lookupVariant(%q): %v", c.in, err)
		case c.want != "" && v.Name() != c.want:
			t.Errorf("lookupVariant(%q) = %s, want %s", c.in, v.Name(), c.want)
		}
	}
}

// TestXBoardKnows follows XBoard's StringToVariant: names it reads as its own
// variants, and names it leaves to the engine.
func TestXBoardKnows(t *testing.T) {
	for name, want := range map[string]bool{
		"normal": true, "great": true, "shatranj": true, "10x8+0_great": true,
		"greatshatranj": true, "great-shatranj": true, // "shatranj" anywhere
		"great_x": true, "fairy": true, "capablanca": true, "frc": true, "chess960": true, "wild/17": true, "w17": true,
		"greatshat": false, "chatrang": false, "chatrang-ludii6": false, "greater": false, "tenranks": false,
		"fairyland": false, "mygreat": false, "wonder": false, "chess": false,
	} {
		if got := xboardKnows(name); got != want {
			t.Errorf("xboardKnows(%q) = %v, want %v", name, got, want)
		}
	}
	// Every engine-defined name offered must be one XBoard leaves alone.
	reg := vtest.Builtins()
	for _, v := range reg.Variants() {
		for _, n := range XBoardNames(v) {
			if xboardKnows(n) && !slices.Contains(xboardNames[v.Name()], n) {
				t.Errorf("%s is offered as %q, which XBoard reads as its own variant", v.Name(), n)
			}
		}
	}
}

func TestStripHoldings(t *testing.T) {
	for in, want := range map[string]string{
		"wnegkmhenw/10/10/10/10/10/10/WNEGKMHENW[-] w - - 0 1":    "wnegkmhenw/10/10/10/10/10/10/WNEGKMHENW w - - 0 1",
		"wnegkmhenw/10/10/10/10/10/10/WNEGKMHENW[SSss] b - - 3 9": "wnegkmhenw/10/10/10/10/10/10/WNEGKMHENW b - - 3 9",
		"8/8/8/8/8/8/8/8[]":                "8/8/8/8/8/8/8/8",
		"rnbqkbnr/8/8/8/8/8/8/8 w - - 0 1": "rnbqkbnr/8/8/8/8/8/8/8 w - - 0 1",
		"[x":                               "[x",
	} {
		if got := stripHoldings(in); got != want {
			t.Errorf("stripHoldings(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSetupCommands(t *testing.T) {
	reg := vtest.Builtins()
	gsSetup := "setup (PN....E...S..HWGMKpn....e...s..hwgmk) 10x8+0_fairy wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1"
	gsPieces := []string{"piece G& KDA", "piece M& WDN", "piece H& FNA", "piece E& FA", "piece W& WD", "piece S& K", "piece P& fmWfcF"}
	chSetup := "setup (PN.RQ.BKpn.rq.bk) 8x8+0_fairy rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
	chPieces := []string{"piece Q& QN", "piece B& yafFtgafFgafmF", "piece P& fmWfcF"}
	for _, c := range []struct {
		variant, name string
		want          []string
	}{
		{"chess", "normal", nil},
		{"chess", "chess", nil},
		{"chess", "fide", nil},
		{"greatshatranj", "great", gsPieces},
		{"greatshatranj", "greatshat", append([]string{gsSetup}, gsPieces...)},
		{"greatshatranj", "10x8+0_greatshat", append([]string{gsSetup}, gsPieces...)},
		{"greatshatranj", "greatshatranj", append([]string{gsSetup}, gsPieces...)},
		{"chatrang", "chatrang", append([]string{chSetup}, chPieces...)},
		{"chatrang", "sassanian", append([]string{chSetup}, chPieces...)},
	} {
		v := mustGet(t, reg, c.variant)
		got := SetupCommands(v, c.name)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("SetupCommands(%s, %q):\ngot  %q\nwant %q", c.variant, c.name, got, c.want)
		}
	}
	var names []string
	for _, v := range reg.Variants() {
		names = append(names, XBoardNames(v)...)
	}
	if got := strings.Join(names, ","); got != "normal,great,greatshat,chatrang,shatranj,kurierspiel,capablanca,thai,grandchess,zh,chinese-chess,japanese-chess" {
		t.Errorf("XBoard names: %s", got)
	}
}

func mustGet(t *testing.T, reg *variant.Registry, name string) *rules.Variant {
	t.Helper()
	v, err := reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTenRanks plays a variant of ten ranks, where XBoard numbers the ranks
// from 0: moves in and out are translated, and the pieces are described.
func TestTenRanks(t *testing.T) {
	reg := vtest.Builtins()
	data, err := os.ReadFile("testdata/tenranks.toml")
	if err != nil {
		t.Fatal(err)
	}
	v, err := reg.Compile(data, "tenranks.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(v, data); err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader("protover 2\nnew\nvariant tenranks\nforce\nusermove e1e3\nd\nsd 1\ngo\nping 1\n")
	var out strings.Builder
	if err := Run(context.Background(), in, &out, reg, search.New(1)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		`feature variants="normal,great,greatshat,chatrang,shatranj,kurierspiel,capablanca,thai,grandchess,zh,chinese-chess,japanese-chess,tenranks"`,
		"setup (P..RQ...C...H.....LKp..rq...c...h.....lk) 8x10+0_fairy rhlqkclh/pppppppp/8/8/8/8/8/8/PPPPPPPP/RHLQKCLH w - - 0 1\n" +
			"piece H& N0\npiece L& fRbW\npiece C& rflfNC\n",
		"# FEN rhlqkclh/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RHLQKCLH b - - 0 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if !regexp.MustCompile(`(?m)^move [a-h][0-9][a-h][0-9][a-z]?$`).MatchString(got) {
		t.Errorf("no move in XBoard's numbering:\n%s", got)
	}
}
