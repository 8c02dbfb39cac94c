// Package argv reads a urfave/cli/v2 command line the way people type it.
// urfave/cli/v2 stops reading flags at the first positional argument;
// Reorder moves flags written after arguments in front of them, so
// `devenv logs spark --tail 5` works, and HasFlag says whether the program
// itself (not a command it runs) was given a flag. Commands that run a
// command (docker compose exec and run, for example) keep the words after
// their first argument as written: those words are the command's.
package argv

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Line is a program's command grammar: its flags and commands, and the
// names of the commands whose words after the first argument belong to the
// command they run.
type Line struct {
	App      *cli.App
	PassArgs []string
}

// Reorder moves flags written after positional arguments in front of
// them. Everything after "--" is left exactly as written, and so is
// everything after the first argument of a PassArgs command. args start
// with the program name.
func (l Line) Reorder(args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	flags, cmds := l.App.Flags, l.App.Commands
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
		cmd := FindCommand(cmds, tok)
		if cmd == nil {
			break
		}
		out = append(out, tok)
		rest = rest[1:]
		flags, cmds = cmd.Flags, cmd.Subcommands
		passThrough = slices.Contains(l.PassArgs, cmd.Name)
		if len(cmds) == 0 {
			break
		}
	}
	fl, pos := splitFlags(flags, rest, passThrough)
	out = append(out, fl...)
	return append(out, pos...)
}

// splitFlags sorts a command's words into its flags (with their values)
// and its arguments, keeping the order within each.
func splitFlags(flags []cli.Flag, rest []string, passThrough bool) (fl, pos []string) {
	for len(rest) > 0 {
		tok := rest[0]
		if tok == "--" {
			return fl, append(pos, rest...)
		}
		if strings.HasPrefix(tok, "-") && tok != "-" {
			if len(rest) > 1 && takesWord(flags, tok, rest[1]) {
				fl = append(fl, tok+"="+rest[1])
				rest = rest[2:]
				continue
			}
			n := flagWidth(flags, tok, rest)
			fl = append(fl, rest[:n]...)
			rest = rest[n:]
			continue
		}
		if passThrough {
			return fl, append(pos, rest...)
		}
		pos = append(pos, tok)
		rest = rest[1:]
	}
	return fl, pos
}

// HasFlag reports whether the program itself was given the boolean flag
// (e.g. "--json"), before or after a command's name but before the
// command's words: `devenv exec svc tool --json` is not devenv's --json.
// args start with the program name.
func (l Line) HasFlag(args []string, flag string) bool {
	words := l.Reorder(args)
	flags, cmds := l.App.Flags, l.App.Commands
	for i := 1; i < len(words); {
		w := words[i]
		switch {
		case w == "--":
			return false
		case w == flag || w == flag+"=true":
			return true
		case strings.HasPrefix(w, "-") && w != "-":
			i += flagWidth(flags, w, words[i:])
			continue
		}
		cmd := FindCommand(cmds, w)
		if cmd == nil {
			return false // the command's arguments: flags came before them
		}
		flags, cmds = cmd.Flags, cmd.Subcommands
		i++
	}
	return false
}

// OptionalValue is a flag value that may be given bare (--pull) or with
// one of a few words (--pull always), as Compose's flags of that kind
// are: Reorder joins the word to the flag (--pull=always), which is how
// the flag package reads a value of a flag that may go without one.
type OptionalValue interface {
	IsBoolFlag() bool
	Choices() []string
}

// takesWord reports whether tok is an OptionalValue flag and word one of
// its choices.
func takesWord(flags []cli.Flag, tok, word string) bool {
	name := strings.TrimLeft(tok, "-")
	for _, f := range flags {
		g, ok := f.(*cli.GenericFlag)
		if !ok || !slices.Contains(f.Names(), name) {
			continue
		}
		v, ok := g.Value.(OptionalValue)
		return ok && slices.Contains(v.Choices(), word)
	}
	return false
}

// flagWidth is how many tokens the flag at rest[0] takes: 2 when it needs a
// value that is not attached with "=", else 1.
func flagWidth(flags []cli.Flag, tok string, rest []string) int {
	name := strings.TrimLeft(tok, "-")
	if strings.Contains(name, "=") {
		return 1
	}
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		if _, isBool := f.(*cli.BoolFlag); isBool || len(rest) < 2 {
			return 1
		}
		return 2
	}
	return 1
}

// FindCommand is the command of cmds with the name or alias, or nil.
func FindCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c
		}
	}
	return nil
}
