package enginetest

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
)

func TestFakeLifecycle(t *testing.T) {
	ctx := t.Context()
	f := New()
	f.LogOutput = map[string]string{"p-svc": "ready\n"}
	f.ExecFunc = func(o engine.ExecOptions) (int, string) { return 7, strings.Join(o.Cmd, " ") }
	labels := map[string]string{"dev.devenv.project": "p"}
	f.AddImage("img:1", nil)

	spec := engine.ContainerSpec{Name: "p-svc", Image: "img:1", Labels: labels, Healthcheck: &engine.Healthcheck{Test: []string{"CMD", "true"}}}
	id, err := f.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Create(ctx, spec); !errors.Is(err, engine.ErrConflict) {
		t.Errorf("second Create: %v, want ErrConflict", err)
	}
	if _, err := f.Exec(ctx, id, engine.ExecOptions{Cmd: []string{"x"}}); !errors.Is(err, engine.ErrConflict) {
		t.Errorf("Exec before Start: %v, want ErrConflict", err)
	}
	if err := f.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	st, err := f.Inspect(ctx, "p-svc")
	if err != nil || !st.Running || st.Health != engine.HealthHealthy {
		t.Errorf("Inspect after Start: %+v, %v", st, err)
	}
	var out bytes.Buffer
	if code, err := f.Exec(ctx, id, engine.ExecOptions{Cmd: []string{"echo", "hi"}, Stdout: &out}); code != 7 || err != nil || out.String() != "echo hi" {
		t.Errorf("Exec = %d, %v, %q", code, err, out.String())
	}
	out.Reset()
	if err := f.Logs(ctx, id, engine.LogOptions{}, &out, nil); err != nil || out.String() != "ready\n" {
		t.Errorf("Logs = %q, %v", out.String(), err)
	}
	if objs, err := f.List(ctx, engine.Containers, labels); err != nil || len(objs) != 1 || objs[0].State != "running" {
		t.Errorf("List = %+v, %v", objs, err)
	}
	if objs, _ := f.List(ctx, engine.Containers, map[string]string{"dev.devenv.project": "other"}); len(objs) != 0 {
		t.Errorf("List by another project's label = %+v", objs)
	}
	if err := f.Remove(ctx, engine.Containers, id, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Inspect(ctx, id); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("Inspect after Remove: %v, want ErrNotFound", err)
	}
	var methods []string
	for _, c := range f.Calls() {
		methods = append(methods, c.Method)
	}
	want := "Create Create Exec Start Inspect Exec Logs List List Remove Inspect"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
}

func TestFakeGPU(t *testing.T) {
	tests := []struct {
		name    string
		gpus    bool
		gpu     *engine.GPURequest
		wantErr error
	}{
		{name: "no runtime", gpu: &engine.GPURequest{All: true}, wantErr: engine.ErrNoGPURuntime},
		{name: "runtime", gpus: true, gpu: &engine.GPURequest{Count: 1}},
		{name: "cpu only", gpu: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			f := New()
			f.GPUs = tt.gpus
			f.AddImage("img", nil)
			id, err := f.Create(ctx, engine.ContainerSpec{Name: "c", Image: "img", GPU: tt.gpu})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Start(ctx, id); !errors.Is(err, tt.wantErr) {
				t.Errorf("Start = %v, want %v", err, tt.wantErr)
			}
			st, _ := f.Inspect(ctx, id)
			want, _ := engine.GPUDeviceRequests(tt.gpu)
			if len(st.DeviceRequests) != len(want) {
				t.Errorf("device requests %+v, want %+v", st.DeviceRequests, want)
			}
		})
	}
}

func TestFakeFailAndBuild(t *testing.T) {
	ctx := t.Context()
	f := New()
	unreachable := &engine.Error{Op: "info", Kind: engine.ErrUnreachable, Err: errors.New("dial")}
	f.Fail = map[string]error{"Info": unreachable}
	if _, err := f.Info(ctx); !errors.Is(err, engine.ErrUnreachable) {
		t.Errorf("Info = %v, want the configured failure", err)
	}
	f.BuildProgress = []engine.Progress{{Stream: "Step 1/1"}}
	var got []engine.Progress
	id, err := f.Build(ctx, engine.BuildRequest{Context: strings.NewReader("tar"), Tags: []string{"a:1"}}, func(p engine.Progress) { got = append(got, p) })
	if err != nil || id == "" || len(got) != 1 {
		t.Fatalf("Build = %q, %v, events %v", id, err, got)
	}
	if ok, _ := f.ImageExists(ctx, "a:1"); !ok {
		t.Error("built image does not exist")
	}
	if _, err := f.Create(ctx, engine.ContainerSpec{Name: "x", Image: "missing"}); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("Create from a missing image = %v, want ErrNotFound", err)
	}
	if _, err := f.Create(ctx, engine.ContainerSpec{Name: "x", Image: "a:1", GPU: &engine.GPURequest{}}); err == nil {
		t.Error("Create accepted an empty GPU request")
	}
}
