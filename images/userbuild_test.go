package images

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/profiles"
)

const (
	composeDockerfile = "ARG BASE=nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04\n" +
		"FROM ${BASE} AS build\nCOPY app.txt /app.txt\n" +
		"FROM busybox:1.36 AS tools\n" +
		"FROM scratch AS final\nCOPY --from=build /app.txt /app.txt\n"
	pinnedCUDA = "127.0.0.1:5055/nvidia/cuda@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	pinnedBusy = "127.0.0.1:5055/library/busybox@sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// composeInput is a compose build: of dir (the context) with its
// Dockerfile at docker/Dockerfile.
func composeInput(t *testing.T) Input {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"docker/Dockerfile": composeDockerfile, "app.txt": "hello\n"})
	return Input{Project: "p", Service: "web", Resolved: profiles.Resolved{Profile: profiles.Image}, ProjectDir: dir,
		UserDockerfile: filepath.Join(dir, "docker", "Dockerfile"), UserContext: dir}
}

// TestComposeBuildSendsWhatComposeWould: the context is build.context
// (not the Dockerfile's directory), the engine gets the Dockerfile's path
// in it, the build args and the target; with pins, the Dockerfile sent
// names the pinned references in its FROMs and the file on disk is left
// as it is.
func TestComposeBuildSendsWhatComposeWould(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(*Input)
		dockerfile string // the Dockerfile's name in the context
		wantFroms  []string
	}{
		{"no pins: the Dockerfile as written", func(*Input) {}, "docker/Dockerfile",
			[]string{"FROM ${BASE} AS build", "FROM busybox:1.36 AS tools"}},
		{"pins", func(in *Input) {
			in.Pins = map[string]string{"nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04": pinnedCUDA, "busybox:1.36": pinnedBusy}
		}, "docker/Dockerfile", []string{"FROM " + pinnedCUDA + " AS build", "FROM " + pinnedBusy + " AS tools"}},
		{"a build arg picks the image that is pinned", func(in *Input) {
			in.BuildArgs = map[string]string{"BASE": "nvcr.io/nvidia/cuda:12.9.2-base-ubuntu22.04"}
			in.Target = "build"
			in.Pins = map[string]string{"nvcr.io/nvidia/cuda:12.9.2-base-ubuntu22.04": pinnedCUDA}
		}, "docker/Dockerfile", []string{"FROM " + pinnedCUDA + " AS build", "FROM busybox:1.36 AS tools"}},
		{"dockerfile_inline", func(in *Input) {
			in.UserDockerfile, in.UserDockerfileInline = "", "FROM busybox:1.36\nCOPY app.txt /\n"
			in.Pins = map[string]string{"busybox:1.36": pinnedBusy}
		}, inlineDockerfile, []string{"FROM " + pinnedBusy}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := composeInput(t)
			tt.edit(&in)
			eng := &tarEngine{Engine: enginetest.New()}
			if _, err := Build(t.Context(), eng, in, Options{}, nil); err != nil {
				t.Fatal(err)
			}
			if eng.req.Dockerfile != tt.dockerfile || eng.req.Target != in.Target || len(eng.req.BuildArgs) != len(in.BuildArgs) {
				t.Errorf("request: dockerfile %q target %q args %v; want %q, %q, %v", eng.req.Dockerfile, eng.req.Target, eng.req.BuildArgs, tt.dockerfile, in.Target, in.BuildArgs)
			}
			for k, v := range in.BuildArgs {
				if got := eng.req.BuildArgs[k]; got == nil || *got != v {
					t.Errorf("build arg %s = %v, want %q", k, got, v)
				}
			}
			if _, ok := eng.files["app.txt"]; !ok {
				t.Errorf("the context is not build.context: %v", slices.Sorted(maps.Keys(eng.files)))
			}
			sent := eng.files[tt.dockerfile]
			var froms []string
			for _, l := range strings.Split(sent, "\n") {
				if strings.HasPrefix(l, "FROM ") && !strings.HasPrefix(l, "FROM scratch") {
					froms = append(froms, l)
				}
			}
			if !slices.Equal(froms, tt.wantFroms) {
				t.Errorf("FROMs sent %q, want %q; Dockerfile sent:\n%s", froms, tt.wantFroms, sent)
			}
			if in.UserDockerfile != "" {
				if disk, _ := os.ReadFile(in.UserDockerfile); string(disk) != composeDockerfile {
					t.Errorf("the Dockerfile on disk changed:\n%s", disk)
				}
			}
		})
	}
}

// TestComposeBuildHash: pins, build args and target are inputs of the
// image (a new digest rebuilds), the mirror that serves a pin is not; a
// context that is the Dockerfile's directory hashes as devenv.yaml's
// build: of the same file does, so those images keep their tags.
func TestComposeBuildHash(t *testing.T) {
	in := composeInput(t)
	in.Pins = map[string]string{"nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04": pinnedCUDA}
	base := mustHash(t, in)
	tests := []struct {
		name    string
		edit    func(*Input)
		changes bool
	}{
		{"another mirror, same digest", func(in *Input) {
			in.Pins["nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04"] = strings.Replace(pinnedCUDA, "127.0.0.1:5055", "mirror.corp:443", 1)
		}, false},
		{"another digest", func(in *Input) {
			in.Pins["nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04"] = strings.Replace(pinnedCUDA, "sha256:a", "sha256:c", 1)
		}, true},
		{"a build arg", func(in *Input) { in.BuildArgs = map[string]string{"X": "1"} }, true},
		{"a target", func(in *Input) { in.Target = "build" }, true},
		{"no pins", func(in *Input) { in.Pins = nil }, true},
		{"image: and build.tags", func(in *Input) { in.Tags = []string{"example/app:1.0", "example/app:latest"} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := in
			c.Pins = map[string]string{}
			for k, v := range in.Pins {
				c.Pins[k] = v
			}
			tt.edit(&c)
			if got := mustHash(t, c) != base; got != tt.changes {
				t.Errorf("hash changed = %v, want %v", got, tt.changes)
			}
		})
	}
	own := composeInput(t)
	own.UserContext = ""
	same := own
	same.UserContext = filepath.Dir(own.UserDockerfile)
	if mustHash(t, own) != mustHash(t, same) {
		t.Error("a compose context that is the Dockerfile's directory hashes differently from devenv.yaml's build: of it")
	}
}

// TestComposeBuildRefusals: a linked Dockerfile that would be pinned fails
// before the engine is asked (a Dockerfile outside its context is sent
// as Compose sends it: TestDockerfileOutsideTheContext).
func TestComposeBuildRefusals(t *testing.T) {
	linked := composeInput(t)
	if err := os.Rename(linked.UserDockerfile, filepath.Join(linked.ProjectDir, "real.Dockerfile")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../real.Dockerfile", linked.UserDockerfile); err != nil {
		t.Fatal(err)
	}
	linked.Pins = map[string]string{"nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04": pinnedCUDA}
	tests := []struct {
		name string
		in   Input
		want string
		is   error
	}{
		{"a linked Dockerfile to pin", linked, "is a symbolic link", safefile.ErrLink},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := &countingEngine{Engine: enginetest.New()}
			_, err := Build(t.Context(), eng, tt.in, Options{}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
			if eng.count() != 0 {
				t.Errorf("%d builds reached the engine", eng.count())
			}
		})
	}
}
