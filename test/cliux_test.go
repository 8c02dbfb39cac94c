package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/network"
)

const twoBoxes = `services:
  db:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
  app:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    depends_on: [db]
`

// engineState is what the engine holds for a project: each container with
// its ID and state, and whether its network exists.
func engineState(t *testing.T, project string) string {
	t.Helper()
	var out []string
	for _, n := range projectContainers(t, project) {
		c := inspect(t, n)
		out = append(out, n+"="+c.State.Status+"@"+c.ID[:12])
	}
	slices.Sort(out)
	nets, err := standin.Docker(t).NetworkList(t.Context(), network.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nets {
		if n.Name == project {
			out = append(out, "network "+n.Name)
		}
	}
	return strings.Join(out, " ")
}

// TestPerServiceVerbsAndDryRun: stop, start, restart, rm and down act on
// the services named and leave the others; --dry-run changes nothing.
func TestPerServiceVerbsAndDryRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, twoBoxes, nil)
	w.must(t, dir, "lock")
	db, app := name+"-db", name+"-app"

	r := w.must(t, dir, "up", "--dry-run")
	said := strings.Join(strings.Fields(r.Stdout), " ")
	for _, want := range []string{name + " would be created network " + name, "db would be created container " + db, "app would be created container " + app} {
		if !strings.Contains(said, want) {
			t.Errorf("up --dry-run lacks %q:\n%s", want, r.Stdout)
		}
	}
	if got := engineState(t, name); got != "" {
		t.Fatalf("up --dry-run changed the engine: %s", got)
	}
	w.must(t, dir, "up", "--wait")

	w.must(t, dir, "stop", "app")
	if a, d := inspect(t, app), inspect(t, db); a.State.Running || !d.State.Running {
		t.Fatalf("stop app: app %s, db %s", a.State.Status, d.State.Status)
	}
	w.must(t, dir, "start", "app")
	if a := inspect(t, app); !a.State.Running {
		t.Fatalf("start app: app %s", a.State.Status)
	}
	before := inspect(t, db).State.StartedAt
	w.must(t, dir, "restart", "db")
	if d := inspect(t, db); !d.State.Running || d.State.StartedAt == before {
		t.Fatalf("restart db: %s, started %s (before %s)", d.State.Status, d.State.StartedAt, before)
	}

	r = w.must(t, dir, "rm", "app")
	if !strings.Contains(r.Stdout, "is running") || !slices.Contains(projectContainers(t, name), app) {
		t.Fatalf("rm of a running service removed it or said nothing:\n%s", r.Stdout)
	}
	w.must(t, dir, "rm", "--stop", "app")
	if got := projectContainers(t, name); !slices.Equal(got, []string{db}) {
		t.Fatalf("after rm --stop app: %v", got)
	}
	w.must(t, dir, "up", "--wait")

	state := engineState(t, name)
	r = w.must(t, dir, "down", "--dry-run", "--json")
	res := decode[struct {
		DryRun  bool `json:"dry_run"`
		Changes []struct{ Action, Detail string }
	}](t, r.Stdout)
	if !res.DryRun || len(res.Changes) != 3 {
		t.Errorf("down --dry-run --json: %+v", res)
	}
	if got := engineState(t, name); got != state {
		t.Fatalf("down --dry-run changed the engine:\n before %s\n after  %s", state, got)
	}

	w.must(t, dir, "down", "app")
	if got := projectContainers(t, name); !slices.Equal(got, []string{db}) || !inspect(t, db).State.Running {
		t.Fatalf("down app: %v", got)
	}
	if !strings.Contains(engineState(t, name), "network "+name) {
		t.Fatal("down app removed the project's network")
	}
	if r := w.run(t, dir, "down", "db", "--volumes"); r.Code != 2 {
		t.Fatalf("down db --volumes: exit %d\n%s", r.Code, r.Stderr)
	}
	if r := w.run(t, dir, "shell"); r.Code != 2 || !strings.Contains(r.Stderr, "name the one to use") {
		t.Fatalf("shell in a two-service project: exit %d\n%s", r.Code, r.Stderr)
	}
	w.must(t, dir, "down")
	if got := engineState(t, name); got != "" {
		t.Fatalf("after down: %s", got)
	}
}

const chattyBox = `services:
  box:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sh", "-c", "echo hello; echo oops >&2; exec sleep infinity"]
`

// TestCommandArgumentsLogsAndJSON: the words after exec's service or
// submit's job file are the command's; logs -f follows and a Ctrl-C ends
// it with 130 and no message; --json errors and logs are JSON lines.
func TestCommandArgumentsLogsAndJSON(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, chattyBox, map[string]string{"job.py": "print('hi')\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")

	if r := w.run(t, dir, "exec", "box", "sh", "-c", "echo from-c; exit 3"); r.Code != 3 || strings.TrimSpace(r.Stdout) != "from-c" {
		t.Fatalf("exec box sh -c: exit %d, stdout %q\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := w.must(t, dir, "exec", "box", "--", "echo", "--json", "-f", "--"); strings.TrimSpace(r.Stdout) != "--json -f --" {
		t.Fatalf("exec box -- echo ...: stdout %q", r.Stdout)
	}
	if r := w.must(t, dir, "run", "box", "sh", "-c", "echo ran"); strings.TrimSpace(r.Stdout) != "ran" {
		t.Fatalf("run box sh -c: stdout %q", r.Stdout)
	}
	for _, args := range [][]string{
		{"--json", "submit", "--no-runner", "--service", "box", "job.py", "--", "--date", "x"},
		{"--json", "submit", "--no-runner", "--service", "box", "job.py", "--date", "x"},
	} {
		job := decode[struct {
			Command []string `json:"command"`
		}](t, w.must(t, dir, args...).Stdout)
		if got := strings.Join(job.Command, " "); got != "spark-submit /workspace/job.py --date x" {
			t.Errorf("devenv %v queued %q", args, got)
		}
	}
	if r := w.must(t, dir, "shell"); r.Stderr != "" {
		t.Errorf("shell in a one-service project: %s", r.Stderr)
	}

	r := w.must(t, dir, "logs", "--json")
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		v := decode[map[string]string](t, l)
		if v["time"] == "" {
			t.Errorf("log line without its time: %s", l)
		}
		lines = append(lines, v["service"]+" "+v["stream"]+" "+v["line"])
	}
	slices.Sort(lines)
	if got := strings.Join(lines, "; "); got != "box stderr oops; box stdout hello" {
		t.Errorf("logs --json: %s", got)
	}

	followUntilInterrupted(t, w, dir)

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--json", "lgos"}, 2, `{"level":"error","message":"\"lgos\" is not a devenv command: did you mean ` + "`devenv logs`" + `?","exit":2}`},
		{[]string{"ps", "box"}, 2, "devenv ps takes no arguments"},
		{[]string{"--version"}, 0, ""},
	} {
		if r := w.run(t, dir, tt.args...); r.Code != tt.code || !strings.Contains(r.Stderr, tt.want) {
			t.Errorf("devenv %v: exit %d (want %d)\n%s", tt.args, r.Code, tt.code, r.Stderr)
		}
	}
}

// followUntilInterrupted runs logs -f, waits for the service's line, sends
// SIGINT as Ctrl-C does and expects exit 130 with nothing on stderr.
func followUntilInterrupted(t *testing.T, w *world, dir string) {
	t.Helper()
	cmd := exec.Command(standin.Devenv(t), "logs", "-f")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), w.env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // it may have exited already
	seen, drained := make(chan struct{}), make(chan struct{})
	go func(hello chan struct{}) {
		defer close(drained)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "hello") && hello != nil {
				close(hello)
				hello = nil
			}
		}
	}(seen)
	select {
	case <-seen:
	case <-time.After(60 * time.Second):
		t.Fatal("logs -f printed no line in 60s")
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	<-drained
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || stderr.String() != "" {
		t.Fatalf("logs -f after Ctrl-C: exit %d (%v), stderr %q", code, err, stderr.String())
	}
}

// TestPlainProgressAndBuildDryRun: off a terminal, a build prints one line
// per Dockerfile step (not its output), and up --dry-run says the image
// would be built without building it.
func TestPlainProgressAndBuildDryRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	stamp := time.Now().UnixNano() // a fresh image: nothing cached under its tag
	dir, name := w.project(t, "services:\n  app:\n    profile: image\n    build: docker/Dockerfile\n    command: [sleep, infinity]\n",
		map[string]string{"docker/Dockerfile": "FROM " + standin.DebianRef + "\nRUN echo built-" + strconv.FormatInt(stamp, 10) + " > /built\n"})
	w.must(t, dir, "lock")
	r := w.must(t, dir, "up", "--dry-run")
	if said := strings.Join(strings.Fields(r.Stdout), " "); !strings.Contains(said, "app would be built devenv/"+name+"-app:") {
		t.Fatalf("up --dry-run:\n%s", r.Stdout)
	}
	if got := engineState(t, name); got != "" {
		t.Fatalf("up --dry-run changed the engine: %s", got)
	}
	r = w.must(t, dir, "up")
	for _, want := range []string{"\nbuild app: Step 1/5 : FROM " + standin.DebianRef + "\n", "\nbuild app: Step 2/5 : RUN echo built-"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("up's stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "--->") {
		t.Errorf("plain progress printed build output:\n%s", r.Stderr)
	}
}
