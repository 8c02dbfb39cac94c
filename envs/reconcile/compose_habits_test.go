package reconcile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
)

// TestUpForceRecreate: --force-recreate recreates unchanged containers,
// --no-deps leaves the dependencies alone, and both preview the same way.
func TestUpForceRecreateAndNoDeps(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	pl := testPlan()
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	prev, err := r.Up(t.Context(), pl, UpOptions{ForceRecreate: true, NoDeps: true, Services: []string{"app"}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(prev.Changes); a["app"] != Recreated || a["db"] != "" {
		t.Errorf("dry run of up --force-recreate --no-deps app: %v", a)
	}
	res, err := r.Up(t.Context(), pl, UpOptions{ForceRecreate: true, NoDeps: true, Services: []string{"app"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["app"] != Recreated || a["db"] != "" {
		t.Errorf("up --force-recreate --no-deps app: %v", a)
	}
}

// TestUpNamesAndRemovesOrphans: a container of a service the plan no
// longer has is named (as Compose does) and left, or removed with
// --remove-orphans; the containers of planned services are untouched.
func TestUpNamesAndRemovesOrphans(t *testing.T) {
	f := enginetest.New()
	var errOut bytes.Buffer
	r := newRunner(t, f)
	r.Out = &ui.Printer{Out: &bytes.Buffer{}, Err: &errOut}
	pl := testPlan()
	pl.Services = append(pl.Services, svc("old", "old@sha256:3"))
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	pl = testPlan()
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "orphan containers (p-old)") || !strings.Contains(errOut.String(), "--remove-orphans") {
		t.Errorf("up does not name the orphan:\n%s", errOut.String())
	}
	if !hasContainer(t, f, "p-old") {
		t.Fatal("up without --remove-orphans removed the orphan")
	}
	res, err := r.Up(t.Context(), pl, UpOptions{RemoveOrphans: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["old"] != Removed || a["app"] != Unchanged || a["db"] != Unchanged {
		t.Errorf("up --remove-orphans: %v", a)
	}
	if hasContainer(t, f, "p-old") || !hasContainer(t, f, "p-app") {
		t.Error("the orphan is still there, or a planned container went")
	}
}

// TestCreatedContainersCarryComposeLabels: docker compose -p NAME lists a
// container only with Compose's project, one-off and config-hash labels;
// the hash is Compose's own of the rendered service (so Compose adopts the
// container rather than recreating it), and none of it moves devenv's own
// config hash.
func TestCreatedContainersCarryComposeLabels(t *testing.T) {
	f := enginetest.New()
	pl := testPlan()
	r := newRunner(t, f)
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	proj, err := r.render(pl)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := f.List(t.Context(), engine.Containers, map[string]string{labels.ComposeProject: "p", labels.ComposeOneoff: "False"})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("compose's filters find %d containers, want 2", len(objs))
	}
	for _, o := range objs {
		want, err := f.ServiceHash(proj.Services[o.Labels[labels.Service]])
		if err != nil {
			t.Fatal(err)
		}
		if o.Labels[labels.ComposeService] != o.Labels[labels.Service] || o.Labels[labels.ComposeConfigHash] != want || o.Labels[labels.ComposeNumber] != "1" {
			t.Errorf("%s labels %v", o.Name, o.Labels)
		}
	}
	if pl.Service("app").ConfigHash != "h-app" {
		t.Error("compose labels changed devenv's hash")
	}
}

func hasContainer(t *testing.T, f *enginetest.Fake, name string) bool {
	t.Helper()
	objs, err := f.List(t.Context(), engine.Containers, plan.Labels("p", ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o.Name == name {
			return true
		}
	}
	return false
}

// TestNoBuildBuildsNothing: as Compose's up --no-build, an image that is
// not built yet is an error naming devenv build, and nothing is built or
// pulled; once built, --no-build uses it.
func TestNoBuildBuildsNothing(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	r.Lock = buildLock(f.AddImage(localBase, nil))
	f.AddImage(pinnedBase, nil)
	s := builtService(t)
	_, err := r.Images(t.Context(), []*plan.Service{s}, BuildOptions{NoBuild: true})
	if err == nil || !strings.Contains(err.Error(), "--no-build forbids building it: run devenv build") {
		t.Fatalf("--no-build of an image not built: %v", err)
	}
	if n := len(f.CallsTo("Build")) + len(f.CallsTo("Pull")); n != 0 {
		t.Errorf("--no-build made %d build or pull calls", n)
	}
	f.AddImage(s.Image, nil) // as devenv build leaves it
	ch, err := r.Images(t.Context(), []*plan.Service{s}, BuildOptions{NoBuild: true})
	if err != nil || len(ch) != 0 {
		t.Errorf("--no-build of a built image: %v, %v", ch, err)
	}
}
