package reconcile

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/docker/compose/v5/pkg/api"
)

// TestAttached: a container is on the project network when it refers to
// its current id; one never started (the engine lists it on the network
// with no id, as Docker 20.10 does) counts as attached, as Compose has it.
func TestAttached(t *testing.T) {
	tests := []struct {
		name  string
		netID string // the project network's id now
		ids   map[string]string
		want  bool
	}{
		{"on the current network", "n2", map[string]string{"p": "n2"}, true},
		{"on a network removed since", "n2", map[string]string{"p": "n1"}, false},
		{"disconnected", "n2", map[string]string{"other": "x"}, false},
		{"never started: no id yet", "n2", map[string]string{"p": ""}, true},
		{"the engine said nothing", "n2", nil, true},
		{"in a dry run, on a network up will create anew", networkUpCreates, map[string]string{"p": "n1"}, false},
		{"in a dry run, never started", networkUpCreates, map[string]string{"p": ""}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := attached(engine.Object{NetworkIDs: tt.ids}, "p", projectNet{name: "p", id: tt.netID}); got != tt.want {
				t.Errorf("attached = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestImageChanged: a container is made again when its service's image is
// another one now than the one Compose labelled it with, as Compose has it.
func TestImageChanged(t *testing.T) {
	if composeImageLabel != api.ImageDigestLabel {
		t.Fatalf("composeImageLabel %q is not Compose's %q", composeImageLabel, api.ImageDigestLabel)
	}
	made := func(l map[string]string) engine.Object { return engine.Object{Labels: l} }
	tests := []struct {
		name string
		cur  engine.Object
		id   string
		want bool
	}{
		{"the same image", made(map[string]string{composeImageLabel: "sha256:a"}), "sha256:a", false},
		{"another image under the name", made(map[string]string{composeImageLabel: "sha256:a"}), "sha256:b", true},
		{"the image not there yet (to be pulled or built)", made(map[string]string{composeImageLabel: "sha256:a"}), "", false},
		{"no label (not made by Compose)", made(map[string]string{}), "sha256:b", false},
		{"made by an earlier devenv", made(map[string]string{composeImageLabel: "sha256:a", labels.ComposeConfigHash: "devenv-h"}), "sha256:b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := imageChanged(tt.cur, tt.id); got != tt.want {
				t.Errorf("imageChanged = %v, want %v", got, tt.want)
			}
		})
	}
}
