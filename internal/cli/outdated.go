package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// outdated is `devenv profiles --outdated`: the releases the publishers
// have that devenv's catalog does not know yet, read through the mirrors.
// It never fails for want of a network: it says so and exits 0.
func outdated(c *cli.Context) error {
	rep, err := app.Outdated(c.Context, options(c))
	if err != nil {
		return err
	}
	return printer(c).Result(rep, func(w io.Writer) { _, _ = io.WriteString(w, rep.Text()) })
}
