package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// remoteCommands reach a project on an engine of another machine: watch
// (sync and ports), forward (ports only) and cp (files back).
func remoteCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:  "watch",
			Usage: "apply the compose services' develop.watch rules (Compose Watch) and, on a remote engine, sync the project into /workspace as it changes and forward the services' ports to 127.0.0.1 here, until Ctrl-C",
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "no-ports", Usage: "only sync"},
				&cli.BoolFlag{Name: "detach", Aliases: []string{"d"}, Usage: "run in the background (log in .devenv/watch.log); devenv watch --stop ends it"},
				&cli.BoolFlag{Name: "stop", Usage: "end a background watch"},
				&cli.BoolFlag{Name: "no-job-restart", Usage: "leave running jobs alone when a file they use changes (DEVENV_WATCH_JOB_RESTART=0)"},
			},
			Action: projectAction(func(c *cli.Context, p *app.Project) error {
				switch {
				case c.Bool("stop"):
					return stopBackground(c, p)
				case c.Bool("detach"):
					return startBackground(c, p)
				}
				return watch(c, p, app.WatchOptions{NoPorts: c.Bool("no-ports"), NoJobRestart: c.Bool("no-job-restart")})
			}),
		},
		{
			Name:  "forward",
			Usage: "on an ssh engine, forward the services' published ports to 127.0.0.1 here until Ctrl-C",
			Action: projectAction(func(c *cli.Context, p *app.Project) error {
				return watch(c, p, app.WatchOptions{NoSync: true})
			}),
		},
		{
			Name:      "cp",
			Usage:     "copy files out of or into a service's container, by docker cp's rules (relative container paths are under /workspace)",
			ArgsUsage: "SERVICE:SRC DEST | SRC SERVICE:DEST",
			Action:    projectAction(runCp),
		},
	}
}

const cpUsage = "usage: devenv cp SERVICE:SRC DEST, or devenv cp SRC SERVICE:DEST (e.g. devenv cp spark:out ./out)"

// runCp is devenv cp in either direction.
func runCp(c *cli.Context, p *app.Project) error {
	a := args(c)
	if len(a) != 2 {
		return app.Exitf(app.ExitUsage, "%s", cpUsage)
	}
	if a[0] == "-" || a[1] == "-" {
		return app.Exitf(app.ExitUsage, "devenv cp copies files, not docker cp's tar stream on stdin or stdout (-): give a path")
	}
	fromSvc, from, out := cpContainerArg(a[0])
	toSvc, to, in := cpContainerArg(a[1])
	switch {
	case out && in:
		return app.Exitf(app.ExitUsage, "devenv cp copies between a container and this machine, not between two containers (as docker cp)")
	case out && (fromSvc == "" || from == ""), in && (toSvc == "" || to == ""), !out && !in:
		return app.Exitf(app.ExitUsage, "%s", cpUsage)
	}
	var (
		res  app.Copied
		err  error
		what string
	)
	if out {
		res, err = p.CopyOut(c.Context, fromSvc, from, a[1])
		what = fmt.Sprintf("from %s:%s to %s", fromSvc, from, a[1])
	} else {
		res, err = p.CopyIn(c.Context, a[0], toSvc, to)
		what = fmt.Sprintf("from %s to %s:%s", a[0], toSvc, to)
	}
	if err == nil && len(res.Skipped) > 0 {
		warn(c, "not copied (links and special files): "+strings.Join(res.Skipped, ", "))
	}
	return show(c, res, err, func(w io.Writer, r app.Copied) {
		fmt.Fprintf(w, "copied %d file(s), %d bytes, %s\n", r.Files, r.Bytes, what)
	})
}

// cpContainerArg reads a cp argument as docker cp does: SERVICE:PATH names
// a path in a container unless it is a path here (it starts with / or .,
// or has no colon).
func cpContainerArg(arg string) (service, p string, ok bool) {
	if strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, ".") {
		return "", "", false
	}
	service, p, ok = strings.Cut(arg, ":")
	return service, p, ok
}

// watch runs Project.Watch, printing what it does.
func watch(c *cli.Context, p *app.Project, o app.WatchOptions) error {
	o.Forwarded = func(fs []app.Forward) {
		for _, f := range fs {
			say(c, fmt.Sprintf("%s: %s (port %d, forwarded from the engine's 127.0.0.1:%d)", f.Service, f.URL, f.ContainerPort, f.Remote))
		}
	}
	o.Unforwarded = func(fs []app.Forward) {
		for _, f := range fs {
			say(c, fmt.Sprintf("%s: %s no longer forwarded (port %d is not published any more)", f.Service, f.URL, f.ContainerPort))
		}
	}
	if v := os.Getenv("DEVENV_WATCH_JOB_RESTART"); v == "0" || v == "false" {
		o.NoJobRestart = true
	}
	o.JobRestarted = func(old, again app.Job, file string) {
		say(c, fmt.Sprintf("job %s (%s) uses %s, which changed: cancelled it and submitted it again as job %s", old.ID, strings.Join(old.Command, " "), file, again.ID))
	}
	o.DevelopRebuilt = func(d app.DevelopRebuild) { developRebuilt(c, d) }
	first := true
	o.Synced = func(ch app.SyncChange) {
		verb := "synced"
		if first {
			verb, first = "synced the project:", false
		}
		say(c, fmt.Sprintf("%s %d file(s) sent (%d bytes), %d removed", verb, len(ch.Sent), ch.Bytes, len(ch.Deleted)))
		if len(ch.Skipped) > 0 {
			warn(c, fmt.Sprintf("not synced (links and special files): %s", strings.Join(ch.Skipped, ", ")))
		}
	}
	o.Restarted = func(svcs []string) {
		say(c, "restarted "+strings.Join(svcs, ", ")+" to start with the project's files")
	}
	if !boolOpt(c, "json") {
		o.Watching = func() { say(c, "watching; Ctrl-C ends it") }
	}
	res, err := p.Watch(c.Context, o)
	return show(c, res, err, nil)
}

// startBackground starts `devenv watch` again as a process of its own
// session, so it outlives this terminal, with the flags that shape it.
func startBackground(c *cli.Context, p *app.Project) error {
	argv := []string{"--file", p.Spec.File, "watch"}
	if c.Bool("no-ports") {
		argv = append(argv, "--no-ports")
	}
	if c.Bool("no-job-restart") {
		argv = append(argv, "--no-job-restart")
	}
	if ctx := stringOpt(c, "context"); ctx != "" {
		argv = append([]string{"--context", ctx}, argv...)
	}
	pid, err := p.StartBackgroundWatch(argv)
	if pid == 0 {
		return err
	}
	say(c, fmt.Sprintf("watching in the background (pid %d, log %s); `devenv watch --stop` ends it", pid, app.BackgroundWatchLog))
	return err
}

// stopBackground ends the background watch, if there is one.
func stopBackground(c *cli.Context, p *app.Project) error {
	pid, err := p.StopBackgroundWatch()
	switch {
	case err != nil:
		return err
	case pid == 0:
		say(c, "no background watch")
	default:
		say(c, "ended the background watch (pid "+strconv.Itoa(pid)+")")
	}
	return nil
}

// developRebuilt prints what a develop.watch rebuild's up did (with
// --json, an event).
func developRebuilt(c *cli.Context, d app.DevelopRebuild) {
	if out := printer(c); out.JSON {
		out.Event(map[string]any{"event": "watch", "rebuilt": d})
		return
	}
	say(c, fmt.Sprintf("develop.watch: rebuilt %s: %s", strings.Join(d.Services, ", "), rebuilt(d)))
}

// rebuilt says what a rebuild's up changed.
func rebuilt(d app.DevelopRebuild) string {
	var parts []string
	for _, ch := range d.Changed() {
		parts = append(parts, ch.Service+" "+ch.Action)
	}
	if len(parts) == 0 {
		return "nothing changed (the image's inputs are the same)"
	}
	return strings.Join(parts, ", ")
}
