package cli

import (
	"context"
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
	Notes    []string       `json:"notes,omitempty"` // what resolution chose on the user's behalf, and by which rule
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
	return out.Result(lockResult{File: lockPath(p), Changed: changed, Fresh: true, Services: f.Services, Notes: f.Notes}, func(w io.Writer) {
		if changed {
			fmt.Fprintf(w, "wrote devenv.lock (%d services)\n", len(f.Services))
		} else {
			fmt.Fprintln(w, "devenv.lock unchanged")
		}
		for _, n := range f.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
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
	driver, rule := resolutionDriver(c.Context)
	return lock.Generate(c.Context, p, prev, profiles.Builtin(), registry.Pinner{}, cache, lock.Options{
		Upgrade: c.Bool("upgrade"), Services: args(c), Mirrors: mirrorsOf(p), Driver: driver, DriverRule: rule,
	})
}

// resolutionDriver is the driver that versions devenv.yaml leaves unset are
// resolved for: this machine's when NVML can be read, else the first of the
// newest production driver branch; rule says which.
func resolutionDriver(ctx context.Context) (driver, rule string) {
	if inv, err := openGPUs(); err == nil {
		defer inv.Close()
		if h, err := inv.Host(ctx); err == nil && h.DriverVersion != "" {
			return h.DriverVersion, profiles.MachineDriverRule(h.DriverVersion)
		}
	}
	return profiles.Builtin().ProductionDriver()
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
