package cli

import (
	"io"

	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

func profilesCommand() *cli.Command {
	return &cli.Command{
		Name:  "profiles",
		Usage: "show the built-in profiles and their compatibility matrix",
		Action: func(c *cli.Context) error {
			s := profiles.Builtin().Summary()
			return printer(c).Result(s, func(w io.Writer) { _, _ = io.WriteString(w, s.Text()) })
		},
	}
}
