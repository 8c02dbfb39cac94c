//go:build linux && cgo

package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// useShape makes the world's GPUs read a gputest machine shape through gpu's real
// NVML adapter.
func useShape(t *testing.T, shape string) {
	t.Helper()
	replace(t, &worldFor(t).GPUs, func() (gpu.Inventory, error) {
		lib, err := gputest.NVML(shape)
		if err != nil {
			return nil, err
		}
		return gpu.NewFromNVML(lib), nil
	})
}

func TestGPUsOnShapes(t *testing.T) {
	for _, shape := range gputest.Shapes {
		t.Run(shape, func(t *testing.T) {
			useShape(t, shape)
			out, errOut, code := runCLI(t, "gpus")
			if code != exitcode.OK {
				t.Fatalf("exit %d; stderr: %s", code, errOut)
			}
			goldenText(t, filepath.Join("testdata", "gpus", shape+".txt"), out)

			jsonOut, _, _ := runCLI(t, "gpus", "--json")
			var got app.GPUsResult
			if err := jsonDecode(jsonOut, &got); err != nil {
				t.Fatal(err)
			}
			want, err := gputest.HostOf(shape)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Host.GPUs, nonNil(want.GPUs)) || got.DriverVersion != want.DriverVersion {
				t.Errorf("--json differs from the adapter's Host for %s", shape)
			}
			if (len(want.GPUs) == 0) != (got.Note != "") {
				t.Errorf("note %q: want one exactly when there is no GPU", got.Note)
			}
		})
	}
}

func nonNil(g []gpu.GPU) []gpu.GPU {
	if g == nil {
		return []gpu.GPU{}
	}
	return g
}

// TestTopNamesServices runs top --once on the laptop shape, whose processes
// are mapped through fake cgroup files to a fake engine's containers.
func TestTopNamesServices(t *testing.T) {
	useShape(t, "laptop")
	samples, err := gputest.SampleOf("laptop")
	if err != nil || len(samples) == 0 || len(samples[0].Processes) < 2 {
		t.Fatalf("laptop samples: %v, %v; want two processes", samples, err)
	}
	fake := enginetest.New()
	fake.AddImage("img", nil)
	id, err := fake.Create(t.Context(), engine.ContainerSpec{Name: "demo-spark", Image: "img",
		Labels: map[string]string{labels.Project: "demo", labels.Service: "spark"}})
	if err != nil {
		t.Fatal(err)
	}
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
	proc := t.TempDir()
	writeCgroup(t, proc, samples[0].Processes[0].PID, "0::/system.slice/docker-"+id+".scope\n")
	writeCgroup(t, proc, samples[0].Processes[1].PID, "0::/user.slice/user-1000.slice/session-2.scope\n")
	replace(t, &procRoot, proc)

	out, errOut, code := runCLI(t, "top", "--once", "--json")
	if code != exitcode.OK {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	var s app.TopSample
	if err := jsonDecode(out, &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ps := s.GPUs[0].Processes
	if len(ps) != 2 || ps[0].Service != "spark" || ps[0].Project != "demo" || ps[0].Container != id[:12] || ps[1].Container != "" {
		t.Errorf("processes %+v: want the first in demo/spark (%s), the second on the host", ps, id[:12])
	}
	if ps[0].UsedMemory != samples[0].Processes[0].UsedMemory {
		t.Errorf("used memory %d, want %d", ps[0].UsedMemory, samples[0].Processes[0].UsedMemory)
	}

	text, _, _ := runCLI(t, "top", "--once")
	for _, want := range []string{"GPU  UTIL", "demo/spark", id[:12], "(host)", fmt.Sprint(samples[0].Processes[1].PID)} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

// TestTopEngineUnreachable shows container ids without service names.
func TestTopEngineUnreachable(t *testing.T) {
	useShape(t, "laptop")
	samples, _ := gputest.SampleOf("laptop")
	replace(t, &worldFor(t).Connect, unreachable)
	proc := t.TempDir()
	id := strings.Repeat("ab", 32)
	writeCgroup(t, proc, samples[0].Processes[0].PID, "12:memory:/docker/"+id+"\n")
	replace(t, &procRoot, proc)
	out, errOut, code := runCLI(t, "top", "--once")
	if code != exitcode.OK || !strings.Contains(out, id[:12]) || !strings.Contains(out, "(not devenv)") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
	if !strings.Contains(errOut, "unreachable") {
		t.Errorf("stderr does not say the engine is unreachable: %q", errOut)
	}
}

func writeCgroup(t *testing.T, root string, pid int, content string) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
