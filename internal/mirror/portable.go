package mirror

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// Portability is what of a profile's confs reaches the local Spark, by the
// same rule Localize applies (classify): kept as prod has them, rescaled to
// the host, or dropped with the reason; Redacted lists secrets (by key,
// never the value). mirror --print shows it, spark-defaults gets Kept and
// Scaled.
type Portability struct {
	Kept   []string `json:"kept"`
	Scaled []string `json:"scaled"`
	// SizedHere are sizing keys devenv computes for this machine itself
	// (executor memory and cores, GPU amounts, pinned pool): Localize
	// scales prod's values for diff, but spark-defaults uses devenv's.
	SizedHere []string          `json:"sized_here"`
	Dropped   map[string]string `json:"dropped"`
	Redacted  []string          `json:"redacted"`
}

// Portable sorts the profile's confs by what Localize will do with them;
// the importer's own drops and redactions are included.
func (p *Profile) Portable() Portability {
	out := Portability{Dropped: map[string]string{}, Kept: []string{}, Scaled: []string{}, SizedHere: []string{}, Redacted: []string{}}
	for k, why := range p.Dropped {
		out.Dropped[k] = why
	}
	out.Redacted = append(out.Redacted, p.Redacted...)
	for _, k := range slices.Sorted(maps.Keys(p.Conf)) {
		act, why := classify(k, p.Conf[k])
		switch act {
		case actSecret:
			out.Redacted = append(out.Redacted, k)
		case actDrop:
			out.Dropped[k] = why
		case actScale:
			out.Scaled = append(out.Scaled, k)
		default:
			if kept, missing, _ := p.localClasses(k, p.Conf[k]); kept == "" && len(missing) > 0 {
				out.Dropped[k] = strings.Join(missing, "; ")
				continue
			}
			out.Kept = append(out.Kept, k)
		}
	}
	if len(out.Scaled) > 0 || p.Topology.ExecutorCores > 0 || p.GPU.ExecutorGPUs > 0 {
		// the scaler always sizes executors, from confs or from topology
		for _, k := range []string{"spark.executor.cores", "spark.executor.memory"} {
			if _, ok := p.Conf[k]; !ok {
				out.Scaled = append(out.Scaled, k)
			}
		}
	}
	out.Kept, out.SizedHere = splitSized(out.Kept, out.SizedHere)
	out.Scaled, out.SizedHere = splitSized(out.Scaled, out.SizedHere)
	sort.Strings(out.Scaled)
	sort.Strings(out.SizedHere)
	sort.Strings(out.Redacted)
	out.Redacted = dedupSorted(out.Redacted)
	return out
}

// splitSized moves the keys devenv sizes for this machine itself from keys
// to sized.
func splitSized(keys, sized []string) ([]string, []string) {
	out := []string{}
	for _, k := range keys {
		if sparkconf.SizedForHost(k) {
			sized = append(sized, k)
		} else {
			out = append(out, k)
		}
	}
	return out, sized
}

// DropReasons groups Dropped by reason: reason -> keys, for a summary.
func (pt Portability) DropReasons() map[string][]string {
	out := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(pt.Dropped)) {
		out[pt.Dropped[k]] = append(out[pt.Dropped[k]], k)
	}
	return out
}

// placeholderWarnings are the warnings for confs dropped because a
// template placeholder was never filled in.
func (pt Portability) placeholderWarnings() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(pt.Dropped)) {
		if strings.HasPrefix(pt.Dropped[k], placeholderReason) {
			out = append(out, fmt.Sprintf("%s was dropped: %s", k, pt.Dropped[k]))
		}
	}
	return out
}
