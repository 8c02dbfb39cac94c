package e2e

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// fastUp runs `devenv up --debug` (with --json when asked) and reports
// whether the front program answered it from the receipt: its --debug
// line says which way it went.
func (w *world) fastUp(t *testing.T, dir string, env []string, args ...string) (bool, string) {
	t.Helper()
	r := standinRun(t, w, dir, env, append([]string{"up", "--debug"}, args...)...)
	if r.Code != 0 {
		t.Fatalf("devenv up %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.Code, r.Stdout, r.Stderr)
	}
	fast := strings.Contains(r.Stderr, "fast up: nothing changed")
	if !fast && !strings.Contains(r.Stderr, "fast up: running devenv in full") {
		t.Fatalf("devenv up --debug says nothing of the fast up:\n%s", r.Stderr)
	}
	return fast, r.Stdout
}

// fullUp is `devenv up` with the fast up switched off: what devenv
// itself prints.
func (w *world) fullUp(t *testing.T, dir string, args ...string) string {
	t.Helper()
	r := standinRun(t, w, dir, []string{"DEVENV_FASTUP=0"}, append([]string{"up"}, args...)...)
	if r.Code != 0 {
		t.Fatalf("DEVENV_FASTUP=0 devenv up %v: exit %d\n%s%s", args, r.Code, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

// settle runs up until one leaves a receipt and the next answers from it
// (the up after a change rewrites files it then cannot trust).
func (w *world) settle(t *testing.T, dir string) {
	t.Helper()
	for range 3 {
		if fast, _ := w.fastUp(t, dir, nil); fast {
			return
		}
	}
	t.Fatal("three ups in a row on an unchanged project all ran devenv in full: no receipt is left or none is accepted")
}

// TestFastUpAnswersOnlyWhenNothingChanged: on an unchanged running
// project, the front program answers `devenv up` from the receipt, and
// prints exactly what devenv in full prints (text and --json). Each kind
// of change, to a file devenv plans from (one compose-go reads for a
// label_file in a hidden directory too), to the environment, or on the
// engine, makes the next up run devenv in full, which does what the change
// calls for; then the fast up answers again.
func TestFastUpAnswersOnlyWhenNothingChanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  app:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: [sleep, infinity]
    env: {GREETING: hello}
`, map[string]string{"compose.yaml": `services:
  side:
    image: nvcr.io/` + plainBase + `
    command: [sleep, infinity]
    init: true
    env_file: [side.env]
    label_file: [.meta/side.labels]
    environment: {FROM_ENV: "${FASTUP_TEST_VALUE:-unset}"}
`, "side.env": "SIDE=1\n", ".meta/side.labels": "team=one\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	w.settle(t, dir)
	for _, args := range [][]string{nil, {"--json"}, {"-d"}} {
		fast, out := w.fastUp(t, dir, nil, args...)
		if full := w.fullUp(t, dir, args...); !fast || out != full {
			t.Fatalf("up %v: fast=%v, printed\n%s\nwhile devenv in full prints\n%s", args, fast, out, full)
		}
		w.settle(t, dir)
	}
	if !strings.Contains(w.fullUp(t, dir), "2 unchanged") {
		t.Fatal("the project is not up and unchanged")
	}
	app, side := name+"-app", name+"-side"
	steps := []struct {
		name   string
		change func(t *testing.T)
		env    []string
		want   string // in up's text output
	}{
		{"devenv.yaml edited", func(t *testing.T) {
			writeFile(t, dir, "devenv.yaml", strings.Replace(readFile(t, dir+"/devenv.yaml"), "GREETING: hello", "GREETING: bye", 1))
		}, nil, "1 recreated"},
		{"env_file edited", func(t *testing.T) { writeFile(t, dir, "side.env", "SIDE=2\n") }, nil, "1 recreated"},
		// compose-go reads it; a list of inputs kept by hand missed it
		{"label_file in a hidden directory edited", func(t *testing.T) { writeFile(t, dir, ".meta/side.labels", "team=two\n") }, nil, "1 recreated"},
		{"an interpolated variable set", nil, []string{"FASTUP_TEST_VALUE=set"}, "1 recreated"},
		{"a container stopped", func(t *testing.T) { docker(t, "stop", "-t", "0", app) }, nil, "1 started"},
		{"a container removed", func(t *testing.T) { docker(t, "rm", "-f", side) }, nil, "1 created"},
		{"a network disconnected", func(t *testing.T) { docker(t, "network", "disconnect", "-f", name, app) }, nil, "1 recreated"},
	}
	env := []string{}
	for _, s := range steps {
		if s.change != nil {
			s.change(t)
		}
		env = append(env, s.env...)
		fast, out := w.fastUp(t, dir, env)
		if fast || !strings.Contains(out, s.want) {
			t.Fatalf("%s: the next up answered fast=%v and printed\n%s\nwant devenv in full, and %q", s.name, fast, out, s.want)
		}
		// the same environment from here on: settle with it
		for range 3 {
			if fast, _ = w.fastUp(t, dir, env); fast {
				break
			}
		}
		if !fast {
			t.Fatalf("%s: no up answered fast again", s.name)
		}
	}
	if fast, _ := w.fastUp(t, dir, []string{"DEVENV_FASTUP=0"}); fast {
		t.Error("DEVENV_FASTUP=0 did not switch the fast up off")
	}
	if r := standinRun(t, w, dir, env, "up", "--debug", "app"); r.Code != 0 || strings.Contains(r.Stderr, "fast up: nothing changed") {
		t.Errorf("up app (a service named) answered from the receipt or failed: exit %d\n%s", r.Code, r.Stderr)
	}
}

func standinRun(t *testing.T, w *world, dir string, env []string, args ...string) standin.Result {
	t.Helper()
	return standin.Run(t, dir, slices.Concat(w.env, env), args...)
}

func docker(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("docker", args...).CombinedOutput(); err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestFastUpSeesHiddenFilesOfBuildContexts: a compose service built from
// a context that COPYs a file of a hidden directory (.cfg/app.txt): an
// edit of that file makes the next up hand over to devenv in full (which
// rebuilds), where the receipt's walk used to skip hidden directories and
// answer "nothing changed".
func TestFastUpSeesHiddenFilesOfBuildContexts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, "compose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n",
		map[string]string{
			"compose.yaml":      "services:\n  side:\n    build: {context: ./side}\n    command: [sleep, infinity]\n",
			"side/Dockerfile":   "FROM " + standin.DebianRef + "\nCOPY .cfg/app.txt /app.txt\n",
			"side/.cfg/app.txt": "v1\n",
		})
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	w.settle(t, dir)
	writeFile(t, dir, "side/.cfg/app.txt", "v2, longer\n")
	if fast, out := w.fastUp(t, dir, nil); fast {
		t.Fatalf("side/.cfg/app.txt edited: the next up answered from the receipt:\n%s", out)
	}
	w.settle(t, dir)
}
