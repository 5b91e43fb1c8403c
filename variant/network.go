package variant

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/anychess/anychess/eval"
)

// MaxNetworkBytes bounds a network file's size.
const MaxNetworkBytes = 32 << 20

// NetworkFile returns the name of the network file that belongs beside the
// variant file filename: its name without ".toml", then ".net".
func NetworkFile(filename string) string {
	return strings.TrimSuffix(filename, ".toml") + ".net"
}

// builtinNetwork returns the embedded network of the built-in variant
// name (data/weights/NAME.net), or nil if there is none, and the file's
// name.
func builtinNetwork(name string) ([]byte, string, error) {
	file := path.Join("data", "weights", name+".net")
	data, err := builtin.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, file, nil
	}
	return data, file, err
}

// fileNetwork returns the network file beside the user's variant file
// filename, or nil if there is none; one longer than MaxNetworkBytes is
// refused.
func fileNetwork(filename string) ([]byte, error) {
	data, err := readLimited(NetworkFile(filename), MaxNetworkBytes, eval.ErrNetwork)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}
