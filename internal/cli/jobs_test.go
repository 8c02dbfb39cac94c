package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
)

// testProject parses a devenv.yaml written into a temporary project.
func testProject(t *testing.T, yaml string, files ...string) *spec.Project {
	t.Helper()
	dir := t.TempDir()
	for _, f := range append(files, "devenv.yaml") {
		body := "# " + f + "\n"
		if f == "devenv.yaml" {
			body = yaml
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(yaml), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const twoServices = `name: demo
services:
  box:
    profile: image
    image: debian:12
  spark:
    profile: spark-rapids
    jupyter: false
    gpu: optional
    ports: ["127.0.0.1:4041:4040"]
`
