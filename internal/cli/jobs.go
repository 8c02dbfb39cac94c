package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
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
		Action: runSubmit,
	}
}

func runSubmit(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	j, err := p.Submit(app.SubmitOptions{Service: c.String("service"), Shell: c.String("cmd"), Args: args(c), NoRunner: c.Bool("no-runner")})
	if err != nil {
		return err
	}
	out := printer(c)
	out.Say("%s", view.Submitted(j))
	return out.Result(j, func(w io.Writer) { fmt.Fprintln(w, j.ID) })
}

func jobsCommand() *cli.Command {
	return &cli.Command{
		Name:   "jobs",
		Usage:  "list the project's jobs: state, exit code, times, Spark UI, log",
		Action: listJobs,
		Subcommands: []*cli.Command{
			{
				Name:   "run",
				Usage:  "run the queue in the foreground until it is empty (submit starts one in the background)",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "background", Hidden: true}},
				Action: runJobs,
			},
			{
				Name:      "logs",
				Usage:     "print a job's output; with -f follow it until the job ends and exit with its exit code",
				ArgsUsage: "ID",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "follow", Aliases: []string{"f", "F"}, Usage: "follow the output until the job ends"}},
				Action:    oneJob(jobLogs),
			},
			{
				Name:      "cancel",
				Usage:     "cancel a queued or running job",
				ArgsUsage: "ID",
				Action:    oneJob(cancelJob),
			},
		},
	}
}

func listJobs(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	list, warnings, err := p.ListJobs()
	if err != nil {
		return err
	}
	out := printer(c)
	for _, w := range warnings {
		out.Warn("%s", w)
	}
	return out.Result(list, func(w io.Writer) { view.Jobs(w, list, p.Spec.Dir) })
}

func runJobs(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	out := printer(c)
	say := out.Say
	if c.Bool("background") {
		say = view.RunnerLog(c.App.ErrWriter)
	}
	err = p.RunJobs(c.Context, say)
	if app.IsBusy(err) {
		if !c.Bool("background") {
			out.Say("%v; it runs the queue (see devenv jobs)", err)
		}
		return nil
	}
	return err
}

// oneJob is the action of a jobs subcommand that takes one job ID.
func oneJob(do func(c *cli.Context, p *app.Project, id string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() != 1 {
			return exitcode.Newf(exitcode.Usage, "usage: devenv jobs %s ID (see devenv jobs for the IDs)", c.Command.Name)
		}
		return inProject(c, func(p *app.Project) error { return do(c, p, c.Args().First()) })
	}
}

func cancelJob(c *cli.Context, p *app.Project, id string) error {
	j, err := p.CancelJob(id)
	if err != nil {
		return err
	}
	out := printer(c)
	out.Say("%s", view.Cancelled(j))
	return out.Result(j, nil)
}

func jobLogs(c *cli.Context, p *app.Project, id string) error {
	return quietInterrupt(c, p.FollowJob(c.Context, id, c.Bool("follow"), c.App.Writer))
}
