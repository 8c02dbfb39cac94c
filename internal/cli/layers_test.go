package cli

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCLIImportsAppViewAndArgvOnly: the command line parses flags and
// renders; what it does goes through the application layer (issue 28,
// "the layers say what they own"). No file of the package (tests aside)
// imports another of devenv's packages than internal/app, internal/view
// (and theirs below them) and internal/argv.
func TestCLIImportsAppViewAndArgvOnly(t *testing.T) {
	const own = "github.com/devenv-dev/devenv/"
	allowed := []string{"internal/app", "internal/view", "internal/argv"}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rel, ok := strings.CutPrefix(path, own)
			if ok && !underAny(rel, allowed) {
				t.Errorf("%s imports %s: reach it through internal/app (the CLI imports app, view and argv only)", name, path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no Go files to check in the package's directory")
	}
}

// underAny says whether path is one of dirs or a package below one.
func underAny(path string, dirs []string) bool {
	for _, d := range dirs {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}
