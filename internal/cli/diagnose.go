package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
)

func printDiagnoses(w io.Writer, out []app.Diagnosis) {
	for _, d := range out {
		if len(d.Findings) == 0 {
			fmt.Fprintf(w, "%s: no known failure in its logs\n", d.Service)
			continue
		}
		for _, f := range d.Findings {
			fmt.Fprintf(w, "%s: line %d: %s\n  means: %s\n  fix:   %s\n", d.Service, f.Line, f.Match, f.Meaning, f.Fix)
		}
	}
}
