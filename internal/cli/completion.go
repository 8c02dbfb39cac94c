package cli

import (
	"embed"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/exitcode"
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
				return exitcode.Newf(exitcode.Usage, "usage: devenv completion bash|zsh|fish")
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

// completeServices completes a command whose arguments are service names:
// the project's services not yet typed, or the command's flags after "-".
func completeServices(cmd *cli.Command) cli.BashCompleteFunc {
	flags := cli.DefaultCompleteWithFlags(cmd)
	return func(c *cli.Context) {
		if n := len(os.Args); n > 2 && strings.HasPrefix(os.Args[n-2], "-") {
			flags(c)
			return
		}
		p, err := openProject(c)
		if err != nil {
			return
		}
		defer p.Close()
		printServices(c.App.Writer, p.ServiceNames(), c.Args().Slice())
	}
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
	return strings.Contains(strings.ToLower(c.ArgsUsage), "service")
}
