package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/fastup"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/readset"
)

// receiptBasis is what Up keeps for the receipt the next up checks
// (internal/fastup): the plan it ran (its freshness is judged by
// Project.opened, taken before the first read).
type receiptBasis struct {
	plan *plan.Plan
	proj *types.Project // plan rendered, as the executor ran it
}

// ErrNoReceipt says why an up leaves no receipt: its next up runs in full.
var ErrNoReceipt = errors.New("no receipt")

// Receipt is the state a successful whole-project up left, for the next
// `devenv up` to compare with (text and json are what that up prints when
// nothing changed). It is ErrNoReceipt, wrapped with the reason, where a
// no-op up does more than the receipt can stand for: GPU services (their
// GPUs are checked on every up), a remote or non-unix engine, warnings it
// would print again, a file changed while up ran.
func (p *Project) Receipt(ctx context.Context, res *Result, text, json string) (*fastup.Receipt, error) {
	b := res.basis
	if b == nil {
		return nil, noReceipt("not a whole-project up")
	}
	if err := receiptable(p, b); err != nil {
		return nil, err
	}
	if p.reads == nil { // New's project: nothing recorded what it read
		return nil, noReceipt("no record of what it read")
	}
	in := p.receiptInputs()
	st, err := fastup.Fingerprint(in.Files, in.Trees, in.Skip, in.Contexts)
	if err != nil {
		return nil, noReceipt(err.Error())
	}
	// judged by the file system's own clock, read before devenv.yaml was
	if p.opened.IsZero() {
		return nil, noReceipt("no file-system timestamp from before the first read")
	}
	if !st.Newest.Before(p.opened) {
		return nil, noReceipt("a file it planned from changed while it ran")
	}
	r := &fastup.Receipt{Project: p.Spec.Name, File: p.Spec.File, WorkDir: p.opts.WorkDir, Env: fastup.EnvDigest(os.Environ()),
		Socket: socketPath(engine.EndpointOf(p.eng)), Files: in.Files, Trees: in.Trees, Skip: in.Skip, Contexts: in.Contexts, Inputs: st.Digest, Text: text, JSON: json}
	if r.WorkDir == "" {
		if r.WorkDir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if self, err := os.Executable(); err == nil {
		r.Program = fastup.ProgramID(self)
	}
	if p.info != nil {
		r.Machine = &fastup.Machine{CPUs: p.info.NCPU, Memory: p.info.MemTotal}
	}
	return r, p.receiptEngine(ctx, r)
}

// WriteReceipt writes r under the project's state directory.
func (p *Project) WriteReceipt(r *fastup.Receipt) error { return fastup.Write(p.StateDir(), r) }

// DropReceipt removes the project's receipt: a command is about to change
// the project, so no up may trust the state it recorded.
func (p *Project) DropReceipt() { _ = fastup.Remove(p.StateDir()) } // a receipt that cannot go is checked against the engine anyway

func noReceipt(why string) error { return fmt.Errorf("%w: %s", ErrNoReceipt, why) }

func receiptable(p *Project, b *receiptBasis) error {
	pl := b.plan
	ep := engine.EndpointOf(p.eng)
	switch {
	case hasGPUService(b.proj) || slices.ContainsFunc(pl.Services, func(s *plan.Service) bool { return s.CPUFallback }):
		return noReceipt("GPU services are checked on every up")
	// compose warnings print once; any other warning on every up
	case ep.Kind != endpoint.Unix || !ep.Local || socketPath(ep) == "":
		return noReceipt("the engine is not a local unix socket")
	case slices.ContainsFunc(pl.Warnings, func(w string) bool { return !slices.Contains(pl.ComposeWarnings, w) }):
		return noReceipt("up has warnings to print")
	}
	return nil
}

func socketPath(ep *endpoint.Endpoint) string {
	if ep.Kind != endpoint.Unix {
		return ""
	}
	if p, ok := cutPrefix(ep.Host, "unix://"); ok {
		return p
	}
	return ""
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return "", false
}

// receiptInputs are what this command read, as the code that read each
// input recorded it (p.reads): devenv.yaml and its profile files, compose
// files with their .env and env files, devenv.lock, build inputs as they
// were sealed (contexts, Dockerfiles, requirements), bind sources,
// devenv's state files that go into the plan or the output, the docker
// configuration that picks the engine. No list is kept here.
func (p *Project) receiptInputs() readset.Inputs { return p.reads.Inputs() }

// receiptEngine records the project's containers and their images as up
// left them; a container that is not running leaves no receipt.
func (p *Project) receiptEngine(ctx context.Context, r *fastup.Receipt) error {
	objs, err := p.eng.List(ctx, engine.Containers, map[string]string{labels.Project: p.Spec.Name})
	if err != nil {
		return err
	}
	r.Images = map[string]string{}
	for _, o := range objs {
		if o.State != "running" || o.NetworkIDs == nil {
			return noReceipt("container " + o.Name + " is " + o.State)
		}
		r.Containers = append(r.Containers, fastup.Container{ID: o.ID, Name: o.Name, Image: o.Image, Networks: o.NetworkIDs})
		if _, seen := r.Images[o.Image]; !seen {
			if r.Images[o.Image], err = p.eng.ImageID(ctx, o.Image); err != nil {
				return err
			}
		}
	}
	return nil
}

// NoopResult is what an up of the same project prints when nothing
// changed since res: every service's container unchanged, the same
// endpoints and warnings. The receipt keeps it, rendered.
func NoopResult(res *Result) *Result {
	out := *res
	out.basis = nil
	out.Changes = []reconcile.Change{}
	if res.basis != nil {
		for _, s := range res.basis.plan.Services {
			name := res.basis.proj.Services[s.Name].ContainerName
			out.Changes = append(out.Changes, reconcile.Change{Service: s.Name, Action: reconcile.Unchanged, Detail: "container " + name})
		}
	}
	return &out
}
