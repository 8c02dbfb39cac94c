package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
)

// aptMirror is a real Debian archive, reachable from builds here.
const aptMirror = "http://deb.debian.org"

const offlineYAML = `profiles:
  offline:
    extends: triton
    base_image: "nvcr.io/devenv-e2e/debian-offline:bookworm"
    apt: [procps]
services:
  serve:
    profile: offline
    release: "25.01"
`

// TestAptMirrorIsTheOnlyRoute builds a generated image whose base's apt
// sources name an archive that does not resolve: without mirrors.apt the
// apt step fails and the error ends on the mirrors.apt hint; with it the
// build installs the package through the mirror, and the image keeps its
// own sources and no trace of the mirror's sources.
func TestAptMirrorIsTheOnlyRoute(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	base := w.registry + "/devenv-e2e/debian-offline"
	digest := standin.Push(t, standin.OfflineDebian(t), base+":bookworm")
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", base+"@"+digest).Run() }) // the base up pulled through the mirror
	dir, name := w.project(t, offlineYAML, nil)
	w.must(t, dir, "lock")

	r := w.run(t, dir, "build")
	if r.Code == 0 {
		t.Fatalf("the build succeeded without mirrors.apt, so the base's sources were reachable:\n%s", r.Stderr)
	}
	t.Logf("without mirrors.apt, devenv build says:\n%s", r.Stderr)
	for _, want := range []string{"procps", "hint: apt could not reach the base image's package archives", "mirrors.apt"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("the failed build does not say %q:\n%s", want, r.Stderr)
		}
	}

	yaml := filepath.Join(dir, "devenv.yaml")
	data, err := os.ReadFile(yaml)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), "\n") || !strings.Contains(string(data), "\nmirrors:\n") {
		t.Fatalf("devenv.yaml does not end with its mirrors: block:\n%s", data)
	}
	writeFile(t, dir, "devenv.yaml", string(data)+"  apt: \""+aptMirror+"\"\n")
	w.must(t, dir, "lock", "--check") // a mirror changes no pin
	w.must(t, dir, "build")

	image := builtImage(t, name, "serve")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", "run", "--rm", "--entrypoint", "sh", image, "-c",
		"ps -p 1 -o comm= && cat /etc/apt/sources.list /etc/apt/sources.list.d/debian.sources && ls /tmp").CombinedOutput()
	if err != nil {
		t.Fatalf("running %s: %v\n%s", image, err, out)
	}
	for _, want := range []string{standin.UnreachableArchive + " bookworm main", "URIs: " + standin.UnreachableArchive + "-security"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the image lost its own sources (%q):\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "devenv-apt") || strings.Contains(string(out), "deb.debian.org") {
		t.Errorf("the build's mirror sources stayed in the image:\n%s", out)
	}
}

// builtImage is the one image devenv built for the project's service.
func builtImage(t *testing.T, project, service string) string {
	t.Helper()
	out, err := exec.Command("docker", "images", "--format", "{{.Repository}}:{{.Tag}}",
		"--filter", "label="+labels.Project+"="+project, "--filter", "label="+labels.Service+"="+service).Output()
	if err != nil {
		t.Fatalf("docker images: %v", err)
	}
	refs := strings.Fields(string(out))
	if len(refs) != 1 {
		t.Fatalf("images of %s/%s: %q, want one", project, service, refs)
	}
	return refs[0]
}
