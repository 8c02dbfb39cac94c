package cli

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/registry"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/internal/upstream"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

// outdatedTimeout bounds the whole --outdated check: the listings are read
// concurrently, each with one attempt.
const outdatedTimeout = 30 * time.Second

// outdated reads the publishers' listings through the mirrors (the
// project's devenv.yaml `mirrors:` when there is one, and DEVENV_MIRROR_*)
// and reports the releases the catalog does not know yet. It never fails
// for want of a network: it says so and exits 0.
func outdated(c *cli.Context) error {
	m, err := outdatedMirrors(c)
	if err != nil {
		return err
	}
	rep := checkUpstream(c.Context, m)
	return show(c, rep, nil, func(w io.Writer, r upstream.Report) { _, _ = io.WriteString(w, r.Text()) })
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

// outdatedMirrors are the project's mirrors, or the environment's alone
// outside a project (no devenv.yaml found is not an error here).
func outdatedMirrors(c *cli.Context) (sources.Mirrors, error) {
	file, _, err := app.Find(options(c))
	if err != nil {
		return sources.FromEnv(sources.Mirrors{}, nil), nil
	}
	if _, err := os.Stat(file); err != nil {
		return sources.FromEnv(sources.Mirrors{}, nil), nil
	}
	p, err := openProject(c)
	if err != nil {
		return sources.Mirrors{}, err
	}
	return p.Mirrors(), nil
}
