package cli

import (
	"errors"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// exec, shell and run run a command in a service's running container.

func execCommand() *cli.Command {
	return &cli.Command{
		Name:  "exec",
		Usage: "run a command in a running service (exit code passed through)",
		// -it, -dT: short flags combined, as docker users type them
		UseShortOptionHandling: true,
		ArgsUsage:              "service -- command [args...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "user", Aliases: []string{"u"}, Usage: "user to run as"},
			&cli.StringFlag{Name: "workdir", Aliases: []string{"w"}, Usage: "working directory in the container"},
			&cli.BoolFlag{Name: "no-tty", Aliases: []string{"T"}, Usage: "never allocate a TTY"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "KEY=VALUE to set"},
			&cli.BoolFlag{Name: "detach", Aliases: []string{"d"}, Usage: "start the command in the background and return at once"},
			// as Compose's hidden -i and -t: stdin is kept open and a TTY
			// allocated (on a terminal) unless -T, so `exec -it` works
			&cli.BoolFlag{Name: "interactive", Aliases: []string{"i"}, Value: true, Hidden: true},
			&cli.BoolFlag{Name: "tty", Aliases: []string{"t"}, Value: true, Hidden: true},
		},
		Action: checked(func(c *cli.Context) bool { return c.NArg() > 1 && len(afterDashes(args(c)[1:])) > 0 }, "usage: devenv exec SERVICE -- COMMAND [ARGS...]",
			projectAction(func(c *cli.Context, p *app.Project) error {
				return runIn(c, p, c.Args().First(), afterDashes(args(c)[1:]), !c.Bool("no-tty"))
			})),
	}
}

func shellCommand() *cli.Command {
	return &cli.Command{
		Name:      "shell",
		Usage:     "open an interactive shell in a running service",
		ArgsUsage: "[service]   (may be left out when the project has one service)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "user", Aliases: []string{"u"}, Usage: "user to run as"},
			&cli.StringFlag{Name: "workdir", Aliases: []string{"w"}, Usage: "working directory in the container"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Hidden: true},
		},
		Action: checked(argsAtMost(1), "usage: devenv shell [SERVICE]", projectAction(func(c *cli.Context, p *app.Project) error {
			service := c.Args().First()
			if service == "" {
				var err error
				if service, err = p.OnlyService(); err != nil {
					return err
				}
			}
			return runIn(c, p, service, []string{"sh", "-c", "command -v bash >/dev/null 2>&1 && exec bash -l || exec sh -l"}, true)
		})),
	}
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a command (usually spark-submit) in a running Spark service with its confs; exit code passed through",
		ArgsUsage: "[service] -- command [args...]   (service: the first spark-rapids service when left out)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "no-tty", Aliases: []string{"T"}, Usage: "never allocate a TTY"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			service, cmd, err := p.RunTarget(args(c))
			if errors.Is(err, app.ErrNoCommand) {
				return app.Exitf(app.ExitUsage, "usage: devenv run [SERVICE] -- COMMAND [ARGS...], e.g. devenv run -- spark-submit /workspace/job.py")
			}
			if err != nil {
				return err
			}
			return runIn(c, p, service, cmd, !c.Bool("no-tty"))
		}),
	}
}

// runIn runs cmd in service's container; a TTY is used when wanted and both
// stdin and stdout are terminals. A non-zero exit ends devenv with that code.
func runIn(c *cli.Context, p *app.Project, service string, cmd []string, wantTTY bool) error {
	code, err := p.Exec(c.Context, service, app.ExecOptions{Cmd: cmd, User: c.String("user"), WorkingDir: c.String("workdir"), Env: c.StringSlice("env"),
		TTY: wantTTY, Detach: c.Bool("detach"), Stdin: c.App.Reader, Stdout: c.App.Writer, Stderr: c.App.ErrWriter})
	if err != nil {
		return err
	}
	if code != 0 {
		return app.WithExit(code, errSilent)
	}
	return nil
}
