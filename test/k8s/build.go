//go:build linux

package k8s

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// Binaries are the rig's programs: K8s is kube-apiserver and kubectl in
// one (internal/tools/k8s/cmd/k8s), Etcd is etcd (internal/tools/k8s/etcd).
type Binaries struct {
	K8s, Etcd string
	// Kubernetes and Etcd are the module versions they were built from.
	Kubernetes, EtcdVersion string
}

// toolDir is the tool module, relative to devenv's module root.
const toolDir = "internal/tools/k8s"

// pinInputs are the files that say what is built: a change to any of them
// is another build, in another cache directory.
var pinInputs = []string{"go.mod", "go.sum", "cmd/k8s/main.go", "etcd/go.mod", "etcd/go.sum", "etcd/cmd/etcd/main.go"}

var built struct {
	sync.Mutex
	bins Binaries
	err  error
}

// Build builds the rig's programs once per pinned version into the test
// cache (standin.CacheDir: $DEVENV_TEST_CACHE) and returns their paths. A
// cold build of kube-apiserver takes about 20 minutes on 2 cores; later
// runs find the programs in the cache.
func Build(t testing.TB) Binaries {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if built.bins.K8s == "" && built.err == nil {
		built.bins, built.err = build(t, standin.ModuleRoot(t), standin.CacheDir(t))
	}
	if built.err != nil {
		t.Fatalf("k8s rig: %v", built.err)
	}
	return built.bins
}

func build(t testing.TB, root, cache string) (Binaries, error) {
	tools := filepath.Join(root, toolDir)
	kube, err := moduleVersion(tools, "k8s.io/kubernetes")
	if err != nil {
		return Binaries{}, err
	}
	etcd, err := moduleVersion(filepath.Join(tools, "etcd"), "go.etcd.io/etcd/server/v3")
	if err != nil {
		return Binaries{}, err
	}
	key, err := pinKey(tools)
	if err != nil {
		return Binaries{}, err
	}
	dir := filepath.Join(cache, "k8s", kube+"-etcd"+etcd+"-"+key)
	bins := Binaries{K8s: filepath.Join(dir, "k8s"), Etcd: filepath.Join(dir, "etcd"), Kubernetes: kube, EtcdVersion: etcd}
	if exists(bins.K8s) && exists(bins.Etcd) {
		return bins, nil
	}
	t.Logf("k8s rig: building Kubernetes %s and etcd %s into %s (a cold build takes about 20 minutes on 2 cores)", kube, etcd, dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Binaries{}, fmt.Errorf("cannot create %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return Binaries{}, fmt.Errorf("cannot create a build directory in %s: %w", dir, err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	v := "k8s.io/component-base/version"
	major, minor := majorMinor(kube)
	k8sFlags := fmt.Sprintf("-s -w -X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean", v, kube, v, major, v, minor, v)
	steps := []struct{ dir, pkg, ldflags, out string }{
		{filepath.Join(tools, "etcd"), "./cmd/etcd", "-s -w", filepath.Join(tmp, "etcd")},
		{tools, "./cmd/k8s", k8sFlags, filepath.Join(tmp, "k8s")},
	}
	for _, s := range steps {
		if err := goBuild(t, s.dir, s.pkg, s.ldflags, s.out); err != nil {
			return Binaries{}, err
		}
	}
	// etcd last: the pair is complete only when both are in place
	for _, name := range []string{"k8s", "etcd"} {
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			return Binaries{}, fmt.Errorf("cannot move %s into %s: %w", name, dir, err)
		}
	}
	return bins, nil
}

// goBuild builds pkg of the module in dir, statically (CGO_ENABLED=0) and
// with -trimpath, as the Makefile's k8s-tools does: one set of compiled
// packages in the build cache serves both.
func goBuild(t testing.TB, dir, pkg, ldflags, out string) error {
	start := time.Now()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	output, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("building %s in %s failed after %s: %w\n%s\nBuild it by hand: cd %s && CGO_ENABLED=0 go build %s",
			pkg, dir, time.Since(start).Round(time.Second), err, strings.TrimSpace(string(output)), dir, pkg)
	}
	t.Logf("k8s rig: built %s in %s", pkg, time.Since(start).Round(time.Second))
	return nil
}

// moduleVersion is the version of mod that the module in dir requires.
func moduleVersion(dir, mod string) (string, error) {
	out, err := exec.Command("go", "list", "-C", dir, "-m", "-f", "{{.Version}}", mod).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("cannot read the version of %s in %s/go.mod: %w\n%s", mod, dir, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// pinKey is a short hash of the files that decide what is built.
func pinKey(tools string) (string, error) {
	h := sha256.New()
	for _, name := range pinInputs {
		data, err := os.ReadFile(filepath.Join(tools, name))
		if err != nil {
			return "", fmt.Errorf("cannot read the rig's pins: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// majorMinor splits "v1.35.4" into "1" and "35".
func majorMinor(version string) (string, string) {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return "", ""
	}
	return parts[0], parts[1]
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
