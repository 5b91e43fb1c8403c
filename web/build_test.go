package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// npmTool returns node and the path of a tool of web/node_modules, and
// fails when either is missing: ./test.sh installs node and runs npm ci
// in web/.
func npmTool(t *testing.T, rel string) (node, tool string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run ./test.sh, which installs it")
	}
	tool = filepath.Join("node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(tool); err != nil {
		t.Fatalf("%s is missing (%v): run ./test.sh (npm ci in web/)", tool, err)
	}
	return node, tool
}

// TestTypeCheck: the page's TypeScript type-checks (tsc --noEmit with
// tsconfig.json's strict settings); any type error fails the test.
func TestTypeCheck(t *testing.T) {
	node, tsc := npmTool(t, "typescript/bin/tsc")
	out, err := exec.Command(node, tsc, "--noEmit", "-p", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s", err, out)
	}
}

// TestBuildFresh: dist/ and the node modules built from src/lib are what
// a build of src/ gives now (build.mjs --check), so the page the server
// embeds is never older than its sources.
func TestBuildFresh(t *testing.T) {
	node, _ := npmTool(t, "esbuild/package.json")
	out, err := exec.Command(node, "build.mjs", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("build.mjs --check: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "match") {
		t.Errorf("build.mjs --check said: %s", out)
	}
}
