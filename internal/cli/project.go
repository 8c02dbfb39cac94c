package cli

import (
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/urfave/cli/v2"
)

// FileName is the project file devenv looks for.
const FileName = app.FileName

func printer(c *cli.Context) *ui.Printer {
	p := ui.New(c.App.Writer, c.App.ErrWriter, boolOpt(c, "json"), boolOpt(c, "debug"))
	p.Verbose = boolOpt(c, "verbose")
	return p
}

// options turns the global flags into the application layer's options;
// the engine, NVML and host facts go through the variables tests replace.
func options(c *cli.Context) app.Options {
	_ = applyComposeProfiles(c) // Setenv fails only on a malformed name
	return app.Options{File: stringOpt(c, "file"), Dir: stringOpt(c, "project-dir"), Out: printer(c),
		Engine: connectEngine, GPUs: openGPUs, LocalHost: localHost}
}

// openProject opens the project the flags name.
func openProject(c *cli.Context) (*app.Project, error) { return app.Open(c.Context, options(c)) }

func args(c *cli.Context) []string { return c.Args().Slice() }

// inProject opens the project the flags name, runs do on it and closes it.
func inProject(c *cli.Context, do func(p *app.Project) error) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	return do(p)
}

// afterDashes drops the "--" that separates a command's words from devenv's.
func afterDashes(words []string) []string {
	if len(words) > 0 && words[0] == "--" {
		return words[1:]
	}
	return words
}
