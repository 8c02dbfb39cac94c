package plan

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/devenv-dev/devenv/profiles"
)

// SparkInfo is what the plan decided about a spark-rapids service.
type SparkInfo struct {
	Conf   []sparkconf.Entry `json:"conf"`
	Deploy sparkconf.Deploy  `json:"deploy"`
	Notes  []string          `json:"notes,omitempty"`
	// Hardware is the service's share of the machine the confs were sized
	// for (memory:, the 4 GiB floor, the per-GPU share); diff scales prod's
	// confs to the same share.
	Hardware sparkconf.Hardware `json:"-"`
}

func profileDefaults(ps *Service, c *types.ServiceConfig, p *spec.Project, s *spec.Service, res profiles.Resolved,
	h Host, a *gpu.Assignment, env map[string]string, opts Options) error {
	switch res.Profile {
	case profiles.SparkRapids:
		return sparkDefaults(ps, c, p, s, res, h, a, env, opts)
	case profiles.Triton:
		tritonDefaults(ps, c, a, env, remoteModelRepository(p, s, res.Profile, opts))
	case profiles.Rapids:
		env["PYTHONPATH"] = extraDir
		if a != nil && !ps.CPUFallback {
			for k, v := range a.Env {
				env[k] = v
			}
		}
		if ps.CPUFallback {
			env["DEVENV_CPU_FALLBACK"] = "1"
		}
		rapidsCommand(c, s, env, opts)
	default:
		if a != nil && !ps.CPUFallback {
			for k, v := range a.Env {
				env[k] = v
			}
		}
	}
	return nil
}

// rapidsCommand starts JupyterLab (jupyter:, default true), which the
// image build installs; otherwise the container idles for exec and run.
// The RAPIDS base image's own command (ipython) would exit at once without
// a terminal.
func rapidsCommand(c *types.ServiceConfig, s *spec.Service, env map[string]string, opts Options) {
	if !jupyter(s) {
		c.Command = types.ShellCommand{"sleep", "infinity"}
		return
	}
	env["JUPYTER_TOKEN"] = opts.Token
	c.Command = types.ShellCommand{"jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--ServerApp.root_dir=" + Workspace}
	if c.HealthCheck == nil {
		c.HealthCheck = httpCheck("http://127.0.0.1:8888/api")
	}
}

func sparkDefaults(ps *Service, c *types.ServiceConfig, p *spec.Project, s *spec.Service, res profiles.Resolved,
	h Host, a *gpu.Assignment, env map[string]string, opts Options) error {
	in, err := sparkInput(opts.Context(), p, s, res, h, a, ps.CPUFallback)
	if err != nil {
		return err
	}
	conf, err := sparkconf.Generate(in)
	if err != nil {
		return err
	}
	ps.Generated["spark-defaults.conf"] = conf.Render()
	ps.Spark = &SparkInfo{Conf: conf.Explain(), Deploy: sparkconf.Topology(in), Notes: conf.Notes(), Hardware: in.Hardware}
	ps.Files = append(ps.Files, generatedFile("spark-defaults.conf", ps.Generated["spark-defaults.conf"]))
	env["SPARK_CONF_DIR"] = ConfDir
	if ps.CPUFallback {
		env["DEVENV_CPU_FALLBACK"] = "1"
	}
	if jupyter(s) {
		env["JUPYTER_TOKEN"] = opts.Token
		c.Command = types.ShellCommand{"jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--ServerApp.root_dir=" + Workspace}
		if c.HealthCheck == nil {
			c.HealthCheck = httpCheck("http://127.0.0.1:8888/api")
		}
		return nil
	}
	c.Command = types.ShellCommand{"sleep", "infinity"}
	if c.HealthCheck == nil {
		c.HealthCheck = check([]string{"CMD", "test", "-x", "/opt/spark/bin/spark-submit"}, 5*time.Second, 3*time.Second, 0, 3)
	}
	return nil
}

// sparkInput sizes the service's share of the host for sparkconf.
func sparkInput(ctx context.Context, p *spec.Project, s *spec.Service, res profiles.Resolved, h Host, a *gpu.Assignment, cpu bool) (sparkconf.Input, error) {
	hw := sparkconf.Hardware{CPUs: h.CPUs, MemoryBytes: h.MemoryBytes * 3 / 4}
	if hw.CPUs < 1 {
		hw.CPUs = 1
	}
	if m := memoryBytes(s.Memory); m > 0 {
		hw.MemoryBytes = m
	}
	if hw.MemoryBytes < 4<<30 {
		hw.MemoryBytes = 4 << 30
	}
	if !cpu && s.GPUs.Wants() {
		hw.GPUs, hw.GPUMemoryBytes = gpuShare(s, h, a)
		if a != nil && a.AllocFraction > 0 && a.AllocFraction < 1 {
			hw.AllocFraction = a.AllocFraction
		}
	}
	in := sparkconf.Input{Spark: res.Spark, Scala: res.Scala, Rapids: res.Rapids, Name: s.Name, Hardware: hw,
		Workers: s.Workers, DiscoveryScript: DiscoveryPath, User: sparkconf.Layer{Source: "devenv.yaml", Conf: s.Conf}}
	if len(res.Conf) > 0 {
		in.Mirrored = append(in.Mirrored, sparkconf.Layer{Source: "profile " + res.Custom, Conf: res.Conf})
	}
	layer, err := mirroredLayer(ctx, p, s, hw, res.Spark)
	if err != nil {
		return in, err
	}
	if layer != nil {
		in.Mirrored = append(in.Mirrored, *layer)
	}
	return in, nil
}

// gpuShare is how many GPUs the service gets and each one's memory; without
// NVML facts a GPU is taken to have 16 GiB.
func gpuShare(s *spec.Service, h Host, a *gpu.Assignment) (int, int64) {
	n := s.GPUs.Count
	switch {
	case a != nil && len(a.GPUs) > 0:
		n = len(a.GPUs)
	case len(s.GPUs.IDs) > 0:
		n = len(s.GPUs.IDs)
	case s.GPUs.All && h.GPUs != nil:
		n = len(h.GPUs.GPUs)
	case s.GPUs.All:
		n = 1
	}
	mem := int64(16 << 30)
	if h.GPUs != nil && len(h.GPUs.GPUs) > 0 {
		idx := 0
		if a != nil && len(a.GPUs) > 0 {
			idx = a.GPUs[0]
		}
		for _, g := range h.GPUs.GPUs {
			if g.Index == idx {
				mem = int64(g.MemoryTotal)
			}
		}
	}
	return n, mem
}

// tritonDefaults starts tritonserver on /models; on a remote engine whose
// model repository is a synced project folder (repo), on that folder in
// poll mode, so models synced there are loaded, reloaded and unloaded as
// they change.
func tritonDefaults(ps *Service, c *types.ServiceConfig, a *gpu.Assignment, env map[string]string, repo string) {
	c.Command = types.ShellCommand{"tritonserver", "--model-repository=" + tritonModels}
	if repo != "" {
		c.Command = types.ShellCommand{"tritonserver", "--model-repository=" + repo, "--model-control-mode=poll", "--repository-poll-secs=5"}
	}
	if ps.CPUFallback {
		env["DEVENV_CPU_FALLBACK"] = "1"
	} else if a != nil {
		c.Command = append(c.Command, a.Args...)
	}
	c.ShmSize = 1 << 30
	if c.HealthCheck == nil {
		c.HealthCheck = check([]string{"CMD", "curl", "-sf", "http://127.0.0.1:8000/v2/health/ready"}, 5*time.Second, 3*time.Second, 10*time.Second, 20)
	}
}

func httpCheck(url string) *types.HealthCheckConfig {
	py := fmt.Sprintf("import urllib.request,sys; urllib.request.urlopen(%q, timeout=3)", url)
	return check([]string{"CMD", "python3", "-c", py}, 5*time.Second, 5*time.Second, 10*time.Second, 12)
}

func discoveryScript() []byte { return sparkconf.DiscoveryScript() }

// endpoints names what a person can open, by the container port published:
// web UIs as http URLs, the Spark master as the spark:// URL its clients
// take, Triton gRPC and every other port as plain host:port. Jupyter is
// named only where it runs (not with jupyter: false).
func endpoints(s *spec.Service, res profiles.Resolved, token string) []Endpoint {
	var out []Endpoint
	for _, pt := range s.Ports {
		host := pt.Host
		if host == 0 {
			host = pt.Container
		}
		ip := pt.HostIP
		if ip == "" || ip == "0.0.0.0" {
			ip = "127.0.0.1"
		}
		addr := fmt.Sprintf("%s:%d", ip, host)
		k, ok := knownPorts[res.Profile][pt.Container]
		if !ok || pt.Protocol == "udp" || (k.name == "Jupyter" && res.Profile == profiles.SparkRapids && !jupyter(s)) {
			out = append(out, Endpoint{Name: "port " + strconv.Itoa(pt.Container), URL: addr + udp(pt.Protocol)})
			continue
		}
		url := addr
		switch {
		case k.scheme != "" && k.name == "Jupyter" && token != "":
			url = k.scheme + "://" + addr + k.path + "?token=" + token
		case k.scheme != "":
			url = k.scheme + "://" + addr + k.path
		}
		out = append(out, Endpoint{Name: k.name, URL: url})
	}
	return out
}

func udp(protocol string) string {
	if protocol == "udp" {
		return "/udp"
	}
	return ""
}

// knownPort is what a profile serves on a container port.
type knownPort struct {
	name   string
	scheme string // http, spark; empty: not a URL (gRPC)
	path   string
}

var knownPorts = map[string]map[int]knownPort{
	profiles.SparkRapids: {
		4040: {"Spark UI", "http", ""}, 8888: {"Jupyter", "http", "/lab"}, 8080: {"Spark master UI", "http", ""},
		18080: {"Spark history", "http", ""}, 7077: {"Spark master", "spark", ""},
	},
	profiles.Rapids: {8888: {"Jupyter", "http", "/lab"}, 8787: {"Dask dashboard", "http", ""}},
	profiles.Triton: {8000: {"Triton HTTP", "http", ""}, 8001: {"Triton gRPC", "", ""}, 8002: {"Triton metrics", "http", "/metrics"}},
}
