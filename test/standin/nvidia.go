package standin

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/pkg/jsonmessage"
)

// Triton makes sure the engine holds a stand-in for NVIDIA's Triton
// Inference Server image and returns its local reference: the Debian
// stand-in with `tritonserver` and `curl` from ./nvtools, so that devenv's
// plan for a triton service (its command, ports and curl healthcheck) runs
// as written. The tag follows the tools' content, so a changed stand-in is
// rebuilt and an unchanged one reused.
func Triton(t testing.TB) string {
	t.Helper()
	tools := nvtools(t)
	data, err := os.ReadFile(tools)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	dockerfile := `FROM ` + Debian(t) + `
COPY nvtools /usr/local/bin/tritonserver
COPY nvtools /usr/local/bin/curl
RUN mkdir -p /opt/tritonserver && chmod 0755 /usr/local/bin/tritonserver /usr/local/bin/curl
WORKDIR /opt/tritonserver
`
	return standinImage(t, "devenv-standin/tritonserver", map[string][]byte{"Dockerfile": []byte(dockerfile), "nvtools": data})
}

// standinImage builds a context (a Dockerfile and its files) as
// repo:<hash of the context> unless the engine already has that tag.
func standinImage(t testing.TB, repo string, files map[string][]byte) string {
	t.Helper()
	h := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h.Write([]byte(n + "\x00"))
		h.Write(files[n])
	}
	ref := repo + ":" + hex.EncodeToString(h.Sum(nil))[:12]
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if imageExists(ctx, cli, ref) {
		return ref
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(files[n]))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(files[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	resp, err := cli.ImageBuild(ctx, &buf, build.ImageBuildOptions{Tags: []string{ref}, Remove: true, ForceRemove: true})
	if err != nil {
		t.Fatalf("standin: building %s: %v", ref, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out bytes.Buffer
	if err := jsonmessage.DisplayJSONMessagesStream(resp.Body, &out, 0, false, nil); err != nil {
		t.Fatalf("standin: building %s failed: %v\n%s", ref, err, out.String())
	}
	return ref
}

// nvtools builds ./nvtools as a static Linux program in the test cache.
func nvtools(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(CacheDir(t), "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.CreateTemp(dir, "nvtools.tmp-")
	if err != nil {
		t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone after the rename
	cmd := exec.Command(goTool(), "build", "-trimpath", "-o", tmp.Name(), "./test/standin/nvtools")
	cmd.Dir = ModuleRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("standin: building nvtools: %v\n%s", err, b)
	}
	out := filepath.Join(dir, "nvtools")
	if err := os.Rename(tmp.Name(), out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Rapids makes sure the engine holds a stand-in for NVIDIA's RAPIDS base
// image and returns its local reference: Debian with a Python environment
// at /opt/conda (pip, python3 on PATH) owned by the user rapids, as the
// real image has, and ipython's behaviour as its command: without a
// terminal it exits at once, so a plan that keeps the image's command
// never comes up.
func Rapids(t testing.TB) string {
	t.Helper()
	dockerfile := `FROM ` + Debian(t) + `
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/* \
 && python3 -m venv /opt/conda \
 && useradd --uid 1001 --create-home --home-dir /home/rapids --shell /bin/bash rapids \
 && chown -R rapids /opt/conda
ENV PATH=/opt/conda/bin:$PATH
USER rapids
WORKDIR /home/rapids
CMD ["python3"]
`
	return standinImage(t, "devenv-standin/rapids", map[string][]byte{"Dockerfile": []byte(dockerfile)})
}
