// Package corpus holds reference data shared by the tests of several
// packages: the perft files (testdata/perft/*.epd, copies of the project's
// reference counts), embedded so any test can read them without walking
// the file system.
package corpus

import (
	"bufio"
	"embed"
	"fmt"
	"path"
	"strings"
)

//go:embed testdata/perft/*.epd
var files embed.FS

// Case is one line of a perft file: a position and its node counts by depth.
type Case struct {
	Line   int
	FEN    string
	Counts map[int]uint64
}

// Perft returns the cases of one perft file ("chess.epd"). Lines are
// "FEN ;D1 n ;D2 n ..."; blank lines and lines starting with # are skipped.
func Perft(name string) ([]Case, error) {
	data, err := files.ReadFile(path.Join("testdata", "perft", name))
	if err != nil {
		return nil, err
	}
	var out []Case
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		c := Case{Line: n, FEN: strings.TrimSpace(parts[0]), Counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			var d int
			var cnt uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "D%d %d", &d, &cnt); err != nil {
				return nil, fmt.Errorf("%s:%d: bad field %q", name, n, p)
			}
			c.Counts[d] = cnt
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// FENs returns the positions of one perft file.
func FENs(name string) ([]string, error) {
	cases, err := Perft(name)
	var out []string
	for _, c := range cases {
		out = append(out, c.FEN)
	}
	return out, err
}

// Raw returns the bytes of one perft file.
func Raw(name string) ([]byte, error) {
	return files.ReadFile(path.Join("testdata", "perft", name))
}
