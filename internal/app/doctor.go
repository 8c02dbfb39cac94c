package app

import (
	"context"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// Doctor checks that this machine can run the project: inside a project
// its locked services, outside one the machine alone. Only a broken
// devenv.yaml (or a service named outside a project) is an error: no
// engine, no NVML or no lock are findings.
func Doctor(ctx context.Context, opts Options, services []string) (doctor.Report, error) {
	opts = opts.withDefaults()
	in := doctor.Inputs{Host: opts.LocalHost(), Services: services}
	p, err := doctorProject(ctx, opts)
	if err != nil {
		return doctor.Report{}, err
	}
	if p != nil {
		if err := p.CheckServices(services); err != nil {
			return doctor.Report{}, err
		}
		in.Project, in.Compose = p.Spec, p.composeFiles()
		in.Lock = p.doctorLock()
	} else if len(services) > 0 {
		return doctor.Report{}, exitcode.Newf(exitcode.Usage, "services %v were named, but there is no devenv.yaml here: run doctor in the project, or pass --file", services)
	}
	if in.Engine, in.EngineErr = opts.Engine(ctx); in.EngineErr == nil {
		defer func() { _ = in.Engine.Close() }()
	}
	in.GPUs, in.GPUPath, in.GPUErr = hostGPUs(ctx, opts, in.Engine, nil)
	if in.Engine != nil {
		in.Endpoint = engine.EndpointOf(in.Engine)
	}
	rep := doctor.Run(ctx, in)
	if p != nil {
		rep.Checks = append(rep.Checks, prodGPUChecks(ctx, p.Spec, in.GPUs)...)
	}
	return rep, nil
}

// doctorProject opens devenv.yaml when one is named or found; nil without.
func doctorProject(ctx context.Context, opts Options) (*Project, error) {
	if opts.File == "" && opts.Dir == "" {
		if _, _, err := Find(opts); err != nil {
			return nil, nil // outside a project: check the machine only
		}
	}
	return Open(ctx, opts)
}

// doctorLock reads devenv.lock; without one (or with a broken one) the
// lock-based checks are skipped and the user is told.
func (p *Project) doctorLock() *lock.File {
	lf, err := p.ReadLock()
	switch {
	case err != nil:
		p.out.Warn("%v; checks that need the lock are skipped (run `devenv lock`)", err)
	case lf == nil:
		p.out.Warn("no devenv.lock; driver and GPU checks need it: run `devenv lock`")
	}
	return lf
}

// FailedChecks counts the checks of a report that failed (doctor.Report.Failed
// only says whether one did), for the message of doctor's exit 4.
func FailedChecks(r doctor.Report) int {
	n := 0
	for _, ch := range r.Checks {
		if ch.Status == doctor.Fail {
			n++
		}
	}
	return n
}

// DoctorExitCode is the code doctor ends with (README "Exit codes"): 3
// when its engine check failed (the engine is unreachable: the checks
// that need it were skipped), 4 when another check failed, else 0.
func DoctorExitCode(r doctor.Report) int {
	code := exitcode.OK
	for _, ch := range r.Checks {
		switch {
		case ch.Status != doctor.Fail:
		case ch.ID == doctor.IDEngine:
			return exitcode.Engine
		default:
			code = exitcode.GPU
		}
	}
	return code
}
