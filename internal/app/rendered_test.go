package app

import (
	"reflect"
	"testing"

	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/engine"
)

// renderedPlan is a one-service plan (container name, GPU request as
// given) and the project it renders as.
func renderedPlan(t *testing.T, name string, gpu *engine.GPURequest) (*plan.Plan, *Planned) {
	t.Helper()
	pl := &plan.Plan{Project: "p", Network: "p", Services: []*plan.Service{{Name: "app", Image: "img:1",
		Container: engine.ContainerSpec{Name: name, Image: "img:1", Network: "p", GPU: gpu}}}}
	return pl, &Planned{Plan: pl}
}

// TestGPURequestReadFromTheRenderedProject: config's GPU request and the
// GPU checks' "asks for GPUs" read the service as the executor runs it,
// and say what the plan asked for.
func TestGPURequestReadFromTheRenderedProject(t *testing.T) {
	for _, tt := range []struct {
		name string
		gpu  *engine.GPURequest
		want *GPURequestView
	}{
		{"none", nil, nil},
		{"all", &engine.GPURequest{All: true}, &GPURequestView{All: true}},
		{"count", &engine.GPURequest{Count: 2}, &GPURequestView{Count: 2}},
		{"devices", &engine.GPURequest{DeviceIDs: []string{"0", "2"}}, &GPURequestView{DeviceIDs: []string{"0", "2"}}},
		{"driver and capabilities", &engine.GPURequest{Count: 1, Driver: "nvidia", Capabilities: []string{"compute", "utility"}, Options: map[string]string{"k": "v"}},
			&GPURequestView{Count: 1, Driver: "nvidia", Capabilities: []string{"compute", "utility"}, Options: map[string]string{"k": "v"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pl, _ := renderedPlan(t, "p-app", tt.gpu)
			proj, err := project.FromPlan(pl, project.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := gpuRequestOf(project.GPURequest(proj.Services["app"])); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("gpu request = %+v, want %+v", got, tt.want)
			}
			if got := hasGPUService(proj); got != (tt.gpu != nil) {
				t.Errorf("hasGPUService = %v, want %v", got, tt.gpu != nil)
			}
		})
	}
}

// TestNoopResultNamesTheRenderedContainers: the no-op up names each
// service's container as the project the up ran names it.
func TestNoopResultNamesTheRenderedContainers(t *testing.T) {
	pl, planned := renderedPlan(t, "my-app", nil)
	r := &run{plan: planned}
	proj, err := r.compose()
	if err != nil {
		t.Fatal(err)
	}
	res := NoopResult(&Result{Project: "p", basis: &receiptBasis{plan: pl, proj: proj}})
	want := []reconcile.Change{{Service: "app", Action: reconcile.Unchanged, Detail: "container my-app"}}
	if !reflect.DeepEqual(res.Changes, want) || res.basis != nil {
		t.Errorf("NoopResult changes = %+v, want %+v (and no basis)", res.Changes, want)
	}
}
