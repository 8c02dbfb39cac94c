package plan

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

type pinner struct{}

func (pinner) Digest(_ context.Context, ref string) (string, error) {
	return "sha256:" + strings.Repeat("d", 64), nil
}

type fetcher struct{}

func (fetcher) Verified(_ context.Context, url, _, _ string) (string, string, error) {
	path, err := standin.RapidsJarFor(url) // lock reads the accelerator jar's shims
	return strings.Repeat("a", 64), path, err
}

const projectYAML = `name: demo
services:
  spark:
    profile: spark-rapids
    spark: "3.5.1"
    rapids: "25.04.0"
    jupyter: true
    gpus: 1
    ports: ["4040", "8888"]
    volumes: ["./data:/data:ro", "cache:/cache"]
    env: {TZ: UTC}
    env_file: .env.local
    conf: {spark.sql.shuffle.partitions: "64"}
  serve:
    profile: triton
    release: "25.01"
    gpus: 1
    ports: ["8000", "8001", "8002"]
    volumes: ["./models:/models:ro"]
  notebook:
    profile: rapids
    release: "25.06"
    gpu: optional
    depends_on: [spark]
  db:
    profile: image
    image: postgres:16
    ports: ["0.0.0.0:5432:5432"]
mirrors:
  registries: {nvcr.io: "127.0.0.1:5055"}
`

func load(t *testing.T, text string) (*spec.Project, *lock.File) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"data/x", "models/m"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".env.local"), []byte("FROM_FILE=1\n# comment\nexport QUOTED=\"a b\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p, lockStandIn(t, p)
}

func opts(p *spec.Project) Options {
	return Options{Mirrors: sources.Mirrors{Registries: p.Mirrors.Registries}, Token: "tok", StateDir: filepath.Join(p.Dir, ".devenv")}
}

// TestPlanGolden plans one project on several machines and compares the
// container specs with golden files (the project directory shown as $DIR).
func TestPlanGolden(t *testing.T) {
	hosts := map[string]Host{
		"no-nvml":     {CPUs: 8, MemoryBytes: 32 << 30},
		"no-runtime":  {CPUs: 8, MemoryBytes: 32 << 30, NoGPURuntime: true},
		"laptop":      {CPUs: 8, MemoryBytes: 32 << 30, GPUs: gputest.Laptop()},
		"workstation": {CPUs: 32, MemoryBytes: 256 << 30, GPUs: gputest.Workstation()},
	}
	for name, h := range hosts {
		t.Run(name, func(t *testing.T) {
			p, lf := load(t, projectYAML)
			pl, err := Make(p, lf, h, opts(p))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".json", render(t, pl, p.Dir))
		})
	}
}

func render(t *testing.T, pl *Plan, dir string) []byte {
	type view struct {
		Name, Image, Pull string
		Container         any
		Files             []File
		CPUFallback       bool
		Reason            string
		Endpoints         []Endpoint
		Generated         map[string]string
	}
	var out struct {
		Order    []string
		Services []view
		Volumes  []string
		Warnings []string
		Place    *gpu.Placement
	}
	for _, s := range pl.Services {
		out.Order = append(out.Order, s.Name)
		gen := map[string]string{}
		for k, v := range s.Generated {
			gen[k] = string(v)
		}
		c := s.Container
		c.Labels = nil // the config hash depends on $DIR
		var files []File
		for _, f := range s.Files {
			f.Data = nil // shown as Generated
			files = append(files, f)
		}
		out.Services = append(out.Services, view{s.Name, s.Image, s.Pull, c, files, s.CPUFallback, s.Reason, s.Endpoints, gen})
	}
	out.Volumes, out.Warnings, out.Place = pl.Volumes, pl.Warnings, pl.Placement
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(b), dir, "$DIR"))
}

func TestExactDeviceRequests(t *testing.T) {
	text := strings.Replace(projectYAML, "    gpus: 1\n    ports: [\"8000\"", "    gpus: [\"0\", \"GPU-abc\"]\n    ports: [\"8000\"", 1)
	text = strings.Replace(text, "    gpus: 1\n    ports: [\"4040\"", "    gpus: all\n    ports: [\"4040\"", 1)
	p, lf := load(t, text)
	pl, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 16 << 30}, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	spark, serve, db := compose.GPURequest(pl.Service("spark").Container), compose.GPURequest(pl.Service("serve").Container), compose.GPURequest(pl.Service("db").Container)
	if spark == nil || spark.Count != -1 || len(spark.IDs) != 0 {
		t.Errorf("gpus: all -> %+v", spark)
	}
	if serve == nil || serve.Count != 0 || strings.Join(serve.IDs, ",") != "0,GPU-abc" {
		t.Errorf("gpus: [0, GPU-abc] -> %+v", serve)
	}
	if db != nil {
		t.Errorf("an image service without gpus asks for %+v", db)
	}
	if nb := compose.GPURequest(pl.Service("notebook").Container); nb == nil || nb.Count != 1 {
		t.Errorf("gpus default 1 -> %+v", nb)
	}
}

func TestConfigHashChangesOnlyWithTheService(t *testing.T) {
	p, lf := load(t, projectYAML)
	h := Host{CPUs: 4, MemoryBytes: 16 << 30}
	a, err := Make(p, lf, h, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Make(p, lf, h, opts(p))
	for _, s := range a.Services {
		if b.Service(s.Name).ConfigHash != s.ConfigHash {
			t.Errorf("%s: same input, different hash", s.Name)
		}
	}
	text := strings.Replace(projectYAML, "image: postgres:16", "image: postgres:16\n    env: {X: y}", 1)
	p2, err := spec.Parse(p.File, []byte(text), p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Make(p2, lf, h, opts(p2))
	if err != nil {
		t.Fatal(err)
	}
	if c.Service("db").ConfigHash == a.Service("db").ConfigHash {
		t.Error("changing db's env kept its hash")
	}
	for _, n := range []string{"spark", "serve", "notebook"} {
		if c.Service(n).ConfigHash != a.Service(n).ConfigHash {
			t.Errorf("changing db changed %s's hash", n)
		}
	}
}

func TestOrderPutsDependenciesFirst(t *testing.T) {
	p, lf := load(t, projectYAML)
	pl, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 16 << 30}, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, s := range pl.Services {
		pos[s.Name] = i
	}
	if pos["spark"] > pos["notebook"] {
		t.Errorf("notebook (depends on spark) planned before it: %v", pos)
	}
}

func TestUnlockedServiceIsAnError(t *testing.T) {
	p, lf := load(t, projectYAML)
	lf.Services = lf.Services[:1]
	if _, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 16 << 30}, opts(p)); err == nil || !strings.Contains(err.Error(), "devenv lock") {
		t.Fatalf("want a relock hint, got %v", err)
	}
}

func TestReadEnvFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(path, []byte("A=1\n\n# c\nexport B='two words'\nC=\"x=y\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadEnvFile(path)
	if err != nil || got["A"] != "1" || got["B"] != "two words" || got["C"] != "x=y" || len(got) != 3 {
		t.Fatalf("%v %v", got, err)
	}
	if err := os.WriteFile(path, []byte("A=1\nnot a pair\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEnvFile(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("want the bad line named, got %v", err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// TestStandaloneWorkers: workers: 2 on a two-GPU workstation gives a master
// without GPUs and two workers with one GPU each.
// standaloneYAML is projectYAML with its Spark service as a standalone
// cluster of two workers on two GPUs, and Triton on none.
func standaloneYAML() string {
	text := strings.Replace(projectYAML, "    gpus: 1\n    ports: [\"4040\"", "    gpus: 2\n    workers: 2\n    ports: [\"4040\"", 1)
	return strings.Replace(text, "  serve:\n    profile: triton\n    release: \"25.01\"\n    gpus: 1\n", "  serve:\n    profile: triton\n    release: \"25.01\"\n    gpus: 0\n", 1)
}

func TestStandaloneWorkers(t *testing.T) {
	p, lf := load(t, standaloneYAML())
	pl, err := Make(p, lf, Host{CPUs: 32, MemoryBytes: 256 << 30, GPUs: gputest.Workstation()}, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	master := pl.Service("spark")
	if compose.GPURequest(master.Container) != nil || !strings.Contains(strings.Join(master.Container.Command, " "), "deploy.master.Master") {
		t.Errorf("master: gpu %+v cmd %v", compose.GPURequest(master.Container), master.Container.Command)
	}
	seen := map[string]bool{}
	for _, n := range []string{"spark-worker-1", "spark-worker-2"} {
		w := pl.Service(n)
		if w == nil {
			t.Fatalf("no %s in %v", n, pl.Services)
		}
		if w.Container.ContainerName != "demo-"+n || w.Replica != "spark" || len(w.DependsOn) != 1 || w.DependsOn[0] != "spark" {
			t.Errorf("%s: %+v", n, w)
		}
		// the project names the worker's service as devenv.yaml's
		if _, after := w.Container.DependsOn["spark"]; w.Container.Labels[labels.ReplicaOf] != "spark" || !after || master.Container.Labels[labels.ReplicaOf] != "" {
			t.Errorf("%s: labels %v, depends on %v; master's labels %v", n, w.Container.Labels, w.Container.DependsOn, master.Container.Labels)
		}
		g := compose.GPURequest(w.Container)
		if g == nil || len(g.IDs) != 1 {
			t.Fatalf("%s GPU %+v", n, g)
		}
		seen[g.IDs[0]] = true
		if !strings.Contains(strings.Join(w.Container.Command, " "), "spark://spark:7077") {
			t.Errorf("%s cmd %v", n, w.Container.Command)
		}
	}
	if len(seen) != 2 {
		t.Errorf("the two workers share a GPU: %v", seen)
	}
	conf := string(master.Generated["spark-defaults.conf"])
	if !strings.Contains(conf, "spark.master spark\\://spark\\:7077") {
		t.Errorf("spark-defaults does not point at the standalone master:\n%s", conf)
	}
}

// TestGeneratedConfIsCopiedNotMounted: a spark-rapids service, and each of
// its standalone workers, gets spark-defaults.conf as a file copied into
// its container (0600, owned there by the container's user), not as a bind
// mount of .devenv/generated, whose host copy only the host user reads.
func TestGeneratedConfIsCopiedNotMounted(t *testing.T) {
	workers := strings.Replace(projectYAML, "    gpus: 1\n    ports: [\"4040\"", "    gpus: 2\n    workers: 2\n    ports: [\"4040\"", 1)
	for name, text := range map[string]string{"local": projectYAML, "standalone": workers} {
		t.Run(name, func(t *testing.T) {
			p, lf := load(t, text)
			pl, err := Make(p, lf, Host{CPUs: 32, MemoryBytes: 256 << 30, GPUs: gputest.Workstation()}, opts(p))
			if err != nil {
				t.Fatal(err)
			}
			conf := pl.Service("spark").Generated["spark-defaults.conf"]
			if len(conf) == 0 {
				t.Fatal("no spark-defaults.conf generated")
			}
			for _, s := range pl.Services {
				if s.Profile != profiles.SparkRapids {
					if len(s.Files) != 0 {
						t.Errorf("%s gets files %+v", s.Name, s.Files)
					}
					continue
				}
				for _, m := range s.Container.Volumes {
					if m.Target == ConfDir || strings.HasPrefix(m.Source, opts(p).StateDir) {
						t.Errorf("%s mounts %+v", s.Name, m)
					}
				}
				want := []File{{Path: ConfDir + "/spark-defaults.conf", Mode: 0o600, Data: conf}}
				if !reflect.DeepEqual(s.Files, want) {
					t.Errorf("%s files %+v, want spark-defaults.conf at %s, 0600", s.Name, s.Files, ConfDir)
				}
				if refs := s.Container.Configs; len(refs) != 1 || refs[0].Target != want[0].Path || refs[0].Source != ConfigName(s.Name, want[0].Path) || s.Container.Labels[labels.FilesDigest] != FilesDigest(want) {
					t.Errorf("%s refers to configs %+v, files digest %q", s.Name, refs, s.Container.Labels[labels.FilesDigest])
				}
			}
		})
	}
}

// TestRMMSiteCustomize runs the script RAPIDS images get with a real
// Python: silent without a limit, and with one it tries RMM and, where RMM
// is missing (this machine), says so on stderr without failing.
func TestRMMSiteCustomize(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine to run the script with:", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sitecustomize.py"), []byte(rmmSiteCustomize), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(env ...string) (string, error) {
		cmd := exec.Command(py, "-c", "print('ok')")
		cmd.Env = append([]string{"PYTHONPATH=" + dir}, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(); err != nil || out != "ok\n" {
		t.Fatalf("without a limit: %q %v", out, err)
	}
	out, err := run("DEVENV_RMM_POOL_LIMIT_BYTES=1073741824")
	if err != nil || !strings.Contains(out, "ok") {
		t.Fatalf("with a limit the interpreter must still run: %q %v", out, err)
	}
	if !strings.Contains(out, "could not limit the RMM pool to 1073741824 bytes") {
		t.Errorf("with a limit and no RMM, want the reason on stderr: %q", out)
	}
}

// A missing env_file (a git-ignored secrets file) leaves the plan readable
// for config and export; the service says where devenv.yaml names it, and
// starting it is refused with that place.
func TestMissingEnvFilePlansAndRefusesStart(t *testing.T) {
	p, lf := load(t, projectYAML)
	if err := os.Remove(filepath.Join(p.Dir, ".env.local")); err != nil {
		t.Fatal(err)
	}
	pl, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 16 << 30}, opts(p))
	if err != nil {
		t.Fatalf("plan without the env_file: %v", err)
	}
	spark := pl.Service("spark")
	if spark.MissingEnvFile != ".env.local" || spark.MissingEnvFileAt != "devenv.yaml:12:5" {
		t.Errorf("MissingEnvFile = %q at %q", spark.MissingEnvFile, spark.MissingEnvFileAt)
	}
	err = spark.EnvFileError()
	if err == nil || !strings.Contains(err.Error(), `devenv.yaml:12:5: env_file ".env.local" of service "spark" does not exist`) {
		t.Errorf("EnvFileError = %v", err)
	}
	for _, kv := range envOf(spark.Container.Environment) {
		if strings.HasPrefix(kv, "FROM_FILE=") {
			t.Errorf("env from a missing file: %s", kv)
		}
	}
	if !strings.Contains(strings.Join(pl.Warnings, "\n"), "spark: env_file .env.local does not exist (devenv.yaml:12:5)") {
		t.Errorf("no warning about the missing env_file: %q", pl.Warnings)
	}
	if s := pl.Service("serve"); s.MissingEnvFile != "" || s.EnvFileError() != nil {
		t.Errorf("serve has no env_file, got %q", s.MissingEnvFile)
	}
}

// TestStandaloneWorkerHashIsStable: the same file planned again gives each
// standalone worker the same config hash and environment. The workers'
// SPARK_WORKER_* settings come from a map; appended in its order, the
// environment and so the hash changed from one plan to the next, and a
// changed hash recreates the worker on up.
func TestStandaloneWorkerHashIsStable(t *testing.T) {
	p, lf := load(t, standaloneYAML())
	first := map[string]string{}
	for i := range 20 {
		pl, err := Make(p, lf, Host{CPUs: 32, MemoryBytes: 256 << 30, GPUs: gputest.Workstation()}, opts(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"spark-worker-1", "spark-worker-2"} {
			w := pl.Service(n)
			if w == nil {
				t.Fatalf("no %s in %v", n, pl.Services)
			}
			env := envOf(w.Container.Environment)
			got := w.ConfigHash + " " + strings.Join(env, " ")
			if i == 0 {
				first[n] = got
				if !slices.IsSorted(env) {
					t.Errorf("%s: environment not in order: %v", n, env)
				}
			} else if got != first[n] {
				t.Fatalf("%s: plan %d differs from the first:\n%s\n%s", n, i+1, got, first[n])
			}
		}
	}
}
