package view

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/app"
)

// Changes lists changes one a line; for a dry run, as what would be done.
func Changes(w io.Writer, r *app.Result) {
	if r.DryRun {
		fmt.Fprintf(w, "dry run: %s would change as follows (nothing was changed)\n", r.Project)
	}
	if len(r.Changes) == 0 {
		fmt.Fprintf(w, "%s: nothing to do\n", r.Project)
	}
	for _, ch := range r.Changes {
		who := ch.Service
		if who == "" {
			who = r.Project
		}
		verb := ch.Action
		if r.DryRun {
			verb = "would be " + ch.Action
		}
		if ch.Action == "unchanged" {
			verb = "unchanged"
		}
		fmt.Fprintf(w, "  %-12s %s %s\n", who, verb, ch.Detail)
	}
}

// Up is up's summary: how many services were built, pulled, created,
// recreated, started or left unchanged, then the endpoints.
func Up(w io.Writer, r *app.Result) {
	counts := map[string]int{}
	for _, ch := range r.Changes {
		counts[ch.Action]++
	}
	var parts []string
	for _, a := range []string{reconcile.Built, reconcile.Pulled, reconcile.Created, reconcile.Recreated, reconcile.Started, reconcile.Unchanged} {
		if counts[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	fmt.Fprintf(w, "%s is up: %s\n", r.Project, strings.Join(parts, ", "))
	for _, e := range r.Endpoints {
		fmt.Fprintf(w, "  %-8s %-16s %s\n", e.Service, e.Name, e.URL)
	}
}
