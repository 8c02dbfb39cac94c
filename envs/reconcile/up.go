package reconcile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/hashicorp/go-multierror"
)

// UpOptions steer Up.
type UpOptions struct {
	Services    []string // only these (and what they depend on); empty: all
	NoStart     bool     // create containers but do not start them
	Build       BuildOptions
	Wait        bool          // wait until every started service is healthy
	WaitTimeout time.Duration // for Wait
	DryRun      bool          // report what would change and change nothing
}

// UpResult says what Up did.
type UpResult struct {
	Changes []Change `json:"changes"`
}

// Up converges the engine to the plan. Re-running it on an unchanged,
// running project changes nothing.
func (r *Runner) Up(ctx context.Context, pl *plan.Plan, opts UpOptions) (*UpResult, error) {
	svcs, err := selectServices(pl, opts.Services)
	if err != nil {
		return nil, err
	}
	if opts.DryRun {
		return r.preview(ctx, pl, svcs, opts)
	}
	if err := envFilesPresent(svcs); err != nil {
		return nil, err
	}
	res := &UpResult{}
	changes, err := r.Images(ctx, svcs, opts.Build)
	res.Changes = append(res.Changes, changes...)
	if err != nil {
		return res, err
	}
	if err := r.writeGenerated(svcs); err != nil {
		return res, err
	}
	if err := r.ensureShared(ctx, pl); err != nil {
		return res, err
	}
	existing, err := r.containersByName(ctx, pl.Project)
	if err != nil {
		return res, err
	}
	for _, lvl := range levels(svcs) {
		changes, err := r.converge(ctx, lvl, existing, opts)
		res.Changes = append(res.Changes, changes...)
		if err != nil {
			return res, err
		}
	}
	if opts.Wait && !opts.NoStart {
		return res, r.WaitHealthy(ctx, svcs, opts.WaitTimeout)
	}
	return res, nil
}

func (r *Runner) ensureShared(ctx context.Context, pl *plan.Plan) error {
	if _, err := r.Eng.EnsureNetwork(ctx, pl.Network, plan.Labels(pl.Project, "")); err != nil {
		return err
	}
	for _, v := range pl.Volumes {
		if err := r.Eng.EnsureVolume(ctx, v, plan.Labels(pl.Project, "")); err != nil {
			return err
		}
	}
	return nil
}

// writeGenerated writes each service's generated files (spark-defaults.conf)
// where its read-only mount expects them, atomically.
func (r *Runner) writeGenerated(svcs []*plan.Service) error {
	for _, s := range svcs {
		if len(s.Generated) == 0 {
			continue
		}
		dir := plan.GeneratedDir(r.StateDir, s.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for name, data := range s.Generated {
			if _, err := atomicfile.WriteIfChanged(filepath.Join(dir, name), data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Runner) containersByName(ctx context.Context, project string) (map[string]engine.Object, error) {
	objs, err := r.projectObjects(ctx, engine.Containers, project)
	if err != nil {
		return nil, err
	}
	out := map[string]engine.Object{}
	for _, o := range objs {
		out[o.Name] = o
	}
	return out, nil
}

// converge handles one dependency level, its services in parallel.
func (r *Runner) converge(ctx context.Context, svcs []*plan.Service, existing map[string]engine.Object, opts UpOptions) ([]Change, error) {
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		changes []Change
		errs    *multierror.Error
	)
	for _, s := range svcs {
		wg.Add(1)
		go func(s *plan.Service) {
			defer wg.Done()
			c, err := r.one(ctx, s, existing, opts)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = multierror.Append(errs, fmt.Errorf("service %s: %w", s.Name, err))
			}
			if c.Action != "" {
				changes = append(changes, c)
			}
		}(s)
	}
	wg.Wait()
	return changes, errs.ErrorOrNil()
}

// one converges a single service's container.
func (r *Runner) one(ctx context.Context, s *plan.Service, existing map[string]engine.Object, opts UpOptions) (Change, error) {
	name := s.Container.Name
	cur, ok := existing[name]
	if ok && cur.Labels[labels.ConfigHash] == s.ConfigHash {
		if cur.State == "running" || opts.NoStart {
			return Change{Service: s.Name, Action: Unchanged}, nil
		}
		return Change{Service: s.Name, Action: Started}, r.start(ctx, s, cur.ID)
	}
	action := Created
	if ok {
		action = Recreated
		if err := r.removeContainer(ctx, cur.ID); err != nil {
			return Change{}, err
		}
	}
	id, err := r.Eng.Create(ctx, s.Container)
	if err != nil {
		return Change{}, createError(name, err)
	}
	if opts.NoStart {
		return Change{Service: s.Name, Action: action}, nil
	}
	return Change{Service: s.Name, Action: action}, r.start(ctx, s, id)
}

func (r *Runner) start(ctx context.Context, s *plan.Service, id string) error {
	if err := r.Eng.Start(ctx, id); err != nil {
		return err
	}
	return nil
}

func (r *Runner) removeContainer(ctx context.Context, id string) error {
	if err := r.Eng.Stop(ctx, id, 10*time.Second); err != nil && !isNotFound(err) {
		return err
	}
	if err := r.Eng.Remove(ctx, engine.Containers, id, false); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}

func createError(name string, err error) error {
	if isConflict(err) {
		return fmt.Errorf("a container named %s already exists and devenv did not create it (it has no devenv label): rename or remove it, or change `name:` in devenv.yaml: %w", name, err)
	}
	return err
}

// envFilesPresent refuses, before anything is built or created, services
// whose env_file is missing: a container made without it would run without
// the variables (often secrets) the user meant it to have.
func envFilesPresent(svcs []*plan.Service) error {
	var errs *multierror.Error
	for _, s := range svcs {
		if s.Replica != "" {
			continue // reported for the service it belongs to
		}
		if err := s.EnvFileError(); err != nil {
			errs = multierror.Append(errs, err)
		}
	}
	return errs.ErrorOrNil()
}

// preview is Up with DryRun: the changes Up would make, from what the
// engine has now, making none (no pull, build, network, file or container).
func (r *Runner) preview(ctx context.Context, pl *plan.Plan, svcs []*plan.Service, opts UpOptions) (*UpResult, error) {
	res := &UpResult{}
	for _, s := range svcs {
		c, err := r.imagePreview(ctx, s, opts.Build)
		if err != nil {
			return nil, err
		}
		if c != nil {
			res.Changes = append(res.Changes, *c)
		}
	}
	shared, err := r.sharedPreview(ctx, pl)
	if err != nil {
		return nil, err
	}
	res.Changes = append(res.Changes, shared...)
	existing, err := r.containersByName(ctx, pl.Project)
	if err != nil {
		return nil, err
	}
	for _, s := range svcs {
		res.Changes = append(res.Changes, containerPreview(s, existing, opts.NoStart))
	}
	return res, nil
}

func (r *Runner) imagePreview(ctx context.Context, s *plan.Service, opts BuildOptions) (*Change, error) {
	ok, err := r.Eng.ImageExists(ctx, s.Image)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Build == nil && (!ok || opts.Pull):
		return &Change{Service: s.Name, Action: Pulled, Detail: s.Image}, nil
	case s.Build != nil && (!ok || opts.Pull || opts.NoCache):
		return &Change{Service: s.Name, Action: Built, Detail: s.Image}, nil
	}
	return nil, nil
}

func (r *Runner) sharedPreview(ctx context.Context, pl *plan.Plan) ([]Change, error) {
	var out []Change
	want := map[engine.Kind][]string{engine.Networks: {pl.Network}, engine.Volumes: pl.Volumes}
	for _, k := range []engine.Kind{engine.Networks, engine.Volumes} {
		have, err := r.projectObjects(ctx, k, pl.Project)
		if err != nil {
			return nil, err
		}
		for _, name := range want[k] {
			if !hasObject(have, name) {
				out = append(out, Change{Action: Created, Detail: string(k) + " " + name})
			}
		}
	}
	return out, nil
}

func hasObject(objs []engine.Object, name string) bool {
	for _, o := range objs {
		if o.Name == name {
			return true
		}
	}
	return false
}

// containerPreview is what one would do to a service's container.
func containerPreview(s *plan.Service, existing map[string]engine.Object, noStart bool) Change {
	ch := Change{Service: s.Name, Detail: "container " + s.Container.Name}
	cur, ok := existing[s.Container.Name]
	switch {
	case !ok:
		ch.Action = Created
	case cur.Labels[labels.ConfigHash] != s.ConfigHash:
		ch.Action = Recreated
	case cur.State == "running" || noStart:
		ch.Action = Unchanged
	default:
		ch.Action = Started
	}
	return ch
}
