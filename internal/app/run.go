package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/compose/sdk"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/filelock"
)

// BuildOptions steer Build.
type BuildOptions struct {
	Services []string // only these; empty: all
	Frozen   bool     // refuse a missing or stale devenv.lock (exit 5) instead of relocking
	NoCache  bool
	Pull     bool
	// LockTimeout bounds the wait for another devenv changing the project; 0: until ctx ends.
	LockTimeout time.Duration
}

// UpOptions steer Up.
type UpOptions struct {
	Services    []string // only these (and what they depend on); empty: all
	Frozen      bool     // refuse a missing or stale devenv.lock (exit 5) instead of relocking
	NoStart     bool
	Wait        bool
	WaitTimeout time.Duration
	NoCache     bool
	Pull        bool // pull the images again (Compose's --pull always)
	NeverPull   bool // pull nothing; a missing image is an error (--pull never)
	NoBuild     bool // build nothing; an image not built yet is an error (Compose's --no-build)
	// Timeout is how long a container being recreated may take to stop
	// before it is killed (Compose's up -t); nil: its stop_grace_period.
	Timeout      *time.Duration
	SkipGPUCheck bool          // leave the GPU verdict to the engine
	DryRun       bool          // report what would change and change nothing (implies Frozen)
	LockTimeout  time.Duration // bounds the wait for another devenv changing the project; 0: until ctx ends
	// ForceRecreate, NoDeps and RemoveOrphans are Compose's up flags.
	ForceRecreate bool
	NoDeps        bool
	RemoveOrphans bool
	// Force recreates containers even when a running job would die with them.
	Force bool
}

// DownOptions steer Down.
type DownOptions struct {
	Services []string // only these services' containers (and images with Images); empty: the whole project
	Volumes  bool     // also remove the project's named volumes
	Images   bool     // also remove the images devenv built for the project
	DryRun   bool     // report what would be removed and remove nothing
	// LockTimeout bounds the wait for another devenv changing the project; 0: until ctx ends.
	LockTimeout time.Duration
	// Timeout is how long a container may take to stop before it is killed
	// (0: at once); nil: its service's stop_grace_period, else 10 seconds.
	Timeout *time.Duration
}

// Result is what Build, Up and Down changed.
type Result struct {
	Project   string             `json:"project"`
	Changes   []reconcile.Change `json:"changes"`
	Endpoints []ServiceEndpoint  `json:"endpoints,omitempty"`
	Warnings  []string           `json:"warnings,omitempty"`
	DryRun    bool               `json:"dry_run,omitempty"` // the changes are what would be made; none was
	// RemoteEngine names the engine when it runs on another machine: the
	// endpoints' addresses are that machine's until forwarded.
	RemoteEngine string `json:"remote_engine,omitempty"`

	basis *receiptBasis // set by a whole-project Up (see Receipt)
}

// RemovedOrphan is an orphan container (of a service the project no
// longer has) that an up with --remove-orphans removed.
type RemovedOrphan struct {
	Service   string
	Container string
}

// RemovedOrphans are the orphan containers r's up removed, in r's order:
// Compose names each one it removes.
func (r *Result) RemovedOrphans() []RemovedOrphan {
	var out []RemovedOrphan
	for _, ch := range r.Changes {
		if name, ok := strings.CutPrefix(ch.Detail, "orphan container "); ok && ch.Action == reconcile.Removed {
			out = append(out, RemovedOrphan{Service: ch.Service, Container: name})
		}
	}
	return out
}

// ServiceEndpoint is something a person can open in a service.
type ServiceEndpoint struct {
	Service string `json:"service"`
	plan.Endpoint
}

// Build builds (or pulls) the images whose inputs changed, holding the
// project lock like up.
func (p *Project) Build(ctx context.Context, o BuildOptions) (*Result, error) {
	run, err := p.begin(ctx, o.Services, o.Frozen, o.LockTimeout, false)
	if err != nil {
		return nil, err
	}
	defer run.release()
	svcs := run.plan.Services
	if len(o.Services) > 0 {
		svcs = nil
		for _, n := range o.Services {
			if s := run.plan.Service(n); s != nil {
				svcs = append(svcs, s)
			}
		}
	}
	ch, err := run.runner.Images(ctx, svcs, reconcile.BuildOptions{NoCache: o.NoCache, Pull: o.Pull})
	if err != nil {
		return nil, err
	}
	return &Result{Project: p.Spec.Name, Changes: nonNil(ch)}, nil
}

// Up checks the GPUs, builds what changed and converges the containers.
// With DryRun it makes the same checks on the same plan, then reports
// what it would change (previewUp).
func (p *Project) Up(ctx context.Context, o UpOptions) (*Result, error) {
	run, err := p.begin(ctx, o.Services, o.Frozen || o.DryRun, o.LockTimeout, o.DryRun)
	if err != nil {
		return nil, err
	}
	defer run.release()
	if err := p.upChecks(ctx, run, o); err != nil {
		return nil, err
	}
	if o.DryRun {
		return p.previewUp(ctx, run, o)
	}
	for _, w := range p.warningsToPrint(run.plan.Plan) {
		p.out.Warn("%s", w)
	}
	proj, err := run.compose()
	if err != nil {
		return nil, err
	}
	if hasGPUService(proj) {
		if err := p.recreateLostGPUs(ctx, p.dependencyOrder(o.Services)); err != nil {
			return nil, err
		}
	}
	run.runner.StopTimeout = o.Timeout
	res, err := run.runner.Up(ctx, run.plan.Plan, reconcile.UpOptions{
		Services: o.Services, NoStart: o.NoStart, Wait: o.Wait, WaitTimeout: o.WaitTimeout,
		Build:         reconcile.BuildOptions{NoCache: o.NoCache, Pull: o.Pull, NeverPull: o.NeverPull, NoBuild: o.NoBuild},
		ForceRecreate: o.ForceRecreate, NoDeps: o.NoDeps, RemoveOrphans: o.RemoveOrphans,
	})
	if err != nil {
		return nil, err
	}
	out := &Result{Project: p.Spec.Name, Changes: nonNil(res.Changes), Warnings: run.plan.Warnings,
		Endpoints: endpoints(run.plan.Plan, o.Services)}
	if p.RemoteEngine() {
		out.RemoteEngine = engine.EndpointOf(p.eng).String()
	}
	if len(o.Services) == 0 && !o.NoStart && !o.NoDeps {
		out.basis = &receiptBasis{plan: run.plan.Plan, proj: proj}
	}
	return out, nil
}

// Down removes every object labelled for the project, and nothing else.
func (p *Project) Down(ctx context.Context, o DownOptions) (*Result, error) {
	if err := p.CheckServices(o.Services); err != nil {
		return nil, err
	}
	if err := checkDown(o); err != nil {
		return nil, err
	}
	release, err := p.connectAndLock(ctx, o.DryRun, o.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer release()
	r := p.runner(nil)
	r.StopTimeout = o.Timeout
	ch, err := r.Down(ctx, p.Spec.Name, reconcile.DownOptions{Services: p.dependencyOrder(o.Services),
		Volumes: o.Volumes, Images: o.Images, DryRun: o.DryRun, Plan: p.stopPlan(ctx, o.DryRun)})
	if err != nil {
		return nil, err
	}
	return &Result{Project: p.Spec.Name, Changes: nonNil(ch), DryRun: o.DryRun}, nil
}

// Ps is the project's containers as the engine sees them, those o asks
// for; a state o names that no container has is a usage error, said
// before the engine is reached.
func (p *Project) Ps(ctx context.Context, o PsOptions) ([]reconcile.Status, error) {
	keep, err := p.psFilter(o)
	if err != nil {
		return nil, err
	}
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	st, err := p.runner(nil).Ps(ctx, p.Spec.Name)
	st = slices.DeleteFunc(st, func(s reconcile.Status) bool { return !keep(s) })
	if st == nil {
		st = []reconcile.Status{}
	}
	return st, err
}

// run is a project being changed: its fresh lock, its plan on this
// machine, the runner and the held project lock.
type run struct {
	lock    *lock.File
	plan    *Planned
	runner  *reconcile.Runner
	release func()
	proj    *types.Project // the plan rendered (project): read it through compose
}

// compose is the run's plan as the Compose project the executor runs,
// rendered on first use: what the GPU checks and the receipt read of its
// services.
func (r *run) compose() (*types.Project, error) {
	if r.proj == nil {
		proj, err := project.FromPlan(r.plan.Plan, project.Options{})
		if err != nil {
			return nil, err
		}
		r.proj = proj
	}
	return r.proj, nil
}

// begin checks the service names, makes sure the lock is fresh, connects,
// takes the project lock and plans; in that order, so a wrong name never
// locks and a stale lock is refused before the engine is asked. A dry run
// (dryRun) writes nothing: it takes no project lock and mints no Jupyter
// token, and its caller passes frozen, so that no lock is written either.
func (p *Project) begin(ctx context.Context, services []string, frozen bool, lockTimeout time.Duration, dryRun bool) (*run, error) {
	if err := p.CheckServices(services); err != nil {
		return nil, err
	}
	lf, err := p.FreshLock(ctx, frozen)
	if err != nil {
		return nil, err
	}
	release, err := p.connectAndLock(ctx, dryRun, lockTimeout)
	if err != nil {
		return nil, err
	}
	pl, err := p.Plan(ctx, PlanOptions{Lock: lf, Mint: !dryRun})
	if err != nil {
		release()
		return nil, err
	}
	return &run{lock: lf, plan: pl, runner: p.runner(lf), release: release}, nil
}

// upChecks are the preflights and guards of up, in the order up runs
// them, before anything is pulled, built or created: the host ports, the
// GPUs (unless --skip-gpu-check), the running jobs a recreate would kill
// (unless --force). up --dry-run runs exactly these, so a dry run refuses
// what up refuses, with the same error and exit code.
func (p *Project) upChecks(ctx context.Context, r *run, o UpOptions) error {
	if !o.NoStart {
		// as doctor checks them
		proj, err := r.compose()
		if err != nil {
			return err
		}
		if err := doctor.PortPreflight(ctx, p.eng, r.plan.Plan, proj, o.Services, p.portFree(), p.portOwner()); err != nil {
			return err
		}
	}
	if !o.NoStart && !o.SkipGPUCheck {
		if err := p.preflight(ctx, r, o.Services); err != nil {
			return err
		}
	}
	if !o.Force {
		if err := p.refuseKillingJobs(ctx, r, o); err != nil {
			return err
		}
	}
	return nil
}

// projectLock serialises the devenv runs that change this project; the
// wait for another devenv ends with ctx (Ctrl-C) or after timeout (0: none).
// connectAndLock connects to the engine and, unless a dry run (which
// changes nothing), takes the project lock; release lets go of it.
func (p *Project) connectAndLock(ctx context.Context, dryRun bool, timeout time.Duration) (release func(), err error) {
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	if dryRun {
		return func() {}, nil
	}
	return p.projectLock(ctx, timeout)
}

// projectLock takes the project lock, and drops the receipt of the last
// up: whoever holds the lock may change what it recorded.
func (p *Project) projectLock(ctx context.Context, timeout time.Duration) (func(), error) {
	release, err := reconcile.Lock(ctx, p.StateDir(), reconcile.LockOptions{Timeout: timeout, Project: p.Spec.Name, Waiting: func(h filelock.Holder) {
		p.out.Say("another devenv is changing this project (%s); waiting for it (Ctrl-C stops waiting; --wait-timeout bounds the wait)", h)
	}})
	if err == nil {
		p.DropReceipt()
		sweepStateTemps(p.StateDir())
	}
	return release, err
}

// sweepStateTemps removes the temporary files that a devenv killed while
// writing .devenv (the Jupyter token, the receipt, generated confs) left:
// the project lock is held, so no live writer owns one.
func sweepStateTemps(stateDir string) {
	atomicfile.SweepDir(stateDir)
	gen, _ := filepath.Glob(filepath.Join(stateDir, "generated", "*"))
	for _, d := range gen {
		if st, err := os.Lstat(d); err == nil && st.IsDir() {
			atomicfile.SweepDir(d)
		}
	}
}

func (p *Project) runner(lf *lock.File) *reconcile.Runner {
	cache, _ := p.artifactCache()
	return &reconcile.Runner{Eng: p.eng, Exec: p.executor(), Out: p.out, Cache: cache, Mirrors: p.Mirrors(), Proxies: p.buildProxies(), StateDir: p.StateDir(), Lock: lf,
		Gone: reconcile.DirGone(p.eng != nil && engine.EndpointOf(p.eng).Local, filepath.Base(p.StateDir())), ComposeVersion: sdk.Version()}
}

// executor converges the project's containers: the Compose SDK on the
// engine devenv connected to, or an engine that runs projects itself (the
// fake engine of unit tests). The SDK is made on first use only.
func (p *Project) executor() engine.Executor {
	if x, ok := p.eng.(engine.Executor); ok {
		return x
	}
	if p.exec == nil {
		p.exec = sdk.New(engine.EndpointOf(p.eng), endpoint.Options{}, p.opts.ExecEvents)
	}
	return p.exec
}

// reader reads the project's containers as Compose lists them (ps, logs,
// exec): the executor, the Compose SDK or the fake engine.
func (p *Project) reader() (engine.ProjectReader, bool) {
	rd, ok := p.executor().(engine.ProjectReader)
	return rd, ok
}

// preflight runs doctor's GPU checks for the services being started and
// stops the run (exit 4) before anything is pulled, built or created when a
// service that must have a GPU cannot get one.
func (p *Project) preflight(ctx context.Context, r *run, only []string) error {
	proj, err := r.compose()
	if err != nil {
		return err
	}
	var names []string
	gpus := false
	for _, ps := range r.plan.Services {
		if len(only) == 0 || slices.Contains(only, ps.Name) {
			names = append(names, ps.Name)
			gpus = gpus || compose.GPURequest(proj.Services[ps.Name]) != nil || ps.CPUFallback
		}
	}
	if !gpus {
		return nil // no GPU service: nothing to read through NVML or check
	}
	f := p.facts(ctx)
	return doctor.Preflight(ctx, doctor.Inputs{Engine: p.eng, Info: p.info, GPUs: f.GPUs, GPUErr: f.gpuErr,
		Project: p.Spec, Lock: r.lock, Services: names, Compose: p.composeFiles(), Host: p.opts.LocalHost()})
}

func endpoints(pl *plan.Plan, only []string) []ServiceEndpoint {
	var out []ServiceEndpoint
	for _, s := range pl.Services {
		if len(only) > 0 && !slices.Contains(only, s.Name) {
			continue
		}
		for _, e := range s.Endpoints {
			out = append(out, ServiceEndpoint{Service: s.Name, Endpoint: e})
		}
	}
	return out
}

func nonNil(ch []reconcile.Change) []reconcile.Change {
	if ch == nil {
		return []reconcile.Change{}
	}
	return ch
}
