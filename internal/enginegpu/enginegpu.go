// Package enginegpu reads the GPUs of the engine's machine through the
// engine itself, for engines that are not on this machine (an ssh context,
// a tcp address) or a devenv that cannot read NVML here: the engine's
// /info (runtimes, CDI spec directories, DiscoveredDevices on Docker 28.2+)
// says whether it can give GPUs at all, and a short-lived, labelled probe
// container that asks for every GPU runs the nvidia-smi the NVIDIA runtime
// injects, reporting UUIDs, names, memory, driver and CUDA versions, and for
// `top` the processes on each GPU with their cgroups. It implements
// gpu.Inventory, so gpus, doctor, placement, up's preflight and top use it
// as they use NVML.
package enginegpu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
)

// ProbeLabel marks devenv's probe containers (value: "gpu").
const ProbeLabel = "dev.devenv.probe"

// ErrNoProbeImage is returned when the engine has no image to run the probe in.
var ErrNoProbeImage = errors.New("no image on the engine to run the GPU probe in")

// ErrNoGPU means the engine's runtime ran the probe but the machine showed no GPU.
var ErrNoGPU = errors.New("the engine's GPU runtime is present but shows no GPU")

// Options steer the probe.
type Options struct {
	// Image runs the probe; "" picks DEVENV_PROBE_IMAGE, else an image
	// devenv built or pulled for a project (labelled), else any image the
	// engine has. It needs /bin/sh; the runtime injects nvidia-smi.
	Image string
	// Timeout bounds one probe run; 0 means 60 s.
	Timeout time.Duration
}

// Inventory is gpu.Inventory through the engine.
type Inventory struct {
	eng   engine.Engine
	opts  Options
	image string
}

var _ gpu.Inventory = (*Inventory)(nil)

// Open checks, from the engine's /info, that it can give GPUs and finds an
// image for the probe. It fails wrapping gpu.ErrNoNVML's sibling
// ErrNoProbeImage, or with the engine's own error.
func Open(ctx context.Context, eng engine.Engine, opts Options) (*Inventory, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 60 * time.Second
	}
	img, err := probeImage(ctx, eng, opts.Image)
	if err != nil {
		return nil, err
	}
	return &Inventory{eng: eng, opts: opts, image: img}, nil
}

// Image is the image the probe runs in.
func (inv *Inventory) Image() string { return inv.image }

// Close does nothing: the engine belongs to the caller.
func (inv *Inventory) Close() error { return nil }

// Host runs the probe and reads the GPUs from nvidia-smi's answers.
func (inv *Inventory) Host(ctx context.Context) (*gpu.Host, error) {
	out, err := inv.run(ctx, false)
	if err != nil {
		return nil, err
	}
	return parseHost(out)
}

// Sample runs the probe with the host's process namespace, for top.
func (inv *Inventory) Sample(ctx context.Context) ([]gpu.Sample, error) {
	out, err := inv.run(ctx, true)
	if err != nil {
		return nil, err
	}
	return parseSamples(out)
}

// probeImage is the image to run the probe in.
func probeImage(ctx context.Context, eng engine.Engine, want string) (string, error) {
	if want == "" {
		want = os.Getenv("DEVENV_PROBE_IMAGE")
	}
	if want != "" {
		return want, nil
	}
	for _, sel := range []map[string]string{{labels.Project: ""}, nil} {
		imgs, err := eng.List(ctx, engine.Images, sel)
		if err != nil {
			return "", err
		}
		for _, im := range imgs {
			if im.Name != "" && !strings.HasSuffix(im.Name, ":<none>") {
				return im.Name, nil
			}
		}
	}
	return "", fmt.Errorf("%w: build or pull one there first (`devenv build`), or set DEVENV_PROBE_IMAGE to an image with /bin/sh", ErrNoProbeImage)
}

// QueryFields are asked of nvidia-smi --query-gpu, in this order.
const QueryFields = "index,uuid,name,memory.total,memory.used,memory.free,driver_version,compute_cap,pci.bus_id,persistence_mode,utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit"

// script is what the probe runs: the GPUs, the CUDA version nvidia-smi's
// banner prints, and with the host's pids the compute processes and each
// one's cgroup (which container it is in).
const script = `PATH="$PATH:/usr/local/nvidia/bin:/usr/bin:/bin"
command -v nvidia-smi >/dev/null 2>&1 || { echo "devenv-probe: no nvidia-smi in the container (the runtime injects it with the utility capability)"; exit 3; }
echo "--gpus"
nvidia-smi --query-gpu=` + QueryFields + ` --format=csv,noheader,nounits || exit 4
echo "--cuda"
nvidia-smi | grep -o 'CUDA Version: *[0-9.]*' | head -n 1
if [ "$1" = procs ]; then
  echo "--apps"
  nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory --format=csv,noheader,nounits
  for pid in $(nvidia-smi --query-compute-apps=pid --format=csv,noheader); do
    echo "--cgroup $pid"; cat /proc/$pid/cgroup 2>/dev/null
  done
fi
echo "--end"
`

// run creates the probe container, waits for it (its log ends when it
// exits), reads its output and removes it, whatever happened.
func (inv *Inventory) run(ctx context.Context, procs bool) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, inv.opts.Timeout)
	defer cancel()
	mode := "gpus"
	spec := engine.ContainerSpec{
		Name:       fmt.Sprintf("devenv-gpu-probe-%d-%d", os.Getpid(), time.Now().UnixNano()%1e9),
		Image:      inv.image,
		Labels:     map[string]string{ProbeLabel: "gpu"},
		Entrypoint: []string{"/bin/sh", "-c", script, "devenv-probe"},
		Env:        []string{"NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"},
		User:       "0:0",
		GPU:        &engine.GPURequest{All: true, Capabilities: []string{"compute", "utility"}},
	}
	if procs {
		mode, spec.PidMode = "procs", "host"
	}
	spec.Cmd = []string{mode}
	id, err := inv.eng.Create(ctx, spec)
	if err != nil {
		return "", err
	}
	defer func() { _ = inv.eng.Remove(context.WithoutCancel(ctx), engine.Containers, id, true) }()
	if err := inv.eng.Start(ctx, id); err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	if err := inv.eng.Logs(ctx, id, engine.LogOptions{Follow: true}, limit(&stdout), limit(&stderr)); err != nil {
		return "", err
	}
	st, err := inv.eng.Inspect(ctx, id)
	if err != nil {
		return "", err
	}
	if st.ExitCode != 0 || !strings.Contains(stdout.String(), "--end") {
		msg := strings.TrimSpace(stdout.String() + "\n" + stderr.String())
		return "", fmt.Errorf("devenv's GPU probe in %s exited %d: %s", inv.image, st.ExitCode, lastLine(msg))
	}
	return stdout.String(), nil
}

// limit keeps at most 1 MiB of the probe's output.
func limit(b *bytes.Buffer) io.Writer { return &capped{b: b, left: 1 << 20} }

type capped struct {
	b    *bytes.Buffer
	left int
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if n > c.left {
		p = p[:c.left]
	}
	c.left -= len(p)
	c.b.Write(p)
	return n, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
