package plan

import (
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/labels"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// standalone turns a spark-rapids service with `workers: N` into a Spark
// standalone cluster on this machine: the service's own container runs the
// master (and the driver, Jupyter), and N worker containers each get their
// share of the service's GPUs, so multi-executor behaviour (shuffles
// between executors, one GPU per executor) reproduces locally.
func standalone(p *spec.Project, s *spec.Service, ps *Service, a *gpu.Assignment) []*Service {
	dep := ps.Spark.Deploy
	if dep.Mode != "standalone" {
		return nil
	}
	master := []string{"spark-class", "org.apache.spark.deploy.master.Master", "--host", s.Name, "--port", "7077", "--webui-port", "8080"}
	c := &ps.Container
	if len(s.Command) == 0 {
		if len(c.Cmd) > 0 && c.Cmd[0] == "jupyter" {
			c.Cmd = []string{"sh", "-c", shellJoin(master) + " & exec " + shellJoin(c.Cmd)}
		} else {
			c.Cmd = master
		}
	}
	devices := serviceDevices(s, a)
	c.GPU = nil // the driver needs no GPU; the workers get them
	delete(c.Labels, labels.GPUs)
	var out []*Service
	for _, w := range dep.Workers {
		out = append(out, worker(p, s, ps, w.Name, w.Env, pick(devices, w.GPUs), w.MemoryBytes))
	}
	return out
}

func worker(p *spec.Project, s *spec.Service, master *Service, name string, env map[string]string, devices []string, mem int64) *Service {
	c := master.Container
	c.Name = ContainerName(p.Name, name)
	c.Hostname = name
	c.Aliases = []string{name}
	c.Labels = Labels(p.Name, name)
	c.Ports = nil
	c.Healthcheck = nil
	c.MemoryBytes = mem
	c.Cmd = []string{"spark-class", "org.apache.spark.deploy.worker.Worker", "--host", name, "spark://" + s.Name + ":7077"}
	vars := map[string]string{}
	for _, kv := range c.Env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	for k, v := range env {
		vars[k] = v
	}
	ws := &Service{Name: name, Profile: master.Profile, Image: master.Image, Build: master.Build, Pull: master.Pull,
		DependsOn: []string{s.Name}, Replica: s.Name, WantsGPU: len(devices) > 0, GPURequired: master.GPURequired,
		CPUFallback: master.CPUFallback, Reason: master.Reason, MissingEnvFile: master.MissingEnvFile,
		MissingEnvFileAt: master.MissingEnvFileAt}
	if len(devices) > 0 {
		c.GPU = &engine.GPURequest{DeviceIDs: devices}
		c.Labels[labels.GPUs] = strings.Join(devices, ",")
		vars["NVIDIA_VISIBLE_DEVICES"] = strings.Join(devices, ",") // the worker's own share, not the master's
	}
	c.Env = envList(vars) // in key order: a map's order would change the hash from one plan to the next
	ws.Container = c
	ws.ConfigHash = hashOf(c, master.Generated, master.ConfigHash)
	ws.Container.Labels[labels.ConfigHash] = ws.ConfigHash
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
