package view

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/devenv-dev/devenv/compose/export"
	"github.com/devenv-dev/devenv/internal/app"
)

// ExportWarnings are what an export warns about the pins behind it: images
// by tag without a lock, or what a stale lock pins.
func ExportWarnings(r *app.ExportResult) []string {
	var out []string
	if !r.Pinned {
		out = append(out, "no devenv.lock: exporting images by tag, not digest; run devenv lock to pin them")
	}
	if r.Stale != "" {
		out = append(out, fmt.Sprintf("devenv.lock is stale (%s): exporting what it pins; run devenv lock to refresh it", r.Stale))
	}
	return out
}

// Exported are the lines an export says about the files it wrote (how to
// run a compose file, which one a devcontainer starts), or why it wrote
// none.
func Exported(r *app.ExportResult) []string {
	var out []string
	for _, f := range r.Written {
		switch {
		case r.Format == app.ExportCompose && r.RunWith != "" && f == r.Written[0]:
			out = append(out, fmt.Sprintf("wrote %s; run it with: %s", f, r.RunWith))
		case r.Format == app.ExportCompose && filepath.Base(f) == export.MirrorsFileName:
			out = append(out, fmt.Sprintf("wrote %s (the images as this machine pulls them, through its mirrors; the export names devenv.lock's)", f))
		case f == r.Started:
			out = append(out, fmt.Sprintf("wrote %s (the devcontainer starts it)", f))
		default:
			out = append(out, "wrote "+f)
		}
	}
	if r.Note != "" {
		out = append(out, r.Note)
	}
	if r.Chose != "" {
		out = append(out, "attaches to "+r.Chose)
	}
	return out
}

// Lock is `devenv lock`: whether devenv.lock was written.
func Lock(w io.Writer, r *app.LockResult) {
	switch {
	case r.UpToDate:
		fmt.Fprintln(w, "devenv.lock is up to date")
	case r.Changed:
		fmt.Fprintf(w, "wrote devenv.lock (%d services)\n", len(r.Services))
	default:
		fmt.Fprintln(w, "devenv.lock unchanged")
	}
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  %s\n", c)
	}
}
