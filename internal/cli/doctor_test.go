package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// doctorProjectDir copies testdata/doctor (a GPU-required Spark service and
// its lock) into a temp project directory.
func doctorProjectDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"devenv.yaml", "devenv.lock"} {
		b, err := os.ReadFile(filepath.Join("testdata", "doctor", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func byID(r doctor.Report) map[string]doctor.Check {
	m := map[string]doctor.Check{}
	for _, c := range r.Checks {
		m[c.ID] = c
	}
	return m
}

// TestIntegrationDoctorRealEngine runs doctor against this machine's Docker
// Engine (no NVIDIA runtime, no toolkit hook): the engine check passes with
// its API version and the GPU-runtime check fails with the toolkit fix.
func TestIntegrationDoctorRealEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test (Docker engine): skipped with -short; run make integration")
	}
	if h := os.Getenv("DOCKER_HOST"); h != "" && !strings.HasPrefix(h, "unix://") {
		t.Skipf("DOCKER_HOST=%s is remote; this test needs the local engine", h)
	}
	eng, err := engine.Connect(t.Context())
	if err != nil {
		t.Skipf("no Docker engine here: %v", err)
	}
	info, err := eng.Info(t.Context())
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Skipf("docker info: %v", err)
	}
	if info.NvidiaRuntime || len(info.CDISpecDirs) > 0 {
		t.Skip("this engine can give GPUs; the test is about one that cannot")
	}
	h := doctor.LocalHost()
	if hook := lookHook(h); hook != "" {
		t.Skipf("the NVIDIA Container Toolkit hook %s is installed here", hook)
	}
	dir := doctorProjectDir(t)

	out, errOut, code := runCLI(t, "--project-dir", dir, "doctor", "--json")
	if code != exitcode.GPU {
		t.Errorf("exit %d, want %d (a GPU check fails); stderr: %s", code, exitcode.GPU, errOut)
	}
	var rep doctor.Report
	if err := jsonDecode(out, &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checks := byID(rep)
	if c := checks[doctor.IDEngine]; c.Status != doctor.Pass || !strings.Contains(c.Message, "API "+info.APIVersion) {
		t.Errorf("engine check %+v: want pass naming API %s", c, info.APIVersion)
	}
	if info.APIVersion != "1.41" {
		t.Logf("note: this engine negotiated API %s (the brief expects 1.41 here)", info.APIVersion)
	}
	c := checks[doctor.IDGPURuntime]
	if c.Status != doctor.Fail || !strings.Contains(c.Fix, "nvidia-ctk runtime configure --runtime=docker") || !strings.Contains(c.Message, "spark") {
		t.Errorf("gpu-runtime check %+v: want a failure naming spark with the toolkit fix", c)
	}

	text, _, _ := runCLI(t, "--project-dir", dir, "doctor")
	for _, want := range []string{"PASS Docker engine: ", "FAIL engine GPU support: ", "  fix: install the NVIDIA Container Toolkit"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

func lookHook(h doctor.HostFacts) string {
	for _, n := range []string{"nvidia-container-runtime-hook", "nvidia-cdi-hook"} {
		if p, err := h.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// TestDoctorOutsideProject: outside a project doctor checks the machine
// only; nothing there is to run, so a missing NVML or a small host warns and
// doctor exits 0.
func TestDoctorOutsideProject(t *testing.T) {
	tests := []struct {
		name       string
		nvidia     bool
		memory     int64
		wantMemory string
		wantCode   int
	}{
		{"roomy host, nvidia runtime", true, 64 << 30, doctor.Pass, exitcode.OK},
		{"8 GiB host", true, 8 << 30, doctor.Warn, exitcode.OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := enginetest.New()
			fake.InfoValue.NvidiaRuntime = tt.nvidia
			fake.InfoValue.MemTotal = tt.memory
			replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
			replace(t, &worldFor(t).LocalHost, func() doctor.HostFacts {
				h := doctor.LocalHost()
				h.MemoryBytes, h.DockerHost, h.WSL = tt.memory, "", false
				h.PortFree = func(string, int) bool { return true }
				return h
			})
			t.Chdir(t.TempDir())
			out, errOut, code := runCLI(t, "doctor", "--json")
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.wantCode, errOut)
			}
			var rep doctor.Report
			if err := jsonDecode(out, &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			checks := byID(rep)
			if c := checks[doctor.IDHostMemory]; c.Status != tt.wantMemory {
				t.Errorf("host memory %+v, want %s", c, tt.wantMemory)
			}
			if c := checks[doctor.IDGPURuntime]; c.Status != doctor.Pass {
				t.Errorf("gpu-runtime %+v, want pass with the nvidia runtime", c)
			}
			if _, ok := checks[doctor.IDDriver]; ok {
				t.Error("a driver check ran outside a project")
			}
		})
	}
}

func TestDoctorUnknownService(t *testing.T) {
	replace(t, &worldFor(t).Connect, unreachable)
	_, errOut, code := runCLI(t, "--project-dir", doctorProjectDir(t), "doctor", "nosuch")
	if code != exitcode.Usage || !strings.Contains(errOut, `no service "nosuch"`) {
		t.Errorf("exit %d, stderr %q: want 2 naming the service", code, errOut)
	}
}

// TestDoctorEngineUnreachable: an unreachable engine is exit 3, as for every
// other command (README "Exit codes"), not the 4 of a failed GPU check.
func TestDoctorEngineUnreachable(t *testing.T) {
	replace(t, &worldFor(t).Connect, unreachable)
	out, _, code := runCLI(t, "--project-dir", doctorProjectDir(t), "doctor")
	if code != exitcode.Engine || !strings.Contains(out, "FAIL Docker engine: unreachable") || !strings.Contains(out, "systemctl start docker") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}
