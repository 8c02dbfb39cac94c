package view

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
)

// Diff is `devenv diff`: hardware differences, then a table of drift.
func Diff(w io.Writer, r *app.DiffResult) {
	for _, d := range r.Deviations {
		fmt.Fprintf(w, "deviates from prod (devenv.lock): %s\n", d)
	}
	for _, h := range r.Hardware {
		fmt.Fprintf(w, "%s: prod %s; here: %s (%s)\n", h.Key, h.Prod, h.Local, h.Why)
	}
	if len(r.Items) == 0 {
		fmt.Fprintf(w, "%s matches %s\n", r.Service, r.Source)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEVERITY\tKIND\tKEY\tCHANGE\tPROD\tLOCAL\tWHY")
	for _, d := range r.Items {
		prod := dash(d.Prod)
		if d.Scaled != "" && d.Local == "" { // with a local value, WHY holds the scaled one: one local number a row
			prod += " (scaled here: " + d.Scaled + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Severity, d.Kind, d.Key, d.Change, prod, dash(d.Local), d.Why)
	}
	tw.Flush()
	if r.Drifted {
		fmt.Fprintf(w, "\n%s differs from %s in ways that change behaviour\n", r.Service, r.Source)
	}
}
