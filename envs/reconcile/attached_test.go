package reconcile

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
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
