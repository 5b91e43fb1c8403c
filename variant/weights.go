package variant

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// ErrWeights marks a weights file that cannot be read.
var ErrWeights = errors.New("bad weights file")

// WeightsFile returns the name of the weights file that belongs beside the
// variant file filename: its name without ".toml", then ".weights.toml".
func WeightsFile(filename string) string {
	return strings.TrimSuffix(filename, ".toml") + ".weights.toml"
}

// ParseWeights reads a weights file: TOML whose every value is a number,
// named by its dotted key ("N.value.mg = 325", or the key "value.mg" in
// the table [N]), except an optional top-level string "variant", the name
// of the variant the weights are for, which it returns. Which names are
// weights is the evaluation's business (eval.Names, eval.CheckWeights).
func ParseWeights(data []byte, origin string) (name string, w map[string]float64, err error) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return "", nil, fmt.Errorf("%w: %s: %v", ErrWeights, origin, err)
	}
	w = map[string]float64{}
	var flatten func(prefix string, m map[string]any) error
	flatten = func(prefix string, m map[string]any) error {
		for k, x := range m {
			key := prefix + k
			if _, str := x.(string); key == "variant" && !str {
				return fmt.Errorf("variant is a %T, want the variant's name", x)
			}
			switch x := x.(type) {
			case map[string]any:
				if err := flatten(key+".", x); err != nil {
					return err
				}
			case int64:
				w[key] = float64(x)
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("%s = %v is not a finite number", key, x)
				}
				w[key] = x
			case string:
				if key != "variant" {
					return fmt.Errorf("%s is a string, want a number", key)
				}
				name = x
			default:
				return fmt.Errorf("%s is a %T, want a number", key, x)
			}
		}
		return nil
	}
	if err := flatten("", raw); err != nil {
		return "", nil, fmt.Errorf("%w: %s: %v", ErrWeights, origin, err)
	}
	return name, w, nil
}

// FormatWeights writes w as a weights file for the variant name, grouped by
// the first part of each name, with comment lines (each without "#") first.
func FormatWeights(name string, w map[string]float64, comment ...string) []byte {
	var b bytes.Buffer
	for _, c := range comment {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	fmt.Fprintf(&b, "variant = %q\n", name)
	groups := map[string][]string{}
	var top []string
	for k := range w {
		if g, rest, ok := strings.Cut(k, "."); ok {
			groups[g] = append(groups[g], rest)
		} else {
			top = append(top, k)
		}
	}
	sort.Strings(top)
	for _, k := range top {
		fmt.Fprintf(&b, "%s = %s\n", key(k), num(w[k]))
	}
	var gs []string
	for g := range groups {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	for _, g := range gs {
		fmt.Fprintf(&b, "\n[%s]\n", key(g))
		ks := groups[g]
		sort.Strings(ks)
		for _, k := range ks {
			parts := strings.Split(k, ".")
			for i := range parts {
				parts[i] = key(parts[i])
			}
			fmt.Fprintf(&b, "%s = %s\n", strings.Join(parts, "."), num(w[g+"."+k]))
		}
	}
	return b.Bytes()
}

// key quotes a TOML key part unless it is bare.
func key(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}

// num writes x exactly and as a TOML number (a float with a point).
func num(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// readWeights reads the weights file file with read, if there is one, for
// the variant named variant; a missing file gives nil weights.
func readWeights(read func(string) ([]byte, error), file, variant string) (map[string]float64, error) {
	data, err := read(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	name, w, err := ParseWeights(data, file)
	if err != nil {
		return nil, err
	}
	if name != "" && !strings.EqualFold(name, variant) {
		return nil, fmt.Errorf("%w: %s: the weights are for %q, not %q", ErrWeights, file, name, variant)
	}
	return w, nil
}

// builtinWeights returns the embedded weights of the built-in variant name.
func builtinWeights(name string) (map[string]float64, error) {
	return readWeights(builtin.ReadFile, path.Join("data", "weights", name+".toml"), name)
}

// fileWeights returns the weights beside the user's variant file filename.
func fileWeights(filename, variant string) (map[string]float64, error) {
	return readWeights(os.ReadFile, WeightsFile(filename), variant)
}
