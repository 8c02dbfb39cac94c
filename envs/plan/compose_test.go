package plan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

type localIDs map[string]string

func (l localIDs) ImageID(_ context.Context, ref string) (string, error) { return l[ref], nil }

// TestComposeImagePins: a compose service runs its image by the lock's
// digest through the mirrors, or, when the lock pins a local image, by its
// image ID and with nothing to pull.
func TestComposeImagePins(t *testing.T) {
	id := "sha256:" + strings.Repeat("cd", 32)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(`services:
  tool:
    image: mine/tool:dev
    pull_policy: never
  minio:
    image: nvcr.io/x/minio:1
`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\nservices:\n  db:\n    profile: image\n    image: postgres:16\nmirrors:\n  registries: {nvcr.io: \"127.0.0.1:5055\"}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), pinner{}, fetcher{}, lock.Options{Local: localIDs{"mine/tool:dev": id}})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 8 << 30}, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		service, image, pull string
	}{
		{"tool", id, ""},
		{"minio", "127.0.0.1:5055/x/minio:1@" + lf.Service("minio").Base.Digest, "127.0.0.1:5055/x/minio:1@" + lf.Service("minio").Base.Digest},
	}
	for _, tt := range tests {
		s := pl.Service(tt.service)
		if s.Image != tt.image || s.Container.Image != tt.image || s.Pull != tt.pull {
			t.Errorf("%s: image %q (container %q), pull %q; want image %q, pull %q", tt.service, s.Image, s.Container.Image, s.Pull, tt.image, tt.pull)
		}
	}
}
