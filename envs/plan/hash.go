package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
)

// devenv's config hash (labels.ConfigHash) of a service is the sha256 of
// the service written in one fixed form, then its generated files and
// the content hash of its image's inputs. The form is frozen: it is the
// JSON that devenv's own container type had when the hash was first
// recorded, read here from the compose-go service the plan renders, so
// that an upgrade of devenv recreates no container whose service did not
// change (TestUpgradeKeepsHashes in compose/project holds the recorded
// hashes). A field added to the form changes every hash; add one only
// with a reason worth a recreate.

// hashForm is the frozen form. Field names, order and types are the
// hash's: do not rename or reorder them.
type hashForm struct {
	Name         string
	Image        string
	Labels       map[string]string // always nil: labels are not hashed
	Env          []string
	Cmd          []string
	Entrypoint   []string
	WorkingDir   string
	User         string
	Hostname     string
	Ports        []hashPort
	Mounts       []hashMount
	Network      string
	Aliases      []string
	GPU          *hashGPU
	Healthcheck  *hashHealth
	MemoryBytes  int64
	ShmSizeBytes int64
	Init         bool
	PidMode      string `json:",omitempty"`
	Tty          bool
	OpenStdin    bool
	Files        []hashFile `json:",omitempty"`
	// compose files' keys, which devenv's own services never set
	Restart    string       `json:",omitempty"`
	Ulimits    []hashUlimit `json:",omitempty"`
	ExtraHosts []string     `json:",omitempty"`
	Expose     []string     `json:",omitempty"`
	Runtime    string       `json:",omitempty"`
	IpcMode    string       `json:",omitempty"`
}

type hashUlimit struct {
	Name   string
	Soft   int64
	Hard   int64
	Single bool `json:",omitempty"`
}

type hashPort struct {
	HostIP        string
	HostPort      int
	ContainerPort int
	Protocol      string
}

type hashMount struct {
	Type     string
	Source   string
	Target   string
	ReadOnly bool
}

type hashGPU struct {
	All          bool
	Count        int
	DeviceIDs    []string
	Capabilities []string
	Driver       string
	Options      map[string]string
}

type hashHealth struct {
	Test        []string
	Interval    time.Duration
	Timeout     time.Duration
	StartPeriod time.Duration
	Retries     int
}

type hashFile struct {
	Path string
	Mode fs.FileMode
	Data []byte
}

// serviceHash is the config hash of svc, a devenv service of project on
// network, with the files its container gets, its generated files and
// its image's input hash.
func serviceHash(project, network string, svc types.ServiceConfig, files []File, generated map[string][]byte, imageInputs string) string {
	return hashOf(formOf(project, network, svc, files), generated, imageInputs)
}

// formOf writes svc in the frozen form.
func formOf(project, network string, svc types.ServiceConfig, files []File) hashForm {
	f := hashForm{Name: svc.ContainerName, Image: svc.Image, Env: envOf(svc.Environment), Cmd: []string(svc.Command),
		Entrypoint: []string(svc.Entrypoint), WorkingDir: svc.WorkingDir, User: svc.User, Hostname: svc.Hostname,
		MemoryBytes: int64(svc.MemLimit), ShmSizeBytes: int64(svc.ShmSize), Init: svc.Init != nil && *svc.Init,
		Tty: svc.Tty, OpenStdin: svc.StdinOpen, GPU: gpuForm(svc), Healthcheck: healthForm(svc.HealthCheck)}
	if len(f.Cmd) == 0 {
		f.Cmd = nil
	}
	if len(f.Entrypoint) == 0 {
		f.Entrypoint = nil
	}
	for _, p := range svc.Ports {
		host, _ := strconv.Atoi(p.Published)
		f.Ports = append(f.Ports, hashPort{HostIP: p.HostIP, HostPort: host, ContainerPort: int(p.Target), Protocol: p.Protocol})
	}
	for _, v := range svc.Volumes {
		src := v.Source
		if v.Type == types.VolumeTypeVolume {
			src = VolumeName(project, v.Source)
		}
		f.Mounts = append(f.Mounts, hashMount{Type: v.Type, Source: src, Target: v.Target, ReadOnly: v.ReadOnly})
	}
	if n, ok := svc.Networks[DefaultNetworkKey]; ok {
		f.Network = network
		if n != nil {
			f.Aliases = slices.Clone(n.Aliases)
		}
	}
	for _, file := range files {
		f.Files = append(f.Files, hashFile(file))
	}
	return f
}

// envOf is the environment as KEY=value lines in key order (a variable
// without a value as KEY); none is an empty list, never null.
func envOf(env types.MappingWithEquals) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if v := env[k]; v != nil {
			out = append(out, k+"="+*v)
		} else {
			out = append(out, k)
		}
	}
	return out
}

func gpuForm(svc types.ServiceConfig) *hashGPU {
	d := compose.GPURequest(svc)
	if d == nil {
		return nil
	}
	g := &hashGPU{All: d.Count == -1, DeviceIDs: slices.Clone(d.IDs), Driver: d.Driver}
	if !g.All {
		g.Count = int(d.Count)
	}
	for _, c := range d.Capabilities {
		if c != "gpu" {
			g.Capabilities = append(g.Capabilities, c)
		}
	}
	if len(d.Options) > 0 {
		g.Options = map[string]string(d.Options)
	}
	return g
}

func healthForm(h *types.HealthCheckConfig) *hashHealth {
	if h == nil {
		return nil
	}
	out := &hashHealth{Test: []string(h.Test), Interval: durationOf(h.Interval), Timeout: durationOf(h.Timeout),
		StartPeriod: durationOf(h.StartPeriod)}
	if h.Retries != nil {
		out.Retries = int(*h.Retries)
	}
	return out
}

func durationOf(d *types.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(*d)
}

// hashOf is the config hash of a service's frozen form and its generated files.
func hashOf(form any, generated map[string][]byte, imageInputs string) string {
	h := sha256.New()
	b, _ := json.Marshal(form)
	h.Write(b)
	names := make([]string, 0, len(generated))
	for n := range generated {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", n, len(generated[n]))
		h.Write(generated[n])
	}
	h.Write([]byte(imageInputs))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// composeForm writes a compose file's service in the frozen form, as the
// loader of earlier devenvs translated it: the environment without unset
// variables, ports on 127.0.0.1 where no address is written, only binds
// and named volumes (named by volumeName), the memory limit of deploy
// over mem_limit, restart "no" as the default, ulimits and extra hosts in
// order; name, image, GPU request, network and alias as the plan gives
// them.
func composeForm(s types.ServiceConfig, name, image, network string, gpu *hashGPU, volumeName func(key string) string) hashForm {
	f := hashForm{Name: name, Image: image, Env: composeEnv(s.Environment), Cmd: []string(s.Command), Entrypoint: []string(s.Entrypoint),
		WorkingDir: s.WorkingDir, User: s.User, Hostname: s.Hostname, Network: network, Aliases: []string{s.Name}, GPU: gpu,
		Healthcheck: composeHealth(s.HealthCheck), MemoryBytes: composeMemory(s), ShmSizeBytes: int64(s.ShmSize),
		Init: s.Init != nil && *s.Init, Tty: s.Tty, OpenStdin: s.StdinOpen, Runtime: s.Runtime, IpcMode: s.Ipc}
	for _, p := range s.Ports {
		host, _ := strconv.Atoi(p.Published) // the loader refused a range
		ip := p.HostIP
		if ip == "" {
			ip = compose.DefaultHostIP
		}
		f.Ports = append(f.Ports, hashPort{HostIP: ip, HostPort: host, ContainerPort: int(p.Target), Protocol: p.Protocol})
	}
	for _, v := range s.Volumes {
		switch {
		case v.Type == types.VolumeTypeBind:
			f.Mounts = append(f.Mounts, hashMount{Type: v.Type, Source: v.Source, Target: v.Target, ReadOnly: v.ReadOnly})
		case v.Type == types.VolumeTypeVolume && v.Source != "":
			f.Mounts = append(f.Mounts, hashMount{Type: v.Type, Source: volumeName(v.Source), Target: v.Target, ReadOnly: v.ReadOnly})
		}
	}
	if s.Restart != "no" {
		f.Restart = s.Restart
	}
	f.Ulimits = composeUlimits(s.Ulimits)
	if len(s.ExtraHosts) > 0 {
		f.ExtraHosts = s.ExtraHosts.AsList(":")
		sort.Strings(f.ExtraHosts)
	}
	if len(s.Expose) > 0 {
		f.Expose = append([]string(nil), s.Expose...)
	}
	return f
}

// composeEnv is the environment as sorted KEY=value, unset variables left
// out as Compose leaves them out; none is null.
func composeEnv(env types.MappingWithEquals) []string {
	var out []string
	for k, v := range env {
		if v != nil {
			out = append(out, k+"="+*v)
		}
	}
	sort.Strings(out)
	return out
}

func composeHealth(h *types.HealthCheckConfig) *hashHealth {
	if h == nil {
		return nil
	}
	if h.Disable || (len(h.Test) > 0 && h.Test[0] == "NONE") {
		return &hashHealth{Test: []string{"NONE"}}
	}
	return healthForm(h)
}

// composeMemory is mem_limit, or deploy.resources.limits.memory when set.
func composeMemory(s types.ServiceConfig) int64 {
	if s.Deploy != nil && s.Deploy.Resources.Limits != nil && s.Deploy.Resources.Limits.MemoryBytes > 0 {
		return int64(s.Deploy.Resources.Limits.MemoryBytes)
	}
	return int64(s.MemLimit)
}

func composeUlimits(in map[string]*types.UlimitsConfig) []hashUlimit {
	names := make([]string, 0, len(in))
	for n := range in {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []hashUlimit
	for _, n := range names {
		u := in[n]
		switch {
		case u == nil:
		case u.Single != 0:
			out = append(out, hashUlimit{Name: n, Soft: int64(u.Single), Hard: int64(u.Single), Single: true})
		default:
			out = append(out, hashUlimit{Name: n, Soft: int64(u.Soft), Hard: int64(u.Hard)})
		}
	}
	return out
}
