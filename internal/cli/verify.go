package cli

import (
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name: "verify",
		Usage: "run a small query with and without the RAPIDS Accelerator in a running Spark service: " +
			"what ran on the GPU, what fell back and why, and the speedup; exits 1 when nothing ran on the GPU",
		ArgsUsage: "[service]   (default: the first spark-rapids service)",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "rows", Value: 1_000_000, Usage: "rows the query generates"},
		},
		Action: checked(func(c *cli.Context) bool { return c.NArg() <= 1 && c.Int("rows") >= 1 }, "usage: devenv verify [SERVICE] [--rows N] with N >= 1",
			projectAction(runVerify)),
	}
}

func runVerify(c *cli.Context, p *app.Project) error {
	o := app.VerifyOptions{Service: c.Args().First(), Rows: c.Int("rows")}
	if printer(c).Verbose {
		o.Echo = c.App.ErrWriter
	}
	rep, err := p.Verify(c.Context, o)
	if err := show(c, rep, err, view.Verify); err != nil {
		return err
	}
	if !rep.OnGPU {
		return app.Exitf(app.ExitFailure, "no operator ran on the GPU in %s: %s", rep.Service, rep.Hint)
	}
	return nil
}
