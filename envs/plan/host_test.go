package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
)

// TestNeedsHost: a project says it needs the machine's facts exactly when
// its plan can differ between machines; one that says it does not plans the
// same on a laptop without NVML, an engine without a GPU runtime and a
// workstation with GPUs.
func TestNeedsHost(t *testing.T) {
	const img = "  app:\n    profile: image\n    image: postgres:16\n"
	tests := []struct {
		name    string
		yaml    string
		compose string
		want    bool
	}{
		{"plain images", "name: d\nservices:\n" + img + "  b:\n    profile: image\n    image: redis:7\n    ports: [\"6379\"]\n", "", false},
		{"image with a GPU", "name: d\nservices:\n  app:\n    profile: image\n    image: x:1\n    gpus: 1\n", "", true},
		{"optional GPU image", "name: d\nservices:\n  app:\n    profile: image\n    image: x:1\n    gpus: 1\n    gpu: optional\n", "", true},
		{"spark", "name: d\nservices:\n  spark:\n    profile: spark-rapids\n", "", true},
		{"spark on the CPU", "name: d\nservices:\n  spark:\n    profile: spark-rapids\n    gpus: 0\n", "", true},
		{"rapids", "name: d\nservices:\n  nb:\n    profile: rapids\n", "", true},
		{"triton", "name: d\nservices:\n  serve:\n    profile: triton\n", "", true},
		{"compose without GPUs", "name: d\ncompose: [compose.yaml]\nservices:\n" + img, "services:\n  minio:\n    image: minio/minio:latest\n", false},
		{"compose with a GPU", "name: d\ncompose: [compose.yaml]\nservices:\n" + img, "services:\n  gpu:\n    image: x:1\n    gpus: all\n", true},
		{"unreadable compose file", "name: d\ncompose: [compose.yaml]\nservices:\n" + img, "services:\n  gpu:\n    image: x:1\n    deploy: 5\n", true},
	}
	hosts := []Host{
		{CPUs: 8, MemoryBytes: 32 << 30},
		{CPUs: 8, MemoryBytes: 32 << 30, NoGPURuntime: true},
		{CPUs: 32, MemoryBytes: 256 << 30, GPUs: gputest.Workstation()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, lf := loadWith(t, tt.yaml, tt.compose)
			got := NeedsHost(p, Options{})
			if got != tt.want {
				t.Fatalf("NeedsHost = %v, want %v", got, tt.want)
			}
			if got {
				return
			}
			var first []byte
			for i, h := range hosts {
				pl, err := Make(p, lf, h, opts(p))
				if err != nil {
					t.Fatal(err)
				}
				r := render(t, pl, p.Dir)
				if i == 0 {
					first = r
				} else if !bytes.Equal(first, r) {
					t.Fatalf("NeedsHost is false but the plan on %+v differs from the plan on %+v:\n%s\n---\n%s", h, hosts[0], r, first)
				}
			}
		})
	}
}

// loadWith is load with a compose.yaml next to devenv.yaml when compose is set.
func loadWith(t *testing.T, yaml, compose string) (*spec.Project, *lock.File) {
	t.Helper()
	if compose == "" {
		return load(t, yaml)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(yaml), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !NeedsHost(p, Options{}) && compose != "" {
		return p, lockStandIn(t, p)
	}
	return p, nil
}
