package app

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/profiles"
)

// CheckServices reports a name that is not a service of the project
// (devenv.yaml's or its compose files').
func (p *Project) CheckServices(names []string) error {
	s := p.Spec
	for _, n := range names {
		if s.Service(n) == nil && !slices.Contains(s.ComposeServices, n) {
			return exitcode.Newf(exitcode.Usage, "no service %q in %s (services: %v)", n, filepath.Base(s.File), p.ServiceNames())
		}
	}
	return nil
}

// ServiceNames are devenv.yaml's services, then the compose files'.
func (p *Project) ServiceNames() []string {
	var all []string
	for _, s := range p.Spec.Services {
		all = append(all, s.Name)
	}
	return append(all, p.Spec.ComposeServices...)
}

// SparkService checks a named service, or picks the project's first
// spark-rapids service when none is named.
func (p *Project) SparkService(name string) (string, error) {
	if name != "" {
		return name, p.CheckServices([]string{name})
	}
	for _, s := range p.Spec.Services {
		if p.IsSpark(s) {
			return s.Name, nil
		}
	}
	return "", exitcode.Newf(exitcode.Usage, "%s has no spark-rapids service: name the service to use", filepath.Base(p.Spec.File))
}

// IsSpark is true for spark-rapids services, custom profiles included.
func (p *Project) IsSpark(s *spec.Service) bool {
	if s == nil {
		return false
	}
	return p.Spec.BaseProfile(s) == profiles.SparkRapids
}

// mirrorTarget picks the service that mirrors prod: the named one, else the
// first spark-rapids service.
func (p *Project) mirrorTarget(name string) (*spec.Service, error) {
	if name != "" {
		if err := p.CheckServices([]string{name}); err != nil {
			return nil, err
		}
		if s := p.Spec.Service(name); s != nil {
			return s, nil
		}
		return nil, exitcode.Newf(exitcode.Usage, "%s is a compose service: only devenv.yaml's spark-rapids services mirror prod", name)
	}
	for _, s := range p.Spec.Services {
		if p.IsSpark(s) {
			return s, nil
		}
	}
	return nil, exitcode.Newf(exitcode.Usage, "no spark-rapids service to mirror into: add one to devenv.yaml or pass --service")
}

// NotRunning turns the engine's "no such container" into what to do.
func NotRunning(err error, service string) error {
	if errors.Is(err, engine.ErrNotFound) {
		return exitcode.Newf(exitcode.Failure, "service %s is not running: run devenv up %s", service, service)
	}
	return err
}

// containerOf is the name of service's container: <project>-<service> for
// devenv's own services, and for a compose service the one container
// labelled with it (its container_name, when the file names one), else
// <project>-<service> so that a missing container is reported as before.
func (p *Project) containerOf(ctx context.Context, eng engine.Engine, service string) string {
	name := plan.ContainerName(p.Spec.Name, service)
	if p.Spec.Service(service) != nil {
		return name
	}
	objs, err := eng.List(ctx, engine.Containers, plan.Labels(p.Spec.Name, service))
	if err != nil || len(objs) != 1 || objs[0].Name == "" {
		return name
	}
	return objs[0].Name
}

// EnabledServices are the services an up of the whole project runs, as
// `docker compose config --services` lists them: devenv.yaml's and the
// compose files' of the profiles enabled (--profile, COMPOSE_PROFILES),
// each after what it depends on.
func (p *Project) EnabledServices(ctx context.Context) ([]string, error) {
	var names []string
	deps := map[string][]string{}
	if len(p.Spec.Compose) > 0 {
		svcs, err := p.composeFiles().Services(ctx, nil)
		if err != nil {
			return nil, err
		}
		for _, s := range svcs {
			names = append(names, s.Name)
			deps[s.Name] = s.DependsOn
		}
		slices.Sort(names)
	}
	for _, s := range p.Spec.Services {
		names = append(names, s.Name)
		deps[s.Name] = s.DependsOn
	}
	return dependenciesFirst(names, deps), nil
}

// dependenciesFirst orders names so each comes after what it depends on,
// otherwise in the order given.
func dependenciesFirst(names []string, deps map[string][]string) []string {
	var out []string
	done := map[string]bool{}
	var visit func(n string)
	visit = func(n string) {
		if done[n] {
			return
		}
		done[n] = true
		for _, d := range deps[n] {
			if _, ok := deps[d]; ok {
				visit(d)
			}
		}
		out = append(out, n)
	}
	for _, n := range names {
		visit(n)
	}
	return out
}
