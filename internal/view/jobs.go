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
