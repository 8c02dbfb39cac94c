package sdk

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
	composesdk "github.com/docker/compose/v5/pkg/compose"
	"golang.org/x/sync/errgroup"
)

var _ engine.Watcher = (*Executor)(nil)

// WatchProject applies the develop.watch rules of watch.Services with the
// Compose SDK's Watch, on the engine devenv resolved (a remote one too:
// the SDK copies through the Engine API), until ctx ends.
//
// Rebuild rules are the exception, and stay devenv's. The SDK's Watch
// offers no hook for them: api.WatchOptions carries only Build, LogTo,
// Prune and Services, and a rebuild is the SDK's own build and recreate
// (with Build nil, as devenv runs the SDK, it refuses the whole watch:
// "--no-build is incompatible with watch action rebuild"). devenv builds
// its images itself (through its mirrors, FROM pinned by the lock, with
// its cache), so the project the SDK watches is handed over without its
// rebuild rules, and those are watched beside it with Compose's own watch
// package, matched as the SDK matches its rules (watchRebuilds), each
// change handed to watch.Rebuild: devenv's build and up of the service.
func (x *Executor) WatchProject(ctx context.Context, watch engine.ProjectWatch) error {
	sdkProj, sdkServices, rebuilds, err := splitRebuilds(watch.Project, watch.Services)
	if err != nil {
		return err
	}
	log := &watchLog{emit: x.events.emit, dir: watch.Project.WorkingDir}
	defer routeWarnings(x.events.emit)()
	var c api.Compose
	if len(sdkServices) > 0 {
		var closeSDK func()
		if c, closeSDK, err = x.watchCompose(log); err != nil {
			return err
		}
		defer closeSDK()
	}
	g, ctx := errgroup.WithContext(ctx)
	if len(rebuilds) > 0 {
		wait, err := watchRebuilds(ctx, rebuilds, watch.Rebuild, log)
		if err != nil {
			return err
		}
		g.Go(wait)
	}
	if c == nil {
		// only rebuild rules: no SDK watch, so devenv says what it would
		log.Log(api.WatchLogger, "Watch enabled")
		err := g.Wait()
		log.Log(api.WatchLogger, "Watch disabled")
		return err
	}
	g.Go(func() error {
		err := c.Watch(ctx, sdkProj, api.WatchOptions{LogTo: log, Services: sdkServices})
		return x.classify("watch the develop.watch rules", err)
	})
	err = g.Wait()
	log.flush()
	if errors.Is(err, context.Canceled) {
		return nil // Ctrl-C, or the other half ended
	}
	return err
}

// watchCompose is an SDK of its own for the watch: what a sync+exec
// command prints (the SDK writes it to the docker CLI's streams) goes to
// log, line by line, instead of devenv's stdout, which holds the result.
func (x *Executor) watchCompose(log *watchLog) (api.Compose, func(), error) {
	if x.ep == nil {
		return nil, nil, fmt.Errorf("the Compose SDK needs the engine's address, and this engine gave none")
	}
	out := log.output()
	cli, err := dockercli.New(x.ep, x.opts, dockercli.CLIOptions{Out: out, Err: out, Answer: engine.AnswerTimeout()})
	if err != nil {
		return nil, nil, err
	}
	c, err := composesdk.NewComposeService(cli,
		composesdk.WithEventProcessor(&events{emit: x.events.emit}),
		composesdk.WithPrompt(composesdk.AlwaysOkPrompt()))
	if err != nil {
		_ = cli.Client().Close()
		return nil, nil, err
	}
	return c, func() { _ = cli.Client().Close() }, nil
}

// splitRebuilds is proj as the SDK watches it: the rebuild rules of the
// watched services left out (a service with nothing else left out of the
// services too), and those rules on their own. A rebuild rule of a service
// without build: is refused, as Compose refuses it.
func splitRebuilds(proj *types.Project, services []string) (*types.Project, []string, []rebuildRule, error) {
	out := *proj
	out.Services = types.Services{}
	var sdkServices []string
	var rebuilds []rebuildRule
	for _, name := range slices.Sorted(maps.Keys(proj.Services)) {
		s := proj.Services[name]
		if !slices.Contains(services, name) || s.Develop == nil {
			out.Services[name] = s
			continue
		}
		dev := *s.Develop
		dev.Watch = nil
		for _, t := range s.Develop.Watch {
			if t.Action != types.WatchActionRebuild {
				dev.Watch = append(dev.Watch, t)
				continue
			}
			r, err := newRebuildRule(s, t, proj.WorkingDir)
			if err != nil {
				return nil, nil, nil, err
			}
			rebuilds = append(rebuilds, r)
		}
		s.Develop = &dev
		if len(dev.Watch) == 0 {
			s.Develop = nil
		} else {
			sdkServices = append(sdkServices, name)
		}
		out.Services[name] = s
	}
	return &out, sdkServices, rebuilds, nil
}
