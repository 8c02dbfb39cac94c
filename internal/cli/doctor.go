package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/urfave/cli/v2"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that this machine can run the project: engine, GPU runtime, driver, GPUs, memory, disk, ports",
		ArgsUsage: "[SERVICE...]",
		Description: "Works inside a project (checks its locked services) and outside one (checks the machine).\n" +
			"Exits 4 when a check fails.",
		Action: runDoctor,
	}
}

// localHost reads the machine's facts; tests replace it.
var localHost = doctor.LocalHost

func runDoctor(c *cli.Context) error {
	out := printer(c)
	in, cleanup, err := doctorInputs(c, out)
	if err != nil {
		return err
	}
	defer cleanup()
	rep := doctor.Run(c.Context, in)
	if err := out.Result(rep, func(w io.Writer) { renderReport(w, rep) }); err != nil {
		return err
	}
	if n := failures(rep); n > 0 {
		return exitcode.Newf(exitcode.GPU, "doctor: %d check(s) failed; each FAIL line above says what to do", n)
	}
	return nil
}

// doctorInputs gathers the project (when there is one), the engine and the
// GPUs. Only a broken devenv.yaml is an error: doctor also runs outside a
// project and on machines without an engine or GPUs.
func doctorInputs(c *cli.Context, out *ui.Printer) (doctor.Inputs, func(), error) {
	in := doctor.Inputs{Host: localHost(), Services: args(c)}
	p, err := doctorProject(c)
	if err != nil {
		return in, func() {}, err
	}
	if p != nil {
		if err := p.CheckServices(in.Services); err != nil {
			return in, func() {}, err
		}
		in.Project = p.Spec
		in.Lock = doctorLock(p, out)
	} else if len(in.Services) > 0 {
		return in, func() {}, exitcode.Newf(exitcode.Usage, "services %v were named, but there is no devenv.yaml here: run doctor in the project, or pass --file", in.Services)
	}
	var closers []func()
	if in.Engine, in.EngineErr = connectEngine(c.Context); in.EngineErr == nil {
		closers = append(closers, func() { in.Engine.Close() })
	}
	if inv, err := openGPUs(); err != nil {
		in.GPUErr = err
	} else {
		closers = append(closers, func() { inv.Close() })
		in.GPUs, in.GPUErr = inv.Host(c.Context)
	}
	return in, func() {
		for _, f := range closers {
			f()
		}
	}, nil
}

// doctorProject loads devenv.yaml when one is named or found; nil without.
func doctorProject(c *cli.Context) (*app.Project, error) {
	if stringOpt(c, "file") == "" && stringOpt(c, "project-dir") == "" {
		if _, _, err := app.Find(options(c)); err != nil {
			return nil, nil // outside a project: check the machine only
		}
	}
	return openProject(c)
}

// doctorLock reads devenv.lock; without one (or with a broken one) the
// lock-based checks are skipped and the user is told.
func doctorLock(p *app.Project, out *ui.Printer) *lock.File {
	lf, err := p.ReadLock()
	switch {
	case err != nil:
		out.Warn("%v; checks that need the lock are skipped (run `devenv lock`)", err)
	case lf == nil:
		out.Warn("no devenv.lock; driver and GPU checks need it: run `devenv lock`")
	}
	return lf
}

func renderReport(w io.Writer, r doctor.Report) {
	counts := map[string]int{}
	for _, ch := range r.Checks {
		counts[ch.Status]++
		fmt.Fprintf(w, "%s %s: %s\n", strings.ToUpper(ch.Status), ch.Title, ch.Message)
		if ch.Fix != "" && ch.Status != doctor.Pass {
			fmt.Fprintf(w, "  fix: %s\n", ch.Fix)
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d warnings, %d failed, %d skipped\n",
		counts[doctor.Pass], counts[doctor.Warn], counts[doctor.Fail], counts[doctor.Skip])
}

func failures(r doctor.Report) int {
	n := 0
	for _, ch := range r.Checks {
		if ch.Status == doctor.Fail {
			n++
		}
	}
	return n
}
