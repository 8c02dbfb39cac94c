package enginetest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
)

// Create validates spec as the adapter does and stores a created container.
// The image must exist (AddImage, Pull or Build).
func (f *Fake) Create(ctx context.Context, spec engine.ContainerSpec) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Create", spec); err != nil {
		return "", err
	}
	if err := spec.Validate(); err != nil {
		return "", err
	}
	if _, err := f.find(engine.Images, spec.Image); err != nil {
		return "", fmt.Errorf("create container %q: image %q: %w", spec.Name, spec.Image, err)
	}
	if _, err := f.find(engine.Containers, spec.Name); spec.Name != "" && err == nil {
		return "", fmt.Errorf("create container %q: name in use: %w", spec.Name, engine.ErrConflict)
	}
	devices, err := engine.GPUDeviceRequests(spec.GPU)
	if err != nil {
		return "", err
	}
	o := f.add(engine.Containers, spec.Name, spec.Labels)
	o.obj.State, o.obj.Image = "created", spec.Image
	o.state = engine.ContainerState{
		ID: o.obj.ID, Name: spec.Name, Image: spec.Image, Status: "created",
		Labels: o.obj.Labels, Env: slices.Clone(spec.Env), Ports: slices.Clone(spec.Ports), Bindings: slices.Clone(spec.Ports),
		Mounts: slices.Clone(spec.Mounts), DeviceRequests: devices, Tty: spec.Tty,
	}
	o.healthcheck = spec.Healthcheck != nil
	if spec.Network != "" {
		n, err := f.find(engine.Networks, spec.Network)
		if err != nil {
			return "", fmt.Errorf("create container %q: network %s not found: %w", spec.Name, spec.Network, engine.ErrNotFound)
		}
		o.state.Networks = []string{spec.Network}
		o.state.NetworkIDs = map[string]string{spec.Network: n.obj.ID}
	}
	return o.obj.ID, nil
}

// Start marks a container running (and healthy when it has a healthcheck).
// Without GPUs, a container with a device request fails like the real
// engine does.
func (f *Fake) Start(ctx context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Start", id); err != nil {
		return err
	}
	o, err := f.find(engine.Containers, id)
	if err != nil {
		return err
	}
	if len(o.state.DeviceRequests) > 0 && !f.GPUs {
		return &engine.Error{Op: fmt.Sprintf("start container %q", id), Kind: engine.ErrNoGPURuntime,
			Err: fmt.Errorf(`could not select device driver "" with capabilities: [[gpu]]`)}
	}
	for name, nid := range o.state.NetworkIDs {
		if _, err := f.find(engine.Networks, nid); err != nil {
			return &engine.Error{Op: fmt.Sprintf("start container %q", id), Kind: engine.ErrNotFound,
				Err: fmt.Errorf("network %s (%s) not found", name, nid)}
		}
	}
	o.obj.State, o.state.Status, o.state.Running = "running", "running", true
	o.state.StartedAt = time.Now()
	if o.healthcheck {
		o.state.Health = engine.HealthHealthy
	}
	return nil
}

// Stop marks a container exited with code 0.
func (f *Fake) Stop(ctx context.Context, id string, timeout time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Stop", id); err != nil {
		return err
	}
	o, err := f.find(engine.Containers, id)
	if err != nil {
		return err
	}
	o.obj.State, o.state.Status, o.state.Running = "exited", "exited", false
	o.state.FinishedAt = time.Now()
	return nil
}

// Remove deletes an object of kind by id or name.
func (f *Fake) Remove(ctx context.Context, kind engine.Kind, id string, removeVolumes bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Remove", id); err != nil {
		return err
	}
	o, err := f.find(kind, id)
	if err != nil {
		return err
	}
	if names := o.names(); kind == engine.Images && len(names) > 1 {
		if !slices.Contains(names, id) {
			// as the engine answers docker rmi of an image id with several names
			return fmt.Errorf("image %s is referenced in multiple repositories: %w", id, engine.ErrConflict)
		}
		o.untag(id)
		return nil
	}
	delete(f.objects[kind], o.obj.ID)
	return nil
}

// Inspect returns what Create and Start recorded about a container.
func (f *Fake) Inspect(ctx context.Context, id string) (engine.ContainerState, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Inspect", id); err != nil {
		return engine.ContainerState{}, err
	}
	o, err := f.find(engine.Containers, id)
	if err != nil {
		return engine.ContainerState{}, err
	}
	return o.state, nil
}

// Logs writes Logs[container name] to stdout.
func (f *Fake) Logs(ctx context.Context, id string, opts engine.LogOptions, stdout, stderr io.Writer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("Logs", id); err != nil {
		return err
	}
	o, err := f.find(engine.Containers, id)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, f.LogOutput[o.obj.Name])
	return err
}

// Exec runs ExecFunc for a running container.
func (f *Fake) Exec(ctx context.Context, id string, opts engine.ExecOptions) (int, error) {
	f.mu.Lock()
	if err := f.record("Exec", opts); err != nil {
		f.mu.Unlock()
		return -1, err
	}
	o, err := f.find(engine.Containers, id)
	running := err == nil && o.state.Running
	run := f.ExecFunc
	f.mu.Unlock()
	if err != nil {
		return -1, err
	}
	if !running {
		return -1, fmt.Errorf("container %q is not running: %w", id, engine.ErrConflict)
	}
	if run == nil {
		return 0, nil
	}
	if opts.Detach { // started, not attached: its output and exit code go nowhere
		_, _ = run(opts)
		return 0, nil
	}
	code, out := run(opts)
	if opts.Stdout != nil {
		if _, err := io.WriteString(opts.Stdout, out); err != nil {
			return -1, err
		}
	}
	return code, nil
}

// Close does nothing.
func (f *Fake) Close() error { return nil }

// Disconnect detaches a container from a network behind devenv's back, as
// `docker network disconnect -f` does.
func (f *Fake) Disconnect(container, network string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, err := f.find(engine.Containers, container)
	if err != nil {
		return err
	}
	o.state.Networks = slices.DeleteFunc(slices.Clone(o.state.Networks), func(n string) bool { return n == network })
	ids := maps.Clone(o.state.NetworkIDs)
	delete(ids, network)
	o.state.NetworkIDs = ids
	return nil
}
