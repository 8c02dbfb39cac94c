package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// LocalEnv is what the local environment runs now.
type LocalEnv struct {
	Spark, Scala, Java, Rapids, CUDA string
	Conf                             map[string]string
}

// Drift is one difference between prod and local.
type Drift struct {
	Kind     string   `json:"kind"`             // "version" | "conf"
	Key      string   `json:"key"`              // "spark", "java", or a conf key
	Change   string   `json:"change"`           // "missing" | "extra" | "different"
	Prod     string   `json:"prod,omitempty"`   // prod's own value ("unknown" when prod does not say)
	Scaled   string   `json:"scaled,omitempty"` // prod's value scaled to this machine, when that differs
	Local    string   `json:"local,omitempty"`
	Severity Severity `json:"severity"`
	Why      string   `json:"why,omitempty"`
}

// Report lists the drifts, versions first, then confs by key.
type Report struct {
	Items []Drift `json:"items"`
	// Hardware compares prod's GPUs per node with this machine's: what
	// scaling cannot make match (not counted as drift).
	Hardware []Drift `json:"hardware,omitempty"`
}

// Drifted reports whether something that changes behaviour differs.
func (r Report) Drifted() bool {
	for _, d := range r.Items {
		if d.Severity == SevBehaviour {
			return true
		}
	}
	return false
}

// Diff compares the local environment with prod after applying the same
// keep/scale/drop rules as Localize, so rescaled keys are not noise: a
// scaled key differs only when it differs from what Localize would set.
func Diff(local LocalEnv, prod *Profile, h Host) Report {
	if h.Spark == "" {
		h.Spark = normalizedOr(local.Spark)
	}
	want := prod.Localize(h)
	var r Report
	r.versions(local, prod)
	r.hardware(prod, h)
	r.shape(prod, local.Conf)
	r.confs(local.Conf, want, prod)
	return r
}

// Unknown is shown where prod does not say.
const Unknown = "unknown"

// NotSetInProd is shown for a key prod's confs do not set.
const NotSetInProd = "not set in prod"

// shape reports the executors prod actually ran against the local ones
// (info: devenv sizes executors for this machine).
func (r *Report) shape(prod *Profile, local map[string]string) {
	t := prod.Topology
	if t.ExecutorCores == 0 && t.ExecutorMemoryMB == 0 && prod.GPU.ExecutorGPUs == 0 {
		return
	}
	r.Hardware = append(r.Hardware, Drift{Kind: "hardware", Key: "executors", Change: "different", Prod: prod.ShapeSummary(),
		Local: fmt.Sprintf("%s x %s cores, %s", or(local["spark.executor.instances"], "1"), or(local["spark.executor.cores"], "?"),
			or(local["spark.executor.memory"], or(local["spark.driver.memory"], "?"))),
		Severity: SevInfo, Why: "prod's executors as they ran; devenv sizes the local ones for this machine"})
}

// ShapeSummary is prod's executor shape with where it was read.
func (p *Profile) ShapeSummary() string {
	t := p.Topology
	s := fmt.Sprintf("%s x %s cores, %s MB", orUnknownInt(t.Executors), orUnknownInt(t.ExecutorCores), orUnknownInt(int(t.ExecutorMemoryMB)))
	if p.GPU.ExecutorGPUs > 0 {
		s += fmt.Sprintf(", %s GPU", fmtFloat(p.GPU.ExecutorGPUs))
	}
	if t.ExecutorCoresProvenance != "" {
		s += " (cores from " + t.ExecutorCoresProvenance + ")"
	}
	return s
}

func orUnknownInt(n int) string {
	if n <= 0 {
		return Unknown
	}
	return strconv.Itoa(n)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// hardware reports prod's GPUs per node against this machine's (info:
// the scaler already fits the confs; this says what cannot match).
func (r *Report) hardware(prod *Profile, h Host) {
	if prod.GPU.PerNode == 0 && prod.GPU.Model == "" && prod.GPU.ExecutorGPUs == 0 && prod.Topology.WorkerType == "" {
		return
	}
	local := "no GPU"
	if h.GPUs > 0 {
		local = fmt.Sprintf("%d GPU(s)", h.GPUs)
		if h.GPUMemoryMB > 0 {
			local += fmt.Sprintf(", %d GB each", h.GPUMemoryMB/1024)
		}
	}
	why := "prod's workers against this machine's share"
	if prod.RunsOnGPUs() && h.GPUs == 0 {
		why = "prod runs on GPUs and this machine gives none: GPU-only failures cannot reproduce here"
	}
	r.Hardware = append(r.Hardware, Drift{Kind: "hardware", Key: "gpus per node", Change: "different", Prod: prod.GPUSummary(), Local: local,
		Severity: SevInfo, Why: why})
}

func (r *Report) versions(local LocalEnv, prod *Profile) {
	check := func(key, prodV, localV string, sev Severity, same func(a, b string) bool) {
		if prodV == "" {
			return
		}
		switch {
		case localV == "":
			r.Items = append(r.Items, Drift{Kind: "version", Key: key, Change: "missing", Prod: prodV, Severity: sev})
		case !same(prodV, localV):
			r.Items = append(r.Items, Drift{Kind: "version", Key: key, Change: "different", Prod: prodV, Local: localV, Severity: sev})
		}
	}
	exact := func(a, b string) bool { return a == b }
	check("spark", prod.Runtime.Spark, normalizedOr(local.Spark), SevBehaviour, exact)
	check("scala", prod.Runtime.Scala, local.Scala, SevBehaviour, func(a, b string) bool { return strings.HasPrefix(b, a) })
	check("java", prod.Runtime.Java, javaMajor(local.Java), SevBehaviour, exact)
	rapidsSev := SevInfo
	if prod.GPU.RapidsEnabled {
		rapidsSev = SevBehaviour
	}
	check("rapids", prod.GPU.Rapids, local.Rapids, rapidsSev, exact)
	check("cuda", prod.GPU.CUDA, local.CUDA, SevPerformance, func(a, b string) bool {
		return strings.HasPrefix(b+".", a+".") || strings.HasPrefix(b, a)
	})
}

// prodAndScaled is prod's own value of k (for a key prod's confs do not
// set, what prod ran as its events say, else NotSetInProd) and the scaled
// value when it differs.
func prodAndScaled(prod *Profile, k, want string) (string, string) {
	pv, ok := prod.Conf[k]
	if !ok {
		return prodRan(prod, k), want
	}
	if strings.TrimSpace(pv) == strings.TrimSpace(want) {
		return pv, ""
	}
	return pv, want
}

// taskCPUsFitted: the local spark.task.cpus is prod's lowered to the local
// executor cores (spark-defaults does that).
func taskCPUsFitted(local, prod, cores string) bool {
	l, err1 := strconv.Atoi(strings.TrimSpace(local))
	p, err2 := strconv.Atoi(strings.TrimSpace(prod))
	c, err3 := strconv.Atoi(strings.TrimSpace(cores))
	return err1 == nil && err2 == nil && err3 == nil && l < p && l == c
}

// prodRan is what prod ran for a sizing key its confs do not set.
func prodRan(p *Profile, k string) string {
	t := p.Topology
	ran := func(v, src string) string { return NotSetInProd + "; prod ran " + v + " (" + src + ")" }
	switch {
	case k == "spark.executor.cores" && t.ExecutorCores > 0:
		return ran(strconv.Itoa(t.ExecutorCores), t.ExecutorCoresProvenance)
	case k == "spark.executor.memory" && t.ExecutorMemoryMB > 0:
		return ran(mb2s(t.ExecutorMemoryMB), t.ExecutorMemoryMBProvenance)
	case k == "spark.executor.instances" && t.Executors > 0:
		return ran(strconv.Itoa(t.Executors), t.ExecutorsProvenance)
	case k == "spark.executor.resource.gpu.amount" && p.GPU.ExecutorGPUs > 0:
		return ran(fmtFloat(p.GPU.ExecutorGPUs), p.GPU.ExecutorGPUsProvenance)
	case k == "spark.task.resource.gpu.amount" && p.GPU.TaskGPU > 0:
		return ran(fmtFloat(p.GPU.TaskGPU), p.GPU.TaskGPUProvenance)
	}
	return NotSetInProd
}

func normalizedOr(v string) string {
	if n, _ := normalizeSpark(v); n != "" {
		return n
	}
	return v
}

func javaMajor(v string) string {
	if m, _, _ := parseJava(v); m != "" {
		return m
	}
	return v
}

func (r *Report) confs(local map[string]string, want Local, prod *Profile) {
	for _, k := range slices.Sorted(maps.Keys(want.Conf)) {
		wv := want.Conf[k]
		lv, ok := local[k]
		how := want.Sources[k]
		sev := severityOf(k)
		pv, scaled := prodAndScaled(prod, k, wv)
		switch {
		case !ok:
			r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "missing", Prod: pv, Scaled: scaled, Severity: sev, Why: how})
		case k == "spark.task.cpus" && taskCPUsFitted(lv, wv, local["spark.executor.cores"]):
			r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "different", Prod: pv, Local: lv, Severity: SevPerformance,
				Why: "lowered to the local executor cores, so a task can be scheduled"})
		case strings.TrimSpace(lv) != strings.TrimSpace(wv):
			r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "different", Prod: pv, Scaled: scaled, Local: lv, Severity: sev, Why: how})
		}
	}
	redacted := map[string]bool{}
	for _, k := range want.Redacted {
		redacted[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(local)) {
		if _, ok := want.Conf[k]; ok || redacted[k] {
			continue
		}
		if _, dropped := want.Dropped[k]; dropped {
			continue // prod's value does not apply locally; a local value is expected
		}
		lv := local[k]
		if isSecret(k, lv) {
			lv = ""
		}
		r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "extra", Local: lv, Severity: severityOf(k),
			Why: "set locally, not in prod"})
	}
}
