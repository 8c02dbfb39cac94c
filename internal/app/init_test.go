package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
)

// TestInitRefusesDevenvsOwnCheckout: init writes no devenv.yaml at or
// under a directory whose go.mod is devenv's own module (exit 2, one
// line, naming the checkout, with the way out); other Go modules and plain
// directories get their starter.
func TestInitRefusesDevenvsOwnCheckout(t *testing.T) {
	cases := []struct {
		name    string
		gomod   string // written at the top directory; "" for none
		sub     string // where init runs, under the top directory
		refused bool
	}{
		{name: "checkout root", gomod: "module github.com/devenv-dev/devenv\n\ngo 1.26\n", refused: true},
		{name: "deep in the checkout", gomod: "// devenv\nmodule \"github.com/devenv-dev/devenv\"\n", sub: "test/testdata/x", refused: true},
		{name: "another module", gomod: "module github.com/devenv-dev/devenv-plugins\n", sub: "a"},
		{name: "a module that requires devenv", gomod: "module example.com/team\n\nrequire github.com/devenv-dev/devenv v1.0.0\n"},
		{name: "no go.mod", sub: "proj"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			if c.gomod != "" {
				if err := os.WriteFile(filepath.Join(top, "go.mod"), []byte(c.gomod), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir := filepath.Join(top, c.sub)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := Init(InitOptions{Dir: dir, Profile: "image"})
			_, statErr := os.Stat(filepath.Join(dir, FileName))
			if !c.refused {
				if err != nil || statErr != nil {
					t.Fatalf("Init in %s: %v (devenv.yaml: %v), want a starter", c.name, err, statErr)
				}
				return
			}
			if err == nil || statErr == nil {
				t.Fatalf("Init in %s: err %v, devenv.yaml written: %v; want a refusal and no file", c.name, err, statErr == nil)
			}
			msg := err.Error()
			if exitcode.Of(err) != exitcode.Usage || strings.Contains(msg, "\n") ||
				!strings.Contains(msg, "devenv's own source checkout ("+top+")") || !strings.Contains(msg, "--project-dir DIR") {
				t.Errorf("refusal (exit %d) is %q: want exit 2, one line naming %s and --project-dir", exitcode.Of(err), msg, top)
			}
		})
	}
}
