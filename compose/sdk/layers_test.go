package sdk

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExecutorDoesNotPrint: the executor emits typed events and the view
// renders them (issue 28, "the layers say what they own"): no file of
// the package (tests aside) imports devenv's UI or view, or writes to the
// process's streams.
func TestExecutorDoesNotPrint(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"github.com/devenv-dev/devenv/internal/ui", "github.com/devenv-dev/devenv/internal/view"}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if path == bad || strings.HasPrefix(path, bad+"/") {
					t.Errorf("%s imports %s: emit an engine.ExecEvent instead", f, path)
				}
			}
		}
		for _, bad := range []string{"os.Stdout", "os.Stderr", "fmt.Print"} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s uses %s: emit an engine.ExecEvent instead", f, bad)
			}
		}
	}
}
