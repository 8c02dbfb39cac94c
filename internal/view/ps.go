package view

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"text/template"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// Ps is `devenv ps`: a table of the project's containers.
func Ps(w io.Writer, st []reconcile.Status) {
	if len(st) == 0 {
		fmt.Fprintln(w, "no containers: run devenv up")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVICE\tSTATE\tHEALTH\tPORTS\tGPUS\tIMAGE")
	for _, s := range st {
		var ports []string
		for _, p := range s.Ports {
			ports = append(ports, fmt.Sprintf("%s:%d->%d/%s", p.HostIP, p.HostPort, p.ContainerPort, p.Protocol))
		}
		state := s.State
		if s.ExitCode != 0 {
			state = fmt.Sprintf("%s (%d)", s.State, s.ExitCode)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Service, state, dash(s.Health), dash(strings.Join(ports, ",")), dash(s.GPUs), s.Image)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// PsQuiet prints the containers' ids, one a line (ps -q).
func PsQuiet(w io.Writer, st []reconcile.Status) {
	for _, s := range st {
		fmt.Fprintln(w, s.ID)
	}
}

// PsServices prints each service with a container once (ps --services).
func PsServices(w io.Writer, st []reconcile.Status) {
	seen := map[string]bool{}
	for _, s := range st {
		if !seen[s.Service] {
			seen[s.Service] = true
			fmt.Fprintln(w, s.Service)
		}
	}
}

// psRow is what a ps --format template sees: the status fields, and Name
// (the container's name) as Compose's templates call it.
type psRow struct {
	reconcile.Status
	Name string
}

// PsFormat prints the containers as Compose's ps --format does: "table"
// (the default listing), "json" (one object a line) or a Go template
// ({{.Name}}, {{.Service}}, {{.State}}, {{.Image}}, {{.ID}}, ...).
func PsFormat(w io.Writer, st []reconcile.Status, format string) error {
	switch format {
	case "", "table":
		Ps(w, st)
		return nil
	case "json":
		enc := json.NewEncoder(w)
		for _, s := range st {
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	}
	tmpl, err := parsePsFormat(format)
	if err != nil {
		return err
	}
	for _, s := range st {
		if err := tmpl.Execute(w, psRow{Status: s, Name: s.Container}); err != nil {
			return exitcode.With(exitcode.Usage, fmt.Errorf("--format %q: %w\n\thint: %s", format, err, psFormatHint))
		}
		fmt.Fprintln(w)
	}
	return nil
}

const psFormatHint = "table, json, or a Go template such as '{{.Name}} {{.State}}'"

// CheckPsFormat refuses a ps --format that is no Go template (a bad
// command line: exit 2), before the engine is asked for anything.
func CheckPsFormat(format string) error {
	switch format {
	case "", "table", "json":
		return nil
	}
	_, err := parsePsFormat(format)
	return err
}

func parsePsFormat(format string) (*template.Template, error) {
	tmpl, err := template.New("ps").Parse(format)
	if err != nil {
		return nil, exitcode.With(exitcode.Usage, fmt.Errorf("--format %q: %w\n\thint: %s", format, err, psFormatHint))
	}
	return tmpl, nil
}
