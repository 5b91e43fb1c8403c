package variant_test

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/variant"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadPath(t *testing.T) {
	mini, err := os.ReadFile("../cmd/anychess/testdata/minichess.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// a.toml names as its base the variant of b.toml, read after it.
		"a.toml":         "base = \"gardner\"\nname = \"gardner2\"\n",
		"b.toml":         string(mini),
		"b.weights.toml": "variant = \"gardner\"\n",
		"notes.txt":      "not a variant",
	})
	other := t.TempDir()
	writeFiles(t, other, map[string]string{"c.toml": "base = \"chess\"\nname = \"nocastle\"\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n"})

	tests := []struct {
		name    string
		list    string
		loaded  []string
		wantErr string
	}{
		{"a directory, base read later", dir, []string{"gardner", "gardner2"}, ""},
		{"a directory and a file", dir + string(os.PathListSeparator) + filepath.Join(other, "c.toml"), []string{"gardner", "gardner2", "nocastle"}, ""},
		{"a missing path", filepath.Join(dir, "none.toml"), nil, "no such file"},
		{"one good, one bad", filepath.Join(other, "c.toml") + string(os.PathListSeparator) + filepath.Join(dir, "a.toml"), []string{"nocastle"}, "unknown base variant"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := vtest.Builtins()
			vs, err := reg.LoadPath(tc.list)
			var got []string
			for _, v := range vs {
				got = append(got, v.Name())
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.loaded, ",") {
				t.Errorf("loaded %v, want %v", got, tc.loaded)
			}
			for _, n := range tc.loaded {
				if _, err := reg.Get(n); err != nil {
					t.Errorf("after LoadPath: %v", err)
				}
			}
			if tc.wantErr == "" && err != nil {
				t.Errorf("error %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want one saying %q", err, tc.wantErr)
			}
		})
	}
}

func TestLoadRefusesLongFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "big.toml")
	big := "# " + strings.Repeat("x", variant.MaxFileBytes) + "\n"
	if err := os.WriteFile(f, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := vtest.Builtins().Load(f)
	if !errors.Is(err, variant.ErrFile) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("Load of a %d-byte file: %v, want a refusal for its length", len(big), err)
	}
}
