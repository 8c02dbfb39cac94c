package cli

import (
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a command (usually spark-submit) in a running Spark service with its confs; exit code passed through",
		ArgsUsage: "[service] -- command [args...]   (service: the first spark-rapids service when left out)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "no-tty", Aliases: []string{"T"}, Usage: "never allocate a TTY"},
		},
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			service, cmd, err := splitRunArgs(p, args(c))
			if err != nil {
				return err
			}
			return runIn(c, service, cmd, !c.Bool("no-tty"))
		},
	}
}

const runUsage = "usage: devenv run [SERVICE] -- COMMAND [ARGS...], e.g. devenv run -- spark-submit /workspace/job.py"

// splitRunArgs finds the service and the command in `[service] [--] cmd...`,
// as docker compose run reads them: a first word naming a service is the
// service, a "--" right after it (or first) only separates, and every word
// after that is the command's, a later "--" included.
func splitRunArgs(p *app.Project, a []string) (string, []string, error) {
	var service string
	cmd := a
	switch {
	case len(a) > 0 && a[0] == "--":
		cmd = a[1:]
	case len(a) > 1 && a[1] == "--":
		service, cmd = a[0], a[2:]
	case len(a) > 0 && p.Spec.Service(a[0]) != nil:
		service, cmd = a[0], a[1:]
	}
	if len(cmd) == 0 {
		return "", nil, exitcode.Newf(exitcode.Usage, runUsage)
	}
	service, err := p.SparkService(service)
	return service, cmd, err
}
