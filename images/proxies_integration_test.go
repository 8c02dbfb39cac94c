package images

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestIntegrationProxiesLeaveNoTrace builds, on this machine's Docker
// Engine, a Dockerfile whose RUN step fails unless it sees the proxy build
// arguments, and checks that neither the image's history nor its config
// holds the proxy: the engine's builder keeps its predefined proxy
// arguments out of both, which is what devenv relies on.
func TestIntegrationProxiesLeaveNoTrace(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	real := realEngine(ctx, t)
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("no docker CLI to read the image's history with")
	}

	in := proxyCheckProject(t)
	tag := Tag(in.Project, in.Service, mustHash(t, in))
	freshTag(ctx, t, real, tag)
	if _, err := Build(ctx, real, in, Options{Proxies: testProxies}, nil); err != nil {
		t.Fatalf("the build did not see the proxies: %v", err)
	}
	for _, args := range [][]string{{"history", "--no-trunc", tag}, {"image", "inspect", tag}} {
		out, err := exec.CommandContext(ctx, docker, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, secret := range []string{"s3cret", "proxy.corp"} {
			if strings.Contains(string(out), secret) {
				t.Errorf("docker %s shows the proxy (%s):\n%s", strings.Join(args, " "), secret, out)
			}
		}
	}
}

// proxyCheckProject is a FROM-scratch Dockerfile whose RUN step is a static
// binary that exits non-zero unless HTTP_PROXY and no_proxy are testProxies'.
func proxyCheckProject(t *testing.T) Input {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"src/main.go": `package main

import "os"

func main() {
	if os.Getenv("HTTP_PROXY") != "` + testProxies["HTTP_PROXY"] + `" || os.Getenv("no_proxy") != "localhost" {
		println("proxies not set:", os.Getenv("HTTP_PROXY") == "", os.Getenv("no_proxy"))
		os.Exit(1)
	}
}
`,
		"src/go.mod":     "module check\n\ngo 1.21\n",
		"ctx/Dockerfile": "FROM scratch\nCOPY check /check\nRUN [\"/check\"]\n",
	})
	return staticBinaryInput(t, dir, "proxies", "check")
}
