package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// hostPortRE finds a published host port written as a number in a test's
// devenv.yaml or compose text: a ports list whose first entry is
// host:container. A bare port ("8080") is the container's alone: the engine
// picks a free host port for it (spec.parsePort, as Compose does).
var hostPortRE = regexp.MustCompile(`ports:\s*\[\s*"(\d+):`)

// TestNoFixedHostPorts keeps the e2e tests from publishing fixed host
// ports: other projects' containers on the same engine would make them
// fail. Tests publish freePort(t) instead. Invalid ports that are never
// bound (a validation test's "99999") are listed here.
func TestNoFixedHostPorts(t *testing.T) {
	t.Parallel()
	neverBound := map[string]bool{"99999": true}
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hostPortRE.FindAllSubmatch(data, -1) {
			if !neverBound[string(m[1])] {
				t.Errorf("%s publishes fixed host port %s; use freePort(t)", f, m[1])
			}
		}
	}
}
