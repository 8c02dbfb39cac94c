package e2e

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestRemoteRigAnswers: the rig's engine is another engine (its own images,
// its own containers), reached through the docker context over ssh only.
func TestRemoteRigAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	out, err := r.Docker("info", "--format", "{{.Name}} {{.Driver}} {{.Images}}")
	if err != nil {
		t.Fatalf("docker info through the context: %v: %s", err, out)
	}
	if !strings.Contains(out, "vfs") {
		t.Errorf("the context reached %q, not the rig's vfs engine", out)
	}
	t.Logf("rig at %s: %s", r.Host, out)
}
