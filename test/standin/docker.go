package standin

import (
	"context"
	"testing"
	"time"

	"github.com/docker/docker/client"
)

// Docker returns a client for the Docker Engine named by the environment
// (DOCKER_HOST, default the local socket) with API version negotiation, so
// that it talks to older engines such as 20.10 (API 1.41). It fails the test
// when the engine does not answer, and closes the client at cleanup.
func Docker(t testing.TB) *client.Client {
	t.Helper()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatalf("standin: cannot create a Docker client from the environment (DOCKER_HOST=%q): %v", client.DefaultDockerHost, err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cli.Ping(ctx); err != nil {
		t.Fatalf("standin: the Docker Engine at %s does not answer: %v\n"+
			"End-to-end tests need a running Docker Engine: start it (systemctl start docker) or set DOCKER_HOST.",
			cli.DaemonHost(), err)
	}
	cli.NegotiateAPIVersion(ctx)
	return cli
}
