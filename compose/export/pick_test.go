package export

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
	"go.yaml.in/yaml/v3"
)

// fixture parses testdata/<name>/devenv.yaml.
func fixture(t *testing.T, name string) *spec.Project {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return locktest.Project(t, dir)
}

// TestDevcontainerPicksAServiceThatMountsTheProject: without --service
// the devcontainer attaches to a service that mounts the project (the
// editor opens the project there), devenv's before a compose file's, never
// merely the first; with several it says which and why; its
// workspaceFolder is where that service sees the project.
func TestDevcontainerPicksAServiceThatMountsTheProject(t *testing.T) {
	for _, tc := range []struct {
		fixture, want, folder string
		why                   []string // in the note; none: no note
	}{
		{"pick", "shell", "/workspace", []string{"shell (devenv's service, mounting the project at /workspace); app mounts it too"}},
		{"pickcompose", "app", "/src", []string{"app (the first compose service by name, mounting the project at /src); tools mounts it too"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			p := fixture(t, tc.fixture)
			pl, err := PlanUnlocked(p, fileHost, testOptions(p))
			if err != nil {
				t.Fatal(err)
			}
			s, why, err := PickService(pl, "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tc.want {
				t.Errorf("picked %s, want %s", s.Name, tc.want)
			}
			for _, w := range tc.why {
				if !strings.Contains(why, w) {
					t.Errorf("the note %q does not say %q", why, w)
				}
			}
			_, d := devcontainerFor(t, p, fileHost)
			if d.Service != tc.want || d.WorkspaceFolder != tc.folder {
				t.Errorf("devcontainer.json service %q folder %q, want %q at %q", d.Service, d.WorkspaceFolder, tc.want, tc.folder)
			}
		})
	}
}

// TestComposeExportNamesTheImagesDevenvRuns: a compose build: service is
// exported with the image devenv builds and runs for it (docker compose
// then neither builds again nor recreates devenv's container for its
// image name), and an image pulled through a registry mirror is written as
// devenv.lock records it, never as the mirror's address, which goes to
// the override file for this machine alone.
func TestComposeExportNamesTheImagesDevenvRuns(t *testing.T) {
	const mirror = "127.0.0.1:5055"
	p := fixture(t, "pick")
	lf := fakeLock(t, p)
	opts := testOptions(p)
	opts.Mirrors = sources.Mirrors{Registries: map[string]string{"nvcr.io": mirror}}
	pl, err := plan.Make(p, lf, fileHost, opts)
	if err != nil {
		t.Fatal(err)
	}
	data := composeOf(t, pl, lf)
	var doc struct {
		Services map[string]struct {
			Image string         `yaml:"image"`
			Build map[string]any `yaml:"build"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	app := doc.Services["app"]
	if want := pl.Service("app").Image; app.Image != want || !strings.HasPrefix(want, "devenv/pick-app:") || app.Build == nil {
		t.Errorf("app: image %q build %v; want build: and the image devenv builds, %s", app.Image, app.Build, want)
	}
	shell := lf.Service("shell").Base.Pinned()
	if got := doc.Services["shell"].Image; got != shell {
		t.Errorf("shell image %q, want devenv.lock's %s", got, shell)
	}
	if strings.Contains(string(data), mirror) {
		t.Errorf("the export names the mirror %s:\n%s", mirror, data)
	}
	override, err := MirrorsOverride(pl)
	if err != nil {
		t.Fatal(err)
	}
	var over types.Project
	if err := yaml.Unmarshal(override, &over); err != nil {
		t.Fatal(err)
	}
	if got := over.Services["shell"].Image; got != pl.Service("shell").Image || !strings.HasPrefix(got, mirror+"/") {
		t.Errorf("the override names shell's image %q, want the mirrored %s:\n%s", got, pl.Service("shell").Image, override)
	}
	if len(over.Services) != 1 {
		t.Errorf("the override names %d services, want shell's alone:\n%s", len(over.Services), override)
	}

	opts.Mirrors = sources.Mirrors{}
	if pl, err = plan.Make(p, lf, fileHost, opts); err != nil {
		t.Fatal(err)
	}
	if override, err := MirrorsOverride(pl); err != nil || override != nil {
		t.Errorf("without mirrors the override is %q (%v), want none", override, err)
	}
}
