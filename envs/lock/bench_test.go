package lock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// BenchmarkLoadValidateResolve10 is the whole of "read devenv.yaml": strict
// load and validation of a 10-service file, then resolving every service
// against the catalog (target: under 5 ms).
func BenchmarkLoadValidateResolve10(b *testing.B) {
	dir := b.TempDir()
	var y strings.Builder
	y.WriteString("name: bench\nservices:\n")
	kinds := []string{
		"profile: spark-rapids\n    spark: \"3.5\"\n    java: \"17\"",
		"profile: rapids\n    release: \"25.06\"",
		"profile: triton\n    release: \"25.01\"",
	}
	for i := range 10 {
		fmt.Fprintf(&y, "  s%d:\n    %s\n    gpus: [0]\n    ports: [\"%d:8000\"]\n    volumes: [\"./data:/data:ro\"]\n    env: {N: \"%d\"}\n",
			i, kinds[i%3], 9000+i, i)
	}
	path := filepath.Join(dir, "devenv.yaml")
	if err := os.WriteFile(path, []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		b.Fatal(err)
	}
	cat := profiles.Builtin()
	b.ReportAllocs()
	for b.Loop() {
		p, err := spec.Load(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range p.Services {
			if _, err := cat.Resolve(s.Request(), p.Profiles); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCheck is `devenv lock --check`'s work on an unchanged project
// (the catalog comparison every reader of the lock makes included).
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "devenv.yaml")
	if err := os.WriteFile(path, []byte(yamlText), 0o644); err != nil {
		b.Fatal(err)
	}
	p, err := spec.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := Generate(b.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	lp := filepath.Join(dir, FileName)
	if _, err := Write(lp, f); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := spec.Load(path)
		if err != nil {
			b.Fatal(err)
		}
		lf, err := Read(lp)
		if err != nil {
			b.Fatal(err)
		}
		if err := CheckAgainst(b.Context(), p, lf, profiles.Builtin()); err != nil {
			b.Fatal(err)
		}
	}
}
