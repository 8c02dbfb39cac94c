package standin

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Registry starts an OCI distribution registry (go-containerregistry's
// in-memory one) on 127.0.0.1 at a random port, closes it at cleanup and
// returns its host "127.0.0.1:PORT": the value for devenv.yaml's
// mirrors.registries. The Docker Engine treats 127.0.0.0/8 as an insecure
// registry, so it pulls from it over plain HTTP without configuration.
func Registry(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("standin: registry cannot listen on 127.0.0.1: %v", err)
	}
	srv := &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return l.Addr().String()
}

// Push copies the engine's image localRef (through ImageSave) to the
// registry reference dest, e.g.
// "127.0.0.1:PORT/nvidia/cuda:12.9.1-runtime-ubuntu22.04", and returns the
// manifest digest ("sha256:...") the registry now serves for it.
func Push(t testing.TB, localRef, dest string) (digest string) {
	t.Helper()
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ref, err := name.ParseReference(dest, name.Insecure)
	if err != nil {
		t.Fatalf("standin: Push destination %q is not an image reference: %v", dest, err)
	}
	start := time.Now()
	tarPath := filepath.Join(t.TempDir(), "image.tar")
	if err := saveImage(ctx, cli, localRef, tarPath); err != nil {
		t.Fatalf("standin: %v", err)
	}
	img, err := tarball.ImageFromPath(tarPath, nil)
	if err != nil {
		t.Fatalf("standin: reading the saved image %s from %s: %v", localRef, tarPath, err)
	}
	if err := remote.Write(ref, img, remote.WithContext(ctx)); err != nil {
		t.Fatalf("standin: pushing %s to %s: %v", localRef, dest, err)
	}
	desc, err := remote.Head(ref, remote.WithContext(ctx))
	if err != nil {
		t.Fatalf("standin: the registry does not serve %s after the push: %v", dest, err)
	}
	t.Logf("standin: pushing %s to %s (%s) took %s", localRef, dest, desc.Digest, time.Since(start).Round(time.Millisecond))
	return desc.Digest.String()
}

// saveImage writes `docker save localRef` to path.
func saveImage(ctx context.Context, cli *client.Client, localRef, path string) error {
	rc, err := cli.ImageSave(ctx, []string{localRef})
	if err != nil {
		return errorf("the engine cannot save %s: %v; check that the image exists (docker image ls)", localRef, err)
	}
	defer rc.Close()
	f, err := os.Create(path)
	if err != nil {
		return errorf("cannot create %s: %v", path, err)
	}
	if _, err := io.Copy(f, rc); err != nil {
		_ = f.Close()
		return errorf("saving %s to %s: %v", localRef, path, err)
	}
	if err := f.Close(); err != nil {
		return errorf("saving %s to %s: %v", localRef, path, err)
	}
	return nil
}
