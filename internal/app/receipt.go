package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/fastup"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// receiptBasis is what Up keeps for the receipt the next up checks
// (internal/fastup): the plan it ran (its freshness is judged by
// Project.opened, taken before the first read).
type receiptBasis struct {
	plan *plan.Plan
}

// ErrNoReceipt says why an up leaves no receipt: its next up runs in full.
var ErrNoReceipt = errors.New("no receipt")

// Receipt is the state a successful whole-project up left, for the next
// `devenv up` to compare with (text and json are what that up prints when
// nothing changed). It is ErrNoReceipt, wrapped with the reason, where a
// no-op up does more than the receipt can stand for: GPU services (their
// GPUs are checked on every up), a remote or non-unix engine, warnings it
// would print again, compose files that include or extend other files, a
// file changed while up ran.
func (p *Project) Receipt(ctx context.Context, res *Result, text, json string) (*fastup.Receipt, error) {
	b := res.basis
	if b == nil {
		return nil, noReceipt("not a whole-project up")
	}
	if err := receiptable(p, b.plan); err != nil {
		return nil, err
	}
	files, trees, skip, contexts, err := p.receiptInputs(b.plan)
	if err != nil {
		return nil, err
	}
	st, err := fastup.Fingerprint(files, trees, skip, contexts)
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
		Socket: socketPath(engine.EndpointOf(p.eng)), Files: files, Trees: trees, Skip: skip, Contexts: contexts, Inputs: st.Digest, Text: text, JSON: json}
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

func receiptable(p *Project, pl *plan.Plan) error {
	ep := engine.EndpointOf(p.eng)
	switch {
	case hasGPUService(pl) || slices.ContainsFunc(pl.Services, func(s *plan.Service) bool { return s.CPUFallback }):
		return noReceipt("GPU services are checked on every up")
	// compose warnings print once; any other warning on every up
	case ep.Kind != endpoint.Unix || !ep.Local || socketPath(ep) == "":
		return noReceipt("the engine is not a local unix socket")
	case slices.ContainsFunc(pl.Warnings, func(w string) bool { return !slices.Contains(pl.ComposeWarnings, w) }):
		return noReceipt("up has warnings to print")
	}
	for _, f := range p.Spec.Compose {
		data, err := safefile.ReadFile(f, safefile.MaxConfig)
		if err != nil || bytes.Contains(data, []byte("include")) || bytes.Contains(data, []byte("extends")) {
			return noReceipt("a compose file includes or extends other files")
		}
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

// receiptInputs are the files and directories the plan was made from:
// devenv.yaml, the lock, compose files and the .env beside each, env
// files, profile files, Dockerfiles and build contexts, bind-mount
// sources, devenv's state files that go into the plan or the output, the
// docker configuration that picks the engine, and the project directory
// itself (hidden directories and the containers' writable mounts left
// out), so that a file devenv reads without naming it is seen too.
func (p *Project) receiptInputs(pl *plan.Plan) (files, trees, skip, contexts []string, err error) {
	files = append(files, p.Spec.File, p.LockPath(), filepath.Join(p.Spec.Dir, ".env"),
		filepath.Join(p.StateDir(), "jupyter-token"), filepath.Join(p.StateDir(), composeWarningsFile))
	files = append(files, p.Spec.ProfileFiles...)
	trees = append(trees, p.Spec.Dir)
	for _, f := range p.Spec.Compose {
		files = append(files, f, filepath.Join(filepath.Dir(f), ".env"))
		trees = append(trees, filepath.Dir(f))
	}
	f, t, c := specInputs(p.Spec.Services)
	files, trees, contexts = append(files, f...), append(trees, t...), append(contexts, c...)
	for _, s := range pl.Services {
		f, c, k := serviceInputs(p.StateDir(), s)
		files, contexts, skip = append(files, f...), append(contexts, c...), append(skip, k...)
	}
	cfg, meta := fastup.DockerConfigInputs(os.Getenv)
	return append(files, cfg), append(trees, meta), skip, contexts, nil
}

func serviceInputs(stateDir string, s *plan.Service) (files, contexts, skip []string) {
	if s.Compose != nil {
		if c := s.Compose.Config; c != nil {
			for _, f := range c.Service.EnvFiles {
				files = append(files, f.Path)
			}
		}
		if b := s.Compose.Build; b != nil {
			contexts = append(contexts, b.Context)
			if b.Dockerfile != "" {
				files = append(files, join(b.Context, b.Dockerfile)) // one outside the context too
			}
		}
	}
	for name := range s.Generated {
		files = append(files, filepath.Join(plan.GeneratedDir(stateDir, s.Name), name))
	}
	for _, m := range s.Container.Mounts {
		if m.Type == engine.MountBind {
			files = append(files, m.Source)
			if !m.ReadOnly {
				skip = append(skip, m.Source)
			}
		}
	}
	return files, contexts, skip
}

func join(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// specInputs are the files devenv.yaml's services name: Dockerfiles (and
// their directory, the build context), env and requirements files, and
// the production description a service mirrors (a file or a directory).
func specInputs(svcs []*spec.Service) (files, trees, contexts []string) {
	for _, s := range svcs {
		for _, f := range []string{s.Build, s.EnvFile, s.Requirements, s.Mirror} {
			if f != "" {
				files = append(files, f)
			}
		}
		if s.Build != "" {
			contexts = append(contexts, filepath.Dir(s.Build))
		}
		if s.Mirror != "" {
			trees = append(trees, s.Mirror)
		}
	}
	return files, trees, contexts
}

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
			out.Changes = append(out.Changes, reconcile.Change{Service: s.Name, Action: reconcile.Unchanged, Detail: "container " + s.Container.Name})
		}
	}
	return &out
}
