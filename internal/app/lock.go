package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/registry"
)

// LockOptions steer Lock.
type LockOptions struct {
	Check    bool     // only say whether devenv.lock is fresh (a *lock.StaleError when not); no network
	Upgrade  bool     // newest compatible versions and digests
	Services []string // with Upgrade: only these services
}

// LockResult is what Lock did.
type LockResult struct {
	File     string         `json:"file"`
	Changed  bool           `json:"changed"`
	Fresh    bool           `json:"fresh"`
	Services []lock.Service `json:"services,omitempty"`
	// Notes are what the new lock says about its pins (a local image
	// pinned by ID, ...).
	Notes []string `json:"notes,omitempty"`
	// Changes say what the new lock pins differently from the one before
	// ("service spark: java 17 -> 11"); a first lock lists its services.
	Changes []string `json:"changes,omitempty"`
	// UpToDate: devenv.lock already matched devenv.yaml, nothing was resolved.
	UpToDate bool `json:"-"`
}

// ReadLock reads devenv.lock; a missing lock is (nil, nil).
func (p *Project) ReadLock() (*lock.File, error) {
	p.reads.File(p.LockPath())
	f, err := lock.Read(p.LockPath())
	if errors.Is(err, lock.ErrNoLock) {
		return nil, nil
	}
	return f, err
}

// Stale says why devenv.lock does not match devenv.yaml; nil when it does.
func (p *Project) Stale(ctx context.Context, lf *lock.File) error {
	if lf == nil {
		return &lock.StaleError{Reasons: []string{"there is no devenv.lock"}}
	}
	return lock.CheckAgainstWith(ctx, p.asLocked(p.Spec), lf, p.catalog(), p.composeFiles())
}

// asLocked is sp as the lock sees it: under devenv.yaml's name. A
// run-time name (-p, COMPOSE_PROJECT_NAME) names the containers, network
// and volumes, as with Compose; it is no lock input, so it never makes
// devenv.lock stale nor rewrites it.
func (p *Project) asLocked(sp *spec.Project) *spec.Project {
	if p.fileName == "" || sp.Name == p.fileName {
		return sp
	}
	named := *sp
	named.Name = p.fileName
	return &named
}

// Lock writes devenv.lock when it changes (or, with Check, only checks it).
func (p *Project) Lock(ctx context.Context, o LockOptions) (*LockResult, error) {
	if err := p.CheckServices(o.Services); err != nil {
		return nil, err
	}
	if len(o.Services) > 0 && !o.Upgrade {
		return nil, exitcode.Newf(exitcode.Usage, "naming services needs --upgrade (devenv lock --upgrade %s)", o.Services[0])
	}
	prev, readErr := p.ReadLock()
	if o.Check {
		if readErr != nil {
			return nil, readErr
		}
		if err := p.Stale(ctx, prev); err != nil {
			return nil, err
		}
		return &LockResult{File: p.LockPath(), Fresh: true, UpToDate: true}, nil
	}
	if _, _, damaged := lock.Damaged(readErr); readErr != nil && !damaged && !o.Upgrade {
		return nil, readErr
	}
	why := readErr
	if prev != nil {
		why = p.Stale(ctx, prev)
		if why == nil && !o.Upgrade {
			return &LockResult{File: p.LockPath(), Fresh: true, UpToDate: true, Services: prev.Services}, nil
		}
	}
	keep, repairNotes := trusted(prev, why)
	f, err := p.generate(ctx, p.Spec, keep, o)
	if err != nil {
		return nil, err
	}
	changed, err := lock.Write(p.LockPath(), f)
	if err != nil {
		return nil, err
	}
	return &LockResult{File: p.LockPath(), Changed: changed, Fresh: true, Services: f.Services,
		Notes: append(repairNotes, f.Notes...), Changes: lock.Changes(prev, f)}, nil
}

// trusted is what of prev a relock may keep: all of it unless why says it
// is damaged, then nothing of the damaged services (or of the whole file),
// with a note saying so.
func trusted(prev *lock.File, why error) (*lock.File, []string) {
	services, all, damaged := lock.Damaged(why)
	if !damaged {
		return prev, nil
	}
	if all || prev == nil {
		return nil, []string{"devenv.lock could not be trusted (" + why.Error() + "); it was written again from devenv.yaml"}
	}
	keep := *prev
	keep.Services = nil
	var names []string
	for _, s := range prev.Services {
		if services[s.Name] {
			names = append(names, s.Name)
			continue
		}
		keep.Services = append(keep.Services, s)
	}
	return &keep, []string{fmt.Sprintf("devenv.lock's entries for %s did not agree with the catalog or themselves; they were resolved again", strings.Join(names, ", "))}
}

// FreshLock is the lock up, build and repro run from: with frozen a
// missing or stale lock is refused (exit 5), otherwise the project is
// relocked, once the engine answered, and the user told so.
func (p *Project) FreshLock(ctx context.Context, frozen bool) (*lock.File, error) {
	lf, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	why := p.Stale(ctx, lf)
	if why == nil {
		return lf, nil
	}
	var (
		damaged *lock.IntegrityError
		stale   *lock.StaleError
	)
	if frozen || errors.As(why, &damaged) || !errors.As(why, &stale) {
		// a damaged lock is never relocked from silently, and a compose
		// file that does not load is reported, not taken for staleness
		return nil, why
	}
	// The engine is needed next; an unreachable one is said (exit 3) before
	// the registries and artifact mirrors are asked for anything.
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	p.out.Say("devenv.lock is missing or stale; locking now (use --frozen to refuse instead)")
	nf, err := p.generate(ctx, p.Spec, lf, LockOptions{})
	if err != nil {
		return nil, err
	}
	if _, err := lock.Write(p.LockPath(), nf); err != nil {
		return nil, err
	}
	return nf, nil
}

// generate resolves and pins sp (the project, or the project as it would
// be after an edit) keeping what prev pinned.
func (p *Project) generate(ctx context.Context, sp *spec.Project, prev *lock.File, o LockOptions) (*lock.File, error) {
	pin, fetcher := p.opts.Pinner, p.opts.Fetcher
	if pin == nil {
		pin = registry.Pinner{}
	}
	if fetcher == nil {
		cache, err := p.artifactCache()
		if err != nil {
			return nil, err
		}
		fetcher = cache
	}
	p.out.Step("lock", "resolving and pinning "+fmt.Sprint(len(sp.Services))+" services")
	lim := p.resolutionDriver(ctx)
	return lock.Generate(ctx, p.asLocked(sp), prev, p.catalog(), pin, fetcher, lock.Options{
		Upgrade: o.Upgrade, Services: o.Services, Mirrors: p.Mirrors(), Local: localImages{p},
		Driver: lim.Driver, DriverRule: lim.Rule, DataCenter: lim.DataCenter, Compose: p.composeFiles(),
	})
}

// localImages reads compose services' local images from the engine,
// connecting only when the lock needs one.
type localImages struct{ p *Project }

func (l localImages) ImageID(ctx context.Context, ref string) (string, error) {
	if err := l.p.connect(ctx); err != nil {
		return "", err
	}
	return l.p.eng.ImageID(ctx, ref)
}
