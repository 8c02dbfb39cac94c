package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestProjectNetworkAsDeclared: the project network (default) is the one a
// compose file declares, by its name: (devenv's labels on it, devenv makes
// it) or external (used as it is, no labels), and devenv's own services
// join it too; a service is on the networks it names only.
func TestProjectNetworkAsDeclared(t *testing.T) {
	cases := []struct {
		name, networks string
		want           string
		external       bool
	}{
		{"undeclared", "", "demo", false},
		{"named", "networks:\n  default: {name: nvidia-rag}\n", "nvidia-rag", false},
		{"external", "networks:\n  default: {name: shared-net, external: true}\n", "shared-net", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			compose := "services:\n  app: {image: busybox:1}\n  db: {image: busybox:1, networks: [back]}\n" + c.networks
			if c.networks == "" {
				compose += "networks:\n"
			}
			compose += "  back: {}\n"
			write := func(f, s string) {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("compose.yaml", compose)
			write("devenv.yaml", "name: demo\ncompose: [compose.yaml]\nservices:\n  own: {profile: image, image: \"busybox:1\"}\n")
			p := locktest.Project(t, dir)
			pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if pl.Network != c.want || pl.NetworkExternal != c.external {
				t.Errorf("plan network %q external %v, want %q %v", pl.Network, pl.NetworkExternal, c.want, c.external)
			}
			proj, err := FromPlan(pl, Options{WorkingDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			n := proj.Networks[DefaultNetwork]
			if n.Name != c.want || bool(n.External) != c.external || (n.Labels[labels.Project] != "") == c.external {
				t.Errorf("default network %+v, want %q external %v, devenv's labels unless external", n, c.want, c.external)
			}
			for svc, want := range map[string]string{"app": DefaultNetwork, "own": DefaultNetwork, "db": "back"} {
				nets := proj.Services[svc].Networks
				if _, ok := nets[want]; !ok || len(nets) != 1 {
					t.Errorf("%s on networks %v, want only %s", svc, nets, want)
				}
			}
			if pl.Network != c.want {
				t.Errorf("planned on network %q, want %q", pl.Network, c.want)
			}
		})
	}
}
