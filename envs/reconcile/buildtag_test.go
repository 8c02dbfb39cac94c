package reconcile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// builtComposePlan plans a compose-only project whose service app builds
// from dir/app, which holds files (name -> content).
func builtComposePlan(t *testing.T, files map[string]string) (*plan.Plan, string) {
	t.Helper()
	dir := t.TempDir()
	files["devenv.yaml"] = "name: p\ncompose: [compose.yaml]\n"
	files["compose.yaml"] = "services:\n  app:\n    build: ./app\n"
	files["app/Dockerfile"] = "FROM scratch\nCOPY . /src\n"
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	data, err := os.ReadFile(filepath.Join(dir, "devenv.yaml"))
	must(t, err)
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), data, dir)
	must(t, err)
	pl, err := plan.Make(p, &lock.File{}, plan.Host{CPUs: 4, MemoryBytes: 8 << 30}, plan.Options{StateDir: filepath.Join(dir, ".devenv")})
	must(t, err)
	return pl, dir
}

// TestBuildTagIsThePlansTag: a build context that changes between the
// plan and the build (a log file appended, a file added) is built under
// the tag the plan computed, from the bytes that tag was computed from,
// and the container runs that image; it was tagged from a second read of
// the context, and the container's image did not exist ("No such
// image").
func TestBuildTagIsThePlansTag(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, app string)
	}{
		{"a log file appended", func(t *testing.T, app string) {
			f, err := os.OpenFile(filepath.Join(app, "app.log"), os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.WriteString("another line\n")
			must(t, err)
			must(t, f.Close())
		}},
		{"a file added", func(t *testing.T, app string) {
			must(t, os.WriteFile(filepath.Join(app, "new.txt"), []byte("new\n"), 0o644))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, dir := builtComposePlan(t, map[string]string{"app/app.log": "first line\n"})
			want := pl.Service("app").Image
			tt.change(t, filepath.Join(dir, "app"))
			f := enginetest.New()
			r := newRunner(t, f)
			r.StateDir = filepath.Join(dir, ".devenv")
			if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
				t.Fatalf("up: %v", err)
			}
			builds := f.CallsTo("Build")
			if len(builds) != 1 {
				t.Fatalf("%d builds, want 1", len(builds))
			}
			if tags := builds[0].Arg.(engine.BuildRequest).Tags; len(tags) != 1 || tags[0] != want {
				t.Errorf("built %v, the plan runs %s", tags, want)
			}
			st, err := f.Inspect(t.Context(), pl.Service("app").Container.ContainerName)
			if err != nil {
				t.Fatal(err)
			}
			if st.Image != want || st.Labels[labels.Service] != "app" {
				t.Errorf("container runs %s, want %s", st.Image, want)
			}
		})
	}
}

// TestBuildRefusesAFileRewrittenSinceThePlan: a file of the context
// rewritten in place after its digest went into the tag is not sent
// under that tag: the build stops and names it.
func TestBuildRefusesAFileRewrittenSinceThePlan(t *testing.T) {
	pl, dir := builtComposePlan(t, map[string]string{"app/conf.txt": "one\n"})
	must(t, os.WriteFile(filepath.Join(dir, "app", "conf.txt"), []byte("two\n"), 0o644))
	f := enginetest.New()
	r := newRunner(t, f)
	r.StateDir = filepath.Join(dir, ".devenv")
	_, err := r.Up(t.Context(), pl, UpOptions{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "app", "conf.txt")) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("up = %v, want the changed file named", err)
	}
	if ok, _ := f.ImageExists(t.Context(), pl.Service("app").Image); ok {
		t.Errorf("the plan's tag %s names an image built from other bytes", pl.Service("app").Image)
	}
}

// TestComposeBuildCarriesComposesNames: up tags a compose build's image
// with the service's image: as Compose does, when it builds it and when
// it finds it built (a name removed or taken since is the build's again).
func TestComposeBuildCarriesComposesNames(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"devenv.yaml":    "name: p\ncompose: [compose.yaml]\n",
		"compose.yaml":   "services:\n  app:\n    image: example/app:1.0\n    build: ./app\n",
		"app/Dockerfile": "FROM scratch\nCOPY . /src\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	data, err := os.ReadFile(filepath.Join(dir, "devenv.yaml"))
	must(t, err)
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), data, dir)
	must(t, err)
	pl, err := plan.Make(p, &lock.File{}, plan.Host{CPUs: 4, MemoryBytes: 8 << 30}, plan.Options{StateDir: filepath.Join(dir, ".devenv")})
	must(t, err)
	f := enginetest.New()
	r := newRunner(t, f)
	r.StateDir = filepath.Join(dir, ".devenv")
	for _, round := range []string{"built", "found built"} {
		if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
			t.Fatalf("%s: up: %v", round, err)
		}
		id, err := f.ImageID(t.Context(), "example/app:1.0")
		must(t, err)
		if want, _ := f.ImageID(t.Context(), pl.Service("app").Image); id == "" || id != want {
			t.Errorf("%s: example/app:1.0 is image %q; want the build, %q", round, id, want)
		}
		must(t, f.RemoveImage(t.Context(), "example/app:1.0"))
	}
}
