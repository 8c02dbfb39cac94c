package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestComposeLabelsOnEveryService: every service of the project carries
// the labels Compose's loader gives each service: its version and the
// project's files (the compose files, as Compose names them; devenv.yaml
// for a project without any), beside project, service, working_dir and
// one-off.
func TestComposeLabelsOnEveryService(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  func(dir string) string // config_files
	}{
		{"compose files", map[string]string{
			"devenv.yaml":     "name: demo\ncompose: [compose.yaml, more/extra.yaml]\nservices:\n  own: {profile: image, image: \"busybox:1\"}\n",
			"compose.yaml":    "services:\n  web: {image: busybox:1}\n",
			"more/extra.yaml": "services:\n  db: {image: busybox:1}\n",
		}, func(dir string) string {
			return filepath.Join(dir, "compose.yaml") + "," + filepath.Join(dir, "more", "extra.yaml")
		}},
		{"no compose file", map[string]string{
			"devenv.yaml": "name: demo\nservices:\n  own: {profile: image, image: \"busybox:1\"}\n",
		}, func(dir string) string { return filepath.Join(dir, "devenv.yaml") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for f, text := range tt.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := locktest.Project(t, dir)
			pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			proj, err := FromPlan(pl, Options{WorkingDir: dir, ComposeVersion: "5.6.0"})
			if err != nil {
				t.Fatal(err)
			}
			for name, svc := range proj.Services {
				want := map[string]string{labels.ComposeVersion: "5.6.0", labels.ComposeConfigFiles: tt.want(dir),
					labels.ComposeProject: "demo", labels.ComposeService: name, labels.ComposeWorkingDir: dir, labels.ComposeOneoff: "False"}
				for k, v := range want {
					if svc.CustomLabels[k] != v {
						t.Errorf("%s: %s = %q, want %q", name, k, svc.CustomLabels[k], v)
					}
				}
			}
		})
	}
}
