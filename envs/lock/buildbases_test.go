package lock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/profiles"
)

// buildFiles is a project whose compose services build: trainer from an
// NGC image chosen by ARGs and build.args, up to build.target (its later
// stage's image is left out), with a second stage from Docker Hub; web
// from an inline Dockerfile; empty from scratch alone.
var buildFiles = map[string]string{
	"devenv.yaml": "name: demo\ncompose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04\n" +
		"mirrors:\n  registries: {nvcr.io: \"127.0.0.1:5055\"}\n",
	"compose.yaml": `services:
  trainer:
    build:
      context: .
      dockerfile: docker/trainer.Dockerfile
      args: {BASE_TAG: 24.05-py3}
      target: train
  web:
    build:
      context: web
      dockerfile_inline: |
        FROM python:3.12-slim
        COPY . /srv
  empty:
    build: empty
`,
	"docker/trainer.Dockerfile": `# syntax=docker/dockerfile:1
ARG BASE_IMAGE=nvcr.io/nvidia/pytorch
ARG BASE_TAG=23.12-py3
FROM ${BASE_IMAGE}:${BASE_TAG} AS base
RUN pip install numpy
FROM busybox:1.36 AS tools
FROM base AS train
COPY --from=tools /bin/busybox /bin/
FROM nvcr.io/nvidia/tritonserver:24.05-py3 AS serve
`,
	"web/app.py":       "print('hi')\n",
	"empty/Dockerfile": "FROM scratch\nCOPY x /x\n",
}

func buildProjectAt(t *testing.T, files map[string]string) (*spec.Project, string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return reparse(t, dir), dir
}

func reparse(t *testing.T, dir string) *spec.Project {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "devenv.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), data, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func lockBuildProject(t *testing.T, p *spec.Project, prev *File, pin Pinner, local LocalImages) (*File, error) {
	t.Helper()
	return Generate(t.Context(), p, prev, profiles.Builtin(), pin, &fakeFetcher{}, Options{Mirrors: mirrors(p), Local: local})
}

// TestBuildBasesLocked: every image the compose services' Dockerfiles
// build FROM (as the build resolves them) is pinned through the mirror,
// in the golden lock (format version 2); relocking asks no registry; the
// lock reads back and is fresh.
func TestBuildBasesLocked(t *testing.T) {
	p, _ := buildProjectAt(t, buildFiles)
	pin := &fakePinner{}
	f, err := lockBuildProject(t, p, nil, pin, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "buildbases.lock.golden", data)
	want := []string{"127.0.0.1:5055/nvidia/cuda:12.9.1-base-ubuntu22.04", "127.0.0.1:5055/nvidia/pytorch:24.05-py3", "busybox:1.36", "python:3.12-slim"}
	if strings.Join(pin.calls, " ") != strings.Join(want, " ") {
		t.Errorf("registry asked for %v, want %v (nvcr.io through the mirror, the stage after the target not at all)", pin.calls, want)
	}
	back, err := Parse(FileName, data)
	if err != nil {
		t.Fatalf("the lock does not read back: %v", err)
	}
	if err := Check(t.Context(), p, back); err != nil {
		t.Fatalf("a fresh lock is not fresh: %v", err)
	}
	again := &fakePinner{}
	if _, err := lockBuildProject(t, p, back, again, nil); err != nil || len(again.calls) != 0 {
		t.Fatalf("relock: %v, asked %v; want the previous pins kept", err, again.calls)
	}
	if got := back.Service("trainer").BuildPins(mirrors(p)); got["nvcr.io/nvidia/pytorch:24.05-py3"] != "127.0.0.1:5055/nvidia/pytorch:24.05-py3@"+back.Service("trainer").BuildBases[0].Digest {
		t.Errorf("build pins %v, want nvcr.io's through the mirror by digest", got)
	}
}

// TestBuildBasesStale: what changes the images a build pulls (a FROM, an
// ARG default, build.args, build.target) makes the lock stale and says so;
// other edits of the Dockerfile or the compose file do not.
func TestBuildBasesStale(t *testing.T) {
	p, dir := buildProjectAt(t, buildFiles)
	f, err := lockBuildProject(t, p, nil, &fakePinner{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, old, new string
		want                 string // "": fresh
	}{
		{"a RUN step", "docker/trainer.Dockerfile", "pip install numpy", "pip install numpy scipy", ""},
		{"a comment", "docker/trainer.Dockerfile", "# syntax=docker/dockerfile:1\n", "# syntax=docker/dockerfile:1\n# a note\n", ""},
		{"the stage after the target", "docker/trainer.Dockerfile", "tritonserver:24.05-py3", "tritonserver:24.08-py3", ""},
		{"an environment key", "compose.yaml", "  empty:\n", "  empty:\n    environment: {A: b}\n", ""},
		{"a FROM", "docker/trainer.Dockerfile", "busybox:1.36", "busybox:1.37",
			`service "trainer": the images its Dockerfile builds FROM changed from "nvcr.io/nvidia/pytorch:24.05-py3, busybox:1.36" to "nvcr.io/nvidia/pytorch:24.05-py3, busybox:1.37"`},
		{"build.args", "compose.yaml", "BASE_TAG: 24.05-py3", "BASE_TAG: 24.08-py3", "nvcr.io/nvidia/pytorch:24.08-py3"},
		{"an ARG default", "docker/trainer.Dockerfile", "ARG BASE_IMAGE=nvcr.io/nvidia/pytorch", "ARG BASE_IMAGE=nvcr.io/nvidia/cuda", "nvcr.io/nvidia/cuda:24.05-py3"},
		{"build.target", "compose.yaml", "target: train", "target: serve", "nvcr.io/nvidia/tritonserver:24.05-py3"},
		{"dockerfile_inline", "compose.yaml", "FROM python:3.12-slim", "FROM python:3.13-slim", "python:3.13-slim"},
		{"scratch to an image", "empty/Dockerfile", "FROM scratch", "FROM alpine:3.20", `changed from (unset) to "alpine:3.20"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			was, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.WriteFile(path, was, 0o644) })
			now := strings.Replace(string(was), tt.old, tt.new, 1)
			if now == string(was) {
				t.Fatalf("the edit %q changed nothing", tt.old)
			}
			if err := os.WriteFile(path, []byte(now), 0o644); err != nil {
				t.Fatal(err)
			}
			err = Check(t.Context(), reparse(t, dir), f)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("stale after an edit that changes no image: %v", err)
				}
				return
			}
			var stale *StaleError
			if !errors.As(err, &stale) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want stale saying %q", err, tt.want)
			}
		})
	}
}

// TestOldLocksStillRead: a version 1 lock (no build_bases) reads and
// stays fresh for a project whose compose service builds (an upgrade of
// devenv recreates nothing; the next devenv lock pins the FROM images);
// a version 2 lock without that service's entry is stale, naming the
// images to pin; build_bases in a version 1 lock, or a lock newer than
// this devenv, are refused.
func TestOldLocksStillRead(t *testing.T) {
	p, _ := buildProjectAt(t, buildFiles)
	f, err := lockBuildProject(t, p, nil, &fakePinner{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := *f // as a devenv before build_bases wrote it: no entry for a service that builds
	old.Services = []Service{*f.Service("shell")}
	old.Version = 1
	old.InputHash = summaryHash(old.Project, []string{"shell"}, []string{old.Services[0].InputHash})
	data, err := Marshal(&old)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(FileName, data)
	if err != nil {
		t.Fatalf("a version 1 lock without build_bases does not read: %v", err)
	}
	if err := Check(t.Context(), p, back); err != nil {
		t.Fatalf("Check of the version 1 lock after an upgrade = %v, want fresh", err)
	}
	back.Version = 2 // as this devenv would write it, but without the entry
	err = Check(t.Context(), p, back)
	want := `compose service "trainer" is not locked: devenv.lock does not pin the images its Dockerfile docker/trainer.Dockerfile builds FROM (nvcr.io/nvidia/pytorch:24.05-py3, busybox:1.36)`
	var stale *StaleError
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Check = %v, want stale saying %q", err, want)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"build_bases in version 1", `"version": 2`, `"version": 1`, "version 1, want 2 to 2"},
		{"a newer devenv's lock", `"version": 2`, `"version": 3`, "written by a newer devenv"},
	} {
		full, _ := Marshal(f)
		_, err := Parse(FileName, []byte(strings.Replace(string(full), c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Parse = %v, want it refused saying %q", c.name, err, c.want)
		}
	}
}

// TestBuildBasesHandEdited: build_bases that disagree with inputs.from are
// an inconsistent lock, not a stale one.
func TestBuildBasesHandEdited(t *testing.T) {
	p, _ := buildProjectAt(t, buildFiles)
	f, err := lockBuildProject(t, p, nil, &fakePinner{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := f.Service("trainer")
	tr.BuildBases = tr.BuildBases[:1]
	var bad *IntegrityError
	if err := Check(t.Context(), p, f); !errors.As(err, &bad) || !strings.Contains(err.Error(), "build_bases pin nvcr.io/nvidia/pytorch:24.05-py3, but inputs.from is nvcr.io/nvidia/pytorch:24.05-py3, busybox:1.36") {
		t.Fatalf("Check = %v, want an integrity error naming build_bases and inputs.from", err)
	}
}

// refusingNGC is a registry (or mirror) that has no nvidia/pytorch.
type refusingNGC struct{ fakePinner }

func (r *refusingNGC) Digest(ctx context.Context, ref string) (string, error) {
	if strings.Contains(ref, "nvidia/pytorch") {
		return "", errors.New("manifest unknown")
	}
	return r.fakePinner.Digest(ctx, ref)
}

// TestBuildBaseProblems: each problem names the compose file, the
// service, the Dockerfile and its line, with a hint; an image only this
// engine has is pinned by its ID, with a note.
func TestBuildBaseProblems(t *testing.T) {
	big := strings.Repeat("#", int(safefile.MaxConfig)+1)
	tests := []struct {
		name    string
		files   map[string]string
		remove  string    // a file of the project removed
		link    [2]string // target, at
		fifo    string
		pin     Pinner
		local   LocalImages
		want    []string // in the error; nil: locks
		note    string
		invalid bool // a *spec.Error (exit 2)
	}{
		{name: "no registry has it, nor the engine", pin: &refusingNGC{}, local: fakeLocal{},
			want: []string{"docker/trainer.Dockerfile:4:1: ", `compose service "trainer" (compose.yaml) builds FROM nvcr.io/nvidia/pytorch:24.05-py3`, "manifest unknown", "nor does this machine's engine have it", "mirrors.registries.nvcr.io"}},
		{name: "only this engine has it", pin: &refusingNGC{}, local: fakeLocal{"nvcr.io/nvidia/pytorch:24.05-py3": localID},
			note: "compose service trainer: docker/trainer.Dockerfile builds FROM nvcr.io/nvidia/pytorch:24.05-py3, which is pinned by its local image ID " + localID},
		{name: "Dockerfile missing", remove: "docker/trainer.Dockerfile",
			want: []string{"compose.yaml: ", `compose service "trainer": its Dockerfile docker/trainer.Dockerfile does not exist`, "hint: fix build.context or build.dockerfile"}, invalid: true},
		{name: "Dockerfile too large", files: map[string]string{"docker/trainer.Dockerfile": big},
			want: []string{"compose.yaml: ", "docker/trainer.Dockerfile is over 8 MiB"}, invalid: true},
		{name: "Dockerfile is a link", remove: "docker/trainer.Dockerfile", files: map[string]string{"docker/real.Dockerfile": buildFiles["docker/trainer.Dockerfile"]},
			link: [2]string{"real.Dockerfile", "docker/trainer.Dockerfile"}, want: []string{"compose.yaml: ", "is a symbolic link (to real.Dockerfile)"}, invalid: true},
		{name: "Dockerfile is a FIFO", remove: "docker/trainer.Dockerfile", fifo: "docker/trainer.Dockerfile",
			want: []string{"compose.yaml: ", "is a FIFO"}, invalid: true},
		{name: "an unset ARG", files: map[string]string{"docker/trainer.Dockerfile": "ARG BASE\nFROM ${BASE}\n"},
			want: []string{"docker/trainer.Dockerfile:2:1: ", `compose service "trainer" (compose.yaml): its Dockerfile FROM ${BASE} names no image`, "hint: give the ARG a default"}, invalid: true},
		{name: "an inline Dockerfile's line", files: map[string]string{"compose.yaml": "services:\n  web:\n    build:\n      context: web\n      dockerfile_inline: |\n        FROM python:3.12-slim\n        FROM Not/Valid\n"},
			want: []string{"compose.yaml (dockerfile_inline):2:1: ", `compose service "web" (compose.yaml)`, "not an image reference"}, invalid: true},
		{name: "a context that is a URL", files: map[string]string{"compose.yaml": "services:\n  web:\n    build: https://github.com/example/web.git\n"},
			want: []string{"compose.yaml: ", `build.context "https://github.com/example/web.git" is not a directory on this machine`}, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range buildFiles {
				files[k] = v
			}
			for k, v := range tt.files {
				files[k] = v
			}
			p, dir := buildProjectAt(t, files)
			if tt.remove != "" {
				if err := os.Remove(filepath.Join(dir, tt.remove)); err != nil {
					t.Fatal(err)
				}
			}
			if tt.link[1] != "" {
				if err := os.Symlink(tt.link[0], filepath.Join(dir, tt.link[1])); err != nil {
					t.Fatal(err)
				}
			}
			if tt.fifo != "" {
				if err := syscall.Mkfifo(filepath.Join(dir, tt.fifo), 0o644); err != nil {
					t.Skip("no FIFO here:", err)
				}
			}
			pin := tt.pin
			if pin == nil {
				pin = &fakePinner{}
			}
			f, err := lockBuildProject(t, p, nil, pin, tt.local)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(strings.Join(f.Notes, "\n"), tt.note) {
					t.Errorf("notes %q do not say %q", f.Notes, tt.note)
				}
				return
			}
			if err == nil {
				t.Fatal("locked; want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
			if spec.IsInvalid(err) != tt.invalid {
				t.Errorf("a problem with the files: %v, want %v (%v)", spec.IsInvalid(err), tt.invalid, err)
			}
		})
	}
}
