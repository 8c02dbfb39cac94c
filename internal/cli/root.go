package cli

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// rootAction runs when no command was named: --version prints the version,
// a word that is not a command is a usage error (exit 2) with the nearest
// command, and nothing at all shows the help.
func rootAction(c *cli.Context) error {
	if words, _ := c.App.Metadata[wordsKey].([]string); c.Bool("version") || (len(words) == 2 && words[1] == "-v") {
		// a bare -v is the version, as `docker -v` and `docker compose -v`
		return printVersion(c)
	}
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	return unknownCommand(c.App.Commands, "", c.Args().First())
}

// subcommandAction runs for a command with subcommands (export, jobs)
// given none: help, or a usage error for a word that is not one of them.
func subcommandAction(cmd *cli.Command) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() == 0 {
			return cli.ShowSubcommandHelp(c)
		}
		return unknownCommand(cmd.Subcommands, cmd.Name+" ", c.Args().First())
	}
}

// unknownCommand is the usage error (exit 2) for a word that is not a
// command, with the nearest one when it looks like a typo.
func unknownCommand(cmds []*cli.Command, parent, name string) error {
	var names []string
	for _, cmd := range cmds {
		if !cmd.Hidden {
			names = append(names, cmd.Names()...)
		}
	}
	hint := fmt.Sprintf("run `devenv %s--help` for the commands", parent)
	if s := app.Suggest(name, names); s != "" {
		hint = fmt.Sprintf("did you mean `devenv %s%s`?", parent, s)
	}
	return app.Exitf(app.ExitUsage, "%q is not a devenv %scommand: %s", name, parent, hint)
}

// noArgs makes a command that takes no arguments refuse them (exit 2)
// rather than ignore them.
func noArgs(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() > 0 {
			return app.Exitf(app.ExitUsage, "devenv %s takes no arguments, got %q (see `devenv %s --help`)",
				c.Command.FullName(), strings.Join(c.Args().Slice(), " "), c.Command.FullName())
		}
		return action(c)
	}
}

// atMostArgs makes a command refuse more than n arguments (exit 2).
func atMostArgs(n int, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() > n {
			return app.Exitf(app.ExitUsage, "devenv %s takes at most %d argument(s), got %q (see `devenv %s --help`)",
				c.Command.FullName(), n, strings.Join(c.Args().Slice(), " "), c.Command.FullName())
		}
		return action(c)
	}
}
