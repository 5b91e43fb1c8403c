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
	}
	if got := reg.Names(); !reflect.DeepEqual(got, []string{"chess", "greatshatranj", "chatrang", "shatranj", "courier", "capablanca", "makruk", "grand", "crazyhouse", "xiangqi"}) {
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
