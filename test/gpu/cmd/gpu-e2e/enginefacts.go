package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/enginegpu"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// checkEngineFacts: devenv built without NVML (CGO_ENABLED=0, as a laptop's
// build would be) learns the GPUs from the engine's side (its /info and a
// probe container's nvidia-smi): gpus lists the GPUs NVML lists, doctor says
// it read them through the engine, two gpus: 1 services are placed by UUID
// (on one GPU, sharing it with a memory split each holds at once), top maps
// their CUDA processes to the services, and down leaves nothing.
func (s *suite) checkEngineFacts() ([]string, error) {
	ev, err := s.engineGPUs()
	if err != nil {
		return ev, err
	}
	cmd := []string{"probe", "alloc", "env:DEVENV_GPU_MEMORY_LIMIT_BYTES", holdSeconds}
	dir, err := s.project("enginefacts", service{name: "a", gpus: "1", command: cmd}, service{name: "b", gpus: "1", command: cmd})
	if err != nil {
		return ev, err
	}
	defer s.dvRemote.run(dir, "down")
	more, err := s.engineDoctor(dir)
	ev = append(ev, more...)
	if err != nil {
		return ev, err
	}
	r := s.dvRemote.run(dir, "up")
	ev = append(ev, fmt.Sprintf("devenv-nocgo up: exit %d: %s", r.Code, clip(r.out(), 400)))
	if r.Code != 0 {
		return ev, fmt.Errorf("devenv-nocgo up: exit %d", r.Code)
	}
	placed, more, err := s.enginePlacement(dir)
	ev = append(ev, more...)
	if err != nil {
		return ev, err
	}
	more, err = s.engineTop(dir)
	ev = append(ev, more...)
	if err != nil {
		return ev, err
	}
	return append([]string{"devenv without NVML: GPUs, doctor, placement by UUID, " + placed + " and top, all from the engine's side"}, ev...), nil
}

func (s *suite) engineGPUs() ([]string, error) {
	var g struct {
		gpu.Host
		Source, Note string
	}
	r, err := s.dvRemote.jsonOut(s.work, &g, "gpus")
	ev := []string{"devenv-nocgo gpus --json: " + clip(strings.TrimSpace(r.Stdout), 900)}
	if err != nil {
		return ev, err
	}
	if g.Source != "engine" || len(g.GPUs) != len(s.host.GPUs) {
		return ev, fmt.Errorf("gpus read %d GPU(s) through %q, want %d through the engine (%s)", len(g.GPUs), g.Source, len(s.host.GPUs), g.Note)
	}
	for i, x := range g.GPUs {
		n := s.host.GPUs[i]
		if x.UUID != n.UUID || x.MemoryTotal != n.MemoryTotal || x.Name != n.Name {
			return ev, fmt.Errorf("GPU %d through the engine is %s %s %d MiB, NVML says %s %s %d MiB", i, x.UUID, x.Name, x.MemoryTotal>>20, n.UUID, n.Name, n.MemoryTotal>>20)
		}
	}
	if g.DriverVersion != s.host.DriverVersion || g.CUDADriverVersion != s.host.CUDADriverVersion {
		return ev, fmt.Errorf("driver %s CUDA %s through the engine, NVML says %s CUDA %s", g.DriverVersion, g.CUDADriverVersion, s.host.DriverVersion, s.host.CUDADriverVersion)
	}
	if s.smi != "" {
		q := run(s.work, nil, time.Minute, s.smi, "--query-gpu="+enginegpu.QueryFields, "--format=csv,noheader,nounits")
		ev = append(ev, "host nvidia-smi --query-gpu="+enginegpu.QueryFields+" (the probe's query): exit "+strconv.Itoa(q.Code)+"\n"+strings.TrimSpace(q.out()))
	}
	return append(ev, fmt.Sprintf("the engine's GPUs match NVML's: %d GPU(s), driver %s, CUDA %s", len(g.GPUs), g.DriverVersion, g.CUDADriverVersion)), nil
}

func (s *suite) engineDoctor(dir string) ([]string, error) {
	var rep struct{ Checks []doctor.Check }
	r, err := s.dvRemote.jsonOut(dir, &rep, "doctor")
	if err != nil && r.Code != 4 {
		return nil, err
	}
	var ev []string
	var nv *doctor.Check
	for i, c := range rep.Checks {
		ev = append(ev, fmt.Sprintf("doctor (nocgo): %s %s: %s: %s", c.Status, c.ID, c.Title, clip(c.Message, 200)))
		if c.ID == doctor.IDNVML {
			nv = &rep.Checks[i]
		}
	}
	if nv == nil || nv.Status != doctor.Pass || !strings.Contains(nv.Title, "from the engine") {
		return ev, fmt.Errorf("doctor without NVML does not say it read the GPUs through the engine: %+v", nv)
	}
	return ev, nil
}

// enginePlacement checks both services got one GPU by UUID: on one GPU the
// same one with a memory split each holds; on more, different GPUs.
func (s *suite) enginePlacement(dir string) (string, []string, error) {
	var ev []string
	uuids := map[string]string{}
	for _, svc := range []string{"a", "b"} {
		reqs, err := s.api.deviceRequests(container(dir, svc))
		if err != nil {
			return "", ev, err
		}
		ev = append(ev, fmt.Sprintf("%s: DeviceRequests %+v", svc, reqs))
		if len(reqs) != 1 || len(reqs[0].DeviceIDs) != 1 || !slices.Contains(s.allUUIDs(), reqs[0].DeviceIDs[0]) {
			return "", ev, fmt.Errorf("%s was not placed on a GPU by UUID: %+v", svc, reqs)
		}
		uuids[svc] = reqs[0].DeviceIDs[0]
	}
	if len(s.host.GPUs) > 1 {
		if uuids["a"] == uuids["b"] {
			return "", ev, fmt.Errorf("both services on %s although %d GPUs are free", uuids["a"], len(s.host.GPUs))
		}
		return "spread over two GPUs", ev, nil
	}
	logs := s.waitAllocs(dir)
	share, err := s.api.envInt(container(dir, "a"), "DEVENV_GPU_MEMORY_LIMIT_BYTES")
	ev = append(ev, fmt.Sprintf("share %d bytes (%.2f GiB)", share, float64(share)/(1<<30)), "a: "+logs["a"], "b: "+logs["b"])
	if err != nil {
		return "", ev, fmt.Errorf("no memory split for two services on one GPU: %w", err)
	}
	if share <= 0 {
		return "", ev, errors.New("no memory split for two services on one GPU")
	}
	for _, svc := range []string{"a", "b"} {
		if !strings.Contains(logs[svc], "allocated "+strconv.FormatInt(share, 10)+" bytes") {
			return "", ev, fmt.Errorf("%s did not allocate its share of %d bytes: %s", svc, share, logs[svc])
		}
	}
	return fmt.Sprintf("a memory split (%.1f GiB each, held at once)", float64(share)/(1<<30)), ev, nil
}

func (s *suite) engineTop(dir string) ([]string, error) {
	var t topSample
	r, err := s.dvRemote.jsonOut(dir, &t, "top", "--once")
	ev := []string{"devenv-nocgo top --once --json: " + clip(strings.TrimSpace(r.Stdout), 1500)}
	if err != nil {
		return ev, err
	}
	found := map[string]bool{}
	for _, g := range t.GPUs {
		for _, p := range g.Processes {
			if p.Project != "gpue2e-enginefacts" {
				continue
			}
			id, err := s.api.containerID(container(dir, p.Service))
			if err != nil {
				return ev, err
			}
			if p.Container == "" || !strings.HasPrefix(id, p.Container) {
				return ev, fmt.Errorf("process %d of %s mapped to container %q, not %s", p.PID, p.Service, p.Container, id)
			}
			found[p.Service] = true
		}
	}
	if !found["a"] || !found["b"] {
		return ev, fmt.Errorf("top through the engine did not map both CUDA processes to their services: %v", found)
	}
	return ev, nil
}
