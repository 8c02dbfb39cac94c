package cli

import (
	"io"
	"os"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view/execview"
	"github.com/urfave/cli/v2"
)

// World is what the commands reach outside the process through (the
// Docker engine, the machine's NVML, its CPU, memory and tools): app's,
// which owns those seams. Run uses the real one; tests pass their own to
// RunIn. A nil field is the real one.
type World = app.World

// worldKey holds, in the app's Metadata, the World the commands use.
const worldKey = "devenv.world"

// worldOf is the World the command runs in.
func worldOf(c *cli.Context) World {
	w, _ := c.App.Metadata[worldKey].(World)
	return w
}

func printer(c *cli.Context) *app.Printer {
	p := app.NewPrinter(c.App.Writer, c.App.ErrWriter, boolOpt(c, "json"), boolOpt(c, "debug"))
	p.Verbose = boolOpt(c, "verbose")
	return p
}

// options turns the global flags into the application layer's options,
// reaching the world the command runs in.
func options(c *cli.Context) app.Options {
	out := printer(c)
	return worldOf(c).Options(app.Options{File: stringOpt(c, "file"), Dir: stringOpt(c, "project-dir"), ProjectName: projectName(c),
		Profiles: composeProfiles(c), Out: out, ExecEvents: execview.Render(out)}, engineOptions(c))
}

// projectName is the run-time project name as Compose picks it: -p, else
// $COMPOSE_PROJECT_NAME, else ("") the name the files declare (app's
// projectName: devenv.yaml's name:, else a compose file's top-level name:,
// else the directory's). It names the containers, network and volumes
// only; devenv.lock never records it.
func projectName(c *cli.Context) string {
	if n := stringOpt(c, "project-name"); n != "" {
		return n
	}
	return os.Getenv("COMPOSE_PROJECT_NAME")
}

// engineOptions pick the engine the docker CLI would use with the
// --context and --host flags given (DOCKER_CONTEXT, DOCKER_HOST and
// `docker context use` otherwise).
func engineOptions(c *cli.Context) app.EngineOptions {
	return app.EngineOptions{Context: stringOpt(c, "context"), Host: stringOpt(c, "host")}
}

// openProject opens the project the flags name.
func openProject(c *cli.Context) (*app.Project, error) { return app.Open(c.Context, options(c)) }

// projectAction is the action of a command that works on the project the
// flags name: open it, run do, close it.
func projectAction(do func(c *cli.Context, p *app.Project) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		p, err := openProject(c)
		if err != nil {
			return err
		}
		defer p.Close()
		return do(c, p)
	}
}

// show ends a command with its use case's result, or with its error: the
// result as JSON with --json, else as text through its view (none when
// text is nil: what the command said is enough).
func show[T any](c *cli.Context, res T, err error, text func(io.Writer, T)) error {
	if err != nil {
		return err
	}
	var render func(io.Writer)
	if text != nil {
		render = func(w io.Writer) { text(w, res) }
	}
	return printer(c).Result(res, render)
}

// say prints lines for people on stderr (none with --json: the result
// carries the facts); warn prints them as warnings (JSON lines with --json).
func say(c *cli.Context, lines ...string) {
	out := printer(c)
	for _, l := range lines {
		out.Say("%s", l)
	}
}

func warn(c *cli.Context, lines ...string) {
	out := printer(c)
	for _, l := range lines {
		out.Warn("%s", l)
	}
}

// checked makes action refuse, before it opens anything, a command line
// that ok rejects: a usage error (exit 2) saying usage.
func checked(ok func(c *cli.Context) bool, usage string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if !ok(c) {
			return app.Exitf(app.ExitUsage, "%s", usage)
		}
		return action(c)
	}
}

// argsAtMost and argsExactly are checked's tests of the number of arguments.
func argsAtMost(n int) func(*cli.Context) bool {
	return func(c *cli.Context) bool { return c.NArg() <= n }
}
func argsExactly(n int) func(*cli.Context) bool {
	return func(c *cli.Context) bool { return c.NArg() == n }
}

func args(c *cli.Context) []string { return c.Args().Slice() }

// afterDashes drops the "--" that separates a command's words from devenv's.
func afterDashes(words []string) []string {
	if len(words) > 0 && words[0] == "--" {
		return words[1:]
	}
	return words
}
