package view

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/projpath"
)

// Jobs is `devenv jobs`: a table of jobs, log paths relative to dir.
func Jobs(w io.Writer, list []jobs.Job, dir string) {
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
	tw.Flush() // why jobs ended is devenv jobs' notice on stderr, said once (app.ListJobs)
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

// Submitted is what submit says about the job it queued.
func Submitted(j jobs.Job) string {
	return fmt.Sprintf("job %s queued on %s; follow it with: devenv jobs logs -f %s", j.ID, j.Service, j.ID)
}

// Cancelled is what jobs cancel says about the job it cancelled.
func Cancelled(j jobs.Job) string {
	if j.State == jobs.Cancelled {
		return fmt.Sprintf("job %s cancelled", j.ID)
	}
	return fmt.Sprintf("job %s: asked its runner to stop it", j.ID)
}

// RunnerLog is how a background runner reports: each line on w (its log
// file) after the time, RFC 3339.
func RunnerLog(w io.Writer) func(format string, a ...any) {
	return func(format string, a ...any) {
		fmt.Fprintf(w, "%s %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, a...))
	}
}
