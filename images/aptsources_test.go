package images

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAptSourcesRewrite runs the shell of a generated apt step with
// mirrors.apt (up to apt-get) on this machine, against the sources real
// bases ship: Debian's one-line and deb822 files, Ubuntu 22.04's
// sources.list with comments, Ubuntu 24.04's ubuntu.sources, and the CUDA
// images' NVIDIA repository. The Debian and Ubuntu archives are read from
// the mirror, paths kept; other sources are left out.
func TestAptSourcesRewrite(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed here to run the step's shell with")
	}
	const mirror = "http://apt.corp.example:3142/remote"
	etc := t.TempDir()
	files := map[string]string{
		"sources.list": "# See http://help.ubuntu.com/community/UpgradeNotes\n" +
			"deb http://archive.ubuntu.com/ubuntu/ jammy main restricted\n" +
			"# deb-src http://archive.ubuntu.com/ubuntu/ jammy main restricted\n" +
			"deb [arch=amd64] http://security.ubuntu.com/ubuntu/ jammy-security main\n",
		"sources.list.d/cuda-ubuntu2204-x86_64.list": "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/ /\n",
		"sources.list.d/ubuntu.sources": "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu/\nSuites: noble noble-updates\nComponents: main universe\n\n" +
			"Types: deb\nURIs: http://security.ubuntu.com/ubuntu/\nSuites: noble-security\nComponents: main universe\n",
		"sources.list.d/debian.sources": "Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\n\n" +
			"Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\n",
		"sources.list.d/other.sources": "Types: deb\nURIs: https://packages.corp.example/apt\nSuites: stable\n",
	}
	writeFiles(t, etc, files)
	in := rapidsInput()
	in.AptMirror = mirror
	in.Resolved.Apt = []string{"graphviz"}
	df, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	script := aptSourcesScript(t, string(df))
	script = strings.ReplaceAll(strings.ReplaceAll(script, aptDir, out), "/etc/apt", etc)
	if b, err := exec.Command("sh", "-ec", script).CombinedOutput(); err != nil {
		t.Fatalf("the step's shell failed: %v\n%s\n%s", err, b, script)
	}
	want := map[string]string{
		"sources.list": "# See http://help.ubuntu.com/community/UpgradeNotes\n" +
			"deb " + mirror + "/ubuntu/ jammy main restricted\n" +
			"# deb-src http://archive.ubuntu.com/ubuntu/ jammy main restricted\n" +
			"deb [arch=amd64] " + mirror + "/ubuntu/ jammy-security main\n",
		"cuda-ubuntu2204-x86_64.list": "",
		"ubuntu.sources": strings.ReplaceAll(strings.ReplaceAll(files["sources.list.d/ubuntu.sources"],
			"http://archive.ubuntu.com", mirror), "http://security.ubuntu.com", mirror),
		"debian.sources": strings.ReplaceAll(files["sources.list.d/debian.sources"], "http://deb.debian.org", mirror),
	}
	got, err := os.ReadDir(filepath.Join(out, "sources.list.d"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("the step wrote %d source files, want %d (other.sources left out)", len(got), len(want))
	}
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(out, "sources.list.d", name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(b) != w {
			t.Errorf("%s became\n%s\nwant\n%s", name, b, w)
		}
	}
	for name, body := range files { // the base's own sources stay as they were
		if b, _ := os.ReadFile(filepath.Join(etc, name)); string(b) != body {
			t.Errorf("the step changed the base's %s", name)
		}
	}
}

// aptSourcesScript is the first apt step's shell up to its apt-get, with
// the Dockerfile's line continuations joined.
func aptSourcesScript(t *testing.T, dockerfile string) string {
	t.Helper()
	i := strings.Index(dockerfile, "RUN mkdir -p "+aptDir)
	if i < 0 {
		t.Fatalf("no apt step with mirrors.apt in:\n%s", dockerfile)
	}
	step := strings.TrimPrefix(dockerfile[i:], "RUN ")
	j := strings.Index(step, " && apt-get")
	if j < 0 {
		t.Fatalf("no apt-get in the step:\n%s", step)
	}
	return strings.ReplaceAll(step[:j], "\\\n", "")
}
