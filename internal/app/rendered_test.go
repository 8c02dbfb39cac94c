package app

import (
	"reflect"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/envs/reconcile"
)

// renderedPlan is a one-service plan (container name, GPU request as
// given) and the project it renders as.
func renderedPlan(t *testing.T, name string, gpu *types.DeviceRequest) (*plan.Plan, *Planned) {
	t.Helper()
	s := plantest.Service("p", "app", "img:1", "h")
	s.Container.ContainerName = name
	if gpu != nil {
		s.Container.Deploy = plantest.GPUs(*gpu)
	}
	pl := &plan.Plan{Project: "p", Network: "p", Services: []*plan.Service{s}}
	return pl, &Planned{Plan: pl}
}

// TestGPURequestReadFromTheRenderedProject: config's GPU request and the
// GPU checks' "asks for GPUs" read the service as the executor runs it,
// and say what the plan asked for.
func TestGPURequestReadFromTheRenderedProject(t *testing.T) {
	for _, tt := range []struct {
		name string
		gpu  *types.DeviceRequest
		want *GPURequestView
	}{
		{"none", nil, nil},
		{"all", &types.DeviceRequest{Count: -1, Capabilities: []string{"gpu"}}, &GPURequestView{All: true}},
		{"count", &types.DeviceRequest{Count: 2, Capabilities: []string{"gpu"}}, &GPURequestView{Count: 2}},
		{"devices", &types.DeviceRequest{IDs: []string{"0", "2"}, Capabilities: []string{"gpu"}}, &GPURequestView{DeviceIDs: []string{"0", "2"}}},
		{"driver and capabilities", &types.DeviceRequest{Count: 1, Driver: "nvidia", Capabilities: []string{"gpu", "compute", "utility"}, Options: types.Mapping{"k": "v"}},
			&GPURequestView{Count: 1, Driver: "nvidia", Capabilities: []string{"compute", "utility"}, Options: map[string]string{"k": "v"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pl, _ := renderedPlan(t, "p-app", tt.gpu)
			proj, err := project.FromPlan(pl, project.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := gpuRequestOf(compose.GPURequest(proj.Services["app"])); !reflect.DeepEqual(got, tt.want) {
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
