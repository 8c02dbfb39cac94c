package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/exitcode"
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
	if err := printer(c).Result(rep, func(w io.Writer) { renderReport(w, rep) }); err != nil {
		return err
	}
	if n := failures(rep); n > 0 {
		return exitcode.Newf(exitcode.GPU, "doctor: %d check(s) failed; each FAIL line above says what to do", n)
	}
	return nil
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
