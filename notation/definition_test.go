package notation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
)

func TestDefinition(t *testing.T) {
	def := []byte("name = \"mini\"\n[promotion]\nlimits = { N = 2 }\n# braces } and \"quotes\"\n")
	pg := &pgn.Game{Tags: []pgn.Tag{{Name: "Variant", Value: "mini"}}, Moves: []pgn.Move{{Text: "e4"}}, Result: "*"}
	notation.SetDefinition(pg, def, true)
	var b strings.Builder
	if err := pgn.Write(&b, pg); err != nil {
		t.Fatal(err)
	}
	games, err := pgn.Parse(b.String())
	if err != nil || len(games) != 1 {
		t.Fatalf("%v\n%s", err, b.String())
	}
	hash, got, err := notation.Definition(games[0])
	if err != nil || string(got) != string(def) || !strings.HasPrefix(hash, "sha256:") || len(hash) != 7+64 {
		t.Fatalf("read back: %s %q %v\n%s", hash, got, err, b.String())
	}

	named := &pgn.Game{}
	notation.SetDefinition(named, def, false)
	if h, got, err := notation.Definition(named); err != nil || h != hash || got != nil || len(named.Comment) != 0 {
		t.Errorf("named only: %s %q %v %v", h, got, err, named.Comment)
	}

	tests := []struct {
		name string
		edit func(pg *pgn.Game)
		want string
	}{
		{"another hash", func(pg *pgn.Game) { pg.SetTag(notation.DefinitionTag, "sha256:00") }, "not the VariantDefinition tag's sha256:00"},
		{"no tag", func(pg *pgn.Game) { pg.Tags = pg.Tags[:1] }, "no VariantDefinition tag"},
		{"not base64", func(pg *pgn.Game) { pg.Comment = []string{"VariantFile %%%"} }, "the variant file it carries"},
	}
	for _, tc := range tests {
		g := *games[0]
		g.Tags = append([]pgn.Tag(nil), g.Tags...)
		tc.edit(&g)
		if _, _, err := notation.Definition(&g); !errors.Is(err, notation.ErrPGN) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
