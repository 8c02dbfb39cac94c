package mirror

import (
	"maps"
	"slices"
	"strings"
)

// LocalEnv is what the local environment runs now.
type LocalEnv struct {
	Spark, Scala, Java, Rapids, CUDA string
	Conf                             map[string]string
}

// Drift is one difference between prod and local.
type Drift struct {
	Kind     string   `json:"kind"`   // "version" | "conf"
	Key      string   `json:"key"`    // "spark", "java", or a conf key
	Change   string   `json:"change"` // "missing" | "extra" | "different"
	Prod     string   `json:"prod,omitempty"`
	Local    string   `json:"local,omitempty"`
	Severity Severity `json:"severity"`
	Why      string   `json:"why,omitempty"`
}

// Report lists the drifts, versions first, then confs by key.
type Report struct {
	Items []Drift `json:"items"`
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
	want := prod.Localize(h)
	var r Report
	r.versions(local, prod)
	r.confs(local.Conf, want)
	return r
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

func (r *Report) confs(local map[string]string, want Local) {
	for _, k := range slices.Sorted(maps.Keys(want.Conf)) {
		pv := want.Conf[k]
		lv, ok := local[k]
		how := want.Sources[k]
		sev := severityOf(k)
		switch {
		case !ok:
			r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "missing", Prod: pv, Severity: sev, Why: how})
		case strings.TrimSpace(lv) != strings.TrimSpace(pv):
			r.Items = append(r.Items, Drift{Kind: "conf", Key: k, Change: "different", Prod: pv, Local: lv, Severity: sev, Why: how})
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
