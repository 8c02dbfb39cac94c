package lock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// refusingPinner is a registry that knows no image of mine/.
type refusingPinner struct{}

func (refusingPinner) Digest(ctx context.Context, ref string) (string, error) {
	if strings.HasPrefix(ref, "mine/") {
		return "", errors.New("manifest unknown")
	}
	return (&fakePinner{}).Digest(ctx, ref)
}

// fakeLocal is an engine holding the images in ids.
type fakeLocal map[string]string

func (f fakeLocal) ImageID(_ context.Context, ref string) (string, error) { return f[ref], nil }

var localID = "sha256:" + strings.Repeat("ab", 32)

// TestComposeLocalImages: an image no registry has is pinned by its local
// image ID with a note saying so (pull_policy: never or build, or a
// registry that does not know it); without the image, or without an
// engine, the error says what to do. Services of every compose profile are
// pinned.
func TestComposeLocalImages(t *testing.T) {
	tests := []struct {
		name    string
		compose string
		pin     Pinner
		local   LocalImages
		wantErr string
		local2  bool // the service is pinned by localID
	}{
		{"pull_policy never", "    image: mine/tool:dev\n    pull_policy: never\n", &fakePinner{}, fakeLocal{"mine/tool:dev": localID}, "", true},
		{"pull_policy build without build: is local too", "    image: mine/tool:dev\n    pull_policy: build\n", &fakePinner{}, fakeLocal{"mine/tool:dev": localID}, "", true},
		{"no registry has it, the engine does", "    image: mine/tool:dev\n", refusingPinner{}, fakeLocal{"mine/tool:dev": localID}, "", true},
		{"a registry has it: by digest", "    image: mine/tool:dev\n", &fakePinner{}, fakeLocal{"mine/tool:dev": localID}, "", false},
		{"nowhere", "    image: mine/tool:dev\n", refusingPinner{}, fakeLocal{}, "pull or build mine/tool:dev", false},
		{"never, but not built yet", "    image: mine/tool:dev\n    pull_policy: never\n", &fakePinner{}, fakeLocal{}, "build or load it", false},
		{"never, no engine", "    image: mine/tool:dev\n    pull_policy: never\n", &fakePinner{}, nil, "start Docker", false},
		{"a profile's service is pinned too", "    image: mine/tool:dev\n    pull_policy: never\n    profiles: [debug]\n", &fakePinner{}, fakeLocal{"mine/tool:dev": localID}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("services:\n  tool:\n"+tt.compose), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\nservices:\n  db:\n    profile: image\n    image: postgres:16\n"), dir)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Generate(t.Context(), p, nil, profiles.Builtin(), tt.pin, &fakeFetcher{}, Options{Local: tt.local})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), `compose service "tool"`) {
					t.Fatalf("error = %v, want one naming the service and saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := f.Service("tool")
			if s == nil || s.Base == nil {
				t.Fatalf("tool not locked: %+v", f.Services)
			}
			if got := s.Base.Local && s.Base.Digest == localID; got != tt.local2 {
				t.Errorf("tool locked as %+v; pinned by local ID = %v, want %v", s.Base, got, tt.local2)
			}
			noted := strings.Contains(strings.Join(f.Notes, "\n"), "local image ID "+localID)
			if noted != tt.local2 {
				t.Errorf("notes = %q; a note about the local pin = %v, want %v", f.Notes, noted, tt.local2)
			}
			if tt.local2 && s.Base.Pinned() != localID {
				t.Errorf("Pinned() = %q, want the image ID", s.Base.Pinned())
			}
			if _, err := Parse("devenv.lock", mustMarshal(t, f)); err != nil {
				t.Errorf("the lock with a local pin does not parse back: %v", err)
			}
		})
	}
}

func mustMarshal(t *testing.T, f *File) []byte {
	t.Helper()
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
