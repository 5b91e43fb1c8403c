package variant_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/variant"
)

// networkFile returns a network file of zero weights for the given
// letters on an 8x8 board.
func networkFile(t *testing.T, letters string) []byte {
	t.Helper()
	n, err := eval.NewNetwork(letters, 8, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := n.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoadNetworkBeside: a user's variant file takes the network file
// beside it (NetworkFile) if it fits the variant, and is refused with a
// clear error if it does not.
func TestLoadNetworkBeside(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mini.toml")
	if err := os.WriteFile(file, []byte("name = \"mini\"\nbase = \"chess\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		err  string
	}{
		{"none", nil, ""},
		{"chess's letters", networkFile(t, "PNBRQK"), ""},
		{"a letter missing", networkFile(t, "PNBRQ"), "no input for K"},
		{"not a network", []byte("hello"), "mini.net"},
		{"too long", make([]byte, variant.MaxNetworkBytes+1), "longer than"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nf := variant.NetworkFile(file)
			os.Remove(nf)
			if tt.data != nil {
				if err := os.WriteFile(nf, tt.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			v, err := builtins(t).Load(file)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(v.Spec().Network, tt.data) {
				t.Errorf("the variant carries a network of %d bytes, want %d", len(v.Spec().Network), len(tt.data))
			}
		})
	}
}

// TestBuiltinNetworkEmbedded: chess carries its network, and it fits.
func TestBuiltinNetworkEmbedded(t *testing.T) {
	reg := builtins(t)
	for _, tt := range []struct {
		name string
		has  bool
	}{{"chess", true}, {"greatshatranj", false}} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(v.Spec().Network) > 0; got != tt.has {
			t.Errorf("%s carries a network: %v, want %v", tt.name, got, tt.has)
		}
		if tt.has {
			if err := eval.CheckNetwork(v, v.Spec().Network); err != nil {
				t.Error(err)
			}
		}
	}
}
