package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func lockCommand() *cli.Command {
	return &cli.Command{
		Name:      "lock",
		Usage:     "resolve devenv.yaml into devenv.lock (versions, base digests, artifact checksums)",
		ArgsUsage: "[service...]  (with --upgrade: only these services)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "exit 5 if devenv.lock is missing or stale; change nothing, use no network"},
			&cli.BoolFlag{Name: "upgrade", Usage: "move to the newest compatible versions and digests"},
		},
		Action: runLock,
	}
}

func runLock(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	res, err := p.Lock(c.Context, app.LockOptions{Check: c.Bool("check"), Upgrade: c.Bool("upgrade"), Services: args(c)})
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		printer(c).Warn("%s", n)
	}
	return printer(c).Result(res, func(w io.Writer) { view.Lock(w, res) })
}
