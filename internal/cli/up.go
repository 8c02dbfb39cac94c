package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

func upCommand() *cli.Command {
	return &cli.Command{
		Name:      "up",
		Usage:     "build what changed and start the environment",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "frozen", Usage: "refuse a missing or stale devenv.lock (exit 5) instead of relocking"},
			&cli.BoolFlag{Name: "no-start", Usage: "create the containers but do not start them"},
			&cli.BoolFlag{Name: "wait", Usage: "wait until every service is healthy"},
			&cli.DurationFlag{Name: "wait-timeout", Value: 5 * time.Minute, Usage: "how long --wait waits for health; when given, also how long to wait for another devenv changing the project (default: until Ctrl-C)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild images without the build cache"},
			&cli.BoolFlag{Name: "pull", Usage: "pull base images again"},
			&cli.BoolFlag{Name: "skip-gpu-check", Usage: "let the engine decide whether it can give GPUs"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be pulled, built, created, recreated or started, and change nothing (a stale lock is refused as with --frozen)"},
		},
		Action: runUp,
	}
}

func runUp(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	res, err := p.Up(c.Context, app.UpOptions{
		Services: args(c), Frozen: c.Bool("frozen"), NoStart: c.Bool("no-start"), Wait: c.Bool("wait"),
		WaitTimeout: c.Duration("wait-timeout"), NoCache: c.Bool("no-cache"), Pull: c.Bool("pull"), SkipGPUCheck: c.Bool("skip-gpu-check"),
		LockTimeout: lockTimeout(c),
		DryRun:      c.Bool("dry-run"),
	})
	if err != nil {
		return err
	}
	return printer(c).Result(res, func(w io.Writer) {
		if res.DryRun {
			printChanges(w, res)
			return
		}
		printUp(w, res)
	})
}

func printUp(w io.Writer, r *app.Result) {
	counts := map[string]int{}
	for _, ch := range r.Changes {
		counts[ch.Action]++
	}
	var parts []string
	for _, a := range []string{reconcile.Built, reconcile.Pulled, reconcile.Created, reconcile.Recreated, reconcile.Started, reconcile.Unchanged} {
		if counts[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	fmt.Fprintf(w, "%s is up: %s\n", r.Project, strings.Join(parts, ", "))
	for _, e := range r.Endpoints {
		fmt.Fprintf(w, "  %-8s %-16s %s\n", e.Service, e.Name, e.URL)
	}
}

// lockTimeoutFlag is --wait-timeout of the commands that take the project
// lock: how long to wait while another devenv changes the project.
func lockTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "wait-timeout", Usage: "how long to wait for another devenv changing the project (default: until Ctrl-C)"}
}

// lockTimeout is up's --wait-timeout for the project lock: only when given,
// so the 5-minute health default never cuts short a wait for another up.
func lockTimeout(c *cli.Context) time.Duration {
	if c.IsSet("wait-timeout") {
		return c.Duration("wait-timeout")
	}
	return 0
}
