package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/devenv-dev/devenv/test/standin"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/ui"
)

type fakePinner struct{}

func (fakePinner) Digest(context.Context, string) (string, error) {
	return "sha256:" + strings.Repeat("e", 64), nil
}

type fakeFetcher struct{}

func (fakeFetcher) Verified(_ context.Context, url, _, _ string) (string, string, error) {
	path, err := standin.RapidsJarFor(url) // lock reads the accelerator jar's shims
	return strings.Repeat("f", 64), path, err
}

// world is an opened test project on a described machine: no NVML, no
// NVIDIA toolkit hook, 8 CPUs and 32 GiB both offline and in the fake
// engine's info, so every command sees the same machine.
type world struct {
	dir    string
	eng    *enginetest.Fake
	stderr *syncBuffer
	opts   Options
}

func newWorld(t *testing.T, yaml string, files map[string]string) *world {
	t.Helper()
	t.Setenv("DEVENV_CACHE", t.TempDir())
	dir := t.TempDir()
	files["devenv.yaml"] = yaml
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := &world{dir: dir, eng: enginetest.New(), stderr: &syncBuffer{}}
	w.opts = Options{Dir: dir, Out: ui.New(&bytes.Buffer{}, w.stderr, false, false),
		Engine: func(context.Context) (engine.Engine, error) { return w.eng, nil },
		GPUs:   func() (gpu.Inventory, error) { return nil, errors.New("no NVML here") },
		LocalHost: func() doctor.HostFacts {
			return doctor.HostFacts{LookPath: func(string) (string, error) { return "", os.ErrNotExist }}
		},
		Machine: func() (int, int64) { return 8, 32 << 30 },
		Pinner:  fakePinner{}, Fetcher: fakeFetcher{},
	}
	return w
}

func (w *world) open(t *testing.T) *Project {
	t.Helper()
	p, err := Open(t.Context(), w.opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func (w *world) lock(t *testing.T) {
	t.Helper()
	if _, err := w.open(t).Lock(t.Context(), LockOptions{}); err != nil {
		t.Fatal(err)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const optionalSpark = `name: demo
services:
  spark:
    profile: spark-rapids
    gpu: optional
    jupyter: false
    memory: 6g
    conf: {spark.sql.shuffle.partitions: "64"}
`

func confLines(t *testing.T, e *SparkExplain) string {
	t.Helper()
	var b strings.Builder
	for _, c := range e.Conf {
		if !c.Unset {
			b.WriteString(c.Key + " " + c.Value + "\n")
		}
	}
	return b.String()
}

// withoutComments is a spark-defaults.conf's key-value lines.
func withoutComments(data []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestCPUFallbackIsTheSameEverywhere: on an engine that cannot give GPUs,
// config, config spark and the spark-defaults.conf up writes all show the
// same CPU-mode confs (issue 10 item 6).
func TestCPUFallbackIsTheSameEverywhere(t *testing.T) {
	w := newWorld(t, optionalSpark, map[string]string{})
	w.lock(t)
	ctx := t.Context()
	p := w.open(t)
	cfg, err := p.Config(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := cfg.Services[0]
	if !sc.CPUFallback || sc.Spark == nil || sc.Memory != "6g" {
		t.Fatalf("config: cpu fallback %v, memory %q, spark %v", sc.CPUFallback, sc.Memory, sc.Spark != nil)
	}
	exp, err := p.Explain(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	fromConfig := confLines(t, &SparkExplain{Conf: sc.Spark.Conf})
	if got := confLines(t, exp); got != fromConfig || !exp.CPUFallback {
		t.Fatalf("config spark differs from config:\n%s\nvs\n%s", got, fromConfig)
	}
	if strings.Contains(fromConfig, "SQLPlugin") || !strings.Contains(fromConfig, "spark.rapids.sql.enabled false") {
		t.Errorf("CPU mode still has the plugin on:\n%s", fromConfig)
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.eng.AddImage(pl.Service("spark").Image, nil) // built already: up needs no artifacts
	if _, err := w.open(t).Up(ctx, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(w.dir, ".devenv", "generated", "spark", "spark-defaults.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(w.dir, ".devenv", "generated", "spark", "spark-defaults.conf")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("spark-defaults.conf up wrote has mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if got := withoutComments(written); got != fromConfig {
		t.Fatalf("spark-defaults.conf up wrote differs from config:\n%s\nvs\n%s", got, fromConfig)
	}
}

// TestDiffScalesProdToThePlansShare: diff scales prod's sized confs to the
// share the plan sized spark-defaults for (memory: 6g here), not to 3/4 of
// the machine (24 GiB), and says so in the WHY column.
func TestDiffScalesProdToThePlansShare(t *testing.T) {
	prod := "spark.executor.memory 64g\nspark.driver.memory 32g\nspark.executor.cores 16\n"
	res := mirrorThenDiff(t, prod)
	scaled := 0
	for _, d := range res.Items {
		if d.Key != "spark.executor.memory" {
			continue
		}
		scaled++
		if !strings.Contains(d.Why, "6144 MB of host memory") {
			t.Errorf("prod's executor memory was not scaled to the service's 6g: %+v", d)
		}
	}
	if scaled == 0 {
		t.Fatalf("no spark.executor.memory item to check: %+v", res.Items)
	}
}

// TestExplainWithoutLock explains from resolution alone, says what the
// lock would still pin, and writes nothing.
func TestExplainWithoutLock(t *testing.T) {
	w := newWorld(t, optionalSpark, map[string]string{})
	exp, err := w.open(t).Explain(t.Context(), "spark")
	if err != nil {
		t.Fatal(err)
	}
	if exp.From != FromResolution || len(exp.Conf) == 0 {
		t.Fatalf("from %q with %d confs", exp.From, len(exp.Conf))
	}
	unpinned := strings.Join(exp.Unpinned, "\n")
	for _, want := range []string{"devenv lock pins them", "digest"} {
		if !strings.Contains(unpinned, want) {
			t.Errorf("unpinned does not say %q:\n%s", want, unpinned)
		}
	}
	for _, f := range []string{lock.FileName, ".devenv"} {
		if _, err := os.Stat(filepath.Join(w.dir, f)); !os.IsNotExist(err) {
			t.Errorf("explain without a lock wrote %s", f)
		}
	}
}

// TestConfigErrorsCarryPositions: config resolves as lock does, so an
// impossible version names devenv.yaml's line and field.
func TestConfigErrorsCarryPositions(t *testing.T) {
	w := newWorld(t, "name: demo\nservices:\n  spark:\n    profile: spark-rapids\n    spark: \"1.0.0\"\n", map[string]string{})
	_, err := w.open(t).Config(t.Context(), nil)
	if err == nil || !strings.Contains(err.Error(), "devenv.yaml:5") {
		t.Fatalf("config error without the line of spark: %v", err)
	}
}

// TestBuildWaitsForTheProjectLock: build holds the project lock like up.
func TestBuildWaitsForTheProjectLock(t *testing.T) {
	w := newWorld(t, "name: demo\nservices:\n  box:\n    profile: image\n    image: debian:12\n", map[string]string{})
	w.lock(t)
	p := w.open(t)
	release, err := p.projectLock(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		res, err := w.open(t).Build(t.Context(), BuildOptions{})
		if err == nil && len(res.Changes) != 1 {
			err = errors.New("build pulled nothing")
		}
		done <- err
	}()
	waitFor(t, func() bool { return strings.Contains(w.stderr.String(), "another devenv is changing this project") })
	select {
	case err := <-done:
		t.Fatalf("build ran while another devenv held the project: %v", err)
	default:
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestProjectLockWaitEnds: a wait for another devenv ends on Ctrl-C
// (context.Canceled, exit 130 in the CLI) and after --wait-timeout, and
// both say who holds the project.
func TestProjectLockWaitEnds(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cancel  bool
		want    string
	}{
		{"interrupted", 0, true, "stopped waiting"},
		{"timed out", 50 * time.Millisecond, false, "--wait-timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, "name: demo\nservices:\n  box:\n    profile: image\n    image: debian:12\n", map[string]string{})
			w.lock(t)
			release, err := w.open(t).projectLock(t.Context(), 0)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := w.open(t).Down(ctx, DownOptions{LockTimeout: tt.timeout})
				done <- err
			}()
			if tt.cancel {
				waitFor(t, func() bool {
					return strings.Contains(w.stderr.String(), "another devenv is changing this project (pid ")
				})
				cancel()
			}
			err = <-done
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
				t.Fatalf("Down = %v, want an error saying %q and naming this pid", err, tt.want)
			}
			if tt.cancel != errors.Is(err, context.Canceled) {
				t.Errorf("errors.Is(%v, context.Canceled) = %v, want %v", err, !tt.cancel, tt.cancel)
			}
		})
	}
}

// waitFor polls cond until it holds (10 s at most).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPerServiceVerbsHonourWaitTimeout: stop, start, restart and rm wait for
// another devenv changing the project only as long as --wait-timeout says,
// and then name who holds it.
func TestPerServiceVerbsHonourWaitTimeout(t *testing.T) {
	w := newWorld(t, "name: demo\nservices:\n  box:\n    profile: image\n    image: debian:12\n", map[string]string{})
	w.lock(t)
	release, err := w.open(t).projectLock(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	verbs := map[string]func(*Project, context.Context, ServiceOptions) (*Result, error){
		"stop": (*Project).Stop, "start": (*Project).Start, "restart": (*Project).Restart, "rm": (*Project).Rm,
	}
	for name, verb := range verbs {
		t.Run(name, func(t *testing.T) {
			_, err := verb(w.open(t), t.Context(), ServiceOptions{LockTimeout: 50 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), "--wait-timeout") || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
				t.Fatalf("%s = %v, want the wait to end naming this pid", name, err)
			}
		})
	}
}

// TestComposeErrorIsNotStaleness: a compose file that does not load is
// reported as it is, not taken for a stale lock ("locking now") and
// relocked from.
func TestComposeErrorIsNotStaleness(t *testing.T) {
	yaml := "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: x:1\n"
	w := newWorld(t, yaml, map[string]string{"compose.yaml": "services:\n  db:\n    image: postgres:16\n"})
	w.lock(t)
	if err := os.WriteFile(filepath.Join(w.dir, "compose.yaml"), []byte("services:\n  db:\n    image: postgres:16\n    deploy: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := w.open(t).FreshLock(t.Context(), false)
	var stale *lock.StaleError
	if err == nil || errors.As(err, &stale) || !strings.Contains(err.Error(), "compose") {
		t.Fatalf("FreshLock with a broken compose file: %v, want the compose error", err)
	}
	if strings.Contains(w.stderr.String(), "locking now") {
		t.Errorf("a compose error was taken for a stale lock:\n%s", w.stderr.String())
	}
}

// TestDiffRowHoldsOneLocalValue: where devenv's own sizing for this
// machine beats prod's scaled value (local mode's driver memory), the row
// says so in WHY instead of showing the scaled value beside the local one.
func TestDiffRowHoldsOneLocalValue(t *testing.T) {
	prod := "spark.executor.memory 64g\nspark.driver.memory 32g\nspark.executor.cores 16\nspark.executor.instances 8\n"
	res := mirrorThenDiff(t, prod)
	checked := 0
	for _, d := range res.Items {
		if d.Change != "different" || d.Scaled == "" || d.Local == "" {
			continue
		}
		checked++
		if !strings.Contains(d.Why, "to "+d.Scaled) || !strings.Contains(d.Why, "setting for this machine sets "+d.Local) {
			t.Errorf("%s: WHY %q does not say prod scales to %s and what sets the local %s", d.Key, d.Why, d.Scaled, d.Local)
		}
	}
	if checked == 0 {
		t.Fatalf("no row with a scaled and a local value to check: %+v", res.Items)
	}
}

// mirrorThenDiff mirrors prod (a spark-defaults.conf) into an optional
// Spark project and returns diff's result.
func mirrorThenDiff(t *testing.T, prod string) *DiffResult {
	t.Helper()
	w := newWorld(t, optionalSpark, map[string]string{"prod/spark-defaults.conf": prod})
	if _, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: filepath.Join(w.dir, "prod", "spark-defaults.conf")}); err != nil {
		t.Fatal(err)
	}
	res, err := w.open(t).Diff(t.Context(), DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
