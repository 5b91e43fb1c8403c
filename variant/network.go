package variant

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
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
	f, err := os.Open(NetworkFile(filename))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxNetworkBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxNetworkBytes {
		return nil, fmt.Errorf("%s: a network file longer than %d bytes", NetworkFile(filename), MaxNetworkBytes)
	}
	return data, nil
}
