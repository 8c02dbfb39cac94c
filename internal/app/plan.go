package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/compose/export"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// Where a plan's versions and images came from.
const (
	FromLock       = "lock"       // a fresh devenv.lock
	FromStaleLock  = "stale lock" // devenv.lock no longer matches devenv.yaml; shown as pinned
	FromResolution = "resolution" // no devenv.lock: resolved now, images by tag, nothing pinned
)

// PlanOptions steer Plan.
type PlanOptions struct {
	// Lock plans from this lock (up and build pass the fresh one); nil
	// reads devenv.lock, and plans from resolution alone without one.
	Lock *lock.File
	// Portable leaves this machine out: no NVML placement, no engine
	// verdict on GPUs (exports, which run elsewhere).
	Portable bool
	// OptionalOnCPU plans `gpu: optional` services on the CPU (exports
	// that must start on machines without a GPU).
	OptionalOnCPU bool
	// Resolve ignores devenv.lock and plans from resolution alone (what
	// devenv lock would pick now).
	Resolve bool
	// Mint makes the project's Jupyter token when there is none yet (up,
	// build, exports); otherwise an existing one is used.
	Mint bool
}

// Planned is a plan and where it came from.
type Planned struct {
	*plan.Plan
	From  string `json:"from"`
	Stale error  `json:"-"` // why devenv.lock is stale, when From is FromStaleLock
}

// Plan is the one place a project's plan is made: the same host facts,
// mirrors, state directory, artifact cache and token for every command.
func (p *Project) Plan(ctx context.Context, o PlanOptions) (*Planned, error) {
	lf, from, stale, err := p.planLock(ctx, o.Lock)
	if o.Resolve {
		lf, from, stale, err = nil, FromResolution, nil, nil
	}
	if err != nil {
		return nil, err
	}
	opts, err := p.planOptions(o.Mint)
	if err != nil {
		return nil, err
	}
	opts.Ctx = ctx
	host := func() (plan.Host, error) { return p.planHost(ctx, o) }
	var pl *plan.Plan
	if from == FromResolution {
		h := plan.Host{OptionalOnCPU: o.OptionalOnCPU}
		if plan.NeedsHost(p.Spec, opts) {
			if h, err = host(); err != nil {
				return nil, err
			}
		}
		pl, err = export.PlanUnlocked(p.Spec, h, opts)
	} else {
		pl, err = plan.MakeFor(p.Spec, lf, host, opts)
	}
	if err != nil {
		return nil, err
	}
	return &Planned{Plan: pl, From: from, Stale: stale}, nil
}

// planHost is the machine's facts for a plan that depends on them: the
// engine's CPUs and memory, NVML's GPUs; without the machine's GPUs for a
// portable plan.
func (p *Project) planHost(ctx context.Context, o PlanOptions) (plan.Host, error) {
	if err := p.engineFacts(ctx); err != nil {
		return plan.Host{}, err
	}
	h := p.Host(ctx)
	if o.Portable {
		h = plan.Host{CPUs: h.CPUs, MemoryBytes: h.MemoryBytes}
	}
	h.OptionalOnCPU = o.OptionalOnCPU
	return h, nil
}

func (p *Project) planLock(ctx context.Context, given *lock.File) (*lock.File, string, error, error) {
	if given != nil {
		return given, FromLock, nil, nil
	}
	lf, err := p.ReadLock()
	switch {
	case err != nil:
		return nil, "", nil, err
	case lf == nil:
		return nil, FromResolution, nil, nil
	}
	if why := p.Stale(ctx, lf); why != nil {
		return lf, FromStaleLock, why, nil
	}
	return lf, FromLock, nil, nil
}

// RemoteEngine reports whether the connected engine runs on another
// machine (false before a connection: plans made without an engine, such
// as config's, are this machine's).
func (p *Project) RemoteEngine() bool { return p.eng != nil && !engine.EndpointOf(p.eng).Local }

func (p *Project) planOptions(mint bool) (plan.Options, error) {
	remote := p.RemoteEngine()
	opts := plan.Options{Mirrors: p.Mirrors(), StateDir: p.StateDir(), Remote: remote, ImageUser: images.HostUser(!remote),
		Compose: p.composeFiles(), Reads: p.reads}
	if cache, err := p.artifactCache(); err == nil {
		opts.ArtifactPath = cache.Path
	}
	tok, err := p.JupyterToken(mint)
	opts.Token = tok
	return opts, err
}

// JupyterToken is the project's Jupyter token, kept in .devenv/ (never in
// an image, the lock or a log). With mint it is made when missing; without,
// a missing token is "".
func (p *Project) JupyterToken(mint bool) (string, error) {
	path := filepath.Join(p.StateDir(), "jupyter-token")
	p.reads.File(path)
	b, err := statedir.ReadFile(p.StateDir(), path, safefile.MaxState)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// a link (to any file), a FIFO, a directory: never read, never replaced
		return "", fmt.Errorf("the Jupyter token: %w", err)
	}
	if err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	if !mint {
		return "", nil
	}
	if err := p.ensureStateDir(); err != nil {
		return "", err
	}
	buf := make([]byte, 24)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(buf)
	return tok, statedir.WriteFile(p.StateDir(), path, []byte(tok+"\n"), 0o600)
}

// ensureStateDir makes .devenv/ with a .gitignore that keeps it out of git.
func (p *Project) ensureStateDir() error {
	dir := p.StateDir()
	if err := statedir.MkdirAll(dir, dir); err != nil {
		return err
	}
	gi := filepath.Join(dir, ".gitignore")
	if err := statedir.Check(dir, gi); err != nil {
		return err
	}
	if _, err := os.Lstat(gi); os.IsNotExist(err) {
		return statedir.WriteFile(dir, gi, []byte("*\n"), 0o644)
	}
	return nil
}
