package view

import (
	"bytes"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/app"
)

func TestExportLines(t *testing.T) {
	tests := []struct {
		name           string
		res            app.ExportResult
		warnings, says string
	}{
		{"compose, pinned", app.ExportResult{Format: app.ExportCompose, Project: "demo", Pinned: true, Written: []string{"compose.devenv.yaml"},
			RunWith: "docker compose -p demo -f compose.devenv.yaml up -d"},
			"", "wrote compose.devenv.yaml; run it with: docker compose -p demo -f compose.devenv.yaml up -d"},
		{"compose with the token and mirrors", app.ExportResult{Format: app.ExportCompose, Project: "demo", Pinned: true,
			Written: []string{"c.yaml", ".devenv/compose.mirrors.yaml"},
			RunWith: "JUPYTER_TOKEN=$(cat .devenv/jupyter-token) docker compose -p demo -f c.yaml -f .devenv/compose.mirrors.yaml up -d"},
			"", "wrote c.yaml; run it with: JUPYTER_TOKEN=$(cat .devenv/jupyter-token) docker compose -p demo -f c.yaml -f .devenv/compose.mirrors.yaml up -d|wrote .devenv/compose.mirrors.yaml (the images as this machine pulls them, through its mirrors; the export names devenv.lock's)"},
		{"devcontainer, chosen among several", app.ExportResult{Format: app.ExportDevcontainer, Pinned: true, Written: []string{".devcontainer/devcontainer.json"},
			Chose: "shell (devenv's service, mounting the project at /workspace); app mounts it too: pass --service to pick another"},
			"", "wrote .devcontainer/devcontainer.json|attaches to shell (devenv's service, mounting the project at /workspace); app mounts it too: pass --service to pick another"},
		{"devcontainer without a lock", app.ExportResult{Format: app.ExportDevcontainer, Written: []string{"c.yaml", ".devcontainer/devcontainer.json"}, Started: "c.yaml"},
			"no devenv.lock: exporting images by tag, not digest; run devenv lock to pin them",
			"wrote c.yaml (the devcontainer starts it)|wrote .devcontainer/devcontainer.json"},
		{"k8s from a stale lock, nothing written", app.ExportResult{Format: app.ExportK8s, Pinned: true, Stale: "spark changed", Note: "no service to export"},
			"devenv.lock is stale (spark changed): exporting what it pins; run devenv lock to refresh it", "no service to export"},
	}
	for _, tt := range tests {
		if got := strings.Join(ExportWarnings(&tt.res), "|"); got != tt.warnings {
			t.Errorf("%s: warnings %q, want %q", tt.name, got, tt.warnings)
		}
		if got := strings.Join(Exported(&tt.res), "|"); got != tt.says {
			t.Errorf("%s: says %q, want %q", tt.name, got, tt.says)
		}
	}
}

func TestLock(t *testing.T) {
	var b bytes.Buffer
	Lock(&b, &app.LockResult{UpToDate: true})
	Lock(&b, &app.LockResult{Changed: true, Services: make([]lock.Service, 2)})
	Lock(&b, &app.LockResult{})
	Lock(&b, &app.LockResult{Changed: true, Services: make([]lock.Service, 1), Changes: []string{"service spark: java 17 -> 11"}})
	if want := "devenv.lock is up to date\nwrote devenv.lock (2 services)\ndevenv.lock unchanged\nwrote devenv.lock (1 services)\n  service spark: java 17 -> 11\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
