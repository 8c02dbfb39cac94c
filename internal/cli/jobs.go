package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/ui"
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
	out.Say("job %s queued on %s; follow it with: devenv jobs logs -F %s", j.ID, j.Service, j.ID)
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
				Usage:     "print a job's output; with -F follow it until the job ends and exit with its exit code",
				ArgsUsage: "ID",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "follow", Aliases: []string{"f", "F"}, Usage: "follow the output until the job ends"}},
				Action:    jobLogs,
			},
			{
				Name:      "cancel",
				Usage:     "cancel a queued or running job",
				ArgsUsage: "ID",
				Action:    cancelJob,
			},
		},
	}
}

func listJobs(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	store, err := p.Jobs()
	if err != nil {
		return err
	}
	out := printer(c)
	list, err := store.List()
	if err != nil {
		out.Warn("%v", err)
	}
	if list == nil {
		list = []jobs.Job{}
	}
	if store.RunnerPID() == 0 {
		warnNoRunner(out, list, store)
	}
	return out.Result(list, func(w io.Writer) { printJobs(w, list, p.Spec.Dir) })
}

// warnNoRunner says what to do when jobs wait, or look running, and no
// runner holds the queue.
func warnNoRunner(out *ui.Printer, list []jobs.Job, store *jobs.Store) {
	var queued, orphans int
	for _, j := range list {
		switch j.State {
		case jobs.Queued:
			queued++
		case jobs.Running:
			orphans++
		}
	}
	if orphans > 0 {
		out.Warn("%d job(s) show running but their runner is gone: devenv jobs run marks them failed and runs the rest", orphans)
	}
	if queued > 0 {
		out.Warn("%d job(s) wait and no runner is running: start one with devenv jobs run (see %s)", queued, filepath.Join(store.Dir(), "runner.log"))
	}
}

func printJobs(w io.Writer, list []jobs.Job, dir string) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no jobs: queue one with devenv submit job.py")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSERVICE\tSTATE\tEXIT\tSUBMITTED\tSTARTED\tFINISHED\tSPARK UI\tLOG\tCOMMAND")
	for _, j := range list {
		exit := "-"
		if j.ExitCode != nil {
			exit = fmt.Sprint(*j.ExitCode)
		}
		log := j.Log
		if rel, ok := projpath.Within(dir, j.Log); ok && rel != "." {
			log = rel
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.ID, j.Service, j.State, exit, clock(&j.Submitted),
			clock(j.Started), clock(j.Finished), dash(j.SparkUI), log, shellJoin(j.Command))
	}
	tw.Flush()
	for _, j := range list {
		if j.Reason != "" && j.State != jobs.Done {
			fmt.Fprintf(w, "job %s %s: %s\n", j.ID, j.State, j.Reason)
		}
	}
}

// shellJoin writes a command as a person would type it in sh.
func shellJoin(cmd []string) string {
	parts := make([]string, len(cmd))
	for i, a := range cmd {
		parts[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]#~!{}") {
			parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(parts, " ")
}

func clock(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
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
		say = func(format string, a ...any) {
			fmt.Fprintf(c.App.ErrWriter, "%s %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, a...))
		}
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

func jobStore(c *cli.Context) (*jobs.Store, error) {
	if c.NArg() != 1 {
		return nil, exitcode.Newf(exitcode.Usage, "usage: devenv jobs %s ID (see devenv jobs for the IDs)", c.Command.Name)
	}
	p, err := openProject(c)
	if err != nil {
		return nil, err
	}
	return p.Jobs()
}

func cancelJob(c *cli.Context) error {
	store, err := jobStore(c)
	if err != nil {
		return err
	}
	j, err := store.Cancel(c.Args().First())
	if err != nil {
		return err
	}
	out := printer(c)
	if j.State == jobs.Cancelled {
		out.Say("job %s cancelled", j.ID)
	} else {
		out.Say("job %s: asked its runner to stop it", j.ID)
	}
	return out.Result(j, nil)
}

func jobLogs(c *cli.Context) error {
	if c.NArg() != 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv jobs logs ID (see devenv jobs for the IDs)")
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	return quietInterrupt(c, p.FollowJob(c.Context, c.Args().First(), c.Bool("follow"), c.App.Writer))
}
