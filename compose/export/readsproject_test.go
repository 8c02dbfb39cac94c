package export

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/composetest"
	"github.com/devenv-dev/devenv/envs/spec"
)

// TestExportsReadTheProject holds the package's code (tests aside) to the
// project devenv runs: it imports nothing of internal/engine, whose
// container types are the Docker adapter's, and reads no
// plan.Service.Container (the plan's second description of a container).
func TestExportsReadTheProject(t *testing.T) {
	for _, src := range composetest.PackageSources(t) {
		for _, p := range src.Imports {
			if strings.HasSuffix(p, "/internal/engine") {
				t.Errorf("%s: imports %s; read the rendered project's ServiceConfig instead", src.Name, p)
			}
		}
		ast.Inspect(src.File, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Container" {
				t.Errorf("%s: reads .Container; read the rendered project's ServiceConfig instead", src.Fset.Position(sel.Sel.Pos()))
			}
			return true
		})
	}
}

// TestDevcontainerSingleImageRunArgs: a single service run as its image
// gets the GPUs and shared memory of its container as docker run's flags
// (triton: 1 GiB of /dev/shm).
func TestDevcontainerSingleImageRunArgs(t *testing.T) {
	tests := []struct {
		name, gpus string
		want       []string
	}{
		{"all", "all", []string{"--gpus", "all", "--shm-size=1073741824"}},
		{"count", "2", []string{"--gpus", "2", "--shm-size=1073741824"}},
		{"ids", "[1, 3]", []string{"--gpus", `"device=1,3"`, "--shm-size=1073741824"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "devenv.yaml")
			text := "name: solo\nservices:\n  infer:\n    profile: triton\n    gpus: " + tt.gpus + "\n"
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := spec.Parse(file, []byte(text), dir)
			if err != nil {
				t.Fatal(err)
			}
			_, d := devcontainerFor(t, p, testHost)
			if d.Image == "" || strings.Join(d.RunArgs, " ") != strings.Join(tt.want, " ") {
				t.Errorf("image %q, runArgs %q; want the image form with %q", d.Image, d.RunArgs, tt.want)
			}
		})
	}
}
