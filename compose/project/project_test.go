package project

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	_ "github.com/devenv-dev/devenv/compose/loader" // compose files load in process in tests
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/envs/unlocked"
	"github.com/devenv-dev/devenv/internal/filelock"
	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
	"github.com/devenv-dev/devenv/internal/labels"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// TestRenderedHashesAreCompose holds the rendered project to Compose: each
// service's config hash, as the pinned Compose SDK computes it for the
// value devenv hands it, equals the hash compose-go's loader gives the same
// service written as YAML (what `docker compose config --hash` prints). A
// field devenv sets in a shape the loader would normalise differently
// shows up here as a key-by-key difference, not as containers recreated
// by one tool and not the other.
func TestRenderedHashesAreCompose(t *testing.T) {
	for _, host := range testHosts {
		t.Run(host.name, func(t *testing.T) {
			proj := render(t, host.host)
			loaded := reload(t, proj)
			for _, name := range proj.ServiceNames() {
				got, want := proj.Services[name], loaded.Services[name]
				gh, err := composesdk.ServiceHash(got)
				if err != nil {
					t.Fatal(err)
				}
				wh, err := composesdk.ServiceHash(want)
				if err != nil {
					t.Fatal(err)
				}
				if gh != wh {
					t.Errorf("service %s: rendered hash %s, loader's %s; keys that differ:\n%s", name, gh, wh, keyDiff(t, got, want))
				}
			}
			if len(loaded.Services) != len(proj.Services) {
				t.Errorf("loader sees services %v, rendered %v", loaded.ServiceNames(), proj.ServiceNames())
			}
		})
	}
}

// TestRenderedProjectCarriesThePlan checks what the project must say for
// devenv's guarantees: the locked image, 127.0.0.1 bindings unless an
// address was written, devenv's labels, GPU reservations from placement,
// the generated conf as a config with its content and its digest in a label.
func TestRenderedProjectCarriesThePlan(t *testing.T) {
	proj := render(t, gpuHost)
	spark := proj.Services["spark"]
	if !strings.Contains(spark.Image, "devenv/demo-spark:") {
		t.Errorf("spark image %q, want devenv's built tag", spark.Image)
	}
	if spark.PullPolicy != types.PullPolicyNever {
		t.Errorf("spark pull_policy %q: devenv builds it, compose must not pull it", spark.PullPolicy)
	}
	for _, p := range spark.Ports {
		if p.HostIP != "127.0.0.1" {
			t.Errorf("spark port %d binds %q", p.Target, p.HostIP)
		}
	}
	triton := proj.Services["triton"]
	if ip := portIP(triton, 8000); ip != "0.0.0.0" {
		t.Errorf("triton 8000 binds %q, want the written 0.0.0.0", ip)
	}
	if ip := portIP(proj.Services["postgres"], 5432); ip != "127.0.0.1" {
		t.Errorf("compose postgres 5432 binds %q, want 127.0.0.1", ip)
	}
	for _, s := range proj.Services {
		if s.Labels[labels.Project] != "demo" || s.Labels[labels.Service] != s.Name || s.Labels[labels.ConfigHash] == "" {
			t.Errorf("service %s labels %v lack devenv's", s.Name, s.Labels)
		}
	}
	devs := spark.Deploy.Resources.Reservations.Devices
	if len(devs) != 1 || len(devs[0].IDs) != 1 || !strings.HasPrefix(devs[0].IDs[0], "GPU-") || devs[0].Capabilities[0] != "gpu" {
		t.Errorf("spark devices %+v, want one placed GPU by UUID", devs)
	}
	if d := triton.Deploy.Resources.Reservations.Devices; len(d) != 1 || d[0].Count != -1 {
		t.Errorf("triton devices %+v, want count -1 (all)", d)
	}
	if len(spark.Configs) != 1 || spark.Configs[0].Target != plan.ConfDir+"/spark-defaults.conf" {
		t.Fatalf("spark configs %+v", spark.Configs)
	}
	c := proj.Configs[spark.Configs[0].Source]
	if !strings.Contains(c.Content, "spark.plugins") {
		t.Errorf("config %s content %q is not spark-defaults", spark.Configs[0].Source, c.Content)
	}
	if cf := spark.Configs[0]; *cf.Mode != plan.ConfigMode || cf.UID != "" || cf.GID != "" {
		t.Errorf("config mode %o, uid %q, gid %q; want %o, root's (Docker 20.10 cannot chown to a named container user)", *cf.Mode, cf.UID, cf.GID, plan.ConfigMode)
	}
	if spark.Labels[labels.FilesDigest] == "" {
		t.Error("spark has no files digest label")
	}
	if proj.Networks[DefaultNetwork].Name != "demo" {
		t.Errorf("network %+v, want demo", proj.Networks)
	}
	if v := proj.Volumes["pg-data"]; v.Name != "demo_pg-data" {
		t.Errorf("volume pg-data %+v, want engine name demo_pg-data", v)
	}
}

// TestFileChangeChangesLabels: Compose's hash leaves a config's content
// out, so a changed generated file must change the service's labels (and
// with them the hash) or the container would keep the old file.
func TestFileChangeChangesLabels(t *testing.T) {
	files := []plan.File{{Path: "/etc/x.conf", Mode: 0o600, Data: []byte("a=1")}}
	changed := []plan.File{{Path: "/etc/x.conf", Mode: 0o600, Data: []byte("a=2")}}
	h := func(f []plan.File) string {
		s := plantest.Service("p", "s", "i", "h")
		s.Files = f
		plan.PlaceFiles(&s.Container, f)
		pl := &plan.Plan{Project: "p", Network: "p", Services: []*plan.Service{s}}
		proj, err := FromPlan(pl, Options{WorkingDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		hash, err := composesdk.ServiceHash(proj.Services["s"])
		if err != nil {
			t.Fatal(err)
		}
		return hash
	}
	if h(files) == h(changed) {
		t.Error("a changed file's content leaves the compose hash unchanged")
	}
}

// TestUpgradeKeepsHashes: the hashes that decide whether a container is
// recreated are recorded for the fixture project: devenv's own config hash
// (what up compares today) and Compose's hash of the rendered service (what
// the SDK compares). A devenv change that moves one, so that every user's
// containers would be recreated on upgrade while nothing they wrote
// changed, fails here and needs a reviewed -update.
func TestUpgradeKeepsHashes(t *testing.T) {
	for _, c := range []struct{ fixture, golden, lock string }{
		{"project", "hashes.golden", "hashes.lock.json"},
		// a Spark standalone cluster: a master and two workers, each with one GPU
		{"standalone", "hashes.standalone.golden", "hashes.standalone.lock.json"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			dir := fixedFixture(t, c.fixture)
			proj := renderLocked(t, dir, pinnedLock(t, dir, c.lock), gpuHost)
			golden(t, c.golden, hashLines(t, proj))
		})
	}
}

// hashLines are devenv's config hash and Compose's hash of each service.
func hashLines(t *testing.T, proj *types.Project) []byte {
	t.Helper()
	var lines []string
	for _, name := range proj.ServiceNames() {
		h, err := composesdk.ServiceHash(proj.Services[name])
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, name+" devenv "+proj.Services[name].Labels[labels.ConfigHash]+" compose "+h)
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

func portIP(s types.ServiceConfig, target uint32) string {
	for _, p := range s.Ports {
		if p.Target == target {
			return p.HostIP
		}
	}
	return "missing"
}

type namedHost struct {
	name string
	host plan.Host
}

var (
	cpuHost   = plan.Host{CPUs: 16, MemoryBytes: 64 << 30}
	gpuHost   = plan.Host{CPUs: 16, MemoryBytes: 64 << 30, GPUs: gputest.Workstation()}
	testHosts = []namedHost{{"no-nvml", cpuHost}, {"two-gpus", gpuHost}}
)

func render(t *testing.T, h plan.Host) *types.Project {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}
	return renderAt(t, dir, h)
}

// fixedFixture copies testdata/project to one fixed path, so that hashes
// covering absolute paths (bind mounts of the project) are the same in
// every checkout. Test processes running at once take turns (a file lock).
func fixedFixture(t *testing.T, name string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the recorded hashes are of the fixture at /tmp/devenv-hash-fixture/project, a Linux path")
	}
	root := "/tmp/devenv-hash-fixture"
	if name != "project" {
		root += "-" + name
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Skipf("cannot make %s for the fixture: %v", root, err)
	}
	l, err := filelock.Acquire(t.Context(), filepath.Join(root, "lock"), filelock.Options{Timeout: time.Minute})
	if errors.Is(err, fs.ErrPermission) {
		t.Skipf("the recorded hashes are of the fixture at %s/project, and another user made %s (%v): remove it, or run as that user", root, root, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Release() })
	dir := filepath.Join(root, "project")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pinnedLock is the fixture's lock as committed in testdata/hashes.lock
// (what a user's checked-in devenv.lock is: versions the catalog's later
// releases do not move); -update writes it afresh.
func pinnedLock(t *testing.T, dir, name string) *lock.File {
	t.Helper()
	path := filepath.Join("testdata", name) // fake pins: plain JSON, not checked as devenv.lock is
	if goldenfile.Updating() {
		b, err := json.MarshalIndent(fakeLock(t, locktest.Project(t, dir)), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	lf := &lock.File{}
	if err := json.Unmarshal(b, lf); err != nil {
		t.Fatal(err)
	}
	return lf
}

func renderAt(t *testing.T, dir string, h plan.Host) *types.Project {
	t.Helper()
	return renderLocked(t, dir, fakeLock(t, locktest.Project(t, dir)), h)
}

func renderLocked(t *testing.T, dir string, lf *lock.File, h plan.Host) *types.Project {
	t.Helper()
	p := locktest.Project(t, dir)
	pl, err := plan.Make(p, lf, h, plan.Options{Token: "test-token", StateDir: filepath.Join(p.Dir, ".devenv")})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := FromPlan(pl, Options{WorkingDir: p.Dir})
	if err != nil {
		t.Fatal(err)
	}
	return proj
}

// reload writes proj as YAML and loads it with compose-go's loader, the
// way `docker compose -f - config` would.
func reload(t *testing.T, proj *types.Project) *types.Project {
	t.Helper()
	y, err := proj.MarshalYAML(types.WithSecretContent)
	if err != nil {
		t.Fatal(err)
	}
	details := types.ConfigDetails{
		WorkingDir:  proj.WorkingDir,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(proj.WorkingDir, "rendered.yaml"), Content: y}},
		Environment: types.Mapping{},
	}
	loaded, err := loader.LoadWithContext(t.Context(), details, func(o *loader.Options) {
		o.SetProjectName(proj.Name, true)
	})
	if err != nil {
		t.Fatalf("compose-go refuses the rendered project: %v\n%s", err, y)
	}
	return loaded
}

// keyDiff lists the top-level keys whose JSON differs.
func keyDiff(t *testing.T, a, b types.ServiceConfig) string {
	t.Helper()
	am, bm := asMap(t, a), asMap(t, b)
	var out []string
	for _, k := range sortedKeys(am, bm) {
		if !reflect.DeepEqual(am[k], bm[k]) {
			aj, _ := json.Marshal(am[k])
			bj, _ := json.Marshal(bm[k])
			out = append(out, "  "+k+": rendered "+string(aj)+"\n    loader   "+string(bj))
		}
	}
	return strings.Join(out, "\n")
}

func asMap(t *testing.T, s types.ServiceConfig) map[string]any {
	// compose-go writes build.ssh entries with a path as invalid JSON: as "id=path" here
	var ssh []any
	if s.Build != nil && len(s.Build.SSH) > 0 {
		b := *s.Build
		for _, k := range b.SSH {
			ssh = append(ssh, k.ID+"="+k.Path)
		}
		b.SSH = nil
		s.Build = &b
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if ssh != nil {
		// in no order: compose-go reads them through a map
		slices.SortFunc(ssh, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		m["build"].(map[string]any)["ssh"] = ssh
	}
	return m
}

// fakeLock is a lock as `devenv lock` would write it, with stable made-up
// digests and checksums (sha256 of the reference or URL).
func fakeLock(t *testing.T, p *spec.Project) *lock.File {
	t.Helper()
	lf, err := unlocked.Lock(t.Context(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	return locktest.Stable(t, p, lf)
}
