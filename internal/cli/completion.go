package cli

import (
	"embed"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

//go:embed completion/devenv.bash completion/devenv.zsh completion/devenv.fish
var completionScripts embed.FS

const completeFlag = "--generate-bash-completion"

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish (e.g. source <(devenv completion bash))",
		ArgsUsage: "bash|zsh|fish",
		BashComplete: func(c *cli.Context) {
			if c.NArg() == 0 {
				fmt.Fprintln(c.App.Writer, "bash\nzsh\nfish")
			}
		},
		Action: func(c *cli.Context) error {
			shell := c.Args().First()
			if c.NArg() != 1 || !strings.Contains("|bash|zsh|fish|", "|"+shell+"|") {
				return app.Exitf(app.ExitUsage, "usage: devenv completion bash|zsh|fish")
			}
			b, err := completionScripts.ReadFile("completion/devenv." + shell)
			if err != nil {
				return err
			}
			_, err = c.App.Writer.Write(b)
			return err
		},
	}
}

// manCommand prints devenv's man page, made from the commands' own help
// text (urfave/cli's ToMan); the release puts it in the archives and
// packages as devenv.1.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "man",
		Usage:  "print devenv's man page (roff, section 1), generated from this help",
		Hidden: true,
		Action: func(c *cli.Context) error {
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = io.WriteString(c.App.Writer, page)
			return err
		},
	}
}

// completeCommand completes a command's words: after a flag that takes a
// value, the values it has when they are few (init --profile, mirror
// --format, a service) or nothing, so the shell offers files; after "-",
// the command's flags; otherwise its arguments (service names, or nothing:
// files, as mirror SOURCE and submit FILE want).
func completeCommand(cmd *cli.Command) cli.BashCompleteFunc {
	flags := cli.DefaultCompleteWithFlags(cmd)
	return func(c *cli.Context) {
		words, _ := c.App.Metadata[wordsKey].([]string)
		last := ""
		if n := len(words); n > 2 {
			last = words[n-2] // words end with --generate-bash-completion
		}
		if f := valueFlag(cmd, last); f != nil {
			printServices(c.App.Writer, flagValues(c, cmd.Name, f), nil)
			return
		}
		if strings.HasPrefix(last, "-") {
			flags(c)
			return
		}
		if wantsServices(cmd) {
			printServices(c.App.Writer, projectServices(c), c.Args().Slice())
		}
	}
}

// wordsKey holds, in the app's Metadata, the words devenv was run with
// (the words typed so far, when completing).
const wordsKey = "words"

// valueFlag is cmd's flag that word names when that flag takes a value
// in the next word (not a boolean, not one whose value may go bare).
func valueFlag(cmd *cli.Command, word string) cli.Flag {
	name, ok := strings.CutPrefix(word, "-")
	if !ok || strings.Contains(word, "=") {
		return nil
	}
	name = strings.TrimPrefix(name, "-")
	for _, f := range cmd.Flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		if _, ok := f.(*cli.BoolFlag); ok {
			return nil
		}
		if g, ok := f.(*cli.GenericFlag); ok {
			if _, bare := g.Value.(interface{ IsBoolFlag() bool }); bare {
				return nil
			}
		}
		return f
	}
	return nil
}

// flagValues are the values flag f of command cmd completes to (none:
// the shell's file completion).
func flagValues(c *cli.Context, cmd string, f cli.Flag) []string {
	switch name := f.Names()[0]; {
	case cmd == "init" && name == "profile":
		return app.BuiltinProfiles()
	case cmd == "mirror" && name == "format":
		return app.MirrorFormats()
	case name == "service":
		return projectServices(c)
	}
	return nil
}

// projectServices are the project's services, none when it does not open.
func projectServices(c *cli.Context) []string {
	p, err := openProject(c)
	if err != nil {
		return nil
	}
	defer p.Close()
	return p.ServiceNames()
}

func printServices(w io.Writer, all, typed []string) {
	for _, s := range all {
		if !slices.Contains(typed, s) {
			fmt.Fprintln(w, s)
		}
	}
}

// wantsServices says whether a command's arguments are service names.
func wantsServices(c *cli.Command) bool {
	// the words themselves, not their notes; submit's "[--service S]
	// job.py" names a flag, and takes a file
	words, _, _ := strings.Cut(strings.ToLower(c.ArgsUsage), "(")
	return strings.Contains(strings.ReplaceAll(words, "--service", ""), "service")
}
