package plan

import (
	"context"
	"errors"
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
	pl := planSmall(t, p, lf)
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

// TestComposeBuildFromLockedBases: a compose service with build: is built
// as Compose builds it (build.context, the Dockerfile in it, args,
// target), FROM the images the lock pins, through the mirror: by digest,
// except one pinned by its local image ID, which the engine has by name.
func TestComposeBuildFromLockedBases(t *testing.T) {
	id := "sha256:" + strings.Repeat("cd", 32)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"compose.yaml": "services:\n  app:\n    build:\n      context: .\n      dockerfile: docker/app.Dockerfile\n      args: {TAG: 12.9.1}\n      target: run\n",
		"docker/app.Dockerfile": "ARG TAG=12.8.0\nFROM nvcr.io/nvidia/cuda:${TAG}-base-ubuntu22.04 AS base\n" +
			"FROM mine/tools:dev AS tools\nFROM base AS run\nCOPY --from=tools /t /t\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\nservices:\n  db:\n    profile: image\n    image: postgres:16\nmirrors:\n  registries: {nvcr.io: \"127.0.0.1:5055\"}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), onlyNGC{}, fetcher{}, lock.Options{Mirrors: opts(p).Mirrors, Local: localIDs{"mine/tools:dev": id}})
	if err != nil {
		t.Fatal(err)
	}
	pl := planSmall(t, p, lf)
	s := pl.Service("app")
	if s.Build == nil {
		t.Fatalf("app is not built: %+v", s)
	}
	in := s.Build
	cuda := lf.Service("app").BuildBases[0]
	want := map[string]string{"nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04": "127.0.0.1:5055/nvidia/cuda:12.9.1-base-ubuntu22.04@" + cuda.Digest}
	if in.UserContext != dir || in.UserDockerfile != filepath.Join(dir, "docker", "app.Dockerfile") || in.Target != "run" || in.BuildArgs["TAG"] != "12.9.1" {
		t.Errorf("build input: context %q dockerfile %q target %q args %v", in.UserContext, in.UserDockerfile, in.Target, in.BuildArgs)
	}
	if len(in.Pins) != len(want) || in.Pins["nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04"] != want["nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04"] {
		t.Errorf("pins %v, want %v (the local image left to the engine)", in.Pins, want)
	}
	if !strings.HasPrefix(s.Image, "devenv/demo-app:") || s.Pull != "" {
		t.Errorf("app runs %q (pull %q), want devenv's tag of the built image and nothing to pull", s.Image, s.Pull)
	}
}

// onlyNGC is a registry that has the nvcr.io images (through the mirror) only.
type onlyNGC struct{}

func (onlyNGC) Digest(ctx context.Context, ref string) (string, error) {
	if !strings.HasPrefix(ref, "127.0.0.1:5055/") && !strings.HasPrefix(ref, "postgres") {
		return "", errors.New("manifest unknown")
	}
	return pinner{}.Digest(ctx, ref)
}
