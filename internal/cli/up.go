package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/doctor"
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
			&cli.DurationFlag{Name: "wait-timeout", Value: 5 * time.Minute, Usage: "how long --wait waits"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild images without the build cache"},
			&cli.BoolFlag{Name: "pull", Usage: "pull base images again"},
			&cli.BoolFlag{Name: "skip-gpu-check", Usage: "let the engine decide whether it can give GPUs"},
		},
		Action: runUp,
	}
}

type upResult struct {
	Project   string             `json:"project"`
	Changes   []reconcile.Change `json:"changes"`
	Endpoints []serviceEndpoint  `json:"endpoints,omitempty"`
	Warnings  []string           `json:"warnings,omitempty"`
}

type serviceEndpoint struct {
	Service string `json:"service"`
	plan.Endpoint
}

func runUp(c *cli.Context) error {
	s, err := openSession(c, true, c.Bool("frozen"))
	if err != nil {
		return err
	}
	defer s.close()
	if err := checkServices(s.proj, args(c)); err != nil {
		return err
	}
	release, err := reconcile.Lock(s.stateDir(), func() { s.out.Say("another devenv is changing this project; waiting for it") })
	if err != nil {
		return err
	}
	defer release()
	pl, err := s.plan()
	if err != nil {
		return err
	}
	if err := preflight(c, s, pl); err != nil {
		return err
	}
	for _, w := range pl.Warnings {
		s.out.Warn("%s", w)
	}
	res, err := s.runner().Up(c.Context, pl, reconcile.UpOptions{
		Services: args(c), NoStart: c.Bool("no-start"), Wait: c.Bool("wait"), WaitTimeout: c.Duration("wait-timeout"),
		Build: reconcile.BuildOptions{NoCache: c.Bool("no-cache"), Pull: c.Bool("pull")},
	})
	if err != nil {
		return err
	}
	out := upResult{Project: pl.Project, Changes: res.Changes, Warnings: pl.Warnings, Endpoints: endpointsOf(pl, args(c))}
	return s.out.Result(out, func(w io.Writer) { printUp(w, out) })
}

// preflight runs before anything is pulled, built or created: the host
// ports the services publish must be free (doctor's port check; an error
// names who holds each one), and doctor's GPU checks stop the run (exit 4)
// when a service that must have a GPU cannot get one. --skip-gpu-check
// leaves the GPU verdict to the engine.
func preflight(c *cli.Context, s *session, pl *plan.Plan) error {
	if c.Bool("no-start") {
		return nil
	}
	if err := doctor.PortPreflight(c.Context, s.eng, pl, args(c), doctor.LocalHost().PortFree); err != nil {
		return err
	}
	if c.Bool("skip-gpu-check") {
		return nil
	}
	var names []string
	for _, ps := range pl.Services {
		if len(args(c)) == 0 || contains(args(c), ps.Name) {
			names = append(names, ps.Name)
		}
	}
	h := s.host()
	return doctor.Preflight(c.Context, doctor.Inputs{Engine: s.eng, GPUs: h.GPUs, GPUErr: s.gpuErr,
		Project: s.proj, Lock: s.lock, Services: names, Host: doctor.LocalHost()})
}

func endpointsOf(pl *plan.Plan, only []string) []serviceEndpoint {
	var out []serviceEndpoint
	for _, s := range pl.Services {
		if len(only) > 0 && !contains(only, s.Name) {
			continue
		}
		for _, e := range s.Endpoints {
			out = append(out, serviceEndpoint{Service: s.Name, Endpoint: e})
		}
	}
	return out
}

func printUp(w io.Writer, r upResult) {
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
