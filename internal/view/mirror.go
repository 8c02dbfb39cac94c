package view

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/mirror"
)

// Profile is `devenv mirror --print`: prod's normalized cluster profile.
func Profile(w io.Writer, p *mirror.Profile) {
	if p.Source.Platform == "" {
		fmt.Fprintf(w, "source:   %s (%s)\n", p.Source.Path, p.Source.Format)
	} else {
		fmt.Fprintf(w, "source:   %s (%s, %s)\n", p.Source.Path, p.Source.Format, p.Source.Platform)
	}
	fmt.Fprintf(w, "runtime:  %s", runtimeVersions(p))
	if p.Runtime.Label != "" {
		fmt.Fprintf(w, " (%s)", p.Runtime.Label)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "gpus:     %s\n", p.GPUSummary())
	if p.GPU.Rapids != "" {
		fmt.Fprintf(w, "rapids:   RAPIDS Accelerator %s, %s GPU(s) per executor, task share %s\n", p.GPU.Rapids, orUnknownF(p.GPU.ExecutorGPUs), orUnknownF(p.GPU.TaskGPU))
	}
	workers := orUnknown(int64(p.Topology.Workers))
	if p.Topology.SingleNode {
		workers = "single node, 0"
	}
	fmt.Fprintf(w, "topology: %s workers%s, %s cores and %s MiB per executor\n", workers, workerHardware(p),
		orUnknown(int64(p.Topology.ExecutorCores)), orUnknown(p.Topology.ExecutorMemoryMB))
	if len(p.Packages) > 0 {
		var pk []string
		for _, x := range p.Packages {
			pk = append(pk, x.Coords)
		}
		fmt.Fprintf(w, "packages: %s (devenv lock resolves them with their dependencies and bakes them into the image)\n", strings.Join(pk, ", "))
	}
	printPortability(w, p)
	printFailures(w, p.Failures)
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "warning:  %s\n", wn)
	}
}

// prodVersion is one version fact of prod's, "" when prod did not state it.
type prodVersion struct{ name, value string }

// prodVersions are the versions the lock takes from prod, as prod stated them.
func prodVersions(p *mirror.Profile) []prodVersion {
	scala := p.Runtime.ScalaFull
	if scala == "" {
		scala = p.Runtime.Scala // the binary version when no patch was stated
	}
	return []prodVersion{{"spark", p.Runtime.Spark}, {"scala", scala}, {"java", p.Runtime.Java},
		{"python", p.Runtime.Python}, {"rapids", p.GPU.Rapids}}
}

// splitStated returns the stated versions as "name value" and the names of
// those prod did not state.
func splitStated(p *mirror.Profile, with func(prodVersion) bool) (stated, missing []string) {
	for _, v := range prodVersions(p) {
		if !with(v) {
			continue
		}
		if v.value == "" {
			missing = append(missing, v.name)
		} else {
			stated = append(stated, v.name+" "+v.value)
		}
	}
	return stated, missing
}

// runtimeVersions is the runtime line: the versions prod stated, then the
// names of those it did not, never a blank field.
func runtimeVersions(p *mirror.Profile) string {
	stated, missing := splitStated(p, func(v prodVersion) bool { return v.name != "rapids" }) // rapids has its own line
	switch {
	case len(stated) == 0:
		return "no versions stated (spark, scala, java, python)"
	case len(missing) == 0:
		return strings.Join(stated, ", ")
	}
	return strings.Join(stated, ", ") + " (not stated: " + strings.Join(missing, ", ") + ")"
}

// versionsLine is what `devenv mirror` says of the locked versions when none
// deviates from prod's: "prod's exactly" only for what prod stated.
func versionsLine(p *mirror.Profile) string {
	stated, missing := splitStated(p, func(prodVersion) bool { return true })
	switch {
	case len(stated) == 0:
		return "prod stated none; devenv lock chose the newest compatible set"
	case len(missing) == 0:
		return "prod's exactly"
	}
	return "prod's exactly where stated (" + strings.Join(stated, ", ") + "); devenv lock chose " + strings.Join(missing, ", ") + ", which prod did not state"
}

// printFailures lists what went wrong in prod, by kind, with the
// signature logs --diagnose would name.
func printFailures(w io.Writer, fs []mirror.Failure) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "failures in prod:\n")
	for _, f := range fs {
		sig := "unclassified"
		if f.Signature != "" {
			sig = f.Signature
		}
		fmt.Fprintf(w, "  %-13s %-22s %4dx  first %s: %s\n", f.Kind, "["+sig+"]", f.Count, f.First, f.Reason)
	}
}

// orUnknown shows a fact prod did not give as unknown, never as zero.
func orUnknown(n int64) string {
	if n == 0 {
		return mirror.Unknown
	}
	return fmt.Sprint(n)
}

func orUnknownF(f float64) string {
	if f == 0 {
		return mirror.Unknown
	}
	return fmt.Sprint(f)
}

func workerHardware(p *mirror.Profile) string {
	t := p.Topology
	if t.WorkerType == "" {
		return ""
	}
	if t.WorkerVCPUs == 0 {
		return fmt.Sprintf(" (%s: vCPUs and memory unknown)", t.WorkerType)
	}
	return fmt.Sprintf(" (%s: %d vCPUs, %d GiB)", t.WorkerType, t.WorkerVCPUs, t.WorkerMemoryMB/1024)
}

// printPortability summarises what of prod's confs reaches the local
// Spark, by the rule spark-defaults is written with.
func printPortability(w io.Writer, p *mirror.Profile) {
	pt := p.Portable()
	fmt.Fprintf(w, "confs:    %d kept, %d scaled to this machine, %d sized by devenv for this machine instead, %d dropped, %d redacted\n",
		len(pt.Kept), len(pt.Scaled), len(pt.SizedHere), len(pt.Dropped), len(pt.Redacted))
	groups := pt.DropReasons()
	reasons := make([]string, 0, len(groups))
	for r := range groups {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if len(groups[reasons[i]]) != len(groups[reasons[j]]) {
			return len(groups[reasons[i]]) > len(groups[reasons[j]])
		}
		return reasons[i] < reasons[j]
	})
	for _, r := range reasons {
		keys := groups[r]
		more := ""
		if len(keys) > 2 {
			keys, more = keys[:2], fmt.Sprintf(", ... (%d more)", len(groups[r])-2)
		}
		fmt.Fprintf(w, "  dropped %d, %s: %s%s\n", len(groups[r]), r, strings.Join(keys, ", "), more)
	}
	for _, k := range pt.Redacted {
		fmt.Fprintf(w, "  redacted (never copied): %s\n", k)
	}
}

// Mirror is `devenv mirror`: the profile and what the service is locked to.
func Mirror(w io.Writer, r *app.MirrorResult) {
	Profile(w, r.Profile)
	if l := r.Locked; l != nil {
		fmt.Fprintf(w, "\n%s now mirrors %s and is locked to spark %s, scala %s, java %s, rapids %s\n",
			r.Service, r.Source, l.Versions.Spark, l.Versions.ScalaFull, l.Versions.Java, l.Versions.Rapids)
		if n := lockedJars(l.Artifacts); n > 0 {
			fmt.Fprintf(w, "%d jars pinned with their dependencies in devenv.lock, baked into %s's image\n", n, r.Service)
		}
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "jar ") && strings.Contains(n, "is built for") {
			fmt.Fprintf(w, "warning:  %s\n", n)
		}
	}
	if len(r.Deviations) == 0 && r.Profile != nil {
		fmt.Fprintf(w, "versions: %s\n", versionsLine(r.Profile))
	}
	for _, d := range r.Deviations {
		fmt.Fprintf(w, "deviates: %s\n", d)
	}
}

func lockedJars(arts []lock.Artifact) int {
	n := 0
	for _, a := range arts {
		if strings.HasPrefix(a.Name, "jar:") {
			n++
		}
	}
	return n
}
