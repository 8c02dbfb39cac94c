package dockercli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	dcontext "github.com/docker/cli/cli/context"
	"github.com/docker/cli/cli/context/store"
	"github.com/moby/moby/client"
)

// TestIntegrationDockerCliReachesTheEngineOfInternalEngine: the docker CLI
// value built for the Compose SDK and internal/engine's client, resolved
// from the same options, talk to one engine: a volume internal/engine makes
// is what the SDK's client inspects, labels and all. Once through a docker
// context (a config folder whose currentContext names it), once through the
// default context (DOCKER_HOST or the socket).
func TestIntegrationDockerCliReachesTheEngineOfInternalEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test (Docker engine): skipped with -short; run make integration")
	}
	def, err := endpoint.Resolve(endpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	withContext := t.TempDir()
	writeStoreContext(t, withContext, "devenv-sdk-test", def.Host)
	for _, c := range []struct {
		name    string
		opts    endpoint.Options
		context string
	}{
		{"docker context", endpoint.Options{ConfigDir: withContext}, "devenv-sdk-test"},
		{"default context", endpoint.Options{ConfigDir: t.TempDir()}, endpoint.DefaultContext},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			ep, err := endpoint.Resolve(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if ep.Context != c.context {
				t.Fatalf("resolved context %q, want %q", ep.Context, c.context)
			}
			cli, err := dockercli.New(ep, c.opts, dockercli.CLIOptions{Answer: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cli.Client().Close() })
			if got := cli.CurrentContext(); got != c.context {
				t.Errorf("DockerCli's context = %q, want %q", got, c.context)
			}
			if got := cli.DockerEndpoint().Host; got != ep.Host {
				t.Errorf("DockerCli's endpoint = %q, want %q", got, ep.Host)
			}
			eng, err := engine.ConnectTo(ctx, c.opts)
			if err != nil {
				t.Fatalf("these tests need a running Docker Engine: %v", err)
			}
			t.Cleanup(func() { _ = eng.Close() })
			name := "devenv-sdk-test-" + randomHex(t)
			labels := map[string]string{"dev.devenv.test": name}
			if _, err := eng.EnsureVolume(ctx, name, labels); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = eng.Remove(context.WithoutCancel(t.Context()), engine.Volumes, name, false) })
			got, err := cli.Client().VolumeInspect(ctx, name, client.VolumeInspectOptions{})
			if err != nil {
				t.Fatalf("the SDK's client does not see the volume internal/engine made: %v", err)
			}
			if got.Volume.Labels["dev.devenv.test"] != name {
				t.Errorf("volume labels through the SDK's client = %v, want %v", got.Volume.Labels, labels)
			}
			if _, err := cli.Client().Ping(ctx, client.PingOptions{}); err != nil {
				t.Errorf("ping through the SDK's client: %v", err)
			}
		})
	}
}

// writeStoreContext stores a context with docker/cli's own store (as
// `docker context create NAME --docker host=HOST` does) and makes it the
// config folder's current one (as `docker context use NAME`).
func writeStoreContext(t *testing.T, dir, name, host string) {
	t.Helper()
	s := store.New(filepath.Join(dir, "contexts"), store.NewConfig(
		func() any { return &map[string]any{} },
		store.EndpointTypeGetter("docker", func() any { return &dcontext.EndpointMetaBase{} }),
	))
	if err := s.CreateOrUpdate(store.Metadata{Name: name, Endpoints: map[string]any{
		"docker": dcontext.EndpointMetaBase{Host: host},
	}}); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{"currentContext": name})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
