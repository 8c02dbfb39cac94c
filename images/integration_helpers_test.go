package images

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
)

// realEngine is this machine's Docker Engine for an integration test: the
// test is skipped under -short or when no engine answers, and the
// connection closes when the test ends.
func realEngine(ctx context.Context, t *testing.T) engine.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped with -short: needs a Docker Engine")
	}
	real, err := engine.Connect(ctx)
	if errors.Is(err, engine.ErrUnreachable) {
		t.Skipf("no Docker Engine here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = real.Close() })
	return real
}

// freshTag removes the image tag, left over from an earlier run, now and
// again when the test ends.
func freshTag(ctx context.Context, t *testing.T, eng engine.Engine, tag string) {
	t.Helper()
	_ = eng.RemoveImage(ctx, tag)
	t.Cleanup(func() { _ = eng.RemoveImage(context.WithoutCancel(t.Context()), tag) }) // t.Context() ends before cleanups
}

// staticBinaryInput compiles the Go module in dir/src for Linux on this
// machine's architecture, statically, to dir/ctx/bin, and is the input
// that builds dir/ctx/Dockerfile as the image profile's service.
func staticBinaryInput(t *testing.T, dir, service, bin string) Input {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "ctx", bin), ".")
	cmd.Dir = filepath.Join(dir, "src")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compiling the test binary: %v\n%s", err, out)
	}
	in := Input{Project: "devenvimagestest", Service: service, UserDockerfile: filepath.Join(dir, "ctx", "Dockerfile")}
	in.Resolved.Profile = "image"
	return in
}
