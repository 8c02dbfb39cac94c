package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestComposeExportAndUpRecreateNothing: after devenv up, the line
// `export compose -o` prints ("run it with: ...") runs the export with
// Compose's own CLI and recreates nothing, a compose build: service
// included (the export names the image devenv built for it), and devenv
// up after it recreates nothing either, though the export was written into
// app's build context (the project directory). The file names the images as
// devenv.lock records them (nvcr.io/...), never the stand-in mirror's
// loopback address, which only the override the line adds holds.
func TestComposeExportAndUpRecreateNothing(t *testing.T) {
	t.Parallel()
	tool := composeV2(t)
	w := newWorld(t)
	files := map[string]string{
		"compose.yaml": `services:
  app:
    build: .
    command: ["sleep", "infinity"]
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
`,
		// the project directory is the context, the export written in it
		"Dockerfile": "FROM nvcr.io/" + plainBase + "\nRUN echo built > /built\n",
	}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
`, files)
	w.must(t, dir, "lock")
	t.Cleanup(func() { w.run(t, dir, "down", "--volumes") })
	w.must(t, dir, "up", "--wait")
	before := containerIDs(t, name)
	if len(before) != 3 {
		t.Fatalf("devenv up made %v; want app, box and shell", before)
	}

	r := w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml")
	exported := readFile(t, filepath.Join(dir, "compose.devenv.yaml"))
	if strings.Contains(exported, w.registry) {
		t.Errorf("the export names the mirror %s, which a teammate cannot reach:\n%s", w.registry, exported)
	}
	if !strings.Contains(exported, "image: nvcr.io/"+plainBase+"@sha256:") || !strings.Contains(exported, "image: devenv/"+name+"-app:") {
		t.Errorf("the export does not name devenv.lock's nvcr.io image and devenv's build of app:\n%s", exported)
	}
	_, out := runPrinted(t, tool, dir, printedRunLine(t, r), nil)
	after := containerIDs(t, name)
	for svc, id := range before {
		if after[svc] != id {
			t.Errorf("%s was recreated by the export's run line (%s -> %s):\n%s", svc, short(id), short(after[svc]), out)
		}
	}
	again := w.must(t, dir, "up", "--wait")
	for svc, id := range containerIDs(t, name) {
		if before[svc] != id {
			t.Errorf("devenv up after docker compose up recreated %s:\n%s\n%s", svc, again.Stdout, again.Stderr)
		}
	}
	w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml")
	if second := readFile(t, filepath.Join(dir, "compose.devenv.yaml")); second != exported {
		t.Errorf("a second export differs from the first:\n%s\nfirst:\n%s", second, exported)
	}
}

// printedRunLine is the command an export printed after "run it with: ".
func printedRunLine(t *testing.T, r standin.Result) string {
	t.Helper()
	for _, line := range strings.Split(r.Stdout+"\n"+r.Stderr, "\n") {
		if _, cmd, ok := strings.Cut(line, "run it with: "); ok {
			return cmd
		}
	}
	t.Fatalf("the export printed no \"run it with\" line:\n%s\n%s", r.Stdout, r.Stderr)
	return ""
}

// runPrinted runs line, as printed, with sh in dir, tool standing in for
// `docker compose` and args replacing its last words (up -d) when given;
// JUPYTER_TOKEN is not in its environment, so the line must set what the
// file asks for.
func runPrinted(t *testing.T, tool []string, dir, line string, args []string) (stdout, stderr string) {
	t.Helper()
	if !strings.Contains(line, "docker compose ") || !strings.HasSuffix(line, " up -d") {
		t.Fatalf("the run line %q does not run docker compose ... up -d", line)
	}
	if args != nil {
		line = strings.TrimSuffix(line, "up -d") + strings.Join(args, " ")
	}
	line = strings.Replace(line, "docker compose ", strings.Join(tool, " ")+" ", 1)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JUPYTER_TOKEN=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v\n%s%s", line, err, out, errOut.String())
	}
	return string(out), errOut.String()
}

// containerIDs are the IDs of compose project name's containers, by service.
func containerIDs(t *testing.T, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for svc, c := range composeContainers(t, name) {
		out[svc] = c.ID
	}
	return out
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
