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
	fmt.Fprintf(w, "source:   %s (%s, %s)\n", p.Source.Path, p.Source.Format, p.Source.Platform)
	scala := p.Runtime.ScalaFull
	if scala == "" {
		scala = p.Runtime.Scala // the binary version when no patch was stated
	}
	fmt.Fprintf(w, "runtime:  spark %s, scala %s, java %s, python %s", p.Runtime.Spark, scala, p.Runtime.Java, p.Runtime.Python)
	if p.Runtime.Label != "" {
		fmt.Fprintf(w, " (%s)", p.Runtime.Label)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "gpus:     %s\n", p.GPUSummary())
	if p.GPU.Rapids != "" {
		fmt.Fprintf(w, "rapids:   RAPIDS Accelerator %s, %s GPU(s) per executor, task share %s\n", p.GPU.Rapids, orUnknownF(p.GPU.ExecutorGPUs), orUnknownF(p.GPU.TaskGPU))
	}
	fmt.Fprintf(w, "topology: %s workers%s, %s cores and %s MiB per executor\n", orUnknown(int64(p.Topology.Workers)), workerHardware(p),
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
	if len(r.Deviations) == 0 {
		fmt.Fprintf(w, "versions: prod's exactly\n")
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
