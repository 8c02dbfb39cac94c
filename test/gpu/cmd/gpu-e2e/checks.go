package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/profiles"
	gpusuite "github.com/devenv-dev/devenv/test/gpu"
)

type check struct {
	name string
	fn   func() ([]string, error)
}

// Holding times: long enough for the checks that look while they run.
const holdSeconds = "40"

// The RAPIDS Accelerator's default pool is spark.rapids.memory.gpu.allocFraction
// 1.0 of the GPU's free memory less spark.rapids.memory.gpu.reserve (640 MiB).
const (
	defaultAllocFraction = 1.0
	defaultReserve       = 640 << 20
)

var sleeper = []string{"sleep", "3600"}

// checks lists the suite in gpusuite.Checks' order; later checks use the
// projects earlier ones brought up.
func (s *suite) checks() []check {
	st := &state{}
	fns := map[string]func() ([]string, error){
		"doctor-engine-gpu":          func() ([]string, error) { return s.checkDoctor(st) },
		"gpu-required-starts":        func() ([]string, error) { return s.checkRequiredStarts(st) },
		"placement-spread":           func() ([]string, error) { return s.checkSpread(st) },
		"wrong-uuid-refused":         s.checkWrongUUID,
		"placement-index-all-none":   func() ([]string, error) { return s.checkPick(st) },
		"ps-shows-gpus":              func() ([]string, error) { return s.checkPs(st) },
		"discovery-script":           func() ([]string, error) { return s.checkDiscovery(st) },
		"memory-split-holds":         func() ([]string, error) { return s.checkSplit(st) },
		"top-maps-processes":         func() ([]string, error) { return s.checkTop(st) },
		"memory-default-pools-oom":   func() ([]string, error) { return s.checkControl(st) },
		"logs-diagnose-oom":          func() ([]string, error) { return s.checkDiagnose(st) },
		"down-leaves-no-gpu-process": s.checkDown,
		"defaults-fit-driver":        s.checkDefaults,
		"engine-gpu-facts":           s.checkEngineFacts,
	}
	var out []check
	for _, name := range gpusuite.Checks {
		fn := fns[name]
		if fn == nil {
			fn = func() ([]string, error) { return nil, fmt.Errorf("the runner has no check %q", name) }
		}
		out = append(out, check{name, fn})
	}
	return out
}

// state carries projects from one check to the next.
type state struct {
	spread, pick, split, control string
	oomService                   string
}

func need(dir, what string) error {
	if dir == "" {
		return fmt.Errorf("the %s project did not come up in an earlier check", what)
	}
	return nil
}

func (s *suite) checkDoctor(st *state) ([]string, error) {
	dir, err := s.project("spread", service{name: "one", gpus: "1", command: sleeper}, service{name: "two", gpus: "1", command: sleeper})
	if err != nil {
		return nil, err
	}
	st.spread = dir
	var rep struct{ Checks []doctor.Check }
	r, err := s.dv.jsonOut(dir, &rep, "doctor")
	if err != nil {
		return nil, err
	}
	var ev []string
	var got *doctor.Check
	for i, c := range rep.Checks {
		ev = append(ev, fmt.Sprintf("%s %s: %s", c.Status, c.ID, clip(c.Message, 160)))
		if c.ID == doctor.IDGPURuntime {
			got = &rep.Checks[i]
		}
	}
	ev = append(ev, fmt.Sprintf("doctor exit %d", r.Code))
	switch {
	case got == nil:
		return ev, fmt.Errorf("doctor printed no %s check", doctor.IDGPURuntime)
	case got.Status != "pass":
		return ev, fmt.Errorf("engine GPU check is %s: %s", got.Status, got.Message)
	}
	return append([]string{"engine GPU support: pass: " + got.Message}, ev...), nil
}

func (s *suite) checkRequiredStarts(st *state) ([]string, error) {
	if err := need(st.spread, "spread"); err != nil {
		return nil, err
	}
	upLine, err := s.up(st.spread)
	if err != nil {
		st.spread = ""
		return nil, err
	}
	ids, out, err := s.seen(st.spread, "one")
	if err != nil {
		return []string{upLine}, err
	}
	ev := []string{fmt.Sprintf("gpu: required, gpus: 1 started; inside, CUDA sees %d GPU(s)", len(ids)), upLine, "probe in one: " + out}
	if len(ids) != 1 {
		return ev, fmt.Errorf("the service asked for 1 GPU and CUDA sees %d", len(ids))
	}
	return ev, nil
}

// checkSpread: two gpus: 1 services land on different GPUs when there are
// two, each seeing exactly the GPU its device request names.
func (s *suite) checkSpread(st *state) ([]string, error) {
	if err := need(st.spread, "spread"); err != nil {
		return nil, err
	}
	var ev []string
	seen := map[string]string{}
	for _, svc := range []string{"one", "two"} {
		ids, out, err := s.seen(st.spread, svc)
		if err != nil {
			return ev, err
		}
		reqs, err := s.api.deviceRequests(container(st.spread, svc))
		if err != nil {
			return ev, err
		}
		ev = append(ev, fmt.Sprintf("%s: DeviceRequests %+v; CUDA inside sees %v", svc, reqs, ids))
		_ = out
		if len(ids) != 1 || len(reqs) != 1 || !slices.Equal(reqs[0].DeviceIDs, ids) {
			return ev, fmt.Errorf("%s: the container sees %v but its device request is %+v", svc, ids, reqs)
		}
		seen[svc] = ids[0]
	}
	if len(s.host.GPUs) < 2 {
		if seen["one"] != seen["two"] || seen["one"] != s.uuidOf(0) {
			return ev, fmt.Errorf("one GPU here, yet the services see %s and %s", seen["one"], seen["two"])
		}
		return append([]string{"1 GPU here: both gpus: 1 services share GPU 0 (" + seen["one"] + "), each seeing exactly its device request"}, ev...), nil
	}
	if seen["one"] == seen["two"] {
		return ev, fmt.Errorf("both services landed on %s although %d GPUs are free", seen["one"], len(s.host.GPUs))
	}
	return append([]string{fmt.Sprintf("two gpus: 1 services on different GPUs: one %s, two %s", seen["one"], seen["two"])}, ev...), nil
}

// checkWrongUUID: a GPU UUID the host lacks. devenv reading NVML refuses it
// before creating anything (exit 4, naming the host's GPUs); devenv without
// NVML (a remote engine) passes it on and the engine refuses: exit 4 with
// the engine's words.
func (s *suite) checkWrongUUID() ([]string, error) {
	const bad = "GPU-00000000-0000-0000-0000-000000000000"
	dir, err := s.project("baduuid", service{name: "bad", gpus: fmt.Sprintf("[%q]", bad), command: sleeper})
	if err != nil {
		return nil, err
	}
	local := s.dv.run(dir, "up")
	// DEVENV_GPU_FACTS=nvml: no GPU facts at all (NVML cannot load), so
	// devenv passes the id on and the engine's refusal is what is seen.
	remote := s.dvRemote.with("DEVENV_GPU_FACTS=nvml").run(dir, "up", "--skip-gpu-check")
	ev := []string{
		fmt.Sprintf("devenv with NVML: exit %d: %s", local.Code, clip(local.out(), 500)),
		fmt.Sprintf("devenv without NVML, up --skip-gpu-check: exit %d: %s", remote.Code, clip(remote.out(), 700)),
	}
	if local.Code != 4 {
		return ev, fmt.Errorf("devenv with NVML gave exit %d for %s, want 4 (no compatible GPU)", local.Code, bad)
	}
	if remote.Code != 4 {
		return ev, fmt.Errorf("the engine's refusal gave exit %d, want 4", remote.Code)
	}
	if !strings.Contains(remote.out(), bad) || !strings.Contains(remote.out(), "OCI runtime") && !strings.Contains(remote.out(), "CDI") {
		return ev, fmt.Errorf("the refusal does not carry the engine's words about %s", bad)
	}
	s.dv.run(dir, "down")
	return append([]string{"exit 4 with the engine's refusal of " + bad}, ev...), nil
}

// checkPick: gpus: [last index] gets that GPU, all sees every GPU, 0 none.
func (s *suite) checkPick(st *state) ([]string, error) {
	if st.spread != "" {
		s.dv.run(st.spread, "down")
	}
	last := len(s.host.GPUs) - 1
	dir, err := s.project("pick",
		service{name: "pinned", gpus: fmt.Sprintf("[%d]", last), command: sleeper},
		service{name: "every", gpus: "all", command: sleeper},
		service{name: "none", gpus: "0", command: sleeper})
	if err != nil {
		return nil, err
	}
	upLine, err := s.up(dir)
	if err != nil {
		return nil, err
	}
	st.pick = dir
	ev := []string{upLine}
	pinned, out, err := s.seen(dir, "pinned")
	ev = append(ev, "pinned: "+out)
	if err != nil {
		return ev, err
	}
	if want := s.uuidOf(last); !slices.Equal(pinned, []string{want}) {
		return ev, fmt.Errorf("gpus: [%d] sees %v, want GPU %d %s", last, pinned, last, want)
	}
	every, out, err := s.seen(dir, "every")
	ev = append(ev, "every: "+out)
	if err != nil {
		return ev, err
	}
	if !slices.Equal(sortStrings(every), s.allUUIDs()) {
		return ev, fmt.Errorf("gpus: all sees %v, want %v", every, s.allUUIDs())
	}
	r := s.dv.run(dir, "exec", "none", "--", "probe", "uuids")
	devs := s.dv.run(dir, "exec", "none", "--", "ls", "/dev")
	ev = append(ev, fmt.Sprintf("none: probe exit %d: %s", r.Code, r.out()), "none: /dev: "+strings.Join(strings.Fields(devs.Stdout), " "))
	if r.Code == 0 || strings.Contains(devs.Stdout, "nvidia") {
		return ev, fmt.Errorf("gpus: 0 has a GPU: probe exit %d, /dev %q", r.Code, devs.Stdout)
	}
	return append([]string{fmt.Sprintf("gpus: [%d] sees GPU %d only, all sees %d GPU(s), 0 sees none", last, last, len(every))}, ev...), nil
}

func (s *suite) checkPs(st *state) ([]string, error) {
	if err := need(st.pick, "pick"); err != nil {
		return nil, err
	}
	var rows []struct{ Service, State, GPUs string }
	if _, err := s.dv.jsonOut(st.pick, &rows, "ps"); err != nil {
		return nil, err
	}
	got := map[string]string{}
	var ev []string
	for _, r := range rows {
		got[r.Service] = r.GPUs
		ev = append(ev, fmt.Sprintf("%s %s gpus=%q", r.Service, r.State, r.GPUs))
	}
	plain := s.dv.run(st.pick, "ps")
	ev = append(ev, "devenv ps:\n"+strings.TrimSpace(plain.Stdout))
	last := s.uuidOf(len(s.host.GPUs) - 1)
	if !strings.Contains(got["pinned"], last) && got["pinned"] != strconv.Itoa(len(s.host.GPUs)-1) || got["every"] != "all" || got["none"] != "" {
		return ev, fmt.Errorf("ps GPUs: pinned %q (want %s), every %q (want all), none %q (want none)", got["pinned"], last, got["every"], got["none"])
	}
	return append([]string{"ps shows pinned on " + got["pinned"] + ", every on all, none without GPU"}, ev...), nil
}

// checkDiscovery runs devenv's generated Spark discovery script inside the
// GPU containers: its addresses must be 0..N-1 for the N GPUs of the
// container's device request, as Spark's getGpusResources reads them.
func (s *suite) checkDiscovery(st *state) ([]string, error) {
	if err := need(st.pick, "pick"); err != nil {
		return nil, err
	}
	ev := []string{}
	for _, svc := range []string{"pinned", "every"} {
		r := s.dv.run(st.pick, "exec", svc, "--", "sh", "/opt/devenv/discovery.sh")
		reqs, err := s.api.deviceRequests(container(st.pick, svc))
		if err != nil {
			return ev, err
		}
		ev = append(ev, fmt.Sprintf("%s: DeviceRequests %+v; discovery exit %d: %s", svc, reqs, r.Code, r.out()))
		var res struct {
			Name      string
			Addresses []string
		}
		if r.Code != 0 {
			return ev, fmt.Errorf("discovery script in %s: exit %d: %s", svc, r.Code, r.out())
		}
		if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || res.Name != "gpu" {
			return ev, fmt.Errorf("discovery script in %s printed %q, not Spark's {\"name\":\"gpu\",...}", svc, r.Stdout)
		}
		n := len(s.host.GPUs)
		if len(reqs) == 1 && reqs[0].Count != -1 {
			n = len(reqs[0].DeviceIDs)
		}
		var want []string
		for i := range n {
			want = append(want, strconv.Itoa(i))
		}
		if !slices.Equal(res.Addresses, want) {
			return ev, fmt.Errorf("%s: addresses %v, want %v for its device request", svc, res.Addresses, want)
		}
	}
	return append([]string{"discovery script prints Spark's JSON with one address per requested GPU"}, ev...), nil
}

// allocProject brings up two services sharing GPU 0 that each allocate
// what arg says and hold it.
func (s *suite) allocProject(name, arg string) (string, []string, error) {
	cmd := []string{"probe", "alloc", arg, holdSeconds}
	dir, err := s.project(name, service{name: "a", gpus: "[0]", command: cmd}, service{name: "b", gpus: "[0]", command: cmd})
	if err != nil {
		return "", nil, err
	}
	cfg := s.dv.run(dir, "config")
	upLine, err := s.up(dir)
	ev := []string{upLine, "devenv config:\n" + clip(strings.TrimSpace(cfg.Stdout), 2500)}
	return dir, ev, err
}

// waitAllocs waits until both services logged an allocation or a failure.
func (s *suite) waitAllocs(dir string) map[string]string {
	logs := map[string]string{}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		done := 0
		for _, svc := range []string{"a", "b"} {
			logs[svc] = strings.TrimSpace(s.dv.run(dir, "logs", svc).Stdout)
			if strings.Contains(logs[svc], "allocated") || strings.Contains(logs[svc], "CUDA error") {
				done++
			}
		}
		if done == 2 {
			break
		}
	}
	return logs
}

func (s *suite) checkSplit(st *state) ([]string, error) {
	if st.pick != "" {
		s.dv.run(st.pick, "down")
	}
	dir, ev, err := s.allocProject("split", "env:DEVENV_GPU_MEMORY_LIMIT_BYTES")
	if err != nil {
		return ev, err
	}
	st.split = dir
	logs := s.waitAllocs(dir)
	share, err := s.api.envInt(container(dir, "a"), "DEVENV_GPU_MEMORY_LIMIT_BYTES")
	ev = append(ev, fmt.Sprintf("a: DEVENV_GPU_MEMORY_LIMIT_BYTES=%d (%.2f GiB) in the container devenv created", share, float64(share)/(1<<30)),
		"a: "+logs["a"], "b: "+logs["b"])
	if err != nil {
		return ev, fmt.Errorf("devenv gave the sharing services no memory limit: %w", err)
	}
	if share <= 0 {
		return ev, errors.New("devenv gave the sharing services no memory limit")
	}
	for _, svc := range []string{"a", "b"} {
		if !strings.Contains(logs[svc], "allocated "+strconv.FormatInt(share, 10)+" bytes") {
			return ev, fmt.Errorf("%s did not allocate its share of %d bytes: %s", svc, share, logs[svc])
		}
		if strings.Contains(logs[svc], "released") {
			return ev, fmt.Errorf("%s released before both held their share: not at the same time", svc)
		}
	}
	return append([]string{fmt.Sprintf("a and b each hold their %.1f GiB share of GPU 0 at the same time", float64(share)/(1<<30))}, ev...), nil
}

// topSample is the part of `devenv top --once --json` the checks read.
type topSample struct {
	GPUs []struct {
		Index     int
		UUID      string
		Processes []struct {
			PID                         int
			UsedMemory                  uint64 `json:"used_memory"`
			Container, Project, Service string
		}
	}
}

func (s *suite) top(dir string) (topSample, string, error) {
	var t topSample
	r, err := s.dv.jsonOut(dir, &t, "top", "--once")
	return t, strings.TrimSpace(r.Stdout), err
}

func (s *suite) checkTop(st *state) ([]string, error) {
	if err := need(st.split, "split"); err != nil {
		return nil, err
	}
	t, raw, err := s.top(st.split)
	ev := []string{"devenv top --once --json: " + clip(raw, 1500)}
	if err != nil {
		return ev, err
	}
	if apps, err := s.hostComputeApps(); err == nil {
		ev = append(ev, "host nvidia-smi compute apps:\n"+apps)
	}
	found := map[string]string{}
	for _, g := range t.GPUs {
		for _, p := range g.Processes {
			if p.Project == "gpue2e-split" {
				name := container(st.split, p.Service)
				id, err := s.api.containerID(name)
				if err != nil {
					return ev, err
				}
				found[p.Service] = fmt.Sprintf("pid %d in container %s (%s) on GPU %d, %d MiB", p.PID, p.Container, name, g.Index, p.UsedMemory>>20)
				if p.Container == "" || !strings.HasPrefix(id, p.Container) {
					return ev, fmt.Errorf("process %d of %s mapped to container %q, but %s is %s", p.PID, p.Service, p.Container, name, id)
				}
			}
		}
	}
	if found["a"] == "" || found["b"] == "" {
		return ev, fmt.Errorf("top did not map both CUDA processes to their services: %v", found)
	}
	return append([]string{"a: " + found["a"] + "; b: " + found["b"]}, ev...), nil
}

func (s *suite) checkControl(st *state) ([]string, error) {
	if st.split != "" {
		s.dv.run(st.split, "down")
	}
	// Both size the default pool from the free memory before either starts,
	// as two executors starting together would.
	var h struct {
		GPUs []struct {
			MemoryFree uint64 `json:"memory_free"`
		}
	}
	if _, err := s.dv.jsonOut(s.work, &h, "gpus"); err != nil {
		return nil, fmt.Errorf("reading GPU 0's free memory: %w", err)
	}
	if len(h.GPUs) == 0 {
		return nil, errors.New("reading GPU 0's free memory: devenv gpus listed no GPU")
	}
	pool := uint64(defaultAllocFraction * float64(h.GPUs[0].MemoryFree-defaultReserve))
	dir, ev, err := s.allocProject("control", strconv.FormatUint(pool, 10))
	if err != nil {
		return ev, err
	}
	st.control = dir
	logs := s.waitAllocs(dir)
	ev = append(ev, fmt.Sprintf("each asks for the RAPIDS Accelerator's default pool: allocFraction %.1f x (%d free - %d reserve) = %d bytes",
		defaultAllocFraction, h.GPUs[0].MemoryFree, defaultReserve, pool), "a: "+logs["a"], "b: "+logs["b"])
	var ok, oom []string
	for _, svc := range []string{"a", "b"} {
		switch {
		case strings.Contains(logs[svc], "CUDA_ERROR_OUT_OF_MEMORY"):
			oom = append(oom, svc)
		case strings.Contains(logs[svc], "allocated"):
			ok = append(ok, svc)
		}
	}
	if len(oom) == 0 || len(ok) == 2 {
		return ev, fmt.Errorf("want a CUDA out-of-memory error, got allocated %v, out of memory %v", ok, oom)
	}
	st.oomService = oom[0]
	return append([]string{fmt.Sprintf("both default pools do not fit: allocated %v, CUDA_ERROR_OUT_OF_MEMORY in %v", ok, oom)}, ev...), nil
}

func (s *suite) checkDiagnose(st *state) ([]string, error) {
	if st.oomService == "" {
		return nil, fmt.Errorf("no out-of-memory failure from the control check to diagnose")
	}
	r := s.dv.run(st.control, "logs", "--diagnose", st.oomService)
	ev := []string{fmt.Sprintf("devenv logs --diagnose %s: exit %d:\n%s", st.oomService, r.Code, clip(r.out(), 1500))}
	if !strings.Contains(r.out(), "ran out of memory") {
		return ev, fmt.Errorf("--diagnose did not name the GPU out-of-memory failure")
	}
	return append([]string{"logs --diagnose names the GPU out-of-memory failure"}, ev...), nil
}

func (s *suite) checkDown() ([]string, error) {
	// A service holding GPU memory, so that down has a process to end.
	dir, err := s.project("last", service{name: "holder", gpus: "1", command: []string{"probe", "alloc", "1073741824", "300"}})
	if err != nil {
		return nil, err
	}
	upLine, err := s.up(dir)
	if err != nil {
		return nil, err
	}
	ev := []string{upLine}
	var running []string
	for deadline := time.Now().Add(30 * time.Second); len(running) == 0 && time.Now().Before(deadline); time.Sleep(time.Second) {
		before, _, err := s.top(dir)
		if err != nil {
			return ev, err
		}
		running = processes(before)
	}
	ev = append(ev, fmt.Sprintf("before down: %d GPU process(es): %s", len(running), strings.Join(running, "; ")))
	if len(running) == 0 {
		return ev, fmt.Errorf("no GPU process was running before down, so down has nothing to prove")
	}
	for _, dir := range s.projects {
		r := s.dv.run(dir, "down")
		ev = append(ev, fmt.Sprintf("down %s: exit %d %s", dir[strings.LastIndex(dir, "/")+1:], r.Code, clip(strings.TrimSpace(r.out()), 200)))
	}
	var left []string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(time.Second) {
		t, raw, err := s.top(s.projects[0])
		if err != nil {
			return ev, err
		}
		left = processes(t)
		if len(left) == 0 || time.Now().After(deadline) {
			ev = append(ev, "devenv top --once --json: "+clip(raw, 800))
			break
		}
	}
	apps, err := s.hostComputeApps()
	if err == nil {
		ev = append(ev, fmt.Sprintf("host nvidia-smi compute apps: %q", apps))
	}
	if len(left) > 0 || apps != "" {
		return ev, fmt.Errorf("GPU processes left after down: %v %s", left, apps)
	}
	return append([]string{"no GPU process left on any GPU after down (NVML and nvidia-smi)"}, ev...), nil
}

// processes lists every GPU process top saw, with its project and service.
func processes(t topSample) []string {
	var out []string
	for _, g := range t.GPUs {
		for _, p := range g.Processes {
			out = append(out, fmt.Sprintf("pid %d (%s/%s) on GPU %d", p.PID, p.Project, p.Service, g.Index))
		}
	}
	return out
}

// checkDefaults: an unpinned triton service and a `rapids: 26.08` one
// resolve, on this machine, to versions its driver runs, and config says
// by which rule. On data-center GPUs (the H200) the data-center rule
// applies (the CUDA family floor: CUDA 13 on R580+), so triton must be the
// newest Triton in the catalog and rapids 26.08 its CUDA 13 image; on other
// GPUs the toolkit rule applies. (Locking them needs nvcr.io, which these
// machines cannot reach.)
func (s *suite) checkDefaults() ([]string, error) {
	dir := filepath.Join(s.work, "defaults")
	yaml := "name: gpue2e-defaults\nservices:\n  nb:\n    profile: rapids\n    rapids: \"26.08\"\n    gpus: 1\n  serve:\n    profile: triton\n    gpus: 1\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte(yaml), 0o644); err != nil {
		return nil, err
	}
	var cfg struct {
		Services []struct {
			Name     string
			Resolved struct {
				Release, CUDA string
				Requires      struct {
					MinDriver string `json:"min_driver"`
				}
				Notes []string
			}
		}
	}
	if _, err := s.dv.jsonOut(dir, &cfg, "config"); err != nil {
		return nil, err
	}
	if len(cfg.Services) != 2 {
		return nil, fmt.Errorf("config listed %d services, want 2", len(cfg.Services))
	}
	dataCenter := s.dataCenter()
	newest, err := profiles.Builtin().Resolve(profiles.Request{Profile: profiles.Triton}, nil)
	if err != nil {
		return nil, err
	}
	wantRule := "by the toolkit rule"
	if dataCenter {
		wantRule = "by the data-center rule"
	}
	var ev []string
	for _, sc := range cfg.Services {
		r := sc.Resolved
		rule := ""
		for _, n := range r.Notes {
			if strings.HasPrefix(n, profiles.DriverRuleNote) {
				rule = n
			}
		}
		ev = append(ev, fmt.Sprintf("%s: release %s, CUDA %s, needs driver %s; %s", sc.Name, r.Release, r.CUDA, r.Requires.MinDriver, rule))
		if r.Requires.MinDriver == "" || newerVersion(r.Requires.MinDriver, s.host.DriverVersion) {
			return ev, fmt.Errorf("%s resolved to CUDA %s, which needs driver %s; this machine has %s", sc.Name, r.CUDA, r.Requires.MinDriver, s.host.DriverVersion)
		}
		if !strings.Contains(rule, "read through NVML") || !strings.Contains(rule, wantRule) {
			return ev, fmt.Errorf("%s: config's notes do not say the machine's driver chose its versions %s", sc.Name, wantRule)
		}
		if !dataCenter {
			continue
		}
		switch {
		case sc.Name == "serve" && r.Release != newest.Release:
			return ev, fmt.Errorf("triton resolved to %s on data-center GPUs with driver %s; want the newest in the catalog, %s", r.Release, s.host.DriverVersion, newest.Release)
		case sc.Name == "nb" && !strings.HasPrefix(r.CUDA, "13."):
			return ev, fmt.Errorf("rapids 26.08 resolved to CUDA %s on data-center GPUs with driver %s; want its CUDA 13 image", r.CUDA, s.host.DriverVersion)
		}
	}
	head := "unpinned triton and rapids 26.08 resolve to versions driver " + s.host.DriverVersion + " runs, " + wantRule
	if dataCenter {
		head += ": triton " + newest.Release + " (the catalog's newest), rapids 26.08 on CUDA 13"
	}
	return append([]string{head}, ev...), nil
}

// dataCenter reports whether every GPU of the host is a data-center one,
// by NVML's brand or product name, as devenv decides it.
func (s *suite) dataCenter() bool {
	models := make([]profiles.GPUModel, 0, len(s.host.GPUs))
	for _, g := range s.host.GPUs {
		models = append(models, profiles.GPUModel{Brand: g.Brand, Name: g.Name})
	}
	return profiles.AllDataCenter(models)
}

// newerVersion reports whether dotted version a is newer than b.
func newerVersion(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}
