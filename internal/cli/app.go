// Package cli is devenv's command line: urfave/cli/v2 commands that turn
// flags into internal/app's options, make one call into app and render its
// result (internal/view); of devenv's packages it imports only app, view
// and argv (TestCLIImportsAppViewAndArgvOnly). Main exits; Run returns an
// error, so the whole CLI is testable in-process.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/argv"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// Streams are the process's standard streams.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs devenv with the process's arguments and returns its exit code.
func Main(args []string, s Streams) int {
	ctx, stop := interruptible(context.Background(), s.Err)
	defer stop()
	devenv := newApp(s) // built once: the flags are read from the same grammar that runs
	debug := commandLine(devenv).HasFlag(args, "--debug")
	quietLibraries(debug)
	err := runApp(ctx, devenv, args, World{})
	if err != nil && ctx.Err() != nil {
		err = app.Interrupted(err)
	}
	return report(err, s.Err, debug, commandLine(devenv).HasFlag(args, "--json"))
}

// Run runs devenv and returns its error; it never exits the process.
func Run(ctx context.Context, args []string, s Streams) error { return RunIn(ctx, args, s, World{}) }

// RunIn is Run in the world w (a nil field is the real one).
func RunIn(ctx context.Context, args []string, s Streams, w World) error {
	return runApp(ctx, newApp(s), args, w)
}

// runApp runs devenv, its grammar and commands, on args in the world w.
func runApp(ctx context.Context, devenv *cli.App, args []string, w World) error {
	devenv.Metadata = map[string]any{wordsKey: args, worldKey: w}
	if len(args) > 2 && (args[1] == "help" || args[1] == "h") && argv.FindCommand(devenv.Commands, args[2]) == nil {
		return unknownCommand(devenv.Commands, "", args[2])
	}
	if len(args) > 0 && args[len(args)-1] == completeFlag {
		return devenv.RunContext(ctx, args) // shell completion: the words as typed
	}
	if err := app.CheckEnv(os.Environ()); err != nil && !helpOrVersion(args) {
		return err
	}
	return devenv.RunContext(ctx, commandLine(devenv).Reorder(args))
}

// helpOrVersion reports whether args only ask for help or the version,
// which need no DEVENV_* variable and work whatever they hold.
func helpOrVersion(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "help", "h", "--help", "-h", "version", "--version", "-v":
			return true
		}
	}
	return len(args) < 2
}

// commandLine is devenv's grammar for reading flags after arguments: as
// with docker compose exec and run, the words after the first argument of
// exec SERVICE, run [SERVICE] and submit FILE are the command's.
func commandLine(devenv *cli.App) argv.Line {
	return argv.Line{App: devenv, PassArgs: []string{"exec", "run", "submit"}}
}

func newApp(s Streams) *cli.App {
	devenv := &cli.App{
		Name:                 "devenv",
		Usage:                "pinned, GPU-ready Spark / RAPIDS / Triton environments per project",
		Version:              Version(),
		Reader:               s.In,
		Writer:               s.Out,
		ErrWriter:            s.Err,
		Flags:                globalFlags(),
		EnableBashCompletion: true,
		HideVersion:          true,
		ExitErrHandler:       func(*cli.Context, error) {},
		Action:               rootAction,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageError(err, c.Command.Name)
		},
		Commands: commands(),
	}
	for _, c := range devenv.Commands {
		withCommonFlags(c)
	}
	withRootRefusals(devenv)
	return devenv
}

func commands() []*cli.Command {
	cmds := []*cli.Command{
		versionCommand(), initCommand(), profilesCommand(), configCommand(), lockCommand(),
		buildCommand(), upCommand(), downCommand(), psCommand(), imagesCommand(), logsCommand(), execCommand(), shellCommand(),
		runCommand(), submitCommand(), jobsCommand(), verifyCommand(),
		mirrorCommand(), reproCommand(), diffCommand(), exportCommand(),
	}
	cmds = append(cmds, serviceCommands()...)
	cmds = append(cmds, remoteCommands()...)
	cmds = append(cmds, completionCommand(), manCommand())
	return append(cmds, gpuCommands()...)
}

func withCommonFlags(c *cli.Command) {
	withComposeRefusals(c)
	c.Flags = append(c.Flags, localCopiesFor(c.Flags)...)
	if strings.TrimSpace(c.ArgsUsage) == "" && c.Action != nil {
		c.Action = noArgs(c.Action)
	}
	if len(c.Subcommands) > 0 && c.Action == nil {
		c.Action = subcommandAction(c)
	}
	if c.BashComplete == nil && len(c.Subcommands) == 0 {
		c.BashComplete = completeCommand(c)
	}
	if c.OnUsageError == nil {
		c.OnUsageError = func(cc *cli.Context, err error, _ bool) error {
			return usageError(err, c.Name)
		}
	}
	for _, sub := range c.Subcommands {
		withCommonFlags(sub)
	}
}

// quietLibraries keeps libraries' own logging (compose-go's "variable is
// not set" warnings through logrus) off the user's terminal unless --debug:
// devenv reports what matters itself.
func quietLibraries(debug bool) {
	if !debug {
		logrus.SetLevel(logrus.ErrorLevel)
	}
}

// badFlagValue is the flag package's error for a value a devenv flag's
// Set refused (--pull, --rmi, --wait-timeout): the flag and Set's reason.
// Compiled where it is used: only a command line with an error reads it.
const badFlagValue = `(?s)^invalid (?:boolean )?value ".*" for (?:flag )?-(pull|rmi|wait-timeout): (.*)$`

// usageError is a flag parsing error (exit 2) with where to read more; -f
// after a command name gets the way to name the file there.
func usageError(err error, command string) error {
	if strings.HasSuffix(err.Error(), "not defined: -f") {
		return app.Exitf(app.ExitUsage, "%v: after a command name write --file FILE (or -f FILE before it: devenv -f FILE %s)", err, command)
	}
	if m := regexp.MustCompile(badFlagValue).FindStringSubmatch(err.Error()); m != nil {
		// the flag package calls every flag that may go bare a boolean
		msg := m[2]
		if !strings.HasPrefix(msg, "--") {
			msg = "--" + m[1] + " " + msg
		}
		return app.Exitf(app.ExitUsage, "%s (see `devenv %s --help`)", msg, command)
	}
	return app.WithExit(app.ExitUsage, fmt.Errorf("%w (see `devenv %s --help`)", err, command))
}
