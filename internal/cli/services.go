package cli

import (
	"context"
	"io"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// The per-service verbs, as docker compose has them: stop, start, restart
// and rm act on the services named (every service when none).
func serviceCommands() []*cli.Command {
	timeout := &cli.IntFlag{Name: "timeout", Aliases: []string{"t"}, Value: 10, Usage: "seconds to wait for a container to stop before killing it"}
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

type serviceVerb func(p *app.Project, ctx context.Context, o app.ServiceOptions) (*app.Result, error)

func serviceCommand(name, usage string, do serviceVerb, flags ...cli.Flag) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "[service...]",
		Flags:     append(flags, lockTimeoutFlag()),
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := do(p, c.Context, app.ServiceOptions{Services: args(c), Timeout: time.Duration(c.Int("timeout")) * time.Second, Stop: c.Bool("stop"), LockTimeout: lockTimeout(c)})
			if err != nil {
				return err
			}
			return printer(c).Result(res, func(w io.Writer) {
				view.Changes(w, res)
			})
		},
	}
}
