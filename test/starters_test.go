package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

// jupyterLabVersions are the JupyterLab releases the stand-in index serves:
// the ones devenv may pin (read from the catalog), newest first by pip when
// unpinned.
var jupyterLabVersions = profiles.JupyterLabReleases()

// TestEveryStarterComesUp: for each built-in profile, `devenv init
// --profile P` then `lock` and `up --wait` bring the starter up on this
// machine (no GPU: the only edits are gpu: optional and free host ports;
// the stand-ins are reached through the DEVENV_MIRROR_* variables). A
// starter that cannot start fails here.
func TestEveryStarterComesUp(t *testing.T) {
	t.Parallel()
	for _, profile := range spec.BuiltinProfiles {
		t.Run(profile, func(t *testing.T) {
			t.Parallel() // each its own project, registry and cache: they wait on the engine side by side
			env := starterWorld(t, profile)
			dir, name := emptyProject(t, "starter-"+profile)
			if r := standin.Run(t, dir, env, "init", "--profile", profile); r.Code != 0 {
				t.Fatalf("init: exit %d\n%s", r.Code, r.Stderr)
			}
			onThisMachine(t, dir)
			mustRun(t, dir, env, "lock")
			mustRun(t, dir, env, "up", "--wait", "--wait-timeout", "5m")
			checkAllUp(t, dir, env, name)
			mustRun(t, dir, env, "down")
			if left := projectContainers(t, name); len(left) != 0 {
				t.Errorf("down left %v", left)
			}
		})
	}
}

// starterWorld serves what a profile's starter needs through mirrors given
// as environment variables, as a user behind a corporate mirror sets them:
// the resolved base image (a stand-in) in a registry for nvcr.io and
// docker.io, Spark and the RAPIDS jar, and JupyterLab on a PyPI index.
func starterWorld(t *testing.T, profile string) []string {
	t.Helper()
	reg := standin.Registry(t)
	env := []string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1", "DEVENV_MIRROR_REGISTRIES=nvcr.io=" + reg + ",docker.io=" + reg}
	res, err := resolveHere(t, profile)
	if err != nil && profile != profiles.Image {
		t.Fatalf("resolve %s: %v", profile, err)
	}
	base := strings.TrimPrefix(res.BaseImage, "nvcr.io/")
	pypi := func() {
		var pins []string
		for _, v := range jupyterLabVersions {
			pins = append(pins, "jupyterlab=="+v)
		}
		env = append(env, "DEVENV_MIRROR_PYPI="+standin.PyPI(t, pins...).URL())
	}
	switch profile {
	case profiles.SparkRapids:
		standin.Push(t, standin.Debian(t), reg+"/"+base)
		art := standin.Artifacts(t, standin.WithSpark(res.Spark), standin.WithScala(res.Scala), standin.WithRapids(res.Rapids))
		env = append(env, "DEVENV_MIRROR_MAVEN="+art.MavenURL(), "DEVENV_MIRROR_APACHE="+art.ApacheURL())
		pypi()
	case profiles.Rapids:
		standin.Push(t, standin.Rapids(t), reg+"/"+base)
		pypi()
	case profiles.Triton:
		standin.Push(t, standin.Triton(t), reg+"/"+base)
	case profiles.Image:
		standin.Push(t, standin.Debian(t), reg+"/library/ubuntu:24.04")
	}
	return env
}

// emptyProject makes an empty project directory named uniquely (init names
// the project after it) and removes the project's objects at cleanup.
func emptyProject(t *testing.T, prefix string) (dir, name string) {
	t.Helper()
	name = spec.DockerName(uniqueName(prefix + "-"))
	dir = filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	standin.CleanupProject(t, name)
	return dir, name
}

var hostPortInStarter = regexp.MustCompile(`"(\d+):(\d+)"`)

// onThisMachine makes the two edits this machine needs: no GPU here, so
// gpu: optional, and free host ports instead of the starter's fixed ones,
// which other projects on the same engine may hold.
func onThisMachine(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, spec.FileName)
	text := strings.Replace(readFile(t, path), "gpu: required", "gpu: optional", 1)
	text = hostPortInStarter.ReplaceAllStringFunc(text, func(m string) string {
		container := hostPortInStarter.FindStringSubmatch(m)[2]
		return fmt.Sprintf(`"%d:%s"`, freePort(t), container)
	})
	writeFile(t, dir, spec.FileName, text)
}

func mustRun(t *testing.T, dir string, env []string, args ...string) standin.Result {
	t.Helper()
	r := standin.Run(t, dir, env, args...)
	if r.Code != 0 {
		t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// checkAllUp asks ps for every container of the project: each runs, and
// each with a healthcheck is healthy.
func checkAllUp(t *testing.T, dir string, env []string, name string) {
	t.Helper()
	type row struct{ Service, State, Health string }
	rows := decode[[]row](t, mustRun(t, dir, env, "ps", "--json").Stdout)
	if len(rows) == 0 {
		t.Fatalf("ps lists no container of %s", name)
	}
	for _, r := range rows {
		if r.State != "running" || (r.Health != "" && r.Health != "healthy") {
			logs := standin.Run(t, dir, env, "logs", "--tail", "30", r.Service)
			t.Errorf("%s is %s (health %q)\nlogs:\n%s%s", r.Service, r.State, r.Health, logs.Stdout, logs.Stderr)
		}
	}
}

// resolveHere resolves a starter's request (no version pinned) as devenv
// does on this machine: for the NVIDIA driver `devenv gpus` reads, else for
// the catalog's fallback driver branch, so the stand-ins serve exactly the
// base image devenv lock will ask for.
func resolveHere(t *testing.T, profile string) (profiles.Resolved, error) {
	t.Helper()
	r := standin.Run(t, t.TempDir(), nil, "gpus", "--json")
	var host struct {
		Driver string `json:"driver_version"`
	}
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &host) != nil {
		t.Fatalf("devenv gpus --json: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	cat := profiles.Builtin()
	driver, rule := cat.ResolutionDriver(host.Driver)
	return cat.Resolve(profiles.Request{Profile: profile, Driver: driver, DriverRule: rule}, nil)
}
