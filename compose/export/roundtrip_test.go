package export

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/internal/engine"
)

// TestComposeRoundTrip loads the exported compose file back with compose-go
// (through loader.Load) and compares every service with the plan, field by
// field: what docker compose would run is what devenv up runs.
func TestComposeRoundTrip(t *testing.T) {
	pl, lf := locked(t)
	spark := pl.Service("spark")
	if len(spark.Container.Files) != 1 {
		t.Fatalf("the spark service gets files %+v, want its spark-defaults.conf", spark.Container.Files)
	}
	// a $ in a generated file reaches the container as written
	spark.Container.Files[0].Data = append(spark.Container.Files[0].Data, "spark.driver.extraJavaOptions -Dprice=$5 -Dhome=${HOME}\n"...)
	data, err := Compose(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(pl.Project0.Dir, "roundtrip.compose.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(file) })
	if strings.Contains(string(data), "test-token") {
		t.Fatal("the Jupyter token was written into the export")
	}
	if _, err := loader.Load(t.Context(), []string{file}, pl.Project0.Dir, pl.Project, nil); err == nil || !strings.Contains(err.Error(), "JUPYTER_TOKEN") {
		t.Fatalf("without JUPYTER_TOKEN set the export must refuse to load, got %v", err)
	}
	t.Setenv("JUPYTER_TOKEN", "test-token") // what the user exports from .devenv/jupyter-token
	back, err := loader.Load(t.Context(), []string{file}, pl.Project0.Dir, pl.Project, nil)
	if err != nil {
		t.Fatalf("the export does not load: %v\n%s", err, data)
	}
	want, err := entries(pl)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]compose.Service{}
	for _, s := range back {
		got[s.Name] = s
	}
	if len(got) != len(want) {
		t.Errorf("export has %d services, plan and compose files %d", len(got), len(want))
	}
	for _, w := range want {
		g, ok := got[w.name]
		if !ok {
			t.Errorf("service %s is missing from the export", w.name)
			continue
		}
		compareContainer(t, w.name, g.Container, w.c)
		if !reflect.DeepEqual(g.DependsOn, sortedCopy(w.deps)) {
			t.Errorf("%s depends_on = %v, want %v", w.name, g.DependsOn, w.deps)
		}
	}
	compareFiles(t, file, pl.Project0.Dir, want)
}

// compareFiles loads the export with compose-go itself (devenv's compose
// import leaves configs: aside) and checks each file a container gets
// arrives as a config with the same path and bytes, compose's default
// mode (0444) and no uid or gid.
func compareFiles(t *testing.T, file, dir string, want []entry) {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{file}, cli.WithWorkingDirectory(dir), cli.WithOsEnv, cli.WithName("demo"))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("compose-go does not load the export: %v", err)
	}
	files := 0
	for _, w := range want {
		svc, ok := proj.Services[w.name]
		if !ok {
			t.Errorf("compose-go has no service %s", w.name)
			continue
		}
		if len(svc.Configs) != len(w.c.Files) {
			t.Errorf("%s: %d configs, want one per file of %+v", w.name, len(svc.Configs), w.c.Files)
			continue
		}
		for i, f := range w.c.Files {
			files++
			ref := svc.Configs[i]
			cfg := proj.Configs[ref.Source]
			if ref.Target != f.Path || cfg.Content != string(f.Data) {
				t.Errorf("%s: config %s at %s holds\n%s\nwant %s holding\n%s", w.name, ref.Source, ref.Target, cfg.Content, f.Path, f.Data)
			}
			if ref.Mode != nil || ref.UID != "" || ref.GID != "" {
				t.Errorf("%s: config %s sets mode %v uid %q gid %q; want compose's defaults (no chown by the engine)", w.name, ref.Source, ref.Mode, ref.UID, ref.GID)
			}
		}
		for _, m := range svc.Volumes {
			if strings.Contains(m.Source, ".devenv") {
				t.Errorf("%s still mounts %s", w.name, m.Source)
			}
		}
	}
	if files == 0 {
		t.Error("no service of the export gets a file: the test checks nothing")
	}
}

func compareContainer(t *testing.T, name string, got, want engine.ContainerSpec) {
	t.Helper()
	fields := []struct {
		what      string
		got, want any
	}{
		{"image", got.Image, want.Image},
		{"ports", got.Ports, want.Ports},
		{"mounts", got.Mounts, want.Mounts},
		{"env", got.Env, want.Env},
		{"GPU request", got.GPU, exportedGPU(want.GPU)},
		{"healthcheck", got.Healthcheck, want.Healthcheck},
		{"command", got.Cmd, want.Cmd},
		{"entrypoint", got.Entrypoint, want.Entrypoint},
		{"working_dir", got.WorkingDir, want.WorkingDir},
		{"memory", got.MemoryBytes, want.MemoryBytes},
		{"shm_size", got.ShmSizeBytes, want.ShmSizeBytes},
		{"init", got.Init, want.Init},
		{"restart", got.Restart, want.Restart},
		{"ulimits", got.Ulimits, want.Ulimits},
		{"extra_hosts", got.ExtraHosts, want.ExtraHosts},
		{"expose", got.Expose, want.Expose},
		{"runtime", got.Runtime, want.Runtime},
		{"ipc", got.IpcMode, want.IpcMode},
	}
	for _, f := range fields {
		if !same(f.got, f.want) {
			t.Errorf("%s: %s after the round trip = %#v, plan has %#v", name, f.what, f.got, f.want)
		}
	}
}

func sortedCopy(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// same is DeepEqual that takes a nil and an empty slice as equal.
func same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() == reflect.Slice && vb.Kind() == reflect.Slice && va.Len() == 0 && vb.Len() == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// exportedGPU is want as the export writes it: driver nvidia where the
// plan leaves the driver to the engine (the engine's GPU driver is nvidia).
func exportedGPU(want *engine.GPURequest) *engine.GPURequest {
	if want == nil || want.Driver != "" {
		return want
	}
	w := *want
	w.Driver = "nvidia"
	return &w
}
