package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/urfave/cli/v2"
)

type diagnosis struct {
	Service  string           `json:"service"`
	Findings []doctor.Finding `json:"findings"`
}

// diagnoseLogs reads each service's logs and explains the failures it knows.
func diagnoseLogs(c *cli.Context, s *services, names []string, opts engine.LogOptions) error {
	opts.Follow = false
	var out []diagnosis
	for _, n := range names {
		var buf bytes.Buffer
		if err := s.eng.Logs(c.Context, plan.ContainerName(s.project, n), opts, &buf, &buf); err != nil && !isNotFoundErr(err) {
			return err
		}
		f := doctor.Diagnose(buf.String())
		if f == nil {
			f = []doctor.Finding{}
		}
		out = append(out, diagnosis{Service: n, Findings: f})
	}
	return printer(c).Result(out, func(w io.Writer) {
		for _, d := range out {
			if len(d.Findings) == 0 {
				fmt.Fprintf(w, "%s: no known failure in its logs\n", d.Service)
				continue
			}
			for _, f := range d.Findings {
				fmt.Fprintf(w, "%s: line %d: %s\n  means: %s\n  fix:   %s\n", d.Service, f.Line, f.Match, f.Meaning, f.Fix)
			}
		}
	})
}
