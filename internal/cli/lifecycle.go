package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// The environment's life cycle: build, up, down, ps and the per-service
// verbs.

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "build the images whose inputs changed",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "frozen", Usage: "refuse a missing or stale devenv.lock (exit 5)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild without the build cache"},
			&cli.BoolFlag{Name: "pull", Usage: "pull base images again"},
			lockTimeoutFlag(),
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			res, err := p.Build(c.Context, app.BuildOptions{Services: args(c), Frozen: c.Bool("frozen"), NoCache: c.Bool("no-cache"), Pull: c.Bool("pull"), LockTimeout: lockTimeout(c)})
			return show(c, res, err, view.Build)
		}),
	}
}

func upCommand() *cli.Command {
	return &cli.Command{
		Name:      "up",
		Usage:     "build what changed and start the environment",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "frozen", Usage: "refuse a missing or stale devenv.lock (exit 5) instead of relocking"},
			&cli.BoolFlag{Name: "no-start", Usage: "create the containers but do not start them"},
			&cli.BoolFlag{Name: "wait", Usage: "wait until every service is healthy"},
			&cli.GenericFlag{Name: "wait-timeout", Value: &secondsOrDuration{5 * time.Minute}, DefaultText: "5m", Usage: "how long --wait waits for health, in seconds (as Compose) or as 5m; when given, also how long to wait for another devenv changing the project (default: until Ctrl-C)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild images without the build cache"},
			&cli.BoolFlag{Name: "build", Usage: "accepted for Compose's habit: up always builds the images whose inputs (Dockerfile, context, pins) changed, so an unchanged image is the one --build would make; --no-cache rebuilds from scratch"},
			&cli.BoolFlag{Name: "no-build", Usage: "build nothing: a service whose image is not built yet is an error (devenv build makes it)"},
			&cli.IntFlag{Name: "timeout", Aliases: []string{"t"}, Usage: "seconds a container being recreated has to stop before it is killed (default: its service's stop_grace_period, else 10)"},
			&cli.GenericFlag{Name: "pull", Value: &pullPolicy{}, Usage: "`POLICY`: always (bare --pull: pull the images again), missing (the default) or never (a missing image is an error)"},
			&cli.BoolFlag{Name: "skip-gpu-check", Usage: "let the engine decide whether it can give GPUs"},
			composeProfileFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be pulled, built, created, recreated or started, and change nothing (a stale lock is refused as with --frozen)"},
			&cli.BoolFlag{Name: "detach", Aliases: []string{"d"}, Usage: "accepted for Compose's habit: devenv always runs the containers in the background"},
			&cli.BoolFlag{Name: "force-recreate", Usage: "recreate the containers even when nothing changed"},
			&cli.BoolFlag{Name: "no-deps", Usage: "start only the services named, not what they depend on"},
			&cli.BoolFlag{Name: "remove-orphans", Usage: "remove the containers of services the project no longer has (up names them without it)"},
			&cli.BoolFlag{Name: "force", Usage: "recreate containers even when a running job (devenv submit) would die with them"},
			&cli.BoolFlag{Name: "watch", Aliases: []string{"w"}, Usage: "then apply the compose services' develop.watch rules and, on a remote engine, sync the project and forward its ports until Ctrl-C (devenv watch)"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			if c.Bool("build") && c.Bool("no-build") {
				return app.Exitf(app.ExitUsage, "--build and --no-build cannot go together (as with Compose)")
			}
			if c.Bool("no-build") && (c.Bool("no-cache") || pullOf(c) == "always") {
				return app.Exitf(app.ExitUsage, "--no-build builds nothing: leave out --no-cache and --pull always, which rebuild")
			}
			res, err := p.Up(c.Context, app.UpOptions{
				Services: args(c), Frozen: c.Bool("frozen"), NoStart: c.Bool("no-start"), Wait: c.Bool("wait"),
				NoBuild: c.Bool("no-build"), Timeout: stopTimeout(c),
				WaitTimeout: durationOf(c, "wait-timeout"), NoCache: c.Bool("no-cache"), Pull: pullOf(c) == "always", NeverPull: pullOf(c) == "never", SkipGPUCheck: c.Bool("skip-gpu-check"),
				LockTimeout: lockTimeout(c), DryRun: boolOpt(c, "dry-run"),
				ForceRecreate: c.Bool("force-recreate"), NoDeps: c.Bool("no-deps"), RemoveOrphans: c.Bool("remove-orphans"), Force: c.Bool("force"),
			})
			if err := show(c, res, err, upText); err != nil || !c.Bool("watch") || boolOpt(c, "dry-run") {
				if err == nil && !boolOpt(c, "dry-run") {
					leaveReceipt(c, p, res)
				}
				return err
			}
			return watch(c, p, app.WatchOptions{})
		}),
	}
}

// upText is up's result: the view's summary, then each orphan container
// --remove-orphans removed, one a line (Compose names each it removes).
func upText(w io.Writer, r *app.Result) {
	view.Up(w, r)
	if r.DryRun {
		return
	}
	for _, o := range r.RemovedOrphans() {
		fmt.Fprintf(w, "  removed orphan container %s (service %s)\n", o.Container, o.Service)
	}
}

func downCommand() *cli.Command {
	return &cli.Command{
		Name:      "down",
		Usage:     "stop and remove the project's containers and network (with services: only their containers)",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "volumes", Aliases: []string{"v"}, Usage: "also remove the project's named volumes (not with services)"},
			&cli.GenericFlag{Name: "rmi", Value: &rmiPolicy{}, Usage: "`local` (or bare --rmi): also remove the images devenv built for the project (or for the services named); Compose's all is refused: devenv removes no pulled image"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be removed and remove nothing"},
			stopTimeoutFlag(),
			&cli.BoolFlag{Name: "remove-orphans", Usage: "accepted for Compose's habit: down always removes every container labelled for the project"},
			lockTimeoutFlag(),
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			res, err := p.Down(c.Context, app.DownOptions{Services: args(c), Volumes: c.Bool("volumes"), Images: c.IsSet("rmi"),
				DryRun: boolOpt(c, "dry-run"), LockTimeout: lockTimeout(c), Timeout: stopTimeout(c)})
			return show(c, res, err, func(w io.Writer, r *app.Result) { view.Down(w, r, args(c)) })
		}),
	}
}

func psCommand() *cli.Command {
	return &cli.Command{
		Name:  "ps",
		Usage: "list the project's containers: state, health, ports, GPUs, image",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the container ids"},
			&cli.BoolFlag{Name: "services", Usage: "print only the services that have a container"},
			&cli.StringFlag{Name: "format", Usage: "table, json (one object a line) or a Go template such as '{{.Name}} {{.State}}'"},
			&cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "accepted for Compose's habit: devenv ps always shows stopped containers too, with their state"},
			&cli.StringSliceFlag{Name: "status", Usage: "only containers in this `STATE` (running, exited, created, paused, restarting, removing, dead; repeatable)"},
			&cli.StringFlag{Name: "filter", Usage: "only containers matching `status=STATE` (as --status)"},
			&cli.BoolFlag{Name: "orphans", Value: true, Usage: "also list containers of services the project no longer has (--orphans=false leaves them out)"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			if err := view.CheckPsFormat(c.String("format")); err != nil {
				return err
			}
			st, err := p.Ps(c.Context, app.PsOptions{States: c.StringSlice("status"), Filter: c.String("filter"), NoOrphans: !c.Bool("orphans")})
			text := view.Ps
			switch {
			case c.Bool("quiet"):
				text = view.PsQuiet
			case c.Bool("services"):
				text = view.PsServices
			case c.IsSet("format"):
				var ferr error
				text = func(w io.Writer, st []app.ContainerStatus) { ferr = view.PsFormat(w, st, c.String("format")) }
				if err := show(c, st, err, text); err != nil {
					return err
				}
				return ferr
			}
			return show(c, st, err, text)
		}),
	}
}

func imagesCommand() *cli.Command {
	return &cli.Command{
		Name:  "images",
		Usage: "the size of each image built for the project, and of each of its layers",
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			imgs, err := p.Images(c.Context)
			return show(c, imgs, err, view.Images)
		}),
	}
}

// The per-service verbs, as docker compose has them: stop, start, restart
// and rm act on the services named (every service when none).
func serviceCommands() []*cli.Command {
	timeout := stopTimeoutFlag()
	return []*cli.Command{
		serviceCommand("stop", "stop the services' containers, keeping them (devenv start brings them back)",
			(*app.Project).Stop, timeout),
		serviceCommand("start", "start the services' stopped containers (devenv up creates missing ones)",
			(*app.Project).Start),
		serviceCommand("restart", "restart the services' containers",
			(*app.Project).Restart, timeout),
		serviceCommand("rm", "remove the services' stopped containers (running ones too with --stop)",
			(*app.Project).Rm, &cli.BoolFlag{Name: "stop", Aliases: []string{"s"}, Usage: "stop running containers first, then remove them"}),
	}
}

func serviceCommand(name, usage string, verb func(*app.Project, context.Context, app.ServiceOptions) (*app.Result, error), flags ...cli.Flag) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "[service...]",
		Flags:     append(flags, lockTimeoutFlag()),
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			res, err := verb(p, c.Context, app.ServiceOptions{Services: args(c), Timeout: stopTimeout(c), Stop: c.Bool("stop"), LockTimeout: lockTimeout(c)})
			return show(c, res, err, view.Changes)
		}),
	}
}

// stopTimeoutFlag is -t/--timeout of the commands that stop containers.
// Unset, each container waits its service's stop_grace_period (10 s
// without one), as with docker compose.
func stopTimeoutFlag() cli.Flag {
	return &cli.IntFlag{Name: "timeout", Aliases: []string{"t"},
		Usage: "seconds to wait for a container to stop before killing it (default: the service's stop_grace_period, else 10)"}
}

// stopTimeout is -t as given (0: kill at once, as with Compose); nil
// when unset.
func stopTimeout(c *cli.Context) *time.Duration {
	if !c.IsSet("timeout") {
		return nil
	}
	t := time.Duration(c.Int("timeout")) * time.Second
	return &t
}

// lockTimeoutFlag is --wait-timeout of the commands that take the project
// lock: how long to wait while another devenv changes the project.
func lockTimeoutFlag() cli.Flag {
	return &cli.GenericFlag{Name: "wait-timeout", Value: &secondsOrDuration{}, Usage: "how long to wait for another devenv changing the project, in seconds or as 5m (default: until Ctrl-C)"}
}

// lockTimeout is up's --wait-timeout for the project lock: only when given,
// so the 5-minute health default never cuts short a wait for another up.
func lockTimeout(c *cli.Context) time.Duration {
	if c.IsSet("wait-timeout") {
		return durationOf(c, "wait-timeout")
	}
	return 0
}
