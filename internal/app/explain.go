package app

import (
	"context"
	"fmt"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// SparkExplain is a spark-rapids service's generated spark-defaults with
// where each value came from.
type SparkExplain struct {
	Service     string            `json:"service"`
	CPUFallback bool              `json:"cpu_fallback"`
	Reason      string            `json:"reason,omitempty"`
	From        string            `json:"from"` // lock, stale lock or resolution
	Conf        []sparkconf.Entry `json:"conf"`
	Notes       []string          `json:"notes,omitempty"`
	// Unpinned lists what devenv.lock would still pin when the conf was
	// explained from resolution alone (no devenv.lock yet).
	Unpinned []string `json:"unpinned,omitempty"`
}

// Explain is the Spark conf the service runs with, from the same plan up
// writes spark-defaults.conf from. Without devenv.lock it is explained from
// resolution (pure) and says what the lock would still pin.
func (p *Project) Explain(ctx context.Context, service string) (*SparkExplain, error) {
	name, err := p.SparkService(service)
	if err != nil {
		return nil, err
	}
	if s := p.Spec.Service(name); s == nil {
		return nil, exitcode.Newf(exitcode.Usage, "service %s is a compose service: only spark-rapids services have a Spark conf", name)
	} else if !p.IsSpark(s) {
		return nil, exitcode.Newf(exitcode.Usage, "service %s has profile %s: only spark-rapids services have a Spark conf", name, s.Profile)
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		return nil, err
	}
	if pl.Stale != nil {
		p.out.Warn("devenv.lock is stale (%v): showing what it pins; run devenv lock to update it", pl.Stale)
	}
	ps := pl.Service(name)
	if ps == nil || ps.Spark == nil {
		return nil, fmt.Errorf("the plan has no Spark conf for %s", name)
	}
	rep := &SparkExplain{Service: name, CPUFallback: ps.CPUFallback, Reason: ps.Reason, From: pl.From, Conf: ps.Spark.Conf, Notes: ps.Spark.Notes}
	if pl.From == FromResolution {
		rep.Unpinned = p.unpinned(name)
	}
	return rep, nil
}

// unpinned says what devenv lock would fix that resolution alone leaves
// open: the versions (newest compatible today), the base image's digest
// and the artifacts' checksums.
func (p *Project) unpinned(name string) []string {
	res, _, err := p.resolveOne(name)
	if err != nil {
		return nil
	}
	out := []string{fmt.Sprintf("versions: spark %s, scala %s, java %s, rapids %s are the newest compatible today; devenv lock pins them", res.Spark, res.ScalaFull, res.Java, res.Rapids)}
	if res.BaseImage != "" {
		out = append(out, "base image "+res.BaseImage+": by tag; devenv lock pins its digest")
	}
	for _, a := range res.Artifacts {
		out = append(out, "artifact "+a.File+": devenv lock checks and pins its sha256")
	}
	return out
}
