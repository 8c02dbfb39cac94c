package cli

import (
	"bytes"
	"io"
	"slices"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// receiptBlockers are the flags of an up whose result a plain `devenv up`
// would not repeat: another file, directory, project name, engine or set
// of compose profiles, or fewer services started.
var receiptBlockers = []string{"file", "project-dir", "project-name", "context", "host", "profile", "no-start", "no-deps", "dry-run", "watch"}

// leaveReceipt writes the receipt that lets the next plain `devenv up`
// answer from it when nothing changed (internal/fastup); with --debug it
// says why there is none. It never fails the up: without a receipt the
// next up runs in full.
func leaveReceipt(c *cli.Context, p *app.Project, res *app.Result) {
	out := printer(c)
	if c.NArg() > 0 || slices.ContainsFunc(receiptBlockers, func(f string) bool { return isSet(c, f) }) {
		out.Debugf("fast up: no receipt: services or flags that a plain up does not repeat")
		return
	}
	noop := app.NoopResult(res)
	var text, js bytes.Buffer
	view.Up(&text, noop)
	if err := app.NewPrinter(&js, io.Discard, true, false).Result(noop, nil); err != nil {
		return
	}
	r, err := p.Receipt(c.Context, res, text.String(), js.String())
	if err == nil {
		err = p.WriteReceipt(r)
	}
	if err != nil {
		out.Debugf("fast up: %v", err)
	}
}

func isSet(c *cli.Context, name string) bool {
	for _, cc := range c.Lineage() {
		if cc.IsSet(name) {
			return true
		}
	}
	return false
}
