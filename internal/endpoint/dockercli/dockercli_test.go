package dockercli

import (
	"reflect"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
)

// TestClientOptionsPinTheResolvedEngine: docker/cli's Initialize resolves
// again from its flags; they name the context devenv resolved, or the
// default context's address, so the environment cannot pick another engine.
func TestClientOptionsPinTheResolvedEngine(t *testing.T) {
	for _, c := range []struct {
		name    string
		e       endpoint.Endpoint
		context string
		hosts   []string
	}{
		{"a context", endpoint.Endpoint{Context: "gpubox", Host: "ssh://me@gpubox"}, "gpubox", nil},
		{"DOCKER_HOST", endpoint.Endpoint{Context: endpoint.DefaultContext, Host: "tcp://10.0.0.5:2376"}, "", []string{"tcp://10.0.0.5:2376"}},
		{"the socket", endpoint.Endpoint{Context: endpoint.DefaultContext, Host: "unix:///var/run/docker.sock"}, "", []string{"unix:///var/run/docker.sock"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := clientOptions(&c.e, endpoint.Options{ConfigDir: "/cfg"})
			if got.Context != c.context || !reflect.DeepEqual(got.Hosts, c.hosts) || got.ConfigDir != "/cfg" {
				t.Errorf("options = context %q hosts %v config %q; want %q %v /cfg", got.Context, got.Hosts, got.ConfigDir, c.context, c.hosts)
			}
		})
	}
}
