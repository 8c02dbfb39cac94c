package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func submitCommand() *cli.Command {
	return &cli.Command{
		Name:  "submit",
		Usage: "queue a Spark job (spark-submit /workspace/<file> args...) and print its ID; a background runner runs the queue",
		ArgsUsage: "[--service S] job.py [--] [args...]   (every word after job.py is the job's)\n" +
			"   or: devenv submit --service S --cmd 'shell command'   (runs sh -c 'shell command' in the service)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "service to run in (default: the first spark-rapids service)"},
			&cli.StringFlag{Name: "cmd", Usage: "run this shell command (sh -c) instead of spark-submit of a file"},
			&cli.BoolFlag{Name: "no-runner", Usage: "only queue the job; run the queue later with devenv jobs run"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			j, warnings, err := p.Submit(app.SubmitOptions{Service: c.String("service"), Shell: c.String("cmd"), Args: args(c), NoRunner: c.Bool("no-runner")})
			if err == nil {
				say(c, view.Submitted(j))
				warn(c, warnings...) // after the job's notice, once the runner has taken the queue or ended
			}
			return show(c, j, err, func(w io.Writer, j app.Job) { fmt.Fprintln(w, j.ID) })
		}),
	}
}

func jobsCommand() *cli.Command {
	return &cli.Command{
		Name:   "jobs",
		Usage:  "list the project's jobs: state, exit code, times, Spark UI, log",
		Action: projectAction(listJobs),
		Subcommands: []*cli.Command{
			{
				Name:   "run",
				Usage:  "run the queue in the foreground until it is empty (submit starts one in the background)",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "background", Hidden: true}},
				Action: projectAction(runJobs),
			},
			{
				Name:      "logs",
				Usage:     "print a job's output; with -f follow it until the job ends and exit with its exit code",
				ArgsUsage: "ID",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "follow", Aliases: []string{"f", "F"}, Usage: "follow the output until the job ends"}},
				Action: checked(argsExactly(1), "usage: devenv jobs logs ID (see devenv jobs for the IDs)", projectAction(func(c *cli.Context, p *app.Project) error {
					return quietInterrupt(c, p.FollowJob(c.Context, c.Args().First(), c.Bool("follow"), c.App.Writer))
				})),
			},
			{
				Name:      "cancel",
				Usage:     "cancel a queued or running job",
				ArgsUsage: "ID",
				Action: checked(argsExactly(1), "usage: devenv jobs cancel ID (see devenv jobs for the IDs)", projectAction(func(c *cli.Context, p *app.Project) error {
					j, err := p.CancelJob(c.Args().First())
					if err == nil {
						say(c, view.Cancelled(j))
					}
					return show(c, j, err, nil)
				})),
			},
		},
	}
}

func listJobs(c *cli.Context, p *app.Project) error {
	list, warnings, err := p.ListJobs()
	if err == nil {
		warn(c, warnings...)
	}
	return show(c, list, err, func(w io.Writer, list []app.Job) { view.Jobs(w, list, p.Spec.Dir) })
}

func runJobs(c *cli.Context, p *app.Project) error {
	progress := printer(c).Say
	if c.Bool("background") {
		progress = view.RunnerLog(c.App.ErrWriter)
	}
	err := p.RunJobs(c.Context, progress)
	if app.IsBusy(err) {
		if !c.Bool("background") {
			printer(c).Say("%v; it runs the queue (see devenv jobs)", err)
		}
		return nil
	}
	return err
}
