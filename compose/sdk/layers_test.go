package sdk

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/composetest"
)

// TestExecutorDoesNotPrint: the executor emits typed events and the view
// renders them (issue 28, "the layers say what they own"): no file of
// the package (tests aside) imports devenv's UI or view, or writes to the
// process's streams.
func TestExecutorDoesNotPrint(t *testing.T) {
	forbidden := []string{"github.com/devenv-dev/devenv/internal/ui", "github.com/devenv-dev/devenv/internal/view"}
	for _, src := range composetest.PackageSources(t) {
		for _, path := range src.Imports {
			for _, bad := range forbidden {
				if path == bad || strings.HasPrefix(path, bad+"/") {
					t.Errorf("%s imports %s: emit an engine.ExecEvent instead", src.Name, path)
				}
			}
		}
		for _, bad := range []string{"os.Stdout", "os.Stderr", "fmt.Print"} {
			if strings.Contains(src.Text, bad) {
				t.Errorf("%s uses %s: emit an engine.ExecEvent instead", src.Name, bad)
			}
		}
	}
}
