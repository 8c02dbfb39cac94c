package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter devenv.yaml",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Value: profiles.SparkRapids, Usage: "spark-rapids | rapids | triton | image"},
			&cli.StringFlag{Name: "name", Usage: "project name (default: the directory name)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing devenv.yaml"},
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	dir := stringOpt(c, "project-dir")
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	path := stringOpt(c, "file")
	if path == "" {
		path = filepath.Join(dir, FileName)
	}
	if _, err := os.Stat(path); err == nil && !c.Bool("force") {
		return exitcode.Newf(exitcode.Usage, "%s already exists: edit it, or pass --force to replace it", path)
	}
	name := c.String("name")
	if name == "" {
		name = spec.DockerName(filepath.Base(dir))
	}
	data, err := spec.Starter(name, c.String("profile"))
	if err != nil {
		return exitcode.With(exitcode.Usage, err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	p := printer(c)
	return p.Result(map[string]string{"file": path, "profile": c.String("profile"), "name": name}, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s (profile %s); next: devenv lock && devenv up\n", path, c.String("profile"))
	})
}
