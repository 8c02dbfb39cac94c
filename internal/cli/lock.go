package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/registry"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

func lockCommand() *cli.Command {
	return &cli.Command{
		Name:      "lock",
		Usage:     "resolve devenv.yaml into devenv.lock (versions, base digests, artifact checksums)",
		ArgsUsage: "[service...]  (with --upgrade: only these services)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "exit 5 if devenv.lock is missing or stale; change nothing, use no network"},
			&cli.BoolFlag{Name: "upgrade", Usage: "move to the newest compatible versions and digests"},
		},
		Action: runLock,
	}
}

type lockResult struct {
	File     string         `json:"file"`
	Changed  bool           `json:"changed"`
	Fresh    bool           `json:"fresh"`
	Services []lock.Service `json:"services,omitempty"`
}

func runLock(c *cli.Context) error {
	p, err := loadProject(c)
	if err != nil {
		return err
	}
	if err := checkServices(p, args(c)); err != nil {
		return err
	}
	if len(args(c)) > 0 && !c.Bool("upgrade") {
		return exitcode.Newf(exitcode.Usage, "naming services needs --upgrade (devenv lock --upgrade %s)", args(c)[0])
	}
	prev, err := readLock(p)
	if err != nil && (c.Bool("check") || !c.Bool("upgrade")) {
		return err
	}
	out := printer(c)
	if c.Bool("check") {
		return checkLock(c, p, prev)
	}
	if prev != nil && !c.Bool("upgrade") && lock.Check(p, prev) == nil {
		return out.Result(lockResult{File: lockPath(p), Fresh: true, Services: prev.Services}, func(w io.Writer) {
			fmt.Fprintln(w, "devenv.lock is up to date")
		})
	}
	f, err := generateLock(c, p, prev)
	if err != nil {
		return err
	}
	changed, err := lock.Write(lockPath(p), f)
	if err != nil {
		return err
	}
	return out.Result(lockResult{File: lockPath(p), Changed: changed, Fresh: true, Services: f.Services}, func(w io.Writer) {
		if changed {
			fmt.Fprintf(w, "wrote devenv.lock (%d services)\n", len(f.Services))
		} else {
			fmt.Fprintln(w, "devenv.lock unchanged")
		}
	})
}

func generateLock(c *cli.Context, p *spec.Project, prev *lock.File) (*lock.File, error) {
	cache, err := fetch.DefaultCache()
	if err != nil {
		return nil, err
	}
	out := printer(c)
	out.Step("lock", "resolving and pinning "+fmt.Sprint(len(p.Services))+" services")
	return lock.Generate(c.Context, p, prev, profiles.Builtin(), registry.Pinner{}, cache, lock.Options{
		Upgrade: c.Bool("upgrade"), Services: args(c), Mirrors: mirrorsOf(p),
	})
}

func checkLock(c *cli.Context, p *spec.Project, prev *lock.File) error {
	if prev == nil {
		return &lock.StaleError{Reasons: []string{"there is no devenv.lock"}}
	}
	if err := lock.Check(p, prev); err != nil {
		return err
	}
	return printer(c).Result(lockResult{File: lockPath(p), Fresh: true}, func(w io.Writer) {
		fmt.Fprintln(w, "devenv.lock is up to date")
	})
}
