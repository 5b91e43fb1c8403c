package server

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// nodeModule returns the import line of the page's module file (in
// web/src) with the names given, for a script run by nodeScript.
func nodeModule(t *testing.T, file, names string) string {
	t.Helper()
	mod, err := filepath.Abs(filepath.Join("..", "web", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	return `import {` + names + `} from ` + strconv.Quote("file://"+mod) + ";\n"
}

// nodeScript runs script, an ES module, with node and returns the lines it
// printed; with want >= 0 it fails unless there are exactly want lines.
func nodeScript(t *testing.T, script string, want int) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run ./test.sh, which installs it")
	}
	out, err := exec.Command(node, "--no-warnings", "--input-type=module", "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if want >= 0 && len(lines) != want {
		t.Fatalf("node printed %d lines, want %d:\n%s", len(lines), want, out)
	}
	return lines
}
