package plan

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// standalone turns a spark-rapids service with `workers: N` into a Spark
// standalone cluster on this machine: the service's own container runs the
// master (and the driver, Jupyter), and N worker containers each get their
// share of the service's GPUs, so multi-executor behaviour (shuffles
// between executors, one GPU per executor) reproduces locally.
func standalone(p *spec.Project, s *spec.Service, ps *Service, a *gpu.Assignment, network string) []*Service {
	dep := ps.Spark.Deploy
	if dep.Mode != "standalone" {
		return nil
	}
	master := []string{"spark-class", "org.apache.spark.deploy.master.Master", "--host", s.Name, "--port", "7077", "--webui-port", "8080"}
	c := &ps.Container
	if len(s.Command) == 0 {
		if len(c.Command) > 0 && c.Command[0] == "jupyter" {
			c.Command = types.ShellCommand{"sh", "-c", shellJoin(master) + " & exec " + shellJoin(c.Command)}
		} else {
			c.Command = master
		}
	}
	devices := serviceDevices(s, a)
	gpuDevices(c, nil) // the driver needs no GPU; the workers get them
	delete(c.Labels, labels.GPUs)
	var out []*Service
	for _, w := range dep.Workers {
		out = append(out, worker(p, s, ps, w, pick(devices, w.GPUs), network))
	}
	return out
}

// worker is one worker of master's standalone cluster, with its share of
// the GPUs (devices) and of the memory.
func worker(p *spec.Project, s *spec.Service, master *Service, w sparkconf.Worker, devices []string, network string) *Service {
	c := master.Container
	c.Name = w.Name
	c.ContainerName = ContainerName(p.Name, w.Name)
	c.Hostname = w.Name
	onNetwork(&c, w.Name)
	c.Labels = types.Labels(Labels(p.Name, w.Name))
	c.Labels[labels.ReplicaOf] = s.Name
	c.Ports = nil
	c.HealthCheck = nil
	c.MemLimit = types.UnitBytes(w.MemoryBytes)
	c.DependsOn = DependsOn([]string{s.Name})
	c.Command = types.ShellCommand{"spark-class", "org.apache.spark.deploy.worker.Worker", "--host", w.Name, "spark://" + s.Name + ":7077"}
	c.Environment = maps.Clone(master.Container.Environment)
	for k, v := range w.Env {
		c.Environment[k] = &v
	}
	ws := &Service{Name: w.Name, Profile: master.Profile, Image: master.Image, Build: master.Build, Pull: master.Pull,
		DependsOn: []string{s.Name}, Replica: s.Name, WantsGPU: len(devices) > 0, GPURequired: master.GPURequired,
		CPUFallback: master.CPUFallback, Reason: master.Reason, MissingEnvFile: master.MissingEnvFile,
		MissingEnvFileAt: master.MissingEnvFileAt, Files: slices.Clone(master.Files)}
	if len(devices) > 0 {
		gpuDevices(&c, &types.DeviceRequest{Capabilities: gpuCapabilities(nil), IDs: devices})
		c.Labels[labels.GPUs] = strings.Join(devices, ",")
		ids := strings.Join(devices, ",")
		c.Environment["NVIDIA_VISIBLE_DEVICES"] = &ids // the worker's own share, not the master's
	}
	ws.Container = c
	ws.seal(p.Name, network, master.Generated, master.ConfigHash)
	return ws
}

// serviceDevices are the device ids the service's GPUs go by: placed UUIDs,
// the ids written in devenv.yaml, or host indexes 0..N-1 for a bare count.
func serviceDevices(s *spec.Service, a *gpu.Assignment) []string {
	switch {
	case a != nil && len(a.Devices) > 0:
		return a.Devices
	case len(s.GPUs.IDs) > 0:
		return s.GPUs.IDs
	}
	var out []string
	for i := 0; i < s.GPUs.Count; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// pick maps a worker's GPU positions ("0" is the service's first GPU) to ids.
func pick(devices, positions []string) []string {
	var out []string
	for _, p := range positions {
		if i, err := strconv.Atoi(p); err == nil && i >= 0 && i < len(devices) {
			out = append(out, devices[i])
		}
	}
	return out
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
