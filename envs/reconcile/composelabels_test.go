package reconcile

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestComposeLabelsAsComposeWritesThem: a compose service's container
// carries Compose's version and config_files labels, and the image of its
// build Compose's image labels (its build.labels, builder, version,
// project, service), as Compose's loader and classic build write them;
// none of them moves a config hash, so up again recreates nothing.
func TestComposeLabelsAsComposeWritesThem(t *testing.T) {
	pl, dir := builtComposePlan(t, map[string]string{})
	pl.Service("app").Compose.Config.Service.Build.Labels = map[string]string{"org.example.team": "data"}
	f := enginetest.New()
	r := newRunner(t, f)
	r.StateDir, r.ComposeVersion = filepath.Join(dir, ".devenv"), "5.6.0"
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := f.Inspect(t.Context(), pl.Service("app").Container.ContainerName)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{labels.ComposeVersion: "5.6.0", labels.ComposeConfigFiles: filepath.Join(dir, "compose.yaml"),
		labels.ComposeWorkingDir: dir, labels.ComposeProject: "p", labels.ComposeService: "app"}
	for k, v := range want {
		if st.Labels[k] != v {
			t.Errorf("container label %s = %q, want %q", k, st.Labels[k], v)
		}
	}
	builds := f.CallsTo("Build")
	if len(builds) != 1 {
		t.Fatalf("%d builds, want 1", len(builds))
	}
	img := builds[0].Arg.(engine.BuildRequest).Labels
	wantImg := map[string]string{labels.ComposeImageBuilder: "classic", labels.ComposeVersion: "5.6.0", labels.ComposeProject: "p",
		labels.ComposeService: "app", "org.example.team": "data", labels.Project: "p", labels.Service: "app"}
	for k, v := range wantImg {
		if img[k] != v {
			t.Errorf("image label %s = %q, want %q", k, img[k], v)
		}
	}
	res, err := r.Up(t.Context(), pl, UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["app"] != Unchanged {
		t.Errorf("up again: %v, want app unchanged", a)
	}
}
