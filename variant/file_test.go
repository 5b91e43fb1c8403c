package variant_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

func TestBuiltins(t *testing.T) {
	reg := builtins(t)
	want := map[string]string{
		"chess":         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"greatshatranj": "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1",
		"chatrang":      "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
		"shatranj":      "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
		"courier":       "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
		"capablanca":    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
		"makruk":        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
		"grand":         "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
		"crazyhouse":    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
		"xiangqi":       "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
		"shogi":         "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
	}
	if got := reg.Names(); !reflect.DeepEqual(got, []string{"chess", "greatshatranj", "chatrang", "shatranj", "courier", "capablanca", "makruk", "grand", "crazyhouse", "xiangqi", "shogi"}) {
		t.Errorf("names %v", got)
	}
	for name, fen := range want {
		v, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if v.StartFEN() != fen {
			t.Errorf("%s start %s, want %s", name, v.StartFEN(), fen)
		}
		if v.Spec().Description == "" || v.Title() == "" {
			t.Errorf("%s has no title or description", name)
		}
	}
	for alias, name := range map[string]string{"Standard": "chess", "GREAT": "greatshatranj", "great-shatranj": "greatshatranj", "chatrang-ludii6": "chatrang"} {
		v, err := reg.Get(alias)
		if err != nil || v.Name() != name {
			t.Errorf("alias %s: %v", alias, err)
		}
	}
	if _, err := reg.Get("nosuch"); err == nil || !strings.Contains(err.Error(), "known: chess, greatshatranj, chatrang") {
		t.Errorf("unknown variant error: %v", err)
	}
}

const mini = `name = "mini"
start = "4k/5/5/5/4K w - - 0 1"
[board]
files = 5
ranks = 5
[[piece]]
letter = "K"
name = "king"
betza = "K"
royal = true
`

// TestAddBuiltinsTaken: the built-in variants go only into a registry
// where their names are free; otherwise AddBuiltins says which is taken
// and adds nothing.
func TestAddBuiltinsTaken(t *testing.T) {
	chess, err := builtins(t).Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	r := variant.NewRegistry()
	if err := r.Register(chess, nil); err != nil {
		t.Fatal(err)
	}
	err = variant.AddBuiltins(r)
	if err == nil || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("AddBuiltins into a registry with chess: %v, want chess taken", err)
	}
	if got := r.Names(); len(got) != 1 {
		t.Errorf("names after the refusal: %v, want chess alone", got)
	}
}

func TestFileErrors(t *testing.T) {
	reg := builtins(t)
	tests := []struct{ name, text, want string }{
		{"unknown key", "colour = 3\n" + mini, `x.toml:1:1: unknown key "colour"`},
		{"unknown key in a table", mini + "colour = 3\n", `x.toml:11:1: unknown key "piece.colour"`},
		{"unknown nested key", strings.Replace(mini, "royal = true", "royal = true\nspeed = 2", 1), `x.toml:11:1: unknown key "piece.speed"`},
		{"wrong type", strings.Replace(mini, "files = 5", `files = "five"`, 1), "x.toml:4:9:"},
		{"syntax", mini + "[[piece\n", "x.toml:11:"},
		{"no name", strings.Replace(mini, `name = "mini"`, "", 1), "name: missing"},
		{"bad name", strings.Replace(mini, `name = "mini"`, `name = "Mini Chess"`, 1), "use lower-case"},
		{"no start", strings.Replace(mini, `start = "4k/5/5/5/4K w - - 0 1"`, "", 1), "start: missing"},
		{"board size", strings.Replace(mini, "files = 5", "files = 17", 1), "board: board 17x5"},
		{"bad letter", strings.Replace(mini, `letter = "K"`, `letter = "k"`, 1), `piece 1: letter: "k"`},
		{"bad betza", strings.Replace(mini, `betza = "K"`, `betza = "Kq"`, 1), `piece K (king): betza "Kq": at 2 ('q'): unknown modifier`},
		{"bad start", strings.Replace(mini, "4k/5/5/5/4K", "4k/5/5/5/4X", 1), "start position: bad FEN"},
		{"hole", strings.Replace(mini, "ranks = 5", "ranks = 5\nholes = [\"f1\"]", 1), `board.holes: bad square: "f1"`},
		{"end value", mini + "[end]\nstalemate = \"maybe\"\n", `end.stalemate: "maybe"`},
		{"promotion piece", mini + "[pawn]\nletter = \"K\"\n", "the pawn cannot be royal"},
		{"castling files", mini + "[castling]\nrook = \"K\"\nking_files = [\"g\", \"c\"]\nrook_files = [\"d\", \"b\"]\n", `castling.king_files: "g" is not a file`},
		{"dead", mini + "[end]\ndead = [\"KQ\"]\n", `dead material "KQ"`},
		{"base unknown", "base = \"nosuch\"\n" + mini, `unknown base variant "nosuch"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reg.Compile([]byte(tt.text), "x.toml")
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, variant.ErrFile) {
				t.Errorf("error does not wrap ErrFile: %v", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestBase(t *testing.T) {
	reg := builtins(t)
	text := `base = "chess"
name = "kingofthe8x8"
aliases = ["k8"]
start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
[promotion]
pieces = "Q"
`
	v, err := reg.Compile([]byte(text), "k.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := v.Spec()
	if v.NumTypes() != 6 || !s.Castling.Enabled || s.End.NMoveRule != 50 {
		t.Errorf("inherited rules lost: %+v", s)
	}
	if s.Promotion.Pieces != "Q" || !s.Promotion.Mandatory {
		t.Errorf("promotion: %+v", s.Promotion)
	}
	if !reflect.DeepEqual(s.Aliases, []string{"k8"}) {
		t.Errorf("aliases %v; a base's aliases must not be inherited", s.Aliases)
	}
	// Registering it makes it a base in turn, by name or alias.
	if err := reg.Register(v, []byte(text)); err != nil {
		t.Fatal(err)
	}
	w, err := reg.Compile([]byte("base = \"k8\"\nname = \"k8b\"\n"), "k8b.toml")
	if err != nil || w.StartFEN() != "4k3/8/8/8/8/8/8/4K3 w - - 0 1" {
		t.Errorf("base by alias: %v", err)
	}
	if err := reg.Register(v, nil); err == nil {
		t.Error("a name was registered twice")
	}
}

// TestDocumented keeps docs/variants.md in step with the file format: every
// key the decoder accepts must be documented there.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/variants.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range variant.Keys() {
		if !strings.Contains(string(doc), "`"+key+"`") {
			t.Errorf("docs/variants.md does not document the key `%s`", key)
		}
	}
}

func FuzzVariantFile(f *testing.F) {
	reg := builtins(f)
	for _, name := range reg.Names() {
		data, _ := reg.File(name)
		f.Add(data)
	}
	f.Add([]byte(mini))
	for _, text := range familyKeys {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := reg.Compile(data, "fuzz.toml")
		if err != nil {
			if !errors.Is(err, variant.ErrFile) {
				t.Fatalf("error does not wrap ErrFile: %v", err)
			}
			return
		}
		p := v.Start()
		q, err := v.ParseFEN(p.FEN())
		if err != nil || q.FEN() != p.FEN() {
			t.Fatalf("start FEN %s does not read back: %v", p.FEN(), err)
		}
		rules.Perft(p, 2)
	})
}

// familyKeys are small files using the keys of the classic families
// (regions, zone movements, hoppers, flying royals, captures to hand,
// mandatory promotion ranks, counting, the bare-king reply), valid, as
// seeds of the fuzzer and cases of TestFamilyKeys.
var familyKeys = []string{
	mini + "region = [\"b1-d2\"]\nzone_betza = \"fsW\"\nzone_ranks = [4, 5]\n",
	strings.Replace(mini, "start =", "flying_royals = true\nstart =", 1) + "[[piece]]\nletter = \"C\"\nname = \"cannon\"\nbetza = \"mRcpR\"\n",
	strings.Replace(mini, "start = \"4k/5/5/5/4K w - - 0 1\"", "drops = true\ncaptures_to_hand = true\nstart = \"4k/5/5/5/4K[Nn] w - - 0 1\"", 1) +
		"[[piece]]\nletter = \"N\"\nname = \"knight\"\nbetza = \"N\"\n[[piece]]\nletter = \"P\"\nname = \"pawn\"\nbetza = \"fmWfcF\"\n[pawn]\nletter = \"P\"\n" +
		"[promotion]\nranks = [4, 5]\npieces = \"N\"\nmandatory_ranks = [5]\n",
	mini + "[end]\nbare_king = \"loss\"\nbare_king_reply = true\n",
	mini + "[end]\ncounting = \"makruk\"\n",
	strings.Replace(mini, "start = \"4k/5/5/5/4K w - - 0 1\"", "drops = true\ncaptures_to_hand = true\nimmobile_illegal = true\n"+
		"drop_no_doubled = \"P\"\ndrop_mate_illegal = \"P\"\nstart = \"4k/5/5/5/4K[Pp] w - - 0 1\"", 1) +
		"[[piece]]\nletter = \"P\"\nname = \"pawn\"\nbetza = \"fW\"\npromotes_to = \"T\"\n" +
		"[[piece]]\nletter = \"T\"\nname = \"tokin\"\nbetza = \"WfF\"\npromoted_from = \"P\"\n[promotion]\nranks = [5]\n",
}

// TestFamilyKeys: the families' keys read, and their misuse is a clear
// error of the file, never a panic.
func TestFamilyKeys(t *testing.T) {
	reg := builtins(t)
	for i, text := range familyKeys {
		v, err := reg.Compile([]byte(text), "family.toml")
		if err != nil {
			t.Errorf("family key file %d: %v", i, err)
			continue
		}
		rules.Perft(v.Start(), 2)
	}
	for _, c := range []struct{ name, text, want string }{
		{"captures to hand without drops", mini + "captures_to_hand = true\n", "captures_to_hand"},
		{"reply without a bare-king value", mini + "[end]\nbare_king_reply = true\n", "needs end.bare_king"},
		{"an unknown counting", mini + "[end]\ncounting = \"cambodian\"\n", "want makruk"},
		{"counting and the reply", mini + "[end]\ncounting = \"makruk\"\nbare_king = \"loss\"\nbare_king_reply = true\n", "cannot be combined"},
		{"a region off the board", mini + "region = [\"a1-f6\"]\n", "region"},
		{"a zone without ranks", mini + "zone_betza = \"W\"\n", "zone movement needs"},
		{"a zone Betza that does not parse", mini + "zone_betza = \"gR\"\nzone_ranks = [2]\n", "grasshoppers"},
		{"a zone rank off the board", mini + "zone_betza = \"W\"\nzone_ranks = [6]\n", "off the board"},
		{"flying royals without a royal", strings.Replace(strings.Replace(mini, "royal = true\n", "", 1), "start =", "flying_royals = true\nstart =", 1), "flying royals"},
		{"a hop on a leaper", mini + "[[piece]]\nletter = \"C\"\nname = \"cannon\"\nbetza = \"pW\"\n", "needs a rider"},
		{"promotes to an unknown piece", mini + "promotes_to = \"T\"\n[promotion]\nranks = [5]\n", "not another piece"},
		{"promotes without a zone", mini + "[[piece]]\nletter = \"P\"\nname = \"pawn\"\nbetza = \"fW\"\npromotes_to = \"K\"\n", "no promotion ranks"},
		{"promoted from a royal", mini + "[[piece]]\nletter = \"T\"\nname = \"tokin\"\nbetza = \"W\"\npromoted_from = \"K\"\n", "royal"},
		{"promotes_to not a letter", mini + "promotes_to = \"tt\"\n", "not one upper-case letter"},
		{"a pawn with a zone and a double step", mini + "[[piece]]\nletter = \"P\"\nname = \"pawn\"\nbetza = \"fmWfcF\"\nzone_betza = \"fsW\"\nzone_ranks = [4]\n[pawn]\nletter = \"P\"\ndouble_step = true\ndouble_step_ranks = [2]\n", "cannot double-step"},
		{"an unknown drop rule piece", strings.Replace(mini, "start =", "drop_no_doubled = \"X\"\nstart =", 1), "drop rule"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := reg.Compile([]byte(c.text), "bad.toml")
			if err == nil || !errors.Is(err, variant.ErrFile) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error wrapping ErrFile that says %q", err, c.want)
			}
		})
	}
}
