package export

import (
	"bytes"
	"fmt"
	"net"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/projpath"
	"gopkg.in/yaml.v3"
)

// ComposeFileName is the file `devenv export compose -o` suggests and the
// devcontainer export points at.
const ComposeFileName = "compose.devenv.yaml"

type composeService struct {
	Image       string                   `yaml:"image,omitempty"`
	Build       *composeBuild            `yaml:"build,omitempty"`
	PullPolicy  string                   `yaml:"pull_policy,omitempty"`
	Hostname    string                   `yaml:"hostname,omitempty"`
	Entrypoint  []string                 `yaml:"entrypoint,omitempty"`
	Command     []string                 `yaml:"command,omitempty"`
	WorkingDir  string                   `yaml:"working_dir,omitempty"`
	User        string                   `yaml:"user,omitempty"`
	EnvFile     []string                 `yaml:"env_file,omitempty"`
	Environment map[string]string        `yaml:"environment,omitempty"`
	Ports       []string                 `yaml:"ports,omitempty"`
	Volumes     []composeVolume          `yaml:"volumes,omitempty"`
	Configs     []composeConfigRef       `yaml:"configs,omitempty"`
	Healthcheck *composeHealth           `yaml:"healthcheck,omitempty"`
	DependsOn   map[string]composeDepend `yaml:"depends_on,omitempty"`
	Deploy      *composeDeploy           `yaml:"deploy,omitempty"`
	MemLimit    int64                    `yaml:"mem_limit,omitempty"`
	ShmSize     int64                    `yaml:"shm_size,omitempty"`
	Init        bool                     `yaml:"init,omitempty"`
	Tty         bool                     `yaml:"tty,omitempty"`
	StdinOpen   bool                     `yaml:"stdin_open,omitempty"`
	Restart     string                   `yaml:"restart,omitempty"`
	Ulimits     map[string]any           `yaml:"ulimits,omitempty"`
	ExtraHosts  []string                 `yaml:"extra_hosts,omitempty"`
	Expose      []string                 `yaml:"expose,omitempty"`
	Runtime     string                   `yaml:"runtime,omitempty"`
	Ipc         string                   `yaml:"ipc,omitempty"`
}

type composeBuild struct {
	Context    string            `yaml:"context"`
	Dockerfile string            `yaml:"dockerfile,omitempty"`
	Args       map[string]string `yaml:"args,omitempty"`
}

type composeVolume struct {
	Type     string `yaml:"type"`
	Source   string `yaml:"source"`
	Target   string `yaml:"target"`
	ReadOnly bool   `yaml:"read_only,omitempty"`
}

// composeConfigRef puts a top-level config into a service's container.
// No mode, uid or gid: compose's default mode 0444 lets the container's
// user read it whoever that is, and uid or gid would make compose ask the
// engine to chown to the container's user, which engines before moby's fix
// of moby/moby#34142 (Docker 20.10) look up on the host, failing for a
// user only the image has (devenv).
type composeConfigRef struct {
	Source string `yaml:"source"`
	Target string `yaml:"target"`
}

type composeHealth struct {
	Test        []string `yaml:"test,omitempty"`
	Interval    string   `yaml:"interval,omitempty"`
	Timeout     string   `yaml:"timeout,omitempty"`
	Retries     int      `yaml:"retries,omitempty"`
	StartPeriod string   `yaml:"start_period,omitempty"`
	Disable     bool     `yaml:"disable,omitempty"`
}

type composeDepend struct {
	Condition string `yaml:"condition"`
}

type composeDeploy struct {
	Resources struct {
		Reservations struct {
			Devices []composeDevice `yaml:"devices"`
		} `yaml:"reservations"`
	} `yaml:"resources"`
}

type composeDevice struct {
	Driver       string   `yaml:"driver"`
	Count        any      `yaml:"count,omitempty"` // "all" or a number
	DeviceIDs    []string `yaml:"device_ids,omitempty"`
	Capabilities []string `yaml:"capabilities"`
}

// Compose renders the whole environment as a compose file that `docker
// compose up` (run in the project directory) runs as devenv up would: same
// images (by digest when lf is the project's lock), GPU reservations, ports
// with their host addresses, mounts, environment, healthchecks, commands,
// dependencies and labels. Paths are relative to the project directory.
// Images devenv builds keep devenv's content-hash tag with pull_policy:
// never and a comment to run `devenv build` first.
func Compose(pl *plan.Plan, lf *lock.File) ([]byte, error) {
	es, err := entries(pl)
	if err != nil {
		return nil, err
	}
	dir := projectDir(pl)
	configs, refs := fileConfigs(es)
	services := &yaml.Node{Kind: yaml.MappingNode}
	for _, e := range es {
		cs := composeServiceOf(e, dir)
		cs.Configs = refs[e.name]
		var val yaml.Node
		if err := val.Encode(cs); err != nil {
			return nil, fmt.Errorf("service %q: %w", e.name, err)
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Value: e.name, HeadComment: serviceComment(e, lf != nil)}
		services.Content = append(services.Content, key, &val)
	}
	root := &yaml.Node{Kind: yaml.MappingNode, HeadComment: composeHeader(pl, lf)}
	add := func(k string, v *yaml.Node) {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
	// No top-level name: docker-compose 1.x refuses it; the header says to
	// pass -p instead, and networks and volumes carry explicit names.
	add("services", services)
	add("networks", mapping("default", mapping("name", scalar(pl.Network))))
	if vols := volumes(es); len(vols) > 0 {
		vn := &yaml.Node{Kind: yaml.MappingNode}
		for _, v := range vols {
			vn.Content = append(vn.Content, scalar(v), mapping("name", scalar(v)))
		}
		add("volumes", vn)
	}
	if len(configs) > 0 {
		cn := &yaml.Node{Kind: yaml.MappingNode}
		for _, c := range configs {
			content := &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: esc(string(c.data))}
			cn.Content = append(cn.Content, scalar(c.name), mapping("content", content))
		}
		add("configs", cn)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func mapping(k string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar(k), v}}
}

func projectDir(pl *plan.Plan) string {
	if pl.Project0 != nil {
		return pl.Project0.Dir
	}
	return ""
}

func composeHeader(pl *plan.Plan, lf *lock.File) string {
	return strings.Join([]string{
		fmt.Sprintf("Generated by `devenv export compose` for project %s; edit devenv.yaml and export again rather than editing this file.", pl.Project),
		pinnedHeader(lf),
		fmt.Sprintf("Run it from the project directory: docker compose -p %s -f <this file> up -d", pl.Project),
		"Paths are relative to the project directory: keep this file there, or run docker compose with --project-directory.",
		"Generated files (spark-defaults.conf) are carried under configs: and copied into the containers, readable there by their user (Docker Compose 2.23 or later); .devenv/generated/<service>/ keeps a copy only you can read.",
		"The containers belong to docker compose, not to devenv: devenv ps, logs and down do not see them; stop them with docker compose down.",
	}, "\n")
}

func serviceComment(e entry, pinned bool) string {
	var lines []string
	if c := imageComment(e, pinned); c != "" {
		lines = append(lines, c)
	}
	if e.onCPU != "" {
		lines = append(lines, fmt.Sprintf("%s runs on the CPU in this file: %s.", e.name, e.onCPU))
	}
	return strings.Join(lines, "\n")
}

func imageComment(e entry, pinned bool) string {
	switch {
	case e.built && !pinned:
		return fmt.Sprintf("%s is built by devenv once the project is locked: run `devenv lock`, `devenv build %s` and export again.", e.image, e.name)
	case e.built:
		return fmt.Sprintf("%s is built by devenv: run `devenv build %s` first (docker compose cannot build it).", e.image, e.name)
	case e.localID != "":
		return fmt.Sprintf("from %s; %s exists on this machine only (devenv.lock pins it by image ID %s): build or load it before docker compose up.", filepath.Base(e.fromFile), e.image, e.localID)
	case e.fromFile != "":
		return "from " + filepath.Base(e.fromFile)
	}
	return ""
}

func composeServiceOf(e entry, dir string) composeService {
	c := e.c
	s := composeService{
		Image:       esc(e.image),
		Hostname:    esc(c.Hostname),
		Entrypoint:  escAll(c.Entrypoint),
		Command:     escAll(c.Cmd),
		WorkingDir:  esc(c.WorkingDir),
		User:        esc(c.User),
		EnvFile:     envFiles(e.envFiles, dir),
		Environment: withSecretRefs(e.exportEnv()),
		Ports:       composePorts(c.Ports),
		Volumes:     composeVolumes(c.Mounts, dir),
		Healthcheck: composeHealthOf(c.Healthcheck),
		Deploy:      composeGPU(c.GPU),
		MemLimit:    c.MemoryBytes,
		ShmSize:     c.ShmSizeBytes,
		Init:        c.Init,
		Tty:         c.Tty,
		StdinOpen:   c.OpenStdin,
		Restart:     c.Restart,
		Ulimits:     composeUlimits(c.Ulimits),
		ExtraHosts:  escAll(c.ExtraHosts),
		Expose:      c.Expose,
		Runtime:     c.Runtime,
		Ipc:         c.IpcMode,
	}
	if e.built || e.localID != "" {
		s.PullPolicy = "never"
	}
	if e.build != nil {
		s.Build = &composeBuild{Context: relPath(e.build.Context, dir), Dockerfile: esc(e.build.Dockerfile), Args: escMap(e.build.Args)}
	}
	if len(e.deps) > 0 {
		s.DependsOn = map[string]composeDepend{}
		for _, d := range e.deps {
			cond := "service_started"
			if e.healthy[d] {
				cond = "service_healthy"
			}
			s.DependsOn[d] = composeDepend{Condition: cond}
		}
	}
	return s
}

// fileConfig is a file devenv copies into containers, as a top-level
// compose config carrying its content.
type fileConfig struct {
	name string
	data []byte
}

// fileConfigs names each distinct file the entries' containers get (a
// standalone master and its workers share one config) and returns each
// entry's references to them.
func fileConfigs(es []entry) ([]fileConfig, map[string][]composeConfigRef) {
	var out []fileConfig
	refs := map[string][]composeConfigRef{}
	byFile := map[string]string{} // path and content -> config name
	taken := map[string]bool{}
	for _, e := range es {
		for _, f := range e.c.Files {
			key := f.Path + "\x00" + string(f.Data)
			name, ok := byFile[key]
			if !ok {
				name = e.name + "-" + path.Base(f.Path)
				for i := 2; taken[name]; i++ {
					name = fmt.Sprintf("%s-%s-%d", e.name, path.Base(f.Path), i)
				}
				taken[name], byFile[key] = true, name
				out = append(out, fileConfig{name: name, data: f.Data})
			}
			refs[e.name] = append(refs[e.name], composeConfigRef{Source: name, Target: esc(f.Path)})
		}
	}
	return out, refs
}

// envFiles are the env_file paths, project-relative where they can be.
func envFiles(files []string, dir string) []string {
	var out []string
	for _, f := range files {
		out = append(out, relPath(f, dir))
	}
	return out
}

// composePorts writes short syntax ("127.0.0.1:8888:8888/tcp"), which every
// compose implementation reads.
func composePorts(ps []engine.PortBinding) []string {
	var out []string
	for _, p := range ps {
		proto := p.Protocol
		if proto == "" {
			proto = "tcp"
		}
		host := ""
		if p.HostPort != 0 {
			host = strconv.Itoa(p.HostPort)
		}
		ip := p.HostIP
		if ip != "" && net.ParseIP(ip) != nil && net.ParseIP(ip).To4() == nil {
			ip = "[" + ip + "]"
		}
		spec := fmt.Sprintf("%s:%d/%s", host, p.ContainerPort, proto)
		if ip != "" {
			spec = ip + ":" + spec
		} else if host == "" {
			spec = fmt.Sprintf("%d/%s", p.ContainerPort, proto)
		}
		out = append(out, spec)
	}
	return out
}

func composeVolumes(ms []engine.Mount, dir string) []composeVolume {
	var out []composeVolume
	for _, m := range ms {
		src := m.Source
		if m.Type == engine.MountBind {
			src = relPath(src, dir)
		}
		out = append(out, composeVolume{Type: m.Type, Source: esc(src), Target: esc(m.Target), ReadOnly: m.ReadOnly})
	}
	return out
}

// relPath writes a path inside the project directory as ./relative.
func relPath(p, dir string) string {
	if dir == "" {
		return esc(p)
	}
	r, ok := projpath.Within(dir, p)
	if !ok {
		return esc(p)
	}
	if r == "." {
		return "."
	}
	return esc("./" + r)
}

func composeHealthOf(h *engine.Healthcheck) *composeHealth {
	if h == nil {
		return nil
	}
	if disabled(h) {
		return &composeHealth{Disable: true}
	}
	return &composeHealth{Test: escAll(h.Test), Interval: durString(h.Interval), Timeout: durString(h.Timeout),
		Retries: h.Retries, StartPeriod: durString(h.StartPeriod)}
}

func durString(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

func composeGPU(g *engine.GPURequest) *composeDeploy {
	if g == nil {
		return nil
	}
	driver := g.Driver
	if driver == "" {
		driver = "nvidia"
	}
	dev := composeDevice{Driver: driver, Capabilities: append([]string{"gpu"}, g.Capabilities...)}
	switch {
	case g.All:
		dev.Count = "all"
	case len(g.DeviceIDs) > 0:
		dev.DeviceIDs = g.DeviceIDs
	default:
		dev.Count = g.Count
	}
	d := &composeDeploy{}
	d.Resources.Reservations.Devices = []composeDevice{dev}
	return d
}

// esc keeps compose from interpolating: $ is written $$.
func esc(s string) string { return strings.ReplaceAll(s, "$", "$$") }

func escAll(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = esc(s)
	}
	return out
}

func escMap(in map[string]string) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = esc(v)
	}
	return out
}

// secretEnv are variables whose values devenv keeps out of files: the
// export refers to the environment instead, and compose refuses to start
// until they are set.
var secretEnv = map[string]string{
	"JUPYTER_TOKEN": "set JUPYTER_TOKEN, e.g. export JUPYTER_TOKEN=$$(cat .devenv/jupyter-token)",
}

func withSecretRefs(env map[string]string) map[string]string {
	for k, msg := range secretEnv {
		if _, ok := env[k]; ok {
			env[k] = "${" + k + ":?" + msg + "}"
		}
	}
	return env
}

// composeUlimits writes ulimits as the compose file did: one number, or
// soft and hard.
func composeUlimits(us []engine.Ulimit) map[string]any {
	if len(us) == 0 {
		return nil
	}
	out := map[string]any{}
	for _, u := range us {
		if u.Single {
			out[u.Name] = u.Soft
			continue
		}
		out[u.Name] = map[string]int64{"soft": u.Soft, "hard": u.Hard}
	}
	return out
}
