package e2e

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestRequirementsThroughThePyPIMirror bakes the user's requirements into
// the spark-rapids image through mirrors.pypi, a stand-in index on this
// machine's loopback (the build runs on the host network to reach it).
func TestRequirementsThroughThePyPIMirror(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	index := standin.PyPI(t, "devenv-probe==1.2.3")
	w.pypi = index.URL()
	dir, _ := w.project(t, oneSpark+"    requirements: requirements.txt\n",
		map[string]string{"requirements.txt": "devenv-probe==1.2.3\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	r := w.must(t, dir, "exec", "-T", "spark", "--", "python", "-c", "import devenv_probe; print(devenv_probe.VERSION)")
	if strings.TrimSpace(r.Stdout) != "1.2.3" {
		t.Fatalf("the requirement is not installed in the image: %q %s", r.Stdout, r.Stderr)
	}
	var fetched bool
	for _, p := range index.Requests() {
		fetched = fetched || strings.HasPrefix(p, "/simple/files/devenv_probe-1.2.3")
	}
	if !fetched {
		t.Errorf("the wheel was not fetched from the mirror: %v", index.Requests())
	}
}
