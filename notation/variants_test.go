package notation_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// oneVariant is a registry of one variant under one alias: what a caller
// of ReadGame may give besides a *variant.Registry.
type oneVariant struct {
	v     *rules.Variant
	alias string
}

func (o oneVariant) Get(name string) (*rules.Variant, error) {
	if strings.EqualFold(name, o.v.Name()) || strings.EqualFold(name, o.alias) {
		return o.v, nil
	}
	return nil, fmt.Errorf("unknown variant %q", name)
}
func (o oneVariant) Variants() []*rules.Variant { return []*rules.Variant{o.v} }
func (o oneVariant) Aliases(*rules.Variant) []string {
	return []string{o.v.Name(), o.alias}
}

// TestReadGameVariants: ReadGame takes any Variants, finds the variant of
// the Variant tag by name, alias or title in it, and names a variant it
// lacks.
func TestReadGameVariants(t *testing.T) {
	gs, err := reg.Get("greatshatranj")
	if err != nil {
		t.Fatal(err)
	}
	one := oneVariant{v: gs, alias: "gs"}
	for _, tt := range []struct {
		tag  string
		want string // the variant read, "" an error
	}{
		{"greatshatranj", "greatshatranj"},
		{"GS", "greatshatranj"},
		{"Great Shatranj", "greatshatranj"},
		{"g-s", "greatshatranj"},
		{"chess", ""},
	} {
		games, err := pgn.Parse("[Variant \"" + tt.tag + "\"]\n\n*\n")
		if err != nil {
			t.Fatal(err)
		}
		g, err := notation.ReadGame(one, games[0])
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Variant %q: read %s, want an error", tt.tag, g.Variant.Name())
		case tt.want != "" && (err != nil || g.Variant.Name() != tt.want):
			t.Errorf("Variant %q: %v, want %s", tt.tag, err, tt.want)
		}
	}
}

// TestNoVariantImport: the notation package itself reads games with the
// registry it is given and does not import package variant.
func TestNoVariantImport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/anychess/anychess/variant" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
