package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// runExport runs devenv with exportCommand added, whether or not app.go
// registers it yet.
func runExport(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp(Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if !hasCommand(app, "export") {
		cmd := exportCommand()
		withCommonFlags(cmd)
		app.Commands = append(app.Commands, cmd)
	}
	argv := append([]string{"devenv", "--project-dir", dir}, args...)
	err := app.RunContext(t.Context(), commandLine(app).Reorder(argv))
	code := report(err, &errOut, false, argsHaveFlag(append([]string{"devenv"}, args...), "--json"))
	return out.String(), errOut.String(), code
}

func hasCommand(app *cli.App, name string) bool {
	for _, c := range app.Commands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// exportProject writes an unlocked project: a plain-image service and a
// triton service, so every export has something to write.
func exportProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	yaml := "version: 1\nname: exp\nservices:\n" +
		"  shell:\n    profile: image\n    image: \"debian:bookworm\"\n    command: [sleep, infinity]\n" +
		"  triton:\n    profile: triton\n    gpus: 1\n    ports: [\"8000:8000\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DEVENV_CACHE", t.TempDir())
	return dir
}

func TestExportComposeStdoutAndFile(t *testing.T) {
	dir := exportProject(t)
	out, errOut, code := runExport(t, dir, "export", "compose")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"name: exp", "image: debian:bookworm", "No devenv.lock", "devenv/exp-triton:unlocked"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "no devenv.lock") {
		t.Errorf("stderr does not say the export is unpinned: %s", errOut)
	}
	file := filepath.Join(dir, "out.yaml")
	if _, errOut, code := runExport(t, dir, "export", "compose", "-o", file); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(file); string(got) != out {
		t.Errorf("-o wrote something else than stdout showed")
	}
}

func TestExportDevcontainerNeverOverwritesWithoutForce(t *testing.T) {
	dir := exportProject(t)
	if _, errOut, code := runExport(t, dir, "export", "devcontainer", "--service", "shell"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := filepath.Join(dir, ".devcontainer", "devcontainer.json")
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(first, []byte(`"service": "shell"`)) {
		t.Errorf("devcontainer.json does not attach to shell:\n%s", first)
	}
	if _, err := os.Stat(filepath.Join(dir, "compose.devenv.yaml")); err != nil {
		t.Errorf("the compose file the devcontainer points at was not written: %v", err)
	}
	_, errOut, code := runExport(t, dir, "export", "devcontainer")
	if code != 2 || !strings.Contains(errOut, "--force") {
		t.Fatalf("second export: exit %d, %s; want exit 2 naming --force", code, errOut)
	}
	if _, errOut, code := runExport(t, dir, "export", "devcontainer", "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errOut)
	}
}

func TestExportDevcontainerUnknownService(t *testing.T) {
	dir := exportProject(t)
	_, errOut, code := runExport(t, dir, "export", "devcontainer", "--service", "nope")
	if code != 2 || !strings.Contains(errOut, "shell, triton") {
		t.Fatalf("exit %d, %s; want exit 2 listing the services", code, errOut)
	}
}

func TestExportK8s(t *testing.T) {
	dir := exportProject(t)
	out := filepath.Join(dir, "manifests")
	if _, errOut, code := runExport(t, dir, "export", "k8s", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(out, "triton.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("kind: Deployment")) || !bytes.Contains(data, []byte("nvidia.com/gpu: 1")) {
		t.Errorf("triton.yaml:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(out, "shell.yaml")); err == nil {
		t.Errorf("a plain image service has no Kubernetes form but was exported")
	}
}
