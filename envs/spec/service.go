package spec

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// svcNodes is a service being decoded, with the nodes that later checks
// point their errors at.
type svcNodes struct {
	s        *Service
	what     string       // `service "spark"`
	deps     []*yaml.Node // depends_on items
	ports    []*yaml.Node // ports items, parallel to s.Ports
	volumes  []*yaml.Node // volumes items, parallel to s.Volumes
	profile  *yaml.Node
	fileKeys map[string]*yaml.Node // values of keys naming project files
}

// version keys share one handler.
func versionKey(dst func(*Service) *string) handler[*svcNodes] {
	return func(d *decoder, t *svcNodes, f field) {
		v, ok := d.scalar(f.val, f.name)
		if !ok {
			return
		}
		if msg, hint := checkVersion(f.name, v); msg != "" {
			d.errAt(f.val, hint, "%s in %s", msg, t.what)
			return
		}
		*dst(t.s) = v
	}
}

// stringKey stores a plain string.
func stringKey(dst func(*Service) *string) handler[*svcNodes] {
	return func(d *decoder, t *svcNodes, f field) {
		if v, ok := d.str(f, f.name); ok {
			*dst(t.s) = v
		}
	}
}

// fileKey stores a project file's path; its existence is checked later.
func fileKey(dst func(*Service) *string) handler[*svcNodes] {
	return func(d *decoder, t *svcNodes, f field) {
		if v, ok := d.str(f, f.name); ok {
			*dst(t.s) = v
			t.fileKeys[f.name] = f.val
		}
	}
}

var serviceKeys = map[string]handler[*svcNodes]{
	"profile":       decodeProfileKey,
	"spark":         versionKey(func(s *Service) *string { return &s.Spark }),
	"rapids":        versionKey(func(s *Service) *string { return &s.Rapids }),
	"scala":         versionKey(func(s *Service) *string { return &s.Scala }),
	"java":          versionKey(func(s *Service) *string { return &s.Java }),
	"python":        versionKey(func(s *Service) *string { return &s.Python }),
	"cuda":          versionKey(func(s *Service) *string { return &s.CUDA }),
	"release":       versionKey(func(s *Service) *string { return &s.Release }),
	"image":         decodeImage,
	"build":         fileKey(func(s *Service) *string { return &s.Build }),
	"env_file":      fileKey(func(s *Service) *string { return &s.EnvFile }),
	"requirements":  fileKey(func(s *Service) *string { return &s.Requirements }),
	"mirror":        fileKey(func(s *Service) *string { return &s.Mirror }),
	"mirror_format": decodeMirrorFormat,
	"gpus":          decodeGPUs,
	"gpu":           decodeGPUMode,
	"ports":         decodePorts,
	"volumes":       decodeVolumes,
	"env":           decodeEnv,
	"jars":          decodeJars,
	"conf":          func(d *decoder, t *svcNodes, f field) { t.s.Conf = d.confMap(f) },
	"depends_on":    decodeDependsOn,
	"command":       func(d *decoder, t *svcNodes, f field) { t.s.Command, _ = d.strList(f, "command") },
	"workers":       decodeWorkers,
	"jupyter":       decodeJupyter,
	"memory":        decodeMemory,
	"healthcheck":   decodeHealthcheck,
}

// decodeService reads one entry under services:.
func (d *decoder) decodeService(name string, key, val *yaml.Node) *svcNodes {
	t := &svcNodes{
		s:        &Service{Name: name, Pos: map[string]Pos{"": posOf(key)}},
		what:     fmt.Sprintf("service %q", name),
		fileKeys: map[string]*yaml.Node{},
	}
	if why := serviceNameProblem(name); why != "" {
		d.errAt(key, "use up to 63 letters, digits, '_', '.' and '-', starting and ending with a letter or digit, e.g. "+fmt.Sprintf("%q", suggestName(name)),
			"service name %q cannot name its container, host name and image: %s", name, why)
	}
	if isNull(val) {
		d.errAt(key, "add at least profile: spark-rapids (or rapids, triton, image)", "service %q is empty", name)
		return t
	}
	for _, f := range fields(d, val, t.what, serviceKeys, t) {
		t.s.Pos[f.name] = posOf(f.key)
	}
	return t
}

func decodeImage(d *decoder, t *svcNodes, f field) {
	if v, ok := d.str(f, "image"); ok && d.imageRef(f.val, "image", v) {
		t.s.Image = v
	}
}

func decodeProfileKey(d *decoder, t *svcNodes, f field) {
	if v, ok := d.str(f, "profile"); ok {
		t.s.Profile, t.profile = v, f.val
	}
}

func decodeGPUs(d *decoder, t *svcNodes, f field) {
	const want = "gpus must be all, a number or a list of GPU ids"
	g := GPUs{Set: true}
	n := f.val
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Value == "all":
		g.All = true
	case n.Kind == yaml.ScalarNode && n.Tag == "!!int":
		if err := n.Decode(&g.Count); err != nil || g.Count < 0 {
			d.errAt(n, "write 0 for no GPU", "gpus must not be negative, got %s", n.Value)
			return
		}
	case n.Kind == yaml.SequenceNode:
		g.IDs = d.gpuIDs(n, t.what)
	default:
		d.errAt(n, `e.g. gpus: all, gpus: 1 or gpus: [0, "GPU-8f3c..."]`, "%s, got %s", want, kindName(n))
		return
	}
	t.s.GPUs = g
}

func (d *decoder) gpuIDs(n *yaml.Node, what string) []string {
	seen := map[string]bool{}
	var ids []string
	for _, item := range n.Content {
		item = resolve(item)
		if item.Kind != yaml.ScalarNode || (item.Tag != "!!str" && item.Tag != "!!int") || !gpuIDRE().MatchString(item.Value) {
			d.errAt(item, "use an index from nvidia-smi -L, a GPU-... UUID or a MIG-... UUID", "%s is not a GPU id in gpus of %s", kindName(item), what)
			continue
		}
		if seen[item.Value] {
			d.errAt(item, "", "GPU %s is listed twice in gpus of %s", item.Value, what)
			continue
		}
		seen[item.Value] = true
		ids = append(ids, item.Value)
	}
	if len(n.Content) == 0 {
		d.errAt(n, "write gpus: 0 for no GPU", "gpus is an empty list in %s", what)
	}
	return ids
}

func decodeGPUMode(d *decoder, t *svcNodes, f field) {
	v, ok := d.str(f, "gpu")
	if !ok {
		return
	}
	if v != "required" && v != "optional" {
		d.errAt(f.val, "optional lets the service run on CPU where no GPU is found", "gpu must be required or optional, got %q", v)
		return
	}
	t.s.GPU = v
}

// MirrorFormats are the formats `mirror_format:` accepts: those of devenv
// mirror --format (internal/mirror.Formats, which a test holds equal).
var MirrorFormats = []string{"databricks", "emr", "emr-configurations", "dataproc", "spark-operator",
	"spark-defaults", "spark-submit", "eventlog", "tools-cluster"}

// decodeMirrorFormat reads mirror_format:, the format devenv mirror
// --format forced, so every later read of the source uses it too.
func decodeMirrorFormat(d *decoder, t *svcNodes, f field) {
	v, ok := d.str(f, "mirror_format")
	if !ok {
		return
	}
	if !slices.Contains(MirrorFormats, v) {
		d.errAt(f.val, "use one of "+strings.Join(MirrorFormats, ", ")+", or remove it to detect the format from the content",
			"mirror_format %q is not a format devenv mirror reads", v)
		return
	}
	t.s.MirrorFormat = v
}

func decodePorts(d *decoder, t *svcNodes, f field) {
	if f.val.Kind != yaml.SequenceNode {
		d.errAt(f.val, `e.g. ports: ["4040:4040", "8888"]`, "ports must be a list, got %s", kindName(f.val))
		return
	}
	for _, item := range f.val.Content {
		item = resolve(item)
		if item.Kind != yaml.ScalarNode || (item.Tag != "!!str" && item.Tag != "!!int") {
			d.errAt(item, `write "[ip:]host:container[/udp]" as a quoted string`, "each port must be a string or a number, got %s", kindName(item))
			continue
		}
		p, err := parsePort(item.Value)
		if err != nil {
			d.errAt(item, `write "[ip:]host:container[/udp]", e.g. "4040:4040" or "0.0.0.0:8080:80"`, "bad port %q in %s: %v", item.Value, t.what, err)
			continue
		}
		t.s.Ports = append(t.s.Ports, p)
		t.ports = append(t.ports, item)
	}
}

func decodeVolumes(d *decoder, t *svcNodes, f field) {
	items, nodes := d.strList(f, "volumes")
	targets := map[string]bool{}
	for i, s := range items {
		v, err := parseVolume(s)
		if err != nil {
			d.errAt(nodes[i], `e.g. "./data:/data:ro" or "cache:/root/.cache"`, "bad volume %q in %s: %v", s, t.what, err)
			continue
		}
		if r, ok := reservedTargets[v.Target]; ok {
			d.errAt(nodes[i], r.hint, "volume %q of %s mounts at %s, where devenv already mounts %s", s, t.what, v.Target, r.what)
			continue
		}
		if targets[v.Target] {
			d.errAt(nodes[i], "", "two volumes of %s mount at %s", t.what, v.Target)
			continue
		}
		targets[v.Target] = true
		t.s.Volumes = append(t.s.Volumes, v)
		t.volumes = append(t.volumes, nodes[i])
	}
}

func decodeEnv(d *decoder, t *svcNodes, f field) {
	t.s.Env = d.strMap(f, "env", d.checkEnvName)
}

func decodeJars(d *decoder, t *svcNodes, f field) {
	items, nodes := d.strList(f, "jars")
	for i, s := range items {
		if why := jarProblem(s); why != "" {
			d.errAt(nodes[i], `write group:artifact:version[:classifier], e.g. "io.delta:delta-spark_2.12:3.2.0"`, "jar %q %s", s, why)
			continue
		}
		t.s.Jars = append(t.s.Jars, s)
	}
}

func decodeDependsOn(d *decoder, t *svcNodes, f field) {
	items, nodes := d.strList(f, "depends_on")
	seen := map[string]bool{}
	for i, s := range items {
		if seen[s] {
			d.errAt(nodes[i], "", "%q is listed twice in depends_on of %s", s, t.what)
			continue
		}
		seen[s] = true
		t.s.DependsOn = append(t.s.DependsOn, s)
		t.deps = append(t.deps, nodes[i])
	}
}

func decodeWorkers(d *decoder, t *svcNodes, f field) {
	n, ok := d.integer(f, "workers")
	if !ok {
		return
	}
	if n < 0 || n > 64 {
		d.errAt(f.val, "0 runs Spark in local mode; 1 to 64 starts a standalone cluster", "workers must be between 0 and 64, got %d", n)
		return
	}
	t.s.Workers = n
}

func decodeJupyter(d *decoder, t *svcNodes, f field) {
	if v, ok := d.boolean(f, "jupyter"); ok {
		t.s.Jupyter = &v
	}
}

func decodeMemory(d *decoder, t *svcNodes, f field) {
	n := f.val
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!int") || !memoryRE().MatchString(n.Value) {
		d.errAt(n, `write a size such as "16g" or "512m"`, "memory must be a size, got %s", kindName(n))
		return
	}
	if msg, hint := checkMemory(n.Value); msg != "" {
		d.errAt(n, hint, "%s", msg)
		return
	}
	t.s.Memory = n.Value
}

var healthKeys = map[string]handler[*Healthcheck]{
	"test": func(d *decoder, h *Healthcheck, f field) {
		if f.val.Kind == yaml.ScalarNode && f.val.Tag == "!!str" {
			h.Test = []string{"CMD-SHELL", f.val.Value}
			return
		}
		h.Test, _ = d.strList(f, "healthcheck.test")
	},
	"interval":     durationKey(func(h *Healthcheck) *string { return &h.Interval }),
	"timeout":      durationKey(func(h *Healthcheck) *string { return &h.Timeout }),
	"start_period": durationKey(func(h *Healthcheck) *string { return &h.StartPeriod }),
	"retries": func(d *decoder, h *Healthcheck, f field) {
		if v, ok := d.integer(f, "healthcheck.retries"); ok {
			if v < 0 {
				d.errAt(f.val, "", "healthcheck.retries must not be negative, got %d", v)
			}
			h.Retries = v
		}
	},
	"disable": func(d *decoder, h *Healthcheck, f field) { h.Disable, _ = d.boolean(f, "healthcheck.disable") },
}

func durationKey(dst func(*Healthcheck) *string) handler[*Healthcheck] {
	return func(d *decoder, h *Healthcheck, f field) {
		v, ok := d.str(f, "healthcheck."+f.name)
		if !ok {
			return
		}
		if msg, hint := checkHealthDuration(f.name, v); msg != "" {
			d.errAt(f.val, hint, "%s", msg)
			return
		}
		*dst(h) = v
	}
}

func decodeHealthcheck(d *decoder, t *svcNodes, f field) {
	h := &Healthcheck{}
	fields(d, f.val, "healthcheck of "+t.what, healthKeys, h)
	t.s.Healthcheck = h
}

func (d *decoder) checkEnvName(k *yaml.Node) {
	if !envNameRE().MatchString(k.Value) {
		d.errAt(k, "use letters, digits and '_', not starting with a digit", "%q is not a valid environment variable name", k.Value)
	}
}
