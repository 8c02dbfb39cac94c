package standin

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
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
	addr, stop, err := StartRegistry()
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	t.Cleanup(stop)
	return addr
}

// StartRegistry is Registry for a server that outlives one test (shared by
// a package's tests): it returns the host and the function that stops it.
func StartRegistry() (addr string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, errorf("registry cannot listen on 127.0.0.1: %v", err)
	}
	return l.Addr().String(), ServeRegistry(l), nil
}

// ServeRegistry serves an in-memory OCI registry on l (for a program that
// chooses its own address) and returns the function that stops it.
func ServeRegistry(l net.Listener) (stop func()) {
	srv := &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	go func() { _ = srv.Serve(l) }()
	return func() { _ = srv.Close() }
}

// Push copies the engine's image localRef (through ImageSave) to the
// registry reference dest, e.g.
// "127.0.0.1:PORT/nvidia/cuda:12.9.1-runtime-ubuntu22.04", and returns the
// manifest digest ("sha256:...") the registry now serves for it. The
// image's compressed form is cached in CacheDir by image ID, so pushing the
// same image again, in this run or a later one, only uploads.
func Push(t testing.TB, localRef, dest string) (digest string) {
	t.Helper()
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	digest, err := PushImage(ctx, cli, localRef, dest, CacheDir(t))
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	t.Logf("standin: pushing %s to %s (%s) took %s", localRef, dest, digest, time.Since(start).Round(time.Millisecond))
	return digest
}

// PushImage is Push for a program: the engine cli, the cache directory
// (CacheDirectory) and the error are its caller's.
func PushImage(ctx context.Context, cli *client.Client, localRef, dest, cacheDir string) (digest string, err error) {
	ref, err := name.ParseReference(dest, name.Insecure)
	if err != nil {
		return "", errorf("Push destination %q is not an image reference: %v", dest, err)
	}
	img, err := cachedImage(ctx, cli, localRef, cacheDir)
	if err != nil {
		return "", err
	}
	if err := remote.Write(ref, img, remote.WithContext(ctx)); err != nil {
		return "", errorf("pushing %s to %s: %v", localRef, dest, err)
	}
	desc, err := remote.Head(ref, remote.WithContext(ctx))
	if err != nil {
		return "", errorf("the registry does not serve %s after the push: %v", dest, err)
	}
	return desc.Digest.String(), nil
}

// cachedImage returns localRef as an image with compressed layers, kept as
// an OCI layout in cacheDir/images/<image id> so that later pushes of the
// same image skip saving and compressing it again.
func cachedImage(ctx context.Context, cli *client.Client, localRef, cacheDir string) (v1.Image, error) {
	inspect, err := cli.ImageInspect(ctx, localRef)
	if err != nil {
		return nil, errorf("the engine has no image %s to push: %v", localRef, err)
	}
	dir := filepath.Join(cacheDir, "images", strings.TrimPrefix(inspect.ID, "sha256:"))
	if img, err := imageFromLayout(dir); err == nil {
		return img, nil
	}
	scratch, err := os.MkdirTemp(cacheDir, "image-")
	if err != nil {
		return nil, errorf("cannot create a scratch directory in %s: %v", cacheDir, err)
	}
	defer func() { _ = os.RemoveAll(scratch) }()
	tarPath := filepath.Join(scratch, "image.tar")
	if err := saveImage(ctx, cli, localRef, tarPath); err != nil {
		return nil, err
	}
	img, err := tarball.ImageFromPath(tarPath, nil)
	if err != nil {
		return nil, errorf("reading the saved image %s from %s: %v", localRef, tarPath, err)
	}
	lp, err := layout.Write(filepath.Join(scratch, "layout"), empty.Index)
	if err == nil {
		err = lp.AppendImage(img)
	}
	if err != nil {
		return nil, errorf("writing %s as an OCI layout: %v", localRef, err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, errorf("cannot create %s: %v", filepath.Dir(dir), err)
	}
	if err := os.Rename(filepath.Join(scratch, "layout"), dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(dir); statErr != nil { // a concurrent caller may have won the rename
			return nil, errorf("cannot move the image cache into %s: %v", dir, err)
		}
	}
	return imageFromLayout(dir)
}

// imageFromLayout reads the single image of an OCI layout.
func imageFromLayout(dir string) (v1.Image, error) {
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return nil, err
	}
	m, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	if len(m.Manifests) != 1 {
		return nil, errorf("the image cache %s holds %d images, want 1; delete it", dir, len(m.Manifests))
	}
	return idx.Image(m.Manifests[0].Digest)
}

// saveImage writes `docker save localRef` to path.
func saveImage(ctx context.Context, cli *client.Client, localRef, path string) error {
	rc, err := cli.ImageSave(ctx, []string{localRef})
	if err != nil {
		return errorf("the engine cannot save %s: %v; check that the image exists (docker image ls)", localRef, err)
	}
	defer func() { _ = rc.Close() }()
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
