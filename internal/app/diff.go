package app

import (
	"context"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/devenv-dev/devenv/profiles"
)

// DiffOptions steer Diff.
type DiffOptions struct {
	Service string // the local service (default: the one that mirrors, else the first spark-rapids service)
	Source  string // prod's description (default: the service's mirror: file)
	Format  string // force the source's format
}

// DiffResult is the drift between the locked local service and prod.
type DiffResult struct {
	Service string         `json:"service"`
	Source  string         `json:"source"`
	Drifted bool           `json:"drifted"` // behaviour drift (exit 5)
	Items   []mirror.Drift `json:"items"`
	// Hardware: prod's GPUs per node against this machine's (not drift).
	Hardware []mirror.Drift `json:"hardware,omitempty"`
	// Deviations: why the locked versions differ from prod's (devenv.lock).
	Deviations []profiles.Deviation `json:"deviations,omitempty"`
}

// Diff compares the service as up would run it (the same plan, the same
// share of this machine) with prod's description scaled to that share.
func (p *Project) Diff(ctx context.Context, o DiffOptions) (*DiffResult, error) {
	svc, err := p.mirrorTarget(o.Service)
	if err != nil {
		return nil, err
	}
	src, format := o.Source, o.Format
	if src == "" {
		if svc.Mirror == "" {
			return nil, exitcode.Newf(exitcode.Usage, "service %s mirrors nothing: name a SOURCE, or run devenv mirror SOURCE first", svc.Name)
		}
		src = svc.Mirror
		if format == "" {
			format = svc.MirrorFormat // what devenv mirror --format recorded
		}
	}
	prod, err := mirror.ImportContext(ctx, src, mirror.Options{Format: format})
	if err != nil {
		return nil, err
	}
	lf, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	if lf == nil || lf.Service(svc.Name) == nil {
		return nil, &lock.StaleError{Reasons: []string{"service " + svc.Name + " is not locked"}}
	}
	pl, err := p.Plan(ctx, PlanOptions{Lock: lf})
	if err != nil {
		return nil, err
	}
	ps := pl.Service(svc.Name)
	v := lf.Service(svc.Name).Versions
	local := mirror.LocalEnv{Spark: v.Spark, Scala: v.Scala, Java: v.Java, Rapids: v.Rapids, CUDA: v.CUDA, Conf: sparkMap(ps)}
	rep := mirror.Diff(local, prod, shareOf(ps))
	rep.Items = ownTuning(rep.Items, ps)
	localSources(rep.Items, ps)
	devs := lf.Service(svc.Name).Deviations
	explainVersions(rep.Items, devs)
	res := &DiffResult{Service: svc.Name, Source: src, Drifted: rep.Drifted(), Items: rep.Items, Hardware: rep.Hardware, Deviations: devs}
	if res.Items == nil {
		res.Items = []mirror.Drift{}
	}
	return res, nil
}

// explainVersions gives each version drift the reason devenv.lock keeps
// for it (the catalog builds nothing nearer).
func explainVersions(items []mirror.Drift, devs []profiles.Deviation) {
	for i, d := range items {
		for _, dv := range devs {
			if d.Kind == "version" && d.Key == dv.Field && d.Why == "" {
				items[i].Why = dv.Why
			}
		}
	}
}

// shareOf is the service's share of the machine as the plan sized its
// confs (memory:, the 4 GiB floor, its GPUs and their memory), so prod's
// confs are scaled exactly as the mirrored layer in spark-defaults was.
func shareOf(ps *plan.Service) mirror.Host {
	if ps == nil || ps.Spark == nil {
		return mirror.Host{}
	}
	return plan.MirrorHost(ps.Spark.Hardware)
}

// ownTuning marks confs that only devenv's own defaults and hardware tuning
// set (the plugin, Kryo, memory and partition sizing for this machine) as
// performance differences: they are the point of the local environment,
// not drift. What the user's conf: or the mirrored prod conf set keeps the
// severity the comparison gave it.
func ownTuning(items []mirror.Drift, ps *plan.Service) []mirror.Drift {
	if ps == nil || ps.Spark == nil {
		return items
	}
	source := map[string]string{}
	for _, e := range ps.Spark.Conf {
		source[e.Key] = e.Source
	}
	for i, d := range items {
		src := source[d.Key]
		if d.Kind == "conf" && d.Change == "extra" && (src == sparkconf.SourceProfile || src == sparkconf.SourceHardware) {
			items[i].Severity = mirror.SevPerformance
			items[i].Why = "devenv's " + src + " setting for this machine; prod does not set it"
		}
	}
	return items
}

// localSources says, of a conf whose local value is not prod's scaled
// value, which layer set the local one: the row then holds one local value
// (LOCAL), with the scaled one in its WHY, instead of two side by side.
func localSources(items []mirror.Drift, ps *plan.Service) {
	if ps == nil || ps.Spark == nil {
		return
	}
	source := map[string]string{}
	for _, e := range ps.Spark.Conf {
		source[e.Key] = e.Source
	}
	for i, d := range items {
		if d.Kind != "conf" || d.Change != "different" || d.Scaled == "" || d.Local == "" {
			continue
		}
		from := "scaled from prod's " + d.Prod
		if strings.HasPrefix(d.Why, from) {
			items[i].Why = from + " to " + d.Scaled + strings.TrimPrefix(d.Why, from)
		} else {
			items[i].Why = "prod's value scales to " + d.Scaled + " here; " + d.Why
		}
		switch src := source[d.Key]; src {
		case sparkconf.SourceProfile, sparkconf.SourceHardware:
			items[i].Why += "; devenv's " + src + " setting for this machine sets " + d.Local
		case sparkconf.SourceUser:
			items[i].Why += "; your conf: in devenv.yaml sets " + d.Local
		}
	}
}

func sparkMap(ps *plan.Service) map[string]string {
	out := map[string]string{}
	if ps == nil || ps.Spark == nil {
		return out
	}
	for _, e := range ps.Spark.Conf {
		if !e.Unset {
			out[e.Key] = e.Value
		}
	}
	return out
}
