package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
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
	rep, err := app.Doctor(c.Context, options(c), args(c))
	if err != nil {
		return err
	}
	if err := printer(c).Result(rep, func(w io.Writer) { view.Doctor(w, rep) }); err != nil {
		return err
	}
	if n := failures(rep); n > 0 {
		return exitcode.Newf(exitcode.GPU, "doctor: %d check(s) failed; each FAIL line above says what to do", n)
	}
	return nil
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
