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
// recreated, started or left unchanged, then the endpoints; for a dry run
// the changes that would be made.
func Up(w io.Writer, r *app.Result) {
	if r.DryRun {
		Changes(w, r)
		return
	}
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
	if r.RemoteEngine != "" && len(r.Endpoints) > 0 {
		fmt.Fprintf(w, "  these addresses are on the engine's machine (%s): `devenv forward` or `devenv up --watch` brings them to this one\n", r.RemoteEngine)
	}
}

// Down is `devenv down`: how many objects went (of the services named,
// else of the project), or for a dry run what would change.
func Down(w io.Writer, r *app.Result, services []string) {
	if r.DryRun {
		Changes(w, r)
		return
	}
	what := r.Project + " is down"
	if len(services) > 0 {
		what = fmt.Sprintf("%s: %v removed", r.Project, services)
	}
	fmt.Fprintf(w, "%s: %d objects removed\n", what, len(r.Changes))
}

// Build is `devenv build`: each image built, or that none needed it.
func Build(w io.Writer, r *app.Result) {
	if len(r.Changes) == 0 {
		fmt.Fprintln(w, "all images are up to date")
	}
	for _, x := range r.Changes {
		fmt.Fprintf(w, "%s: %s %s\n", x.Service, x.Action, x.Detail)
	}
}
