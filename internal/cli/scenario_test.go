package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/urfave/cli/v2"
)

// noGPUMachine makes this a machine whose engine cannot give GPUs: no
// NVML, no NVIDIA toolkit hook, a local engine.
func noGPUMachine(t *testing.T) {
	replace(t, &worldFor(t).GPUs, func() (gpu.Inventory, error) { return nil, errors.New("NVML: not found") })
	replace(t, &worldFor(t).LocalHost, func() doctor.HostFacts {
		return doctor.HostFacts{MemoryBytes: 32 << 30, LookPath: func(string) (string, error) { return "", os.ErrNotExist }}
	})
}

const everything = `name: demo
services:
  spark:
    profile: spark-rapids
    gpu: optional
    jupyter: false
    memory: 6g
    ports: ["8888:8888", "7077:7077", "4040:4040"]
    volumes: ["./data:/data:ro"]
    env: {STAGE: dev}
    jars: ["io.delta:delta-spark_2.12:3.2.0"]
    conf: {spark.sql.shuffle.partitions: "64"}
`

// TestConfigTextShowsWhatRuns: config's text names volumes, env, jars,
// conf, memory and the CPU fallback, as its --json does (issue 10 item 6).
func TestConfigTextShowsWhatRuns(t *testing.T) {
	dir := project(t, everything, true)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	noGPUMachine(t)
	out, errOut, code := runCLI(t, "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"volume:   " + filepath.Join(dir, "data") + " -> /data (read-only)", "env:      STAGE=dev",
		"jar:      io.delta:delta-spark_2.12:3.2.0", "conf:     spark.sql.shuffle.partitions=64",
		"memory:   6g", "gpu:      none, runs on the CPU: the Docker engine has no NVIDIA GPU runtime",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config text lacks %q:\n%s", want, out)
		}
	}
}

// TestUpPrintsOnlyWhatCanBeOpened: with jupyter: false up names no Jupyter
// URL, and the Spark master is spark://, not http (issue 10 item 6).
func TestUpPrintsOnlyWhatCanBeOpened(t *testing.T) {
	dir := project(t, everything, true)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DEVENV_CACHE", t.TempDir())
	noGPUMachine(t)
	p, err := app.Open(t.Context(), worldFor(t).Options(app.Options{Dir: dir}, app.EngineOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := p.Plan(t.Context(), app.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fake := enginetest.New()
	fake.AddImage(pl.Service("spark").Image, nil) // built already
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
	out, errOut, code := runCLI(t, "up")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "Jupyter") || strings.Contains(out, "token") {
		t.Errorf("up names Jupyter for jupyter: false:\n%s", out)
	}
	for _, want := range []string{"spark://127.0.0.1:7077", "http://127.0.0.1:4040", "port 8888        127.0.0.1:8888"} {
		if !strings.Contains(out, want) {
			t.Errorf("up output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "http://127.0.0.1:7077") {
		t.Errorf("the Spark master is printed as an http URL:\n%s", out)
	}
}

// TestExplainWithoutLock: config spark --explain works before devenv lock,
// says what the lock would still pin, and writes no lock (issue 12 item 6).
func TestExplainWithoutLock(t *testing.T) {
	dir := project(t, everything, false)
	noGPUMachine(t)
	out, errOut, code := runCLI(t, "config", "spark", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"spark.sql.shuffle.partitions  64", "devenv lock would still pin", "pins its digest"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "devenv.lock")); !os.IsNotExist(err) {
		t.Error("explain wrote devenv.lock")
	}
	if _, _, code := runCLI(t, "lock", "--check"); code != exitcode.Drift {
		t.Errorf("lock --check after explain: exit %d, want 5", code)
	}
}

// TestSparkDefaultsNamesARealCommand: every `devenv ...` the generated
// spark-defaults.conf tells the user to run is a command devenv has.
func TestSparkDefaultsNamesARealCommand(t *testing.T) {
	conf, err := sparkconf.Generate(sparkconf.Input{Spark: "3.5.1", Scala: "2.12", Hardware: sparkconf.Hardware{CPUs: 2, MemoryBytes: 8 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	cmds := regexp.MustCompile("`devenv ([^`]*)`").FindAllStringSubmatch(string(conf.Render()), -1)
	if len(cmds) == 0 {
		t.Fatal("the header names no devenv command")
	}
	root := newApp(Streams{})
	for _, m := range cmds {
		if err := walkCommand(root.Commands, strings.Fields(m[1])); err != nil {
			t.Errorf("`devenv %s`: %v", m[1], err)
		}
	}
}

// walkCommand walks words through the command tree; flags must exist on
// the command they follow.
func walkCommand(cmds []*cli.Command, words []string) error {
	var cur *cli.Command
	for _, w := range words {
		if strings.HasPrefix(w, "--") {
			if cur == nil || !commandHasFlag(cur, strings.TrimPrefix(w, "--")) {
				return errors.New("no flag " + w)
			}
			continue
		}
		next := (*cli.Command)(nil)
		for _, c := range cmds {
			if c.Name == w {
				next = c
			}
		}
		if next == nil {
			return errors.New("no command " + w)
		}
		cur, cmds = next, next.Subcommands
	}
	return nil
}

func commandHasFlag(c *cli.Command, name string) bool {
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}
