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

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
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
// the table [N]), or a table of numbers by square, except an optional
// top-level string "variant", the name of the variant the weights are for,
// which it returns. A table by square is an array of ranks, each an array
// of numbers by file, written as the board is seen from White's side: the
// first array is the highest rank, the last is rank 1, and each begins on
// file a; the array "N.square.mg" of 8 ranks of 4 numbers gives the
// weights N.square.mg.a8, N.square.mg.b8, ... N.square.mg.d1. Which names
// are weights, and which sizes a table may have, is the evaluation's
// business (eval.Names, eval.CheckWeights).
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
			case int64, float64:
				n, err := number(key, x)
				if err != nil {
					return err
				}
				w[key] = n
			case []any:
				if err := squares(key, x, w); err != nil {
					return err
				}
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

// squares reads the table by square key, an array of ranks (the highest
// first) of numbers by file, into w as key.SQ.
func squares(key string, ranks []any, w map[string]float64) error {
	if len(ranks) == 0 || len(ranks) > geom.MaxRanks {
		return fmt.Errorf("%s has %d ranks, want 1 to %d arrays of numbers by file", key, len(ranks), geom.MaxRanks)
	}
	files := -1
	for i, r := range ranks {
		rank := len(ranks) - i
		row, ok := r.([]any)
		if !ok {
			return fmt.Errorf("%s: rank %d is a %T, want an array of numbers by file (a table by square is an array of ranks)", key, rank, r)
		}
		if files < 0 {
			files = len(row)
		}
		if len(row) != files || files == 0 || files > geom.MaxFiles {
			return fmt.Errorf("%s: rank %d has %d numbers, want %d as the highest rank has (1 to %d)", key, rank, len(row), files, geom.MaxFiles)
		}
		for f, x := range row {
			sq := key + "." + string(geom.FileName(f)) + strconv.Itoa(rank)
			n, err := number(sq, x)
			if err != nil {
				return err
			}
			w[sq] = n
		}
	}
	return nil
}

// number reads the weight key's TOML value x: a finite number.
func number(key string, x any) (float64, error) {
	switch x := x.(type) {
	case int64:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s = %v is not a finite number", key, x)
		}
		return x, nil
	}
	return 0, fmt.Errorf("%s is a %T, want a number", key, x)
}

// squareTables finds the names in w that make whole tables by square: a
// prefix all of whose names below it are squares a1 to the same file and
// rank, every one of them there. It returns the prefixes with their files
// and ranks.
func squareTables(w map[string]float64) map[string][2]int {
	type shape struct {
		n, files, ranks int
		other           bool
	}
	by := map[string]*shape{}
	for k := range w {
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			continue
		}
		s := by[k[:i]]
		if s == nil {
			s = &shape{}
			by[k[:i]] = s
		}
		f, r, ok := squareName(k[i+1:])
		if !ok {
			s.other = true
			continue
		}
		s.n++
		s.files, s.ranks = max(s.files, f+1), max(s.ranks, r+1)
	}
	out := map[string][2]int{}
	for p, s := range by {
		if s.other || s.n != s.files*s.ranks {
			continue
		}
		if _, clash := w[p]; clash {
			continue
		}
		out[p] = [2]int{s.files, s.ranks}
	}
	// A prefix with other names below it (p.x.y) is a table, not an array.
	for k := range w {
		for p := range out {
			if strings.HasPrefix(k, p+".") && strings.Contains(k[len(p)+1:], ".") {
				delete(out, p)
			}
		}
	}
	return out
}

// squareName reads the name of a square as written by squares: a file
// letter and a rank from 1 without leading zeros.
func squareName(s string) (f, r int, ok bool) {
	if len(s) < 2 || s[0] < 'a' || int(s[0]-'a') >= geom.MaxFiles || s[1] < '1' || s[1] > '9' {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n > geom.MaxRanks || strconv.Itoa(n) != s[1:] {
		return 0, 0, false
	}
	return int(s[0] - 'a'), n - 1, true
}

// writeTable writes the table by square under prefix p (with the key k)
// as an array of ranks, the highest first.
func writeTable(b *bytes.Buffer, k, p string, shape [2]int, w map[string]float64) {
	fmt.Fprintf(b, "%s = [\n", k)
	for r := shape[1]; r >= 1; r-- {
		b.WriteString("  [")
		for f := range shape[0] {
			if f > 0 {
				b.WriteString(", ")
			}
			b.WriteString(num(w[p+"."+string(geom.FileName(f))+strconv.Itoa(r)]))
		}
		fmt.Fprintf(b, "], # %d\n", r)
	}
	b.WriteString("]\n")
}

// FormatWeights writes w as a weights file for the variant name, grouped by
// the first part of each name, with comment lines (each without "#") first.
// Names that make a whole table by square (P.a1 to P.d8, nothing else below
// P) are written as the array P of ranks, the highest first.
func FormatWeights(name string, w map[string]float64, comment ...string) []byte {
	var b bytes.Buffer
	for _, c := range comment {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	fmt.Fprintf(&b, "variant = %q\n", name)
	tables := squareTables(w)
	groups := map[string][]string{}
	var top []string
	for p := range tables {
		if g, rest, ok := strings.Cut(p, "."); ok {
			groups[g] = append(groups[g], rest)
		} else {
			top = append(top, p)
		}
	}
	for k := range w {
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			if _, ok := tables[k[:i]]; ok {
				continue
			}
		}
		if g, rest, ok := strings.Cut(k, "."); ok {
			groups[g] = append(groups[g], rest)
		} else {
			top = append(top, k)
		}
	}
	sort.Strings(top)
	for _, k := range top {
		if t, ok := tables[k]; ok {
			writeTable(&b, key(k), k, t, w)
			continue
		}
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
			if t, ok := tables[g+"."+k]; ok {
				writeTable(&b, strings.Join(parts, "."), g+"."+k, t, w)
				continue
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

// BuiltinWeights returns the embedded weights file of the variant name
// (data/weights/NAME.toml), or nil if there is none: the learned
// evaluation of a variant built in Go (Vazir, Crazy Chess, csipgs Chess),
// which its package puts in the Spec it compiles, as the registry does for
// the variants of files.
func BuiltinWeights(name string) (map[string]float64, error) { return builtinWeights(name) }

// WeightsOf is the lookup the variants built in Go take their weights
// from when they are made: BuiltinWeights, unless a test replaces it.
var WeightsOf = BuiltinWeights

// builtinWeights returns the embedded weights of the built-in variant name.
func builtinWeights(name string) (map[string]float64, error) {
	return readWeights(builtin.ReadFile, path.Join("data", "weights", name+".toml"), name)
}

// fileWeights returns the weights beside the user's variant file filename.
func fileWeights(filename, variant string) (map[string]float64, error) {
	return readWeights(os.ReadFile, WeightsFile(filename), variant)
}

// checkTables refuses the weights of v, compiled from the file origin, whose
// tables by square do not fit its board (eval.CheckTables): a table of the
// wrong size would otherwise leave squares at 0 without a word.
func checkTables(v *rules.Variant, origin string) error {
	if len(v.Spec().Weights) == 0 {
		return nil
	}
	if err := eval.CheckTables(v, v.Spec().Weights); err != nil {
		return fmt.Errorf("%w: the weights of %s: %v", ErrWeights, origin, err)
	}
	return nil
}
