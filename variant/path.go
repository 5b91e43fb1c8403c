package variant

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/anychess/anychess/rules"
)

// MaxFileBytes bounds a variant file read from disk: a longer file is
// refused before it is parsed.
const MaxFileBytes = 1 << 20

// maxPathFiles bounds the files one LoadPath call reads.
const maxPathFiles = 256

// readFileMax reads a file of at most MaxFileBytes.
func readFileMax(filename string) ([]byte, error) {
	return readLimited(filename, MaxFileBytes, ErrFile)
}

// readLimited reads the file filename, refusing one longer than limit
// bytes with an error that wraps kind.
func readLimited(filename string, limit int, kind error) ([]byte, error) {
	f, err := os.Open(filename)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%w: %s: longer than %d bytes", kind, filename, limit)
	}
	return data, nil
}

// LoadPath loads the variant files a path list names, as Fairy-Stockfish's
// VariantPath option does: paths separated by the system's list separator
// (':' on Unix), each a variant file or a directory whose *.toml files
// (not the *.weights.toml beside them) are read in name order. A file may
// name as its base a variant of another file of the list, whatever their
// order. It returns the variants it registered, and an error joining what
// went wrong with each file that was not loaded (the others stay loaded).
func (r *Registry) LoadPath(list string) ([]*rules.Variant, error) {
	return r.loadPath(list, nil)
}

// Check judges a variant file read by LoadPathChecked: its origin, text
// and the variant it compiles to, before it is registered.
type Check func(origin string, data []byte, v *rules.Variant) error

// LoadPathChecked loads the files of a path list as LoadPath does, but
// registers a variant only if check accepts it (see CheckText and
// CheckLimits); a refusal is an error naming the file.
func (r *Registry) LoadPathChecked(list string, check Check) ([]*rules.Variant, error) {
	return r.loadPath(list, check)
}

func (r *Registry) loadPath(list string, check Check) ([]*rules.Variant, error) {
	var files []string
	var errs []error
	for _, p := range filepath.SplitList(list) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if e.Type().IsRegular() && strings.HasSuffix(n, ".toml") && !strings.HasSuffix(n, ".weights.toml") {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			files = append(files, filepath.Join(p, n))
		}
	}
	if len(files) > maxPathFiles {
		return nil, fmt.Errorf("%w: %d files in %q, at most %d are read", ErrFile, len(files), list, maxPathFiles)
	}
	// A file whose base is in a later file fails with an unknown base: try
	// the failed ones again while each round loads at least one.
	var loaded []*rules.Variant
	pending := files
	last := map[string]error{}
	for len(pending) > 0 {
		var again []string
		for _, f := range pending {
			v, err := r.loadChecked(f, check)
			if err != nil {
				last[f] = err
				again = append(again, f)
				continue
			}
			delete(last, f)
			loaded = append(loaded, v)
		}
		if len(again) == len(pending) {
			break
		}
		pending = again
	}
	for _, f := range pending {
		if err := last[f]; err != nil {
			errs = append(errs, err)
		}
	}
	return loaded, errors.Join(errs...)
}

// loadChecked loads a file as Load does, registering its variant only if
// check (nil: any) accepts it.
func (r *Registry) loadChecked(filename string, check Check) (*rules.Variant, error) {
	if check == nil {
		return r.Load(filename)
	}
	data, err := readFileMax(filename)
	if err != nil {
		return nil, err
	}
	spec, err := Parse(data, filename, r.resolve)
	if err != nil {
		return nil, err
	}
	if spec.Weights, err = fileWeights(filename, spec.Name); err != nil {
		return nil, err
	}
	v, err := rules.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFile, filename, err)
	}
	if err := checkTables(v, filename); err != nil {
		return nil, err
	}
	if err := check(filename, data, v); err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return v, r.Register(v, data)
}
