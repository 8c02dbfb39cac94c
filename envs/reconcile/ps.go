package reconcile

import (
	"context"
	"sort"
	"sync"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// Status is one container of the project as the engine sees it.
type Status struct {
	ID          string `json:"id"`
	Service     string `json:"service"`
	Container   string `json:"container"`
	Image       string `json:"image"`
	State       string `json:"state"`
	Health      string `json:"health,omitempty"`
	ExitCode    int    `json:"exit_code,omitempty"`
	Ports       []Port `json:"ports,omitempty"`
	GPUs        string `json:"gpus,omitempty"`
	CPUFallback bool   `json:"cpu_fallback,omitempty"`
	ConfigHash  string `json:"config_hash"`
}

// Ps lists the project's containers, by service.
func (r *Runner) Ps(ctx context.Context, project string) ([]Status, error) {
	states, err := r.psStates(ctx, project)
	if err != nil {
		return nil, err
	}
	var out []Status
	for _, st := range states {
		out = append(out, Status{ID: st.ID, Service: st.Labels[labels.Service], Container: st.Name, Image: st.Image,
			State: st.Status, Health: st.Health, ExitCode: st.ExitCode, Ports: portsOf(st.Ports),
			GPUs: gpuText(st), CPUFallback: st.Labels[labels.CPUFallback] == "true",
			ConfigHash: st.Labels[labels.ConfigHash]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Service < out[j].Service })
	return out, nil
}

// psStates is the project's containers as Compose lists them, through the
// executor's ProjectReader (the Compose SDK's Ps: the containers `docker
// compose -p NAME ps -a` shows), less any that devenv did not label for
// this project (a Compose project of the same name made without devenv).
// The GPU column and the CPU fallback are devenv's labels, so the SDK's
// listing and inspect give all that ps shows. An executor that reads no
// project (none) leaves it to devenv's own listing by its label.
func (r *Runner) psStates(ctx context.Context, project string) ([]engine.ContainerState, error) {
	rd, ok := r.executor().(engine.ProjectReader)
	if !ok {
		objs, err := r.projectObjects(ctx, engine.Containers, project)
		if err != nil {
			return nil, err
		}
		return r.inspectAll(ctx, objs)
	}
	states, err := rd.PsProject(ctx, project)
	if err != nil {
		return nil, err
	}
	out := states[:0]
	for _, st := range states {
		if st.Labels[labels.Project] == project {
			out = append(out, st)
		}
	}
	return out, nil
}

// inspectAll inspects the containers side by side (ps waits for one round
// trip, not one per service), leaving out those removed meanwhile.
func (r *Runner) inspectAll(ctx context.Context, objs []engine.Object) ([]engine.ContainerState, error) {
	states := make([]engine.ContainerState, len(objs))
	errs := make([]error, len(objs))
	var wg sync.WaitGroup
	for i, o := range objs {
		wg.Go(func() { states[i], errs[i] = r.Eng.Inspect(ctx, o.ID) })
	}
	wg.Wait()
	out := states[:0]
	for i, err := range errs {
		switch {
		case isNotFound(err):
		case err != nil:
			return nil, err
		default:
			out = append(out, states[i])
		}
	}
	return out, nil
}

func gpuText(st engine.ContainerState) string {
	if st.Labels[labels.CPUFallback] == "true" {
		return "cpu (fallback)"
	}
	return st.Labels[labels.GPUs]
}

// Port is a published port as ps reports it.
type Port struct {
	HostIP        string `json:"host_ip"`
	HostPort      int    `json:"host_port"`
	ContainerPort int    `json:"container_port"`
	Protocol      string `json:"protocol"`
}

func portsOf(bs []engine.PortBinding) []Port {
	var out []Port
	for _, b := range bs {
		out = append(out, Port(b))
	}
	return out
}
