package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/release"
	"github.com/devenv-dev/devenv/test/standin"
)

// dockerWithPlugin is the real docker CLI with devenv installed as its
// plugin in a DOCKER_CONFIG of the test's own.
func dockerWithPlugin(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("the docker CLI is not installed here: docker devenv cannot be tried")
	}
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "cli-plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(standin.Devenv(t), filepath.Join(cfg, "cli-plugins", "docker-devenv")); err != nil {
		t.Fatal(err)
	}
	return []string{"DOCKER_CONFIG=" + cfg}
}

func runDocker(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("docker", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestDockerPluginVersionAndFlags: the docker CLI finds devenv as a plugin,
// lists it, and hands -H and --context through to devenv version.
func TestDockerPluginVersionAndFlags(t *testing.T) {
	t.Parallel()
	env := dockerWithPlugin(t)
	dir := t.TempDir()
	out, stderr, code := runDocker(t, dir, env, "--help")
	if code != 0 || !strings.Contains(out+stderr, "devenv*") {
		t.Fatalf("docker --help does not list the devenv plugin (exit %d):\n%s%s", code, out, stderr)
	}
	out, stderr, code = runDocker(t, dir, env, "-H", "tcp://127.0.0.1:9", "devenv", "version", "--json")
	if code != 0 {
		t.Fatalf("docker -H ... devenv version --json: exit %d\n%s", code, stderr)
	}
	var v struct {
		Version    string
		ComposeSDK string `json:"compose_sdk"`
		Engine     struct{ Host, Source, Error string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if v.Engine.Host != "tcp://127.0.0.1:9" || v.Engine.Source != "--host" || v.ComposeSDK == "" {
		t.Errorf("docker -H was not handed through: %+v", v)
	}
	out, _, _ = runDocker(t, dir, env, "--context", "devenv-test-nosuch", "devenv", "version", "--json")
	if !strings.Contains(out, "devenv-test-nosuch") {
		t.Errorf("docker --context was not handed through:\n%s", out)
	}
}

// TestDockerPluginUp: docker devenv up starts the project as devenv up does.
func TestDockerPluginUp(t *testing.T) {
	t.Parallel()
	env := dockerWithPlugin(t)
	w := newWorld(t)
	dir, name := w.project(t, "services:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n", nil)
	w.must(t, dir, "lock")
	out, stderr, code := runDocker(t, dir, append(w.env, env...), "devenv", "up")
	if code != 0 {
		t.Fatalf("docker devenv up: exit %d\n%s%s", code, out, stderr)
	}
	cs := projectContainers(t, name)
	if len(cs) != 1 || !inspect(t, cs[0]).State.Running {
		t.Fatalf("docker devenv up left %v", cs)
	}
}

// TestReleaseSnapshotIsReproducible builds the linux/amd64 release of HEAD
// twice, from two checkouts in other directories, and compares every file
// byte for byte; it verifies the checksums and the minisign signatures
// with the tools' own commands and checks the glibc floor the README states.
func TestReleaseSnapshotIsReproducible(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds the release twice")
	}
	root := standin.ModuleRoot(t)
	tb := sharedTools(t)
	tools := tb.Tools
	runIn(t, root, filepath.Join(tools, "actionlint"), ".github/workflows/release.yml")
	// The second build runs beside the shared one (both from checkouts of
	// HEAD of their own), not after it: the build of a release waits on
	// cyclonedx-gomod's licence scan and nfpm more than on the CPU.
	second := filepath.Join(t.TempDir(), "dist")
	src := filepath.Join(t.TempDir(), "checkout")
	t.Cleanup(func() { removeWorktree(root, src) })
	done := make(chan error, 1)
	go func() { done <- mkrelease(root, src, second, tb) }()
	rel := sharedRelease(t)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	dists := []string{rel.Dist, second}
	files, _ := filepath.Glob(filepath.Join(dists[0], "*"))
	compared := 0
	for _, a := range files {
		name := filepath.Base(a)
		if name == "build" || strings.HasSuffix(name, ".minisig") || name == "minisign.pub" {
			continue // the snapshot's key is made per build
		}
		if !bytes.Equal(readBytes(t, a), readBytes(t, filepath.Join(dists[1], name))) {
			t.Errorf("%s differs between two builds of one commit", name)
		}
		compared++
	}
	for _, want := range []string{".tar.gz", ".deb", ".rpm", ".sbom.cdx.json", "checksums.txt"} {
		if ok, _ := filepath.Glob(filepath.Join(dists[0], "*"+want)); len(ok) == 0 {
			t.Errorf("the release has no %s", want)
		}
	}
	t.Logf("%d files compared", compared)
	runIn(t, dists[0], "sha256sum", "-c", "checksums.txt")
	runIn(t, dists[0], filepath.Join(tools, "minisign"), "-V", "-p", "minisign.pub", "-m", "checksums.txt")
	floor := regexp.MustCompile(`\*\*glibc floor: ([0-9.]+)\.\*\*`).FindStringSubmatch(readFile(t, filepath.Join(root, "README.md")))
	if floor == nil || floor[1] != release.GlibcFloor {
		t.Fatalf("README's glibc floor %v is not the release's %s", floor, release.GlibcFloor)
	}
	for _, p := range []string{"devenv", "devenv-core", "devenv-nvml"} {
		v, sym, err := release.MaxGlibc(filepath.Join(dists[0], "build", "linux_amd64", p))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s needs glibc %s (%s)", p, v, sym)
		if v != "" && release.CompareVersions(v, floor[1]) > 0 {
			t.Errorf("%s needs glibc %s (%s), above the README's floor %s", p, v, sym, floor[1])
		}
	}
}

func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func readBytes(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
