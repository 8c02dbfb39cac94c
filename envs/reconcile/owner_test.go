package reconcile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
)

// TestTwoDirectoriesOneName: a project name whose network, containers or
// volumes another directory created is refused by up and down, before
// anything is created or removed; an unlabelled network of that name is
// refused too, an unlabelled volume is used (made by hand or by compose),
// a volume of another devenv project is refused.
func TestTwoDirectoriesOneName(t *testing.T) {
	withDir := func(dir string) map[string]string {
		l := plan.Labels("p", "")
		l[labels.Dir] = dir
		return l
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, f *enginetest.Fake)
		wantErr string // "" means up succeeds
	}{
		{"nothing there", func(*testing.T, *enginetest.Fake) {}, ""},
		{"network from an older devenv (no directory label)", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureNetwork(t.Context(), "p", plan.Labels("p", ""))
			must(t, err)
		}, ""},
		{"unlabelled network with the project's name", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureNetwork(t.Context(), "p", nil)
			must(t, err)
		}, "devenv did not create it"},
		{"network of another directory", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureNetwork(t.Context(), "p", withDir("/src/clone-a"))
			must(t, err)
		}, "in use by /src/clone-a"},
		{"volume from an older devenv (no directory label)", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureVolume(t.Context(), "p_cache", plan.Labels("p", ""))
			must(t, err)
		}, ""},
		{"unlabelled volume with the project's volume name", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureVolume(t.Context(), "p_cache", nil)
			must(t, err)
		}, ""},
		{"volume of another directory", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureVolume(t.Context(), "p_cache", withDir("/src/clone-a"))
			must(t, err)
		}, "in use by /src/clone-a (its volume p_cache was created there)"},
		{"volume of another project", func(t *testing.T, f *enginetest.Fake) {
			_, err := f.EnsureVolume(t.Context(), "p_cache", plan.Labels("q", ""))
			must(t, err)
		}, `belongs to devenv project "q"`},
		{"containers of another directory", func(t *testing.T, f *enginetest.Fake) {
			ctx := t.Context()
			_, err := f.EnsureNetwork(ctx, "p", plan.Labels("p", ""))
			must(t, err)
			must(t, f.Pull(ctx, "postgres@sha256:1", nil))
			spec := fakeSpec(svc("db", "postgres@sha256:1"))
			spec.Labels[labels.Dir] = "/src/clone-a"
			_, err = f.Create(ctx, spec)
			must(t, err)
		}, "in use by /src/clone-a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			tt.setup(t, f)
			before := len(f.CallsTo("Create"))
			r := newRunner(t, f)
			_, err := r.Up(t.Context(), testPlan(), UpOptions{})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Up = %v", err)
				}
				st, _ := f.Inspect(t.Context(), "p-db")
				if st.Labels[labels.Dir] != r.projectDir() {
					t.Errorf("container labels %v lack %s=%s", st.Labels, labels.Dir, r.projectDir())
				}
				if tt.name == "nothing there" {
					vols, _ := f.List(t.Context(), engine.Volumes, nil)
					if len(vols) != 1 || vols[0].Labels[labels.Dir] != r.projectDir() || vols[0].Labels[labels.Project] != "p" {
						t.Errorf("volumes %+v, want p_cache labelled with the project and %s=%s", vols, labels.Dir, r.projectDir())
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Up = %v, want an error saying %q", err, tt.wantErr)
			}
			if n := len(f.CallsTo("Create")); n != before {
				t.Errorf("a refused up created %d containers", n-before)
			}
			if strings.Contains(tt.name, "volume of another directory") {
				if nets, _ := f.List(t.Context(), engine.Networks, nil); len(nets) != 0 {
					t.Errorf("a refused up left the network %v, which would block the other clone", nets)
				}
			}
			if strings.Contains(tt.name, "containers") {
				if _, err := r.Down(t.Context(), "p", DownOptions{}); err == nil {
					t.Error("down removed another directory's project")
				}
				if objs, _ := f.List(t.Context(), engine.Containers, nil); len(objs) != 1 {
					t.Errorf("containers after a refused down: %v", objs)
				}
			}
		})
	}
}

// TestDownVolumesRefusesAnotherDirectorysVolume: down --volumes removes
// nothing when a volume of the project holds another clone's data; down
// without --volumes leaves volumes alone and goes ahead.
func TestDownVolumesRefusesAnotherDirectorysVolume(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	l := plan.Labels("p", "")
	l[labels.Dir] = "/src/clone-a"
	_, err := f.EnsureVolume(t.Context(), "p_cache", l)
	must(t, err)
	_, err = f.EnsureNetwork(t.Context(), "p", plan.Labels("p", ""))
	must(t, err)
	if _, err := r.Down(t.Context(), "p", DownOptions{Volumes: true}); err == nil || !strings.Contains(err.Error(), "in use by /src/clone-a") {
		t.Fatalf("down --volumes = %v, want a refusal naming /src/clone-a", err)
	}
	if n := len(f.CallsTo("Remove")); n != 0 {
		t.Errorf("a refused down removed %d objects", n)
	}
	if _, err := r.Down(t.Context(), "p", DownOptions{}); err != nil {
		t.Fatalf("down without --volumes = %v", err)
	}
	if vols, _ := f.List(t.Context(), engine.Volumes, nil); len(vols) != 1 {
		t.Errorf("volumes after down: %v, want clone-a's kept", vols)
	}
}

// TestLockSerialisesOnTheProjectName: two directories using one project
// name wait for each other; different names do not.
func TestLockSerialisesOnTheProjectName(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	ctx := t.Context()
	release, err := Lock(ctx, t.TempDir(), LockOptions{Project: "shared"})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	_, err = Lock(ctx, t.TempDir(), LockOptions{Project: "shared", Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), `"shared"`) {
		t.Fatalf("second directory, same name: %v, want a timeout naming the project", err)
	}
	other, err := Lock(ctx, t.TempDir(), LockOptions{Project: "other", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("another name waited: %v", err)
	}
	other()
}

// TestPerServiceVerbsRefuseAnotherDirectory: stop, start, restart and rm
// on a project whose containers another directory created change nothing
// and name that directory.
func TestPerServiceVerbsRefuseAnotherDirectory(t *testing.T) {
	verbs := map[string]func(*Runner, Selection) ([]Change, error){
		"stop":    func(r *Runner, s Selection) ([]Change, error) { return r.Stop(t.Context(), s) },
		"start":   func(r *Runner, s Selection) ([]Change, error) { return r.Start(t.Context(), s) },
		"restart": func(r *Runner, s Selection) ([]Change, error) { return r.Restart(t.Context(), s) },
		"rm":      func(r *Runner, s Selection) ([]Change, error) { return r.Rm(t.Context(), s, true) },
	}
	for name, verb := range verbs {
		t.Run(name, func(t *testing.T) {
			f := enginetest.New()
			_, err := f.EnsureNetwork(t.Context(), "p", plan.Labels("p", ""))
			must(t, err)
			must(t, f.Pull(t.Context(), "postgres@sha256:1", nil))
			spec := fakeSpec(svc("db", "postgres@sha256:1"))
			spec.Labels[labels.Dir] = "/src/clone-a"
			id, err := f.Create(t.Context(), spec)
			must(t, err)
			before := len(f.Calls())
			_, err = verb(newRunner(t, f), Selection{Project: "p"})
			if err == nil || !strings.Contains(err.Error(), "in use by /src/clone-a") {
				t.Fatalf("%s = %v, want a refusal naming /src/clone-a", name, err)
			}
			for _, c := range f.Calls()[before:] {
				if c.Method != "List" {
					t.Errorf("%s changed the engine after refusing: %+v (container %s)", name, c, id)
				}
			}
		})
	}
}

// TestAMovedProjectIsAdopted: a project whose directory was moved or
// deleted (Gone) is taken over by the directory that runs devenv now: up
// recreates its containers with this directory's label and joins its
// network and volume, saying so; down removes its containers and network.
// A directory still there is refused as before; so is anything when the
// engine is elsewhere (DirGone of a remote engine).
func TestAMovedProjectIsAdopted(t *testing.T) {
	old := filepath.Join(t.TempDir(), "proj") // moved away: nothing there
	there := t.TempDir()
	must(t, os.Mkdir(filepath.Join(there, ".devenv"), 0o755))
	tests := []struct {
		name    string
		dir     string
		gone    func(string) bool
		wantErr string
	}{
		{"moved away, local engine", old, DirGone(true, ".devenv"), ""},
		{"still there, local engine", there, DirGone(true, ".devenv"), "in use by " + there},
		{"moved away, remote engine", old, DirGone(false, ".devenv"), "in use by " + old},
		{"moved away, no Gone", old, nil, "in use by " + old},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			l := plan.Labels("p", "")
			l[labels.Dir] = tt.dir
			ctx := t.Context()
			_, err := f.EnsureNetwork(ctx, "p", l)
			must(t, err)
			_, err = f.EnsureVolume(ctx, "p_cache", l)
			must(t, err)
			must(t, f.Pull(ctx, "postgres@sha256:1", nil))
			spec := fakeSpec(svc("db", "postgres@sha256:1"))
			spec.Labels[labels.Dir] = tt.dir
			_, err = f.Create(ctx, spec)
			must(t, err)
			var said strings.Builder
			r := newRunner(t, f)
			r.Out = &ui.Printer{Out: io.Discard, Err: &said}
			r.Gone = tt.gone
			_, upErr := r.Up(ctx, testPlan(), UpOptions{})
			_, downErr := r.Down(ctx, "p", DownOptions{})
			if tt.wantErr != "" {
				for what, err := range map[string]error{"up": upErr, "down": downErr} {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Errorf("%s = %v, want a refusal saying %q", what, err, tt.wantErr)
					}
				}
				return
			}
			if upErr != nil || downErr != nil {
				t.Fatalf("up = %v, down = %v", upErr, downErr)
			}
			if !strings.Contains(said.String(), tt.dir) || !strings.Contains(said.String(), "moved or deleted") {
				t.Errorf("the adoption was not said: %q", said.String())
			}
			for _, k := range []engine.Kind{engine.Containers, engine.Networks} {
				if objs, _ := f.List(ctx, k, nil); len(objs) != 0 {
					t.Errorf("%s left after down: %v", k, objs)
				}
			}
		})
	}
}
