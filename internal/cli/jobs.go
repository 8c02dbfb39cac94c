package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/jobs"
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
	ap, err := openProject(c)
	if err != nil {
		return err
	}
	p := ap.Spec
	service, err := ap.SparkService(c.String("service"))
	if err != nil {
		return err
	}
	cmd, err := jobCommand(p, c.String("cmd"), args(c))
	if err != nil {
		return err
	}
	store, err := openJobs(p)
	if err != nil {
		return err
	}
	j, err := store.Submit(jobs.Job{Service: service, Command: cmd, SparkUI: sparkUI(p.Service(service))})
	if err != nil {
		return err
	}
	out := printer(c)
	if !c.Bool("no-runner") {
		if err := startRunner(p, store); err != nil {
			out.Warn("job %s is queued, but no runner could be started (%v): run devenv jobs run", j.ID, err)
		}
	}
	out.Say("job %s queued on %s; follow it with: devenv jobs logs -F %s", j.ID, service, j.ID)
	return out.Result(j, func(w io.Writer) { fmt.Fprintln(w, j.ID) })
}

// jobCommand is sh -c CMD for --cmd, else spark-submit of a project file.
func jobCommand(p *spec.Project, shell string, a []string) ([]string, error) {
	const usage = "usage: devenv submit [--service S] job.py [args...] or devenv submit [--service S] --cmd 'shell command'"
	switch {
	case shell != "" && len(a) > 0:
		return nil, exitcode.Newf(exitcode.Usage, "%s: give --cmd or a job file, not both (got %q)", usage, strings.Join(a, " "))
	case shell != "":
		return []string{"sh", "-c", shell}, nil
	case len(a) == 0:
		return nil, exitcode.Newf(exitcode.Usage, usage)
	}
	file, err := workspacePath(p, a[0])
	if err != nil {
		return nil, err
	}
	rest := a[1:]
	if len(rest) > 0 && rest[0] == "--" { // job.py -- --date x: the -- only separates
		rest = rest[1:]
	}
	return append([]string{"spark-submit", file}, rest...), nil
}

// sparkUI is the Spark UI a service publishes (container port 4040), if any.
func sparkUI(s *spec.Service) string {
	if s == nil {
		return ""
	}
	for _, pt := range s.Ports {
		if pt.Container != 4040 {
			continue
		}
		host, ip := pt.Host, pt.HostIP
		if host == 0 {
			host = pt.Container
		}
		if ip == "" || ip == "0.0.0.0" {
			ip = "127.0.0.1"
		}
		return fmt.Sprintf("http://%s:%d", ip, host)
	}
	return ""
}

func jobsDir(p *spec.Project) string { return filepath.Join(p.Dir, ".devenv", "jobs") }

func openJobs(p *spec.Project) (*jobs.Store, error) {
	state := filepath.Join(p.Dir, ".devenv")
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(state, ".gitignore")); errors.Is(err, os.ErrNotExist) {
		_ = os.WriteFile(filepath.Join(state, ".gitignore"), []byte("*\n"), 0o644)
	}
	return jobs.Open(jobsDir(p))
}

// startRunner starts `devenv jobs run --background` as a detached process
// writing to .devenv/jobs/runner.log. When a runner already holds the
// queue the new one finds the lock taken and exits at once.
func startRunner(p *spec.Project, store *jobs.Store) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(store.Dir(), "runner.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(exe, "--file", p.File, "--project-dir", p.Dir, "jobs", "run", "--background")
	cmd.Dir, cmd.Stdout, cmd.Stderr = p.Dir, log, log
	cmd.SysProcAttr = jobs.Detach(nil)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
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
	ap, err := openProject(c)
	if err != nil {
		return err
	}
	p := ap.Spec
	store, err := openJobs(p)
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
	return out.Result(list, func(w io.Writer) { printJobs(w, list, p.Dir) })
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
		if rel, err := filepath.Rel(dir, j.Log); err == nil && filepath.IsLocal(rel) {
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
	eng, err := p.Engine(c.Context)
	if err != nil {
		return err
	}
	store, err := openJobs(p.Spec)
	if err != nil {
		return err
	}
	s := &services{project: p.Spec.Name, eng: eng}
	say := printer(c).Say
	if c.Bool("background") {
		say = func(format string, a ...any) {
			fmt.Fprintf(c.App.ErrWriter, "%s %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, a...))
		}
	}
	r := &jobs.Runner{Store: store, Say: say, Resources: s.resourcesOf,
		Exec: jobs.EngineExecutor{Eng: s.eng, Container: func(svc string) string { return plan.ContainerName(s.project, svc) }}}
	err = r.Run(c.Context)
	if errors.Is(err, jobs.ErrBusy) {
		if !c.Bool("background") {
			printer(c).Say("%v; it runs the queue (see devenv jobs)", err)
		}
		return nil
	}
	return err
}

// resourcesOf reads the GPUs a service's container was given; a container
// devenv cannot inspect counts as sharing every GPU.
func (s *services) resourcesOf(ctx context.Context, service string) jobs.Resources {
	st, err := s.eng.Inspect(ctx, plan.ContainerName(s.project, service))
	if err != nil {
		return jobs.Resources{Service: service, Unknown: true}
	}
	return jobs.ResourcesOf(service, st)
}

func jobStore(c *cli.Context) (*jobs.Store, error) {
	if c.NArg() != 1 {
		return nil, exitcode.Newf(exitcode.Usage, "usage: devenv jobs %s ID (see devenv jobs for the IDs)", c.Command.Name)
	}
	p, err := openProject(c)
	if err != nil {
		return nil, err
	}
	return openJobs(p.Spec)
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
	store, err := jobStore(c)
	if err != nil {
		return err
	}
	j, err := store.Get(c.Args().First())
	if err != nil {
		return err
	}
	f, err := os.Open(j.Log)
	if err != nil {
		return fmt.Errorf("job %s has no log at %s: %w", j.ID, j.Log, err)
	}
	defer f.Close()
	if _, err := io.Copy(c.App.Writer, f); err != nil || !c.Bool("follow") {
		return err
	}
	return quietInterrupt(c, follow(c.Context, store, j.ID, f, c.App.Writer))
}

// follow copies what is appended to f until the job ends, then exits with
// the job's exit code (1 when it failed without one).
func follow(ctx context.Context, store *jobs.Store, id string, f *os.File, w io.Writer) error {
	for {
		j, err := store.Get(id)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, f); err != nil {
			return err
		}
		if j.State.Final() {
			return jobExit(j)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func jobExit(j jobs.Job) error {
	switch {
	case j.State == jobs.Done:
		return nil
	case j.ExitCode != nil && *j.ExitCode > 0 && *j.ExitCode < 126:
		return exitcode.With(*j.ExitCode, fmt.Errorf("job %s %s: %s", j.ID, j.State, j.Reason))
	}
	return exitcode.Newf(exitcode.Failure, "job %s %s: %s", j.ID, j.State, j.Reason)
}
