package engine_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
)

// runLabel marks every object one test run creates, so cleanup and List
// checks only ever touch this run's objects.
const runLabel = "dev.devenv.enginetest"

// connect reaches the engine or fails the test: CI guarantees an engine
// (.ci/run), so an unreachable one is a failure, not a reason to skip.
func connect(t *testing.T) engine.Engine {
	t.Helper()
	skipShort(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	e, err := engine.Connect(ctx)
	if err != nil {
		t.Fatalf("these tests need a running Docker Engine (start it, or set DOCKER_HOST): %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// skipShort skips an integration test in the unit tier (go test -short,
// make unit); make integration runs it.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test (Docker engine): skipped with -short; run make integration")
	}
}

// newRunID returns a random id naming this run's objects.
func newRunID(t *testing.T) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// cleanupRun removes every object labelled with this run, containers first.
func cleanupRun(t *testing.T, e engine.Engine, labels map[string]string) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 60*time.Second) // t.Context() ends before cleanups
		defer cancel()
		for _, kind := range []engine.Kind{engine.Containers, engine.Networks, engine.Volumes, engine.Images} {
			objs, err := e.List(ctx, kind, labels)
			if err != nil {
				t.Errorf("cleanup: listing %ss: %v", kind, err)
				continue
			}
			for _, o := range objs {
				if err := e.Remove(ctx, kind, o.ID, true); err != nil {
					t.Errorf("cleanup: %v", err)
				}
			}
		}
	})
}

// standinContext compiles testdata/standin as a static binary and returns a
// build context (tar) holding it and a Dockerfile FROM scratch.
func standinContext(t *testing.T) *bytes.Reader {
	t.Helper()
	dockerfile := "FROM scratch\nCOPY standin /app\nENTRYPOINT [\"/app\"]\n"
	return bytes.NewReader(tarOf(t, []tarEntry{{name: "Dockerfile", mode: 0o644, data: []byte(dockerfile)}, {name: "standin", mode: 0o755, data: standinBinary(t)}}))
}

// standinBinary compiles testdata/standin as a static Linux binary.
func standinBinary(t *testing.T) []byte {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "standin")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./testdata/standin")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compiling the stand-in program: %v\n%s", err, out)
	}
	app, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// tarEntry is one entry of tarOf: a directory when dir is set.
type tarEntry struct {
	name     string
	mode     int64
	uid, gid int
	dir      bool
	data     []byte
}

func tarOf(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.gid, Size: int64(len(e.data)), Typeflag: tar.TypeReg}
		if e.dir {
			hdr.Typeflag, hdr.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// waitHealthy polls a container until the engine calls it healthy.
func waitHealthy(t *testing.T, e engine.Engine, id string) engine.ContainerState {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := e.Inspect(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Health == engine.HealthHealthy {
			return st
		}
		if !st.Running || time.Now().After(deadline) {
			t.Fatalf("container %s did not become healthy: status %s, health %q, exit code %d", id, st.Status, st.Health, st.ExitCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
