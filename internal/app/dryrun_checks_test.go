package app

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// TestDryRunChecksAsUpDoes: up --dry-run runs every preflight and guard
// that up runs, in the same order, honouring the same flags: where up
// refuses, the dry run refuses with the same error and exit code (and
// writes nothing: no file, no engine object); where a flag lets up past a
// check, it lets the dry run past it too.
func TestDryRunChecksAsUpDoes(t *testing.T) {
	tests := []struct {
		name  string
		world func(t *testing.T) *world
		opts  UpOptions
		// wantErr is in both errors, with exit code wantCode; "": both pass
		// the checks (up may still fail later, at the engine)
		wantErr  string
		wantCode int
		notErr   string // when both pass: in neither error
	}{
		{name: "a host port another program holds", world: takenPortWorld,
			wantErr: "host port(s) of project demo are taken; nothing was built or created", wantCode: exitcode.Failure},
		{name: "a host port another program holds, with --no-start", world: takenPortWorld, opts: UpOptions{NoStart: true},
			notErr: "are taken"},
		{name: "a GPU the machine cannot give", world: gpuWorld,
			wantErr: "this machine cannot run the GPU services", wantCode: exitcode.GPU},
		{name: "a GPU the machine cannot give, with --skip-gpu-check", world: gpuWorld, opts: UpOptions{SkipGPUCheck: true},
			notErr: "cannot run the GPU services"},
		{name: "a GPU the machine cannot give, with --no-start", world: gpuWorld, opts: UpOptions{NoStart: true},
			notErr: "cannot run the GPU services"},
		{name: "a port taken and a GPU missing: the port first, as up", world: takenPortGPUWorld,
			wantErr: "are taken", wantCode: exitcode.Failure},
		{name: "a running job the recreate would kill", world: busyJobWorld,
			wantErr: "job 1 (sh -c sleep 600) runs in shell", wantCode: exitcode.Failure},
		{name: "a running job, with --force", world: busyJobWorld, opts: UpOptions{Force: true},
			notErr: "running jobs use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.world(t)
			dry := tt.opts
			dry.DryRun = true
			files, objects := snapshotDir(t, w.dir), engineObjects(t, w)
			res, dryErr := w.open(t).Up(t.Context(), dry)
			if got := snapshotDir(t, w.dir); !slices.Equal(got, files) {
				t.Errorf("the dry run changed the project's files:\nbefore %v\nafter  %v", files, got)
			}
			if got := engineObjects(t, w); !slices.Equal(got, objects) {
				t.Errorf("the dry run changed the engine's objects:\nbefore %v\nafter  %v", objects, got)
			}
			_, upErr := w.open(t).Up(t.Context(), tt.opts)
			if tt.wantErr == "" {
				if dryErr != nil {
					t.Fatalf("dry run: %v; want it past the checks, as up", dryErr)
				}
				if !res.DryRun {
					t.Errorf("the dry run's result is not marked a dry run")
				}
				if upErr != nil && strings.Contains(upErr.Error(), tt.notErr) {
					t.Errorf("up was stopped by the check the flag skips: %v", upErr)
				}
				return
			}
			for what, err := range map[string]error{"up": upErr, "up --dry-run": dryErr} {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || ExitCode(err) != tt.wantCode {
					t.Errorf("%s: %v (exit %d); want it refused saying %q (exit %d)", what, err, ExitCode(err), tt.wantErr, tt.wantCode)
				}
			}
			if dryErr != nil && upErr != nil && dryErr.Error() != upErr.Error() {
				t.Errorf("the dry run's error differs from up's:\ndry run: %v\nup:      %v", dryErr, upErr)
			}
		})
	}
}

// TestDryRunWithForceShowsTheRecreate: with --force, the dry run shows the
// recreate that up then makes over the running job.
func TestDryRunWithForceShowsTheRecreate(t *testing.T) {
	w := busyJobWorld(t)
	res, err := w.open(t).Up(t.Context(), UpOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	up, err := w.open(t).Up(t.Context(), UpOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := actions(res.Changes), actions(up.Changes); a != b || !strings.Contains(a, "shell "+reconcile.Recreated) {
		t.Errorf("dry run said %q, up did %q; want both to recreate shell", a, b)
	}
}

func actions(ch []reconcile.Change) string {
	var out []string
	for _, c := range ch {
		out = append(out, c.Service+" "+c.Action)
	}
	return strings.Join(out, ", ")
}

// localPortsWorld is a world whose port checks bind on this machine, as
// devenv's own do (the test world's host binds nothing by default).
func localPortsWorld(t *testing.T, yaml string) *world {
	t.Helper()
	w := newWorld(t, yaml, map[string]string{})
	host := w.opts.LocalHost
	w.opts.LocalHost = func() doctor.HostFacts {
		h := host()
		h.PortFree = doctor.LocalHost().PortFree
		return h
	}
	w.eng.AddImage("busybox:1", nil)
	w.lock(t)
	return w
}

// heldPort is a port a listener of the test holds on 127.0.0.1 until the
// test ends.
func heldPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener on 127.0.0.1 here: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

func takenPortWorld(t *testing.T) *world {
	return localPortsWorld(t, fmt.Sprintf("name: demo\nservices:\n  web:\n    profile: image\n    image: busybox:1\n    ports: [\"127.0.0.1:%d:80\"]\n", heldPort(t)))
}

func gpuWorld(t *testing.T) *world {
	return localPortsWorld(t, "name: demo\nservices:\n  web:\n    profile: image\n    image: busybox:1\n    gpus: 1\n")
}

func takenPortGPUWorld(t *testing.T) *world {
	return localPortsWorld(t, fmt.Sprintf("name: demo\nservices:\n  web:\n    profile: image\n    image: busybox:1\n    gpus: 1\n    ports: [\"127.0.0.1:%d:80\"]\n", heldPort(t)))
}

// busyJobWorld is jobProject brought up, a job running in its shell
// service, and devenv.yaml then changed so that up would recreate it.
func busyJobWorld(t *testing.T) *world {
	t.Helper()
	w := runningJobWorld(t)
	changeJobProject(t, w)
	w.lock(t) // the change is locked: the dry run (frozen) plans it
	return w
}

// snapshotDir is every file and directory under dir with its mode and a
// hash of its bytes, but the job queue's (its live runner writes there).
func snapshotDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() && rel == filepath.Join(".devenv", "jobs") {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		entry := fmt.Sprintf("%s %v", rel, info.Mode())
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			entry += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out = append(out, entry)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// engineObjects is every object of the fake engine, with its state.
func engineObjects(t *testing.T, w *world) []string {
	t.Helper()
	var out []string
	for _, k := range []engine.Kind{engine.Containers, engine.Networks, engine.Volumes, engine.Images} {
		objs, err := w.eng.List(t.Context(), k, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			out = append(out, fmt.Sprintf("%s %s %s %s", k, o.ID, o.Name, o.State))
		}
	}
	slices.Sort(out)
	return out
}

// TestDryRunShowsTheLostGPUsRecreate: a GPU container whose log says it
// lost its GPUs is removed by up and created again; the dry run says so
// (and removes nothing).
func TestDryRunShowsTheLostGPUsRecreate(t *testing.T) {
	w := newWorld(t, gpuImage, map[string]string{})
	w.eng.GPUs = true
	w.eng.InfoValue.NvidiaRuntime = true
	w.lock(t)
	ctx := t.Context()
	if _, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	w.eng.LogOutput = map[string]string{"demo-train": "step 1\nFailed to initialize NVML: Unknown Error\n"}
	objects := engineObjects(t, w)
	dry, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := engineObjects(t, w); !slices.Equal(got, objects) {
		t.Errorf("the dry run changed the engine's objects:\nbefore %v\nafter  %v", objects, got)
	}
	up, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := actions(dry.Changes), actions(up.Changes); a != b || a != "train "+reconcile.Created {
		t.Errorf("dry run said %q, up did %q; want both %q", a, b, "train "+reconcile.Created)
	}
	if !strings.Contains(dry.Changes[0].Detail, "lost its GPUs") {
		t.Errorf("the dry run does not say why: %+v", dry.Changes[0])
	}
}
