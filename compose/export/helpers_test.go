package export

import (
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/internal/goldenfile"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// loadProject parses testdata/project/devenv.yaml.
func loadProject(t *testing.T) *spec.Project {
	t.Helper()
	return fixture(t, "project")
}

// fakeLock is a lock as `devenv lock` would write it, with made-up but
// stable digests and checksums (sha256 of the reference or URL).
func fakeLock(t *testing.T, p *spec.Project) *lock.File {
	t.Helper()
	lf, err := Unlocked(t.Context(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	return locktest.Stable(t, p, lf)
}

// makePlan plans the test project on a 16-CPU, 64 GiB machine without NVML.
func makePlan(t *testing.T, p *spec.Project, lf *lock.File) *plan.Plan {
	t.Helper()
	pl, err := plan.Make(p, lf, testHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

var testHost = plan.Host{CPUs: 16, MemoryBytes: 64 << 30}

func testOptions(p *spec.Project) plan.Options {
	return plan.Options{Token: "test-token", StateDir: filepath.Join(p.Dir, ".devenv")}
}

// fileHost is how the app plans compose and devcontainer exports: gpu:
// optional services on the CPU, so the files start on any machine.
var fileHost = plan.Host{CPUs: 16, MemoryBytes: 64 << 30, OptionalOnCPU: true}

// locked and unlocked are the two ways the app plans a compose or
// devcontainer export; lockedK8s plans a Kubernetes export.
func locked(t *testing.T) (*plan.Plan, *lock.File) {
	p := loadProject(t)
	lf := fakeLock(t, p)
	pl, err := plan.Make(p, lf, fileHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	return pl, lf
}

func lockedK8s(t *testing.T) (*plan.Plan, *lock.File) {
	p := loadProject(t)
	lf := fakeLock(t, p)
	return makePlan(t, p, lf), lf
}

func unlocked(t *testing.T) *plan.Plan {
	p := loadProject(t)
	pl, err := PlanUnlocked(p, fileHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// portable hides the checkout's location from goldens.
func portable(b []byte) []byte {
	dir, _ := filepath.Abs(filepath.Join("testdata", "project"))
	out := strings.ReplaceAll(string(b), dir, "$PROJECT")
	// devenv's own hash covers the absolute paths of bind mounts, so it
	// differs in every checkout (TestComposeExportHashesAreDevenvs checks
	// the hashes themselves)
	return ownHash.ReplaceAll([]byte(out), []byte("${1}$$HASH"))
}

var ownHash = regexp.MustCompile(`(dev\.devenv\.config-hash: )[0-9a-f]+`)

// same is DeepEqual that takes a nil and an empty slice as equal.
func same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() == reflect.Slice && vb.Kind() == reflect.Slice && va.Len() == 0 && vb.Len() == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// composeOf is the compose export of pl, rendered as the app renders it.
func composeOf(t *testing.T, pl *plan.Plan, lf *lock.File) []byte {
	t.Helper()
	proj, err := project.FromPlan(pl, project.Options{WorkingDir: pl.Project0.Dir})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Compose(pl, proj, lf)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
