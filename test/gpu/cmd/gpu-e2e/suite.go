package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	gpusuite "github.com/devenv-dev/devenv/test/gpu"
)

// baseImage is the tiny glibc + busybox image every service builds FROM:
// the payload's rootfs-base.tar, imported into the engine.
const baseImage = "devenv-gpu-e2e/base"

// suite is one run: the devenv binaries, the engine, the host's GPUs and
// the projects brought up so far.
type suite struct {
	t        *gpusuite.Transcript
	dv       devenv // built with cgo: reads NVML, places GPUs
	dvRemote devenv // built without cgo: passes gpus: to the engine as written
	api      engineAPI
	host     gpu.Host
	work     string
	smi      string // the host's nvidia-smi, "" when there is none
	projects []string
	probe    string // the CUDA probe, copied into every service's image
}

func newSuite(payload, machine string) (*suite, error) {
	work, err := os.MkdirTemp("", "devenv-gpu-e2e-")
	if err != nil {
		return nil, err
	}
	env := []string{"DEVENV_CACHE=" + filepath.Join(work, "cache"), "NO_COLOR=1"}
	s := &suite{t: &gpusuite.Transcript{Date: time.Now().UTC(), Machine: machine}, work: work, api: newEngineAPI(),
		dv:       devenv{bin: filepath.Join(payload, "bin", "devenv"), env: env},
		dvRemote: devenv{bin: filepath.Join(payload, "bin", "nocgo", "devenv"), env: env}}
	r, err := s.dv.jsonOut(work, &s.host, "gpus")
	if err != nil || len(s.host.GPUs) == 0 {
		return nil, fmt.Errorf("devenv cannot read the GPUs through NVML here (exit %d): %s", r.Code, clip(r.out(), 300))
	}
	s.t.Driver, s.t.CUDA = s.host.DriverVersion, s.host.CUDADriverVersion
	for _, g := range s.host.GPUs {
		s.t.GPUs = append(s.t.GPUs, gpusuite.GPU{Index: g.Index, UUID: g.UUID, Name: g.Name, MemoryMiB: g.MemoryTotal >> 20})
	}
	s.t.Devenv = strings.TrimSpace(s.dv.run(work, "version").Stdout)
	s.smi = lookPath("nvidia-smi")
	s.probe = filepath.Join(payload, "probe")
	if err := s.api.importImage(filepath.Join(payload, "rootfs-base.tar"), baseImage, "1"); err != nil {
		return nil, fmt.Errorf("importing the base image: %w", err)
	}
	return s, nil
}

func (s *suite) cleanup() {
	for _, dir := range s.projects {
		s.dv.run(dir, "down")
	}
	if err := os.RemoveAll(s.work); err != nil {
		fmt.Println("e2e-gpu: work folder not removed:", err)
	}
}

// service is one image service of a test project.
type service struct {
	name    string
	gpus    string // the gpus: value as YAML, "" for none
	command []string
}

func (v service) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n    profile: image\n    build: Dockerfile\n", v.name)
	if v.gpus != "" {
		fmt.Fprintf(&b, "    gpus: %s\n    gpu: required\n", v.gpus)
	}
	cmd, _ := json.Marshal(v.command)
	fmt.Fprintf(&b, "    command: %s\n", cmd)
	return b.String()
}

// project writes a project of image services built FROM the base image,
// with the probe and devenv's generated Spark discovery script copied in,
// and locks it. Like NVIDIA's CUDA images, the image puts the driver's
// utilities (mounted under /usr/local/nvidia/bin here) on PATH.
func (s *suite) project(name string, svcs ...service) (string, error) {
	dir := filepath.Join(s.work, name)
	var y strings.Builder
	fmt.Fprintf(&y, "name: gpue2e-%s\nservices:\n", name)
	for _, v := range svcs {
		y.WriteString(v.yaml())
	}
	files := map[string][]byte{
		"devenv.yaml": []byte(y.String()),
		"Dockerfile": []byte("FROM " + baseImage + ":1\nENV PATH=/usr/local/nvidia/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n" +
			"COPY probe /bin/probe\nCOPY discovery.sh /opt/devenv/discovery.sh\n"),
		"discovery.sh": sparkconf.DiscoveryScript(),
	}
	probe, err := os.ReadFile(s.probe)
	if err != nil {
		return "", fmt.Errorf("the CUDA probe: %w", err)
	}
	files["probe"] = probe
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for f, data := range files {
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o755); err != nil {
			return "", err
		}
	}
	s.projects = append(s.projects, dir)
	if r := s.dv.run(dir, "lock"); r.Code != 0 {
		return dir, fmt.Errorf("devenv lock in %s: exit %d: %s", name, r.Code, clip(r.out(), 800))
	}
	return dir, nil
}

// up brings a project up and fails with devenv's words if it cannot.
func (s *suite) up(dir string) (string, error) {
	r := s.dv.run(dir, "up")
	if r.Code != 0 {
		return "", fmt.Errorf("devenv up in %s: exit %d: %s", filepath.Base(dir), r.Code, clip(r.out(), 1200))
	}
	return "devenv up: " + clip(strings.TrimSpace(r.Stdout), 300), nil
}

// seen is what the probe inside a container listed: the GPUs' UUIDs.
func (s *suite) seen(dir, svc string) ([]string, string, error) {
	r := s.dv.run(dir, "exec", svc, "--", "probe", "uuids")
	if r.Code != 0 {
		return nil, r.out(), fmt.Errorf("probe in %s: exit %d: %s", svc, r.Code, clip(r.out(), 400))
	}
	var ids []string
	for _, l := range strings.Split(r.Stdout, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "gpu" {
			ids = append(ids, f[2])
		}
	}
	return ids, strings.TrimSpace(r.Stdout), nil
}

// container is the engine's name of a project's service.
func container(dir, svc string) string { return "gpue2e-" + filepath.Base(dir) + "-" + svc }

// uuidOf is the UUID of the host's GPU with index i.
func (s *suite) uuidOf(i int) string {
	for _, g := range s.host.GPUs {
		if g.Index == i {
			return g.UUID
		}
	}
	return ""
}

func (s *suite) allUUIDs() []string {
	var out []string
	for _, g := range s.host.GPUs {
		out = append(out, g.UUID)
	}
	return sortStrings(out)
}

// hostComputeApps is nvidia-smi's list of compute processes on the host.
func (s *suite) hostComputeApps() (string, error) {
	if s.smi == "" {
		return "", skipf("no nvidia-smi on this host")
	}
	r := run(s.work, nil, time.Minute, s.smi, "--query-compute-apps=pid,process_name,used_memory,gpu_uuid", "--format=csv,noheader")
	if r.Code != 0 {
		return "", fmt.Errorf("nvidia-smi: exit %d: %s", r.Code, r.out())
	}
	return strings.TrimSpace(r.Stdout), nil
}
