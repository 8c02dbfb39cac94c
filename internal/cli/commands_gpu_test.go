package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// runCLI runs devenv in-process and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := RunIn(t.Context(), append([]string{"devenv"}, args...), Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}, *worldFor(t))
	code := report(err, &errOut, false, argsHaveFlag(append([]string{"devenv"}, args...), "--json"))
	return out.String(), errOut.String(), code
}

// noNVMLHere skips a test that needs this machine to have no NVML.
func noNVMLHere(t *testing.T) error {
	t.Helper()
	inv, err := gpu.Open()
	if err == nil {
		if err := inv.Close(); err != nil {
			t.Fatal(err)
		}
		t.Skip("NVML loads on this machine; this test is about machines without it")
	}
	if !errors.Is(err, gpu.ErrNoNVML) {
		t.Fatalf("gpu.Open: %v, want an error wrapping ErrNoNVML", err)
	}
	return err
}

// replace sets *p to v for the test.
// testWorlds are the worlds runCLI runs the CLI in, one for each
// top-level test and its subtests. The CLI's tests change the process's
// directory and environment (t.Chdir, t.Setenv), so they run one at a
// time; a test fakes a part of its world with
// replace(t, &worldFor(t).Connect, ...), undone when it ends.
var testWorlds = map[string]*World{}

// worldFor is the world of t's top-level test.
func worldFor(t *testing.T) *World {
	t.Helper()
	root, _, _ := strings.Cut(t.Name(), "/")
	w, ok := testWorlds[root]
	if !ok {
		w = &World{}
		testWorlds[root] = w
		t.Cleanup(func() { delete(testWorlds, root) })
	}
	return w
}

func replace[T any](t *testing.T, p *T, v T) {
	t.Helper()
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

// unreachable is World.Connect for a machine without Docker.
func unreachable(context.Context, app.EngineOptions) (engine.Engine, error) {
	return nil, &engine.Error{Op: "connect to the Docker Engine", Kind: engine.ErrUnreachable, Err: errors.New("dial unix /var/run/docker.sock: no such file")}
}

func goldenText(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, []byte(got))
}

func TestGPUCommandsWithoutNVML(t *testing.T) {
	nvmlErr := noNVMLHere(t)
	replace(t, &worldFor(t).Connect, unreachable)
	for _, args := range [][]string{{"gpus"}, {"top", "--once"}} {
		t.Run(args[0], func(t *testing.T) {
			out, errOut, code := runCLI(t, args...)
			if code != exitcode.OK {
				t.Fatalf("exit %d, want 0; stderr: %s", code, errOut)
			}
			if !strings.HasPrefix(out, "No NVIDIA GPU to ") || !strings.Contains(out, nvmlErr.Error()) || !strings.Contains(out, app.EngineHostCheck) {
				t.Errorf("stdout does not say plainly why and what to run:\n%s", out)
			}
		})
		t.Run(args[0]+"-json", func(t *testing.T) {
			out, _, code := runCLI(t, append(args, "--json")...)
			if code != exitcode.OK {
				t.Fatalf("exit %d, want 0", code)
			}
			var v struct {
				GPUs []any  `json:"gpus"`
				Note string `json:"note"`
			}
			if err := jsonDecode(out, &v); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
			}
			if v.GPUs == nil || len(v.GPUs) != 0 || !strings.Contains(v.Note, "NVML") {
				t.Errorf(`want {"gpus": [], "note": "...NVML..."}, got %s`, out)
			}
		})
	}
}

func TestTopRejectsBadInterval(t *testing.T) {
	_, errOut, code := runCLI(t, "top", "--interval", "0s")
	if code != exitcode.Usage || !strings.Contains(errOut, "--interval") {
		t.Errorf("exit %d, stderr %q; want 2 naming --interval", code, errOut)
	}
}
