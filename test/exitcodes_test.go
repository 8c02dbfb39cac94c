package e2e

// The README's exit-code table, row by row: each row's situations are made
// for real (an unreachable engine is DOCKER_HOST=unix:///nonexistent, an
// engine that goes away is a socket proxy that cuts the connection at
// container create) and every command named in them must exit with the
// row's code.

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// cuttingEngine forwards the Docker API to the real engine until the first
// POST .../containers/create, whose connection it closes without an answer;
// from then on it closes every connection, as an engine that went away.
type cuttingEngine struct {
	path string
	cut  atomic.Bool
}

func newCuttingEngine(t *testing.T) *cuttingEngine {
	t.Helper()
	e := &cuttingEngine{path: filepath.Join(t.TempDir(), "docker.sock")}
	ln, err := net.Listen("unix", e.path)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse("http://docker")
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	proxy.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", "/var/run/docker.sock")
	}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/containers/create") {
			e.cut.Store(true)
		}
		if e.cut.Load() {
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = c.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return e
}

const nowhere = "DOCKER_HOST=unix:///nonexistent"

// exitRow is one situation of a row of the README's table.
type exitRow struct {
	code  int
	name  string
	setup func(t *testing.T) (dir string, env []string) // nil: the shared project
	args  []string
	want  string // in stdout or stderr
	not   string // never in stderr ("" for none)
	ctx   func(t *testing.T) (context.Context, context.CancelFunc)
}

// TestExitCodesOfTheReadmeTable runs every command of every row of the
// README's "Exit codes" table in the row's situation, and checks the table
// lists no code without a situation here.
func TestExitCodesOfTheReadmeTable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	box := `services:
  box:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
`
	// A project pinned but never up: rows that need an engine at work.
	locked, _ := w.project(t, box, nil)
	w.must(t, locked, "lock")
	// A project up: exec and run pass their command's code through.
	running, _ := w.project(t, box, nil)
	w.must(t, running, "up")
	unlocked := func(t *testing.T) (string, []string) {
		d, _ := w.project(t, box, nil)
		return d, nil
	}
	// With a registry that refuses connections, an up with no lock that
	// asked the registry first would fail on it (exit 1).
	deadRegistry := func(t *testing.T) (string, []string) {
		d := standin.Project(t, map[string]string{"devenv.yaml": "name: " + uniqueName("exitreg") + "\n" + box +
			"mirrors:\n  registries: {nvcr.io: \"127.0.0.1:1\"}\n"})
		return d, nil
	}
	gpuRequired := func(t *testing.T) (string, []string) {
		d, _ := w.project(t, box+"    gpus: [0]\n    gpu: required\n", nil)
		w.must(t, d, "lock")
		return d, nil
	}
	stale := func(t *testing.T) (string, []string) {
		d, _ := w.project(t, box, nil)
		w.must(t, d, "lock")
		writeFile(t, d, "devenv.yaml", strings.Replace(readFile(t, filepath.Join(d, "devenv.yaml")), "services:\n",
			"services:\n  other:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n", 1))
		return d, nil
	}
	broken := func(t *testing.T) (string, []string) {
		return standin.Project(t, map[string]string{"devenv.yaml": "name: broken\nservices: [\n"}), nil
	}
	hole := blackhole(t)
	stalledArtifacts := func(t *testing.T) (string, []string) {
		d, _ := w.project(t, lockYAML, nil)
		writeFile(t, d, "devenv.yaml", strings.NewReplacer(w.art.MavenURL(), "http://"+hole+"/maven2", w.art.ApacheURL(), "http://"+hole+"/apache").Replace(readFile(t, filepath.Join(d, "devenv.yaml"))))
		return d, nil
	}
	engineGoesAway := func(t *testing.T) (string, []string) {
		d, _ := w.project(t, box, nil)
		w.must(t, d, "lock")
		return d, []string{"DOCKER_HOST=unix://" + newCuttingEngine(t).path}
	}
	at := func(dir string) func(*testing.T) (string, []string) {
		return func(*testing.T) (string, []string) { return dir, nil }
	}
	withEnv := func(setup func(*testing.T) (string, []string), env ...string) func(*testing.T) (string, []string) {
		return func(t *testing.T) (string, []string) {
			d, e := setup(t)
			return d, append(e, env...)
		}
	}
	interruptAfter := func(d time.Duration) func(*testing.T) (context.Context, context.CancelFunc) {
		return func(t *testing.T) (context.Context, context.CancelFunc) { return context.WithTimeout(t.Context(), d) }
	}
	rows := []exitRow{
		{code: 0, name: "ps of a project not up", setup: at(locked), args: []string{"ps"}},
		{code: 0, name: "doctor on a machine it can check", setup: at(locked), args: []string{"doctor", "--json"}, not: "panic"},
		{code: 1, name: "lock against a registry that refuses", setup: deadRegistry, args: []string{"lock"}, want: "127.0.0.1:1"},
		{code: 1, name: "down from a clone", setup: func(t *testing.T) (string, []string) {
			d := standin.Project(t, map[string]string{"devenv.yaml": readFile(t, filepath.Join(running, "devenv.yaml"))})
			return d, nil
		}, args: []string{"down"}, want: "in use by"},
		{code: 2, name: "an unknown command", setup: at(locked), args: []string{"upp"}, want: "devenv up"},
		{code: 2, name: "an unknown flag", setup: at(locked), args: []string{"ps", "--nope"}, want: "nope"},
		{code: 2, name: "a stray argument", setup: at(locked), args: []string{"lock", "stray"}, want: "stray"},
		{code: 2, name: "a bad DEVENV_ variable", setup: withEnv(at(locked), "DEVENV_NET_TIMEOUT=banana"), args: []string{"ps"}, want: "DEVENV_NET_TIMEOUT"},
		{code: 2, name: "invalid devenv.yaml", setup: broken, args: []string{"config"}, want: "devenv.yaml"},
		{code: 2, name: "a bad ps --format template", setup: at(locked), args: []string{"ps", "--format", "{{.Name"}, want: "--format"},
		{code: 2, name: "a ps --format template naming no field", setup: at(running), args: []string{"ps", "--format", "{{.NoSuchField}}"}, want: "--format"},
		{code: 2, name: "a bad ps --format template, engine down", setup: withEnv(at(locked), nowhere), args: []string{"ps", "--format", "{{.Name"}, want: "--format"},
		{code: 3, name: "ps, engine unreachable", setup: withEnv(at(locked), nowhere), args: []string{"ps"}, want: "/nonexistent"},
		{code: 3, name: "up, engine unreachable", setup: withEnv(at(locked), nowhere), args: []string{"up"}, want: "/nonexistent"},
		{code: 3, name: "down, engine unreachable", setup: withEnv(at(locked), nowhere), args: []string{"down"}, want: "/nonexistent"},
		{code: 3, name: "doctor, engine unreachable", setup: withEnv(at(locked), nowhere), args: []string{"doctor"}, want: "/nonexistent"},
		{code: 3, name: "up with no lock, engine unreachable, before any registry work", setup: withEnv(deadRegistry, nowhere), args: []string{"up"},
			want: "/nonexistent", not: "127.0.0.1:1"},
		{code: 3, name: "up, the engine goes away at container create", setup: engineGoesAway, args: []string{"up"}, not: "panic"},
		{code: 4, name: "up of a gpu: required service with no GPU runtime", setup: gpuRequired, args: []string{"up"}, want: "nvidia-ctk"},
		{code: 5, name: "lock --check, lock stale", setup: stale, args: []string{"lock", "--check"}},
		{code: 5, name: "up --frozen, lock stale", setup: stale, args: []string{"up", "--frozen"}},
		{code: 5, name: "up --frozen, no lock", setup: unlocked, args: []string{"up", "--frozen"}},
		{code: 130, name: "lock interrupted waiting on an artifact server", setup: stalledArtifacts, args: []string{"lock"}, ctx: interruptAfter(3 * time.Second)},
		{code: 7, name: "exec passes its command's code", setup: at(running), args: []string{"exec", "-T", "box", "sh", "-c", "exit 7"}},
		{code: 9, name: "run passes its command's code", setup: at(running), args: []string{"run", "-T", "box", "--", "sh", "-c", "exit 9"}},
	}
	covered := map[string]bool{}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir, env := row.setup(t)
			ctx, cancel := t.Context(), context.CancelFunc(func() {})
			if row.ctx != nil {
				ctx, cancel = row.ctx(t)
			}
			defer cancel()
			r := standin.RunContext(ctx, t, dir, append(append([]string{}, w.env...), env...), row.args...)
			if r.Code != row.code || strings.Contains(r.Stderr, "panic") {
				t.Fatalf("devenv %s: exit %d, want %d\n%s", strings.Join(row.args, " "), r.Code, row.code, r.Stderr)
			}
			if row.want != "" && !strings.Contains(r.Stdout+r.Stderr, row.want) {
				t.Errorf("the output lacks %q:\n%s\n%s", row.want, r.Stdout, r.Stderr)
			}
			if row.not != "" && strings.Contains(r.Stderr, row.not) {
				t.Errorf("stderr holds %q:\n%s", row.not, r.Stderr)
			}
		})
		code := strconv.Itoa(row.code)
		if row.code > 5 && row.code != 130 {
			code = "other"
		}
		covered[code] = true
	}
	for _, code := range readmeExitCodes(t) {
		if !covered[code] {
			t.Errorf("the README's exit code %s has no situation in this test", code)
		}
	}
}

// readmeExitCodes are the codes of the README's "Exit codes" table.
func readmeExitCodes(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(standin.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	row := regexp.MustCompile(`^\| (\d+|other) \|`)
	var codes []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Exit codes"
		case in:
			if m := row.FindStringSubmatch(line); m != nil {
				codes = append(codes, m[1])
			}
		}
	}
	if len(codes) == 0 {
		t.Fatal("README.md has no rows under ## Exit codes")
	}
	return codes
}
