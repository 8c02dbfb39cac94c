package view

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// SparkDefaults is `devenv config spark`: the keys set, as
// spark-defaults.conf writes them (escaped as java.util.Properties reads
// them, so a value's line break cannot print as a line of its own).
func SparkDefaults(w io.Writer, r *app.SparkExplain) {
	for _, e := range r.Conf {
		if !e.Unset {
			fmt.Fprintln(w, sparkconf.Line(e.Key, e.Value))
		}
	}
}

// Explain is `devenv config spark --explain`: every key with its source
// and rule.
func Explain(w io.Writer, r *app.SparkExplain) {
	fmt.Fprintf(w, "spark-defaults of %s", r.Service)
	if r.CPUFallback {
		fmt.Fprintf(w, " (CPU mode: %s)", r.Reason)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE\tRULE")
	for _, e := range r.Conf {
		value := sparkconf.EscapeValue(e.Value)
		if e.Unset {
			value = "(not set)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", sparkconf.EscapeKey(e.Key), value, e.Source, strings.ReplaceAll(e.Rule, "\n", " "))
	}
	tw.Flush()
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(r.Unpinned) > 0 {
		fmt.Fprintln(w, "not locked yet: explained from resolution alone; devenv lock would still pin:")
	}
	for _, u := range r.Unpinned {
		fmt.Fprintf(w, "  %s\n", u)
	}
}
