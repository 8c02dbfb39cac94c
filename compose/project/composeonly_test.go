package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
)

// TestComposeOnlyProject: a devenv.yaml that only lists compose files is a
// project: its services are the files' (it was refused, "services is
// required", so a user had to invent a devenv service).
func TestComposeOnlyProject(t *testing.T) {
	dir := t.TempDir()
	for f, s := range map[string]string{
		"devenv.yaml":  "name: demo\ncompose: [compose.yaml]\n",
		"compose.yaml": "services:\n  web: {image: busybox:1, ports: [\"8080:80\"]}\n  db: {image: busybox:1}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := locktest.Project(t, dir)
	pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := FromPlan(pl, Options{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := proj.ServiceNames(); len(got) != 2 || got[0] != "db" || got[1] != "web" {
		t.Errorf("services %v, want db and web", got)
	}
}
