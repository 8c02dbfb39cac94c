package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/endpoint"
)

const gpuImage = `name: demo
services:
  train:
    profile: image
    image: busybox:1
    gpus: 1
    gpu: required
    command: ["sleep", "3600"]
`

// TestUpRecreatesAContainerThatLostItsGPUs: after a daemon-reload on the
// host, a running GPU container logs NVML's Unknown Error; the next up
// recreates it (a new id), the other containers stay.
func TestUpRecreatesAContainerThatLostItsGPUs(t *testing.T) {
	w := newWorld(t, gpuImage, map[string]string{})
	w.eng.GPUs = true
	w.eng.InfoValue.NvidiaRuntime = true
	w.lock(t)
	ctx := t.Context()
	if _, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	name := plan.ContainerName("demo", "train")
	before, err := w.eng.Inspect(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	if same, _ := w.eng.Inspect(ctx, name); same.ID != before.ID {
		t.Fatal("a healthy GPU container was recreated")
	}
	w.eng.LogOutput = map[string]string{name: "step 1\nFailed to initialize NVML: Unknown Error\n"}
	if _, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	after, err := w.eng.Inspect(ctx, name)
	if err != nil || after.ID == before.ID || !after.Running {
		t.Fatalf("the container that lost its GPUs is %+v (%v), want a new running one", after, err)
	}
	if !strings.Contains(w.stderr.String(), "train lost its GPUs") {
		t.Errorf("up did not say why it recreated train:\n%s", w.stderr.String())
	}
}

// TestRemotePlanUsesTheWorkspaceVolume: on a remote engine the project
// directory is the workspace volume, and a bind mount of this machine's
// path is refused naming the volume and the fix.
func TestRemotePlanUsesTheWorkspaceVolume(t *testing.T) {
	w := newWorld(t, gpuImage, map[string]string{})
	w.eng.EndpointValue = &endpoint.Endpoint{Context: "gpu", Host: "ssh://me@gpubox", Kind: endpoint.SSH, SSH: &endpoint.SSHTarget{Host: "gpubox"}}
	w.lock(t)
	ctx := t.Context()
	p := w.open(t)
	if _, err := p.Engine(ctx); err != nil {
		t.Fatal(err)
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := pl.Plan.Services[0].Container.Volumes[0]
	if m.Type != types.VolumeTypeVolume || m.Source != "workspace" || m.Target != "/workspace" {
		t.Errorf("workspace mount %+v, want the demo_workspace volume", m)
	}

	w2 := newWorld(t, gpuImage+"    volumes: [\"./data:/data\"]\n", map[string]string{"data/x": "1"})
	w2.eng.EndpointValue = w.eng.EndpointValue
	w2.lock(t)
	p2 := w2.open(t)
	if _, err := p2.Engine(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p2.Plan(ctx, PlanOptions{}); err == nil || !strings.Contains(err.Error(), "is a path on this machine") {
		t.Fatalf("a bind mount on a remote engine: %v", err)
	}
}

// TestRemoteTritonReadsTheSyncedModels: a Triton service whose model
// repository is a project folder reads, on a remote engine, that folder's
// synced copy under /workspace, in poll mode, instead of a bind mount of a
// laptop path; locally it keeps the bind mount and its explicit mode.
func TestRemoteTritonReadsTheSyncedModels(t *testing.T) {
	const yaml = `name: demo
services:
  serve:
    profile: triton
    release: "25.01"
    gpus: 0
    volumes: ["./models:/models:ro"]
`
	for _, remote := range []bool{false, true} {
		w := newWorld(t, yaml, map[string]string{"models/m/config.pbtxt": "name: \"m\"\n"})
		if remote {
			w.eng.EndpointValue = &endpoint.Endpoint{Context: "gpu", Host: "ssh://me@gpubox", Kind: endpoint.SSH, SSH: &endpoint.SSHTarget{Host: "gpubox"}}
		}
		w.lock(t)
		p := w.open(t)
		if _, err := p.Engine(t.Context()); err != nil {
			t.Fatal(err)
		}
		pl, err := p.Plan(t.Context(), PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := pl.Plan.Services[0].Container
		cmd := strings.Join(c.Command, " ")
		hasModels := slices.ContainsFunc(c.Volumes, func(m types.ServiceVolumeConfig) bool { return m.Target == "/models" })
		if remote && (cmd != "tritonserver --model-repository=/workspace/models --model-control-mode=poll --repository-poll-secs=5" || hasModels) {
			t.Errorf("remote: cmd %q, /models mounted %v", cmd, hasModels)
		}
		if !remote && (!strings.HasPrefix(cmd, "tritonserver --model-repository=/models") || !hasModels) {
			t.Errorf("local: cmd %q, /models mounted %v", cmd, hasModels)
		}
	}
}
