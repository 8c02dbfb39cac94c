package app

import (
	"context"
	"os"
	"time"

	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/registry"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/internal/upstream"
	"github.com/devenv-dev/devenv/profiles"
)

// outdatedTimeout bounds the whole check of the publishers' listings: they
// are read concurrently, each with one attempt.
const outdatedTimeout = 30 * time.Second

// Outdated reads the publishers' listings (Maven, NGC, Apache) through
// the mirrors, the project's devenv.yaml `mirrors:` when opts names one
// and DEVENV_MIRROR_*, and reports the releases the catalog does not know
// yet (`devenv profiles --outdated`; the report's Text is for people). It
// never fails for want of a network: the report says so.
func Outdated(ctx context.Context, opts Options) (upstream.Report, error) {
	m, err := outdatedMirrors(ctx, opts)
	if err != nil {
		return upstream.Report{}, err
	}
	return checkUpstream(ctx, m), nil
}

// UpstreamNotes name what the publishers have that the catalog does not
// know yet, read through p's mirrors: lock --upgrade says them, as what
// an upgrade cannot move to yet.
func (p *Project) UpstreamNotes(ctx context.Context) []string {
	return checkUpstream(ctx, p.Mirrors()).Notes()
}

func checkUpstream(ctx context.Context, m sources.Mirrors) upstream.Report {
	ctx, cancel := context.WithTimeout(ctx, outdatedTimeout)
	defer cancel()
	l := httpx.DefaultLimits()
	l.Attempts = 1
	return upstream.Check(ctx, profiles.Builtin().Known(), upstream.Sources{
		Mirrors: m, HTTP: httpx.Client(l), Tags: registry.Pinner{Transport: httpx.Transport(l)},
	})
}

// outdatedMirrors are the mirrors of the project opts names, or the
// environment's alone outside a project (no devenv.yaml found is not an
// error here).
func outdatedMirrors(ctx context.Context, opts Options) (sources.Mirrors, error) {
	file, _, err := Find(opts)
	if err != nil {
		return sources.FromEnv(sources.Mirrors{}, nil), nil
	}
	if _, err := os.Stat(file); err != nil {
		return sources.FromEnv(sources.Mirrors{}, nil), nil
	}
	p, err := Open(ctx, opts)
	if err != nil {
		return sources.Mirrors{}, err
	}
	defer p.Close()
	return p.Mirrors(), nil
}
