// Package variant holds the built-in variants and reads variant files.
//
// A variant whose pieces are plain Betza movers is a data file: a TOML
// document that declares the board, the pieces, the start position and the
// parameters of the common rules (see docs/variants.md for every key). The
// built-in files are embedded in the binary; a user's file is read with
// Load and checked with Check. Variants with rules that data cannot express
// add a Go rules object (rules.Spec.Ext) to the rules.Spec the file
// produces.
//
// A Registry is an explicit value, filled by AddBuiltins (package catalog
// builds the one with every variant) and passed down; there is no global
// variant table.
package variant

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

//go:embed data/*.toml data/weights
var builtin embed.FS

// Registry maps names and aliases to compiled variants.
type Registry struct {
	byName map[string]*rules.Variant
	names  []string // canonical names in registration order
	files  map[string][]byte
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*rules.Variant{}, files: map[string][]byte{}}
}

// builtinOrder is the order in which the built-in variants are listed.
var builtinOrder = []string{"chess", "greatshatranj", "chatrang", "shatranj", "courier", "capablanca", "makruk", "grand", "crazyhouse", "xiangqi", "shogi"}

// AddBuiltins registers the built-in data variants (chess, Great Shatranj,
// Chatrang, then the classic families: shatranj, courier, capablanca,
// makruk, grand, crazyhouse, xiangqi, shogi, in that order) in r. It fails if one of their names is taken
// in r, or if an embedded file is broken, which the tests rule out. The
// registry every command, protocol and the server use is package
// catalog's, which adds these and the variants of Go packages.
func AddBuiltins(r *Registry) error {
	files := make(map[string][]byte, len(builtinOrder))
	for _, name := range builtinOrder {
		if _, taken := r.byName[name]; taken {
			return fmt.Errorf("variant name %q is already taken", name)
		}
		data, err := builtin.ReadFile(path.Join("data", name+".toml"))
		if err != nil {
			return err
		}
		files[name] = data
	}
	for _, name := range builtinOrder {
		r.files[name] = files[name]
	}
	for _, name := range builtinOrder {
		if _, err := r.add(files[name], "data/"+name+".toml", builtinWeights, builtinNetwork); err != nil {
			return err
		}
	}
	return nil
}

// ChessSpec returns the built-in chess variant's Spec, read once: the base
// of variants built as hooks on chess (Vazir, Chess960), whose options
// compile a new Variant from it for every game (a Spec is copied by value,
// and they change no slice it shares).
func ChessSpec() (rules.Spec, error) { return chessSpec() }

var chessSpec = sync.OnceValues(func() (rules.Spec, error) {
	reg := NewRegistry()
	if err := AddBuiltins(reg); err != nil {
		return rules.Spec{}, err
	}
	chess, err := reg.Get("chess")
	if err != nil {
		return rules.Spec{}, err
	}
	return chess.Spec(), nil
})

func (r *Registry) resolve(name string) ([]byte, bool) {
	if d, ok := r.files[name]; ok {
		return d, true
	}
	if v, ok := r.byName[strings.ToLower(name)]; ok {
		d, ok := r.files[v.Name()]
		return d, ok
	}
	return nil, false
}

// add compiles and registers a variant file with the weights that weights
// finds for the variant's name, and the network that network finds (nil:
// none).
func (r *Registry) add(data []byte, origin string, weights func(name string) (map[string]float64, error), network func(name string) ([]byte, string, error)) (*rules.Variant, error) {
	spec, err := Parse(data, origin, r.resolve)
	if err != nil {
		return nil, err
	}
	if weights != nil {
		if spec.Weights, err = weights(spec.Name); err != nil {
			return nil, err
		}
	}
	netFile := ""
	if network != nil {
		if spec.Network, netFile, err = network(spec.Name); err != nil {
			return nil, err
		}
	}
	v, err := rules.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFile, origin, err)
	}
	if err := checkTables(v, origin); err != nil {
		return nil, err
	}
	if len(spec.Network) > 0 {
		if err := eval.CheckNetwork(v, spec.Network); err != nil {
			return nil, fmt.Errorf("%s: %w", netFile, err)
		}
	}
	return v, r.Register(v, data)
}

// Register adds a compiled variant under its name and aliases. data is its
// file text, used when other files name it as their base (nil if none).
func (r *Registry) Register(v *rules.Variant, data []byte) error {
	keys := append([]string{v.Name()}, v.Spec().Aliases...)
	for _, k := range keys {
		if _, dup := r.byName[strings.ToLower(k)]; dup {
			return fmt.Errorf("variant name %q is already taken", k)
		}
	}
	for _, k := range keys {
		r.byName[strings.ToLower(k)] = v
	}
	r.names = append(r.names, v.Name())
	if data != nil {
		r.files[v.Name()] = data
	}
	return nil
}

// Get returns the variant with the given name or alias, ignoring case.
func (r *Registry) Get(name string) (*rules.Variant, error) {
	if v, ok := r.byName[strings.ToLower(name)]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// Names returns the canonical names of the registered variants.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// Variants returns the registered variants in order.
func (r *Registry) Variants() []*rules.Variant {
	out := make([]*rules.Variant, len(r.names))
	for i, n := range r.names {
		out[i] = r.byName[n]
	}
	return out
}

// Aliases returns every accepted name of v, sorted, canonical name first.
func (r *Registry) Aliases(v *rules.Variant) []string {
	var out []string
	for k, w := range r.byName {
		if w == v && k != v.Name() {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return append([]string{v.Name()}, out...)
}

// Compile reads and compiles a variant file without registering it; a base
// variant is looked up in r.
func (r *Registry) Compile(data []byte, origin string) (*rules.Variant, error) {
	spec, err := Parse(data, origin, r.resolve)
	if err != nil {
		return nil, err
	}
	v, err := rules.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFile, origin, err)
	}
	return v, nil
}

// Load reads, compiles and registers the variant file at filename, with
// the engine's weights from the file WeightsFile(filename) beside it if
// there is one, and its network from NetworkFile(filename) likewise. A
// file longer than MaxFileBytes is refused.
func (r *Registry) Load(filename string) (*rules.Variant, error) {
	data, err := readFileMax(filename)
	if err != nil {
		return nil, err
	}
	return r.add(data, filename, func(name string) (map[string]float64, error) {
		return fileWeights(filename, name)
	}, func(string) ([]byte, string, error) {
		data, err := fileNetwork(filename)
		return data, NetworkFile(filename), err
	})
}

// File returns the text of a registered variant's file.
func (r *Registry) File(name string) ([]byte, bool) { return r.resolve(name) }
