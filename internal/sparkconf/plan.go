package sparkconf

import (
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// PlanReport is what ran where in one executed Spark plan.
type PlanReport struct {
	GPU []Operator `json:"gpu"` // operators that ran on the GPU (Gpu*), first seen first
	CPU []Operator `json:"cpu"` // operators that stayed on the CPU
	// Fallbacks are the plugin's explain lines (spark.rapids.sql.explain)
	// for parts that did not go to the GPU, with the plugin's reasons.
	Fallbacks []Fallback `json:"fallbacks,omitempty"`
	// WillRun are the classes the plugin's explain lines say will (or could
	// partially) run on the GPU.
	WillRun  []string `json:"will_run,omitempty"`
	Adaptive bool     `json:"adaptive"` // the plan is an AdaptiveSparkPlan
	// Final is false for an AdaptiveSparkPlan read before it finished
	// (isFinalPlan=false): its operators are the planned ones, not
	// necessarily those that ran.
	Final bool `json:"final"`
}

// Operator is a physical operator name and how often it appears.
type Operator struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Fallback is one plugin explain line for an exec or expression that stays
// on the CPU.
type Fallback struct {
	Kind     string   `json:"kind,omitempty"` // Exec, Expression, Partitioning, ... (empty in old releases)
	Operator string   `json:"operator"`       // class, e.g. SortExec
	Detail   string   `json:"detail,omitempty"`
	Reasons  []string `json:"reasons"`
	Depth    int      `json:"depth"` // nesting: an expression sits under its exec
}

// OnGPU reports whether any operator ran on the GPU.
func (r PlanReport) OnGPU() bool { return len(r.GPU) > 0 }

// Reasons returns the fallback reasons by operator class.
func (r PlanReport) Reasons() map[string][]string {
	m := map[string][]string{}
	for _, f := range r.Fallbacks {
		m[f.Operator] = append(m[f.Operator], f.Reasons...)
	}
	return m
}

var (
	// explainLine is a spark.rapids.sql.explain line, after any log prefix:
	// "!Exec <SortExec> cannot run on GPU because ...", "  @Expression <X> x#1 could run on GPU".
	explainLine = lazy.Regexp(`^(?:.*GpuOverrides:\s*)?(\s*)([!*@$#])\s*([A-Za-z]*)\s*<([^>\s]+)>\s?(.*)$`)
	codegenID   = lazy.Regexp(`^\*\(\d+\)\s*`)
	leadingName = lazy.Regexp(`^[A-Za-z_][A-Za-z0-9_]*`)
	formatted   = lazy.Regexp(`^\(\d+\) `)
)

// wrappers are plan nodes that hold other nodes and do no work of their own.
var wrappers = map[string]bool{
	"AdaptiveSparkPlan": true, "ShuffleQueryStage": true, "BroadcastQueryStage": true,
	"ResultQueryStage": true, "TableCacheQueryStage": true, "WholeStageCodegen": true,
	"InputAdapter": true, "ReusedExchange": true, "ReusedSubquery": true, "Subquery": true,
}

// ParsePlan reads an executed physical plan (df.explain() output or
// queryExecution.executedPlan.toString, AQE Final Plan sections included,
// Initial Plan sections skipped) and the plugin's NOT_ON_GPU / ALL explain
// lines, in any mix. Lines it does not understand are ignored.
func ParsePlan(text string) PlanReport {
	p := planParser{skipFrom: -1}
	for _, line := range strings.Split(text, "\n") {
		p.line(strings.TrimRight(line, "\r \t"))
	}
	return p.report
}

type planParser struct {
	report   PlanReport
	logical  bool // inside an "== ... Logical Plan ==" section
	details  bool // inside the numbered details of explain("formatted")
	skipFrom int  // column of an "== Initial Plan ==" marker being skipped; -1: none
}

func (p *planParser) line(line string) {
	if m := explainLine().FindStringSubmatch(line); m != nil {
		p.explain(m)
		return
	}
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed == "":
		p.details = false
		return
	case strings.HasPrefix(trimmed, "== ") && strings.HasSuffix(trimmed, " =="):
		p.logical = strings.Contains(trimmed, "Logical Plan")
		return
	case p.logical || p.details:
		return
	case formatted().MatchString(trimmed):
		p.details = true
		return
	}
	col, node := splitTree(line)
	if p.skipFrom >= 0 {
		if col > p.skipFrom || (col == p.skipFrom && !strings.HasPrefix(node, "==")) {
			return
		}
		p.skipFrom = -1
	}
	if strings.HasPrefix(node, "== Initial Plan") {
		p.skipFrom = col
		return
	}
	if strings.HasPrefix(node, "==") {
		return
	}
	p.node(node)
}

// splitTree returns the column where a tree line's node text starts, and the text.
func splitTree(line string) (int, string) {
	rest := line
	for {
		rest = strings.TrimLeft(rest, " ")
		switch {
		case strings.HasPrefix(rest, "+- ") || strings.HasPrefix(rest, ":- "):
			rest = rest[3:]
			return len(line) - len(rest), rest
		case strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "|"):
			rest = rest[1:] // a bar continuing an ancestor's branch
		default:
			return len(line) - len(rest), rest
		}
	}
}

func (p *planParser) node(text string) {
	text = codegenID().ReplaceAllString(text, "")
	text = strings.TrimPrefix(text, "!") // Spark marks nodes with missing input
	name := leadingName().FindString(text)
	if name == "Execute" { // data-writing commands print "Execute <command>"
		name = leadingName().FindString(strings.TrimSpace(strings.TrimPrefix(text, "Execute")))
	}
	if name == "" {
		return
	}
	if name == "AdaptiveSparkPlan" {
		p.report.Adaptive = true
		p.report.Final = strings.Contains(text, "isFinalPlan=true")
	}
	switch {
	case wrappers[name]:
	case strings.HasPrefix(name, "Gpu") || name == "HostColumnarToGpu":
		p.report.GPU = count(p.report.GPU, name)
	default:
		p.report.CPU = count(p.report.CPU, name)
	}
}

func count(ops []Operator, name string) []Operator {
	for i := range ops {
		if ops[i].Name == name {
			ops[i].Count++
			return ops
		}
	}
	return append(ops, Operator{Name: name, Count: 1})
}

// explain records one plugin explain line; m is explainLine's match.
func (p *planParser) explain(m []string) {
	indent, mark, kind, class, rest := m[1], m[2], m[3], m[4], m[5]
	const because = "cannot run on GPU because "
	if i := strings.Index(rest, because); i >= 0 {
		p.fallback(kind, class, rest[:i], strings.Split(rest[i+len(because):], "; "), len(indent)/2)
		return
	}
	if mark == "*" {
		if !slices.Contains(p.report.WillRun, class) {
			p.report.WillRun = append(p.report.WillRun, class)
		}
		return
	}
	// "@" could run but its parent cannot; "$" stays for cost; "#" is removed.
	reason := map[string]string{"@": "could run on GPU, but is part of a plan that cannot",
		"$": "could run on GPU, but the cost-based optimizer kept it on the CPU",
		"#": "removed from the plan"}[mark]
	if reason == "" {
		reason = strings.TrimSpace(rest)
	}
	for _, s := range []string{" could run on GPU", " will run on GPU", " could partially run on GPU"} {
		if i := strings.Index(rest, s); i >= 0 {
			rest = rest[:i]
		}
	}
	p.fallback(kind, class, rest, []string{reason}, len(indent)/2)
}

func (p *planParser) fallback(kind, class, detail string, reasons []string, depth int) {
	for i := range reasons {
		reasons[i] = strings.TrimSpace(reasons[i])
	}
	p.report.Fallbacks = append(p.report.Fallbacks, Fallback{Kind: kind, Operator: class,
		Detail: strings.TrimSpace(detail), Reasons: reasons, Depth: depth})
}
