package cli

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

// rootAction runs when no command was named: --version prints the version,
// a word that is not a command is a usage error (exit 2) with the nearest
// command, and nothing at all shows the help.
func rootAction(c *cli.Context) error {
	if c.Bool("version") {
		return printVersion(c)
	}
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	return unknownCommand(c.App, c.Args().First())
}

func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, cmd := range app.Commands {
		if !cmd.Hidden {
			names = append(names, cmd.Names()...)
		}
	}
	hint := "run `devenv --help` for the commands"
	if s := spec.Suggest(name, names); s != "" {
		hint = fmt.Sprintf("did you mean `devenv %s`?", s)
	}
	return exitcode.Newf(exitcode.Usage, "%q is not a devenv command: %s", name, hint)
}

// noArgs makes a command that takes no arguments refuse them (exit 2)
// rather than ignore them.
func noArgs(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() > 0 {
			return exitcode.Newf(exitcode.Usage, "devenv %s takes no arguments, got %q (see `devenv %s --help`)",
				c.Command.FullName(), strings.Join(c.Args().Slice(), " "), c.Command.FullName())
		}
		return action(c)
	}
}
