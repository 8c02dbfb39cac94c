package reconcile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/profiles"
)

const (
	pinnedBase = "127.0.0.1:5055/nvidia/cuda:12.9.1@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	localBase  = "mine/tools:dev"
)

// builtService is a compose service built from a Dockerfile whose first
// FROM the lock pins by digest and whose second by a local image ID.
func builtService(t *testing.T) *plan.Service {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM nvcr.io/nvidia/cuda:12.9.1\nFROM "+localBase+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := &images.Input{Project: "p", Service: "app", Resolved: profiles.Resolved{Profile: profiles.Image}, ProjectDir: dir,
		UserDockerfile: filepath.Join(dir, "Dockerfile"), UserContext: dir, Pins: map[string]string{"nvcr.io/nvidia/cuda:12.9.1": pinnedBase}}
	s := svc("app", "devenv/p-app:1")
	s.Build, s.Profile = in, lock.ComposeProfile
	return s
}

func buildLock(localID string) *lock.File {
	return &lock.File{Services: []lock.Service{{Name: "app", Profile: lock.ComposeProfile, BuildBases: []lock.Image{
		{Ref: "nvcr.io/nvidia/cuda:12.9.1", Digest: "sha256:" + strings.Repeat("a", 64)},
		{Ref: localBase, Digest: localID, Local: true},
	}}}}
}

// TestBuildBasesBeforeTheBuild: the pinned base is pulled by digest
// through the mirror before the build (again with --pull), and a base
// pinned by its local image ID must still be that image.
func TestBuildBasesBeforeTheBuild(t *testing.T) {
	tests := []struct {
		name    string
		local   func(f *enginetest.Fake) string // adds the local base, returns the ID the lock pins
		opts    BuildOptions
		have    bool // the pinned base is already there
		pulls   int
		wantErr string
	}{
		{"absent: pulled, then built", func(f *enginetest.Fake) string { return f.AddImage(localBase, nil) }, BuildOptions{}, false, 1, ""},
		{"present: not pulled again", func(f *enginetest.Fake) string { return f.AddImage(localBase, nil) }, BuildOptions{}, true, 0, ""},
		{"--pull pulls it again", func(f *enginetest.Fake) string { return f.AddImage(localBase, nil) }, BuildOptions{Pull: true}, true, 1, ""},
		{"the local base is gone", func(*enginetest.Fake) string { return "sha256:" + strings.Repeat("b", 64) }, BuildOptions{}, false, 1,
			"pins by its local image ID sha256:bbbb"},
		{"the local base is another image now", func(f *enginetest.Fake) string {
			f.AddImage(localBase, nil)
			return "sha256:" + strings.Repeat("b", 64)
		}, BuildOptions{}, false, 1,
			"not the sha256:bbbb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			r.Lock = buildLock(tt.local(f))
			if tt.have {
				f.AddImage(pinnedBase, nil)
			}
			_, err := r.Images(t.Context(), []*plan.Service{builtService(t)}, tt.opts)
			var pulls []string
			for _, c := range f.CallsTo("Pull") {
				pulls = append(pulls, c.Arg.(string))
			}
			if len(pulls) != tt.pulls || (tt.pulls > 0 && pulls[0] != pinnedBase) {
				t.Errorf("pulled %v, want %d pull(s) of %s", pulls, tt.pulls, pinnedBase)
			}
			builds := len(f.CallsTo("Build"))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || builds != 0 {
					t.Fatalf("error %v after %d builds, want one saying %q before any build", err, builds, tt.wantErr)
				}
				return
			}
			if err != nil || builds != 1 {
				t.Fatalf("error %v, %d builds; want one build", err, builds)
			}
			calls := f.Calls()
			for i, c := range calls {
				if c.Method == "Build" && tt.pulls > 0 && !pulledBefore(calls[:i]) {
					t.Error("built before the pinned base was pulled")
				}
			}
		})
	}
}

func pulledBefore(calls []enginetest.Call) bool {
	for _, c := range calls {
		if c.Method == "Pull" {
			return true
		}
	}
	return false
}
