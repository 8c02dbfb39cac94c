package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorder moves flags written after positional arguments in front of them,
// so `devenv logs spark --tail 5` works as people type it (urfave/cli/v2
// stops reading flags at the first argument). Everything after "--" is left
// exactly as written, and so is everything after the first argument of a
// command that runs a command (exec SERVICE, run [SERVICE], submit FILE):
// as with docker compose exec and run, those words are the command's.
func reorder(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	flags := app.Flags
	cmds := app.Commands
	passThrough := false
	// Global flags and command names come first.
	for len(rest) > 0 {
		tok := rest[0]
		if strings.HasPrefix(tok, "-") {
			n := flagWidth(flags, tok, rest)
			out = append(out, rest[:n]...)
			rest = rest[n:]
			continue
		}
		cmd := findCommand(cmds, tok)
		if cmd == nil {
			break
		}
		out = append(out, tok)
		rest = rest[1:]
		flags, cmds = cmd.Flags, cmd.Subcommands
		passThrough = commandPassesArgs[cmd.Name]
		if len(cmds) == 0 {
			break
		}
	}
	var fl, pos []string
	for len(rest) > 0 {
		tok := rest[0]
		if tok == "--" {
			pos = append(pos, rest...)
			break
		}
		if strings.HasPrefix(tok, "-") && tok != "-" {
			n := flagWidth(flags, tok, rest)
			fl = append(fl, rest[:n]...)
			rest = rest[n:]
			continue
		}
		if passThrough {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, tok)
		rest = rest[1:]
	}
	out = append(out, fl...)
	return append(out, pos...)
}

// commandPassesArgs names the commands whose words after the first
// argument belong to the command they run.
var commandPassesArgs = map[string]bool{"exec": true, "run": true, "submit": true}

// flagWidth is how many tokens the flag at rest[0] takes: 2 when it needs a
// value that is not attached with "=", else 1.
func flagWidth(flags []cli.Flag, tok string, rest []string) int {
	name := strings.TrimLeft(tok, "-")
	if strings.Contains(name, "=") {
		return 1
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, isBool := f.(*cli.BoolFlag); isBool {
				return 1
			}
			if len(rest) > 1 {
				return 2
			}
			return 1
		}
	}
	return 1
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
		for _, a := range c.Aliases {
			if a == name {
				return c
			}
		}
	}
	return nil
}
