package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestUpDryRunExitsAsUp: `devenv up --dry-run` stops where `devenv up`
// stops, with the same message and exit code (a host port taken, a GPU
// the machine cannot give), and honours the flags that let up past a
// check (--no-start, --skip-gpu-check).
func TestUpDryRunExitsAsUp(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener on 127.0.0.1 here: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	port := l.Addr().(*net.TCPAddr).Port
	taken := fmt.Sprintf("name: demo\nservices:\n  web:\n    profile: image\n    image: busybox:1\n    ports: [\"127.0.0.1:%d:80\"]\n", port)
	gpus := "name: demo\nservices:\n  web:\n    profile: image\n    image: busybox:1\n    gpus: 1\n"
	tests := []struct {
		name, yaml string
		flags      []string
		code       int
		errHas     string // in both stderrs when code is not 0
	}{
		{"a taken host port", taken, nil, 1, fmt.Sprintf("host port 127.0.0.1:%d is in use by another program", port)},
		{"a taken host port, --no-start", taken, []string{"--no-start"}, 0, ""},
		{"a GPU the machine cannot give", gpus, nil, 4, "this machine cannot run the GPU services"},
		{"a GPU the machine cannot give, --skip-gpu-check", gpus, []string{"--skip-gpu-check"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project(t, tt.yaml, true)
			noGPUMachine(t)
			replace(t, &worldFor(t).LocalHost, func() doctor.HostFacts {
				return doctor.HostFacts{MemoryBytes: 32 << 30, LookPath: func(string) (string, error) { return "", os.ErrNotExist },
					PortFree: doctor.LocalHost().PortFree}
			})
			t.Setenv("DEVENV_CACHE", t.TempDir())
			fake := enginetest.New()
			fake.GPUs = true // the engine could: only devenv's preflight stops a start
			fake.AddImage("busybox:1@sha256:"+strings.Repeat("e", 64), nil)
			replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
			dryOut, dryErr, dryCode := runCLI(t, append([]string{"up", "--dry-run"}, tt.flags...)...)
			for _, k := range []engine.Kind{engine.Containers, engine.Networks} {
				if objs, err := fake.List(t.Context(), k, nil); err != nil || len(objs) != 0 {
					t.Errorf("the dry run left %d %ss (%v)", len(objs), k, err)
				}
			}
			_, upErr, upCode := runCLI(t, append([]string{"up"}, tt.flags...)...)
			if dryCode != tt.code || upCode != tt.code {
				t.Fatalf("up --dry-run exit %d (%q), up exit %d (%q); want both %d", dryCode, dryErr, upCode, upErr, tt.code)
			}
			if tt.code == 0 {
				if !strings.Contains(dryOut, "web") {
					t.Errorf("the dry run printed no change of web:\n%s", dryOut)
				}
				return
			}
			if !strings.Contains(dryErr, tt.errHas) || dryErr != upErr {
				t.Errorf("stderr of up --dry-run:\n%s\nof up:\n%s\nwant the same, saying %q", dryErr, upErr, tt.errHas)
			}
		})
	}
}
