// Package e2e runs the built devenv binary against the real Docker engine of
// this machine, with local stand-ins for nvcr.io, Maven Central and the
// Apache archive reached only through devenv's own mirrors: settings.
package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// Versions the stand-ins serve and the projects lock.
const (
	sparkVersion  = "3.5.1"
	rapidsVersion = "25.08.0"
	tritonBase    = "nvidia/tritonserver:25.01-py3"
	plainBase     = "nvidia/cuda:12.9.1-base-ubuntu22.04"
)

// cudaBase is the base image devenv's catalog resolves for the pinned Spark
// and RAPIDS Accelerator (under nvcr.io), read from the catalog so that a
// new CUDA update for the bases changes no test.
var cudaBase = strings.TrimPrefix(resolved(profiles.Request{Profile: profiles.SparkRapids, Spark: sparkVersion, Rapids: rapidsVersion}).BaseImage, "nvcr.io/")

func resolved(req profiles.Request) profiles.Resolved {
	r, err := profiles.Builtin().Resolve(req, nil)
	if err != nil {
		panic(fmt.Sprintf("the catalog no longer resolves %+v: %v", req, err))
	}
	return r
}

// newestRapidsFor is the RAPIDS Accelerator release devenv lock picks for
// an unpinned service of these versions: the newest the catalog lists.
func newestRapidsFor(req profiles.Request) string {
	req.Profile = profiles.SparkRapids
	return resolved(req).Rapids
}

// world is one test's stand-in outside world.
type world struct {
	registry string // 127.0.0.1:PORT standing in for nvcr.io
	art      *standin.ArtifactServer
	digests  map[string]string // repo:tag -> digest
	env      []string          // environment for devenv (its own cache)
	pypi     string            // mirrors.pypi, when a test serves one
}

func newWorld(t testing.TB, extra ...standin.ArtifactOption) *world {
	t.Helper()
	reg, digests := sharedRegistry(t)
	w := &world{registry: reg, digests: maps.Clone(digests)}
	opts := []standin.ArtifactOption{standin.WithSpark(sparkVersion), standin.WithScala("2.12"), standin.WithRapids(rapidsVersion)}
	w.art = standin.Artifacts(t, append(opts, extra...)...)
	w.env = []string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1"}
	return w
}

var names atomic.Int64

// uniqueName is a project name no other test of this run (they run side by
// side) or of another run on the engine has.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s%d%d", prefix, time.Now().UnixNano()%1e9, names.Add(1))
}

// shared holds the stand-in registry every test of the run uses, made by
// the first test that needs it (the Debian base imported and pushed under
// the NGC names once, not once per test) and stopped by TestMain.
var shared struct {
	sync.Mutex
	registry string
	digests  map[string]string // repo:tag -> digest
	stop     func()
}

func sharedRegistry(t testing.TB) (string, map[string]string) {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if shared.registry != "" {
		return shared.registry, shared.digests
	}
	deb := standin.Debian(t)
	reg, stop, err := standin.StartRegistry()
	if err != nil {
		t.Fatal(err)
	}
	digests := map[string]string{}
	for _, ref := range []string{cudaBase, tritonBase, plainBase} {
		digests[ref] = standin.Push(t, deb, reg+"/"+ref)
	}
	shared.registry, shared.digests, shared.stop = reg, digests, stop
	return reg, digests
}

// TestMain runs the package's tests, then stops the shared stand-ins.
func TestMain(m *testing.M) {
	code := m.Run()
	shared.Lock()
	if shared.stop != nil {
		shared.stop()
	}
	shared.Unlock()
	runAtExit()
	os.Exit(code)
}

// mirrors is the devenv.yaml mirrors: block pointing at the stand-ins.
func (w *world) mirrors() string {
	m := fmt.Sprintf("mirrors:\n  registries: {nvcr.io: %q}\n  maven: %q\n  apache: %q\n", w.registry, w.art.MavenURL(), w.art.ApacheURL())
	if w.pypi != "" {
		m += fmt.Sprintf("  pypi: %q\n", w.pypi)
	}
	return m
}

// project writes a project whose devenv.yaml is yaml plus the mirrors, named
// uniquely, and removes its Docker objects at cleanup.
func (w *world) project(t testing.TB, yaml string, files map[string]string) (dir, name string) {
	t.Helper()
	name = uniqueName("e2e")
	all := map[string]string{"devenv.yaml": "name: " + name + "\n" + yaml + w.mirrors()}
	for k, v := range files {
		all[k] = v
	}
	dir = standin.Project(t, all)
	standin.CleanupProject(t, name)
	return dir, name
}

func (w *world) run(t *testing.T, dir string, args ...string) standin.Result {
	t.Helper()
	if buildsSpark(dir, args) {
		defer coldSpark.wait()()
	}
	return standin.Run(t, dir, w.env, args...)
}

// coldSpark makes the run's first build of a Spark image happen alone. From
// a cold builder cache, tests that build the same Spark layers side by side
// each run the same apt-get installs (a JDK: minutes each on 2 cores, with
// the downloads shared between them); the first to come builds, the others
// wait for it and then take its layers from the engine's cache.
var coldSpark gate

type gate struct {
	sync.Mutex
	open bool
}

// wait returns at once when the gate is open; else it holds the gate until
// the returned function, which opens it, is called.
func (g *gate) wait() (done func()) {
	g.Lock()
	if g.open {
		g.Unlock()
		return func() {}
	}
	return func() { g.open = true; g.Unlock() }
}

// buildsSpark reports whether devenv args build the image of a spark-rapids
// service of the project in dir.
func buildsSpark(dir string, args []string) bool {
	if len(args) == 0 || (args[0] != "up" && args[0] != "build") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "devenv.yaml"))
	return err == nil && strings.Contains(string(b), "profile: spark-rapids")
}

// mustB is must for benchmarks.
func (w *world) mustB(b testing.TB, dir string, args ...string) standin.Result {
	b.Helper()
	r := standin.Run(b, dir, w.env, args...)
	if r.Code != 0 {
		b.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// must runs devenv and fails the test unless it exits 0.
func (w *world) must(t *testing.T, dir string, args ...string) standin.Result {
	t.Helper()
	r := w.run(t, dir, args...)
	if r.Code != 0 {
		t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

func decode[T any](t *testing.T, data string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("not JSON (%v):\n%s", err, data)
	}
	return v
}

// inspect returns the engine's view of a container.
func inspect(t *testing.T, name string) container.InspectResponse {
	t.Helper()
	c, err := standin.Docker(t).ContainerInspect(t.Context(), name)
	if err != nil {
		t.Fatalf("inspect %s: %v", name, err)
	}
	return c
}

// projectContainers lists every container (running or not) with the project's label.
func projectContainers(t *testing.T, project string) []string {
	t.Helper()
	list, err := standin.Docker(t).ContainerList(t.Context(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", labels.ProjectFilter(project)))})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range list {
		names = append(names, strings.TrimPrefix(c.Names[0], "/"))
	}
	return names
}

// freePort returns a TCP port on 127.0.0.1 that nothing listens on now, for
// a test to publish on: a fixed port would collide with containers of other
// projects on the same engine. It is drawn below the kernel's ephemeral
// range: a port from there (what listening on port 0 gives) can be taken,
// while a test builds for minutes, by any outgoing connection or by another
// test's listener, and the engine then refuses to publish it ("address
// already in use", seen in a cold CI run). Ports are not handed out twice.
func freePort(t testing.TB) int {
	t.Helper()
	lo, hi := freePortRange()
	freePorts.Lock()
	defer freePorts.Unlock()
	for range 200 {
		port := lo + rand.IntN(hi-lo)
		if freePorts.given[port] {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		_ = ln.Close()
		freePorts.given[port] = true
		return port
	}
	t.Fatalf("no free port on 127.0.0.1 in %d-%d after 200 tries", lo, hi)
	return 0
}

var freePorts = struct {
	sync.Mutex
	given map[int]bool
}{given: map[int]bool{}}

// freePortRange is the ports below the ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range; 32768 where it cannot be read)
// and above 10000, which well-known services keep clear of.
func freePortRange() (lo, hi int) {
	hi = 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 11000 {
				hi = n
			}
		}
	}
	return 10000, hi
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func envOf(c container.InspectResponse) map[string]string {
	out := map[string]string{}
	for _, kv := range c.Config.Env {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}
