package view

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
)

// Repro is `devenv repro`: prod's failure, the local run and the verdict.
func Repro(w io.Writer, r *app.ReproResult) {
	prod := "no failure"
	if f := r.Prod.Failure; f != nil {
		sig := r.Prod.Signature
		if sig == "" {
			sig = "no known signature"
		}
		prod = fmt.Sprintf("%s failure [%s], %dx, first %s: %s", f.Kind, sig, f.Count, f.First, f.Reason)
	}
	fmt.Fprintf(w, "prod:   %s\n", prod)
	if l := r.Local; l != nil {
		sigs := "no known signature"
		if len(l.Signatures) > 0 {
			sigs = strings.Join(l.Signatures, ", ")
		}
		fmt.Fprintf(w, "here:   %s exited %d [%s]\n", strings.Join(l.Command, " "), l.ExitCode, sigs)
	}
	behaviour := 0
	for _, d := range r.ConfDrift {
		if d.Severity == "behaviour" {
			behaviour++
			fmt.Fprintf(w, "conf:   %s differs: prod %s, here %s\n", d.Key, dash(d.Prod), dash(d.Local))
		}
	}
	if behaviour == 0 {
		fmt.Fprintf(w, "confs:  the behaviour confs match prod's (%d performance or info differences)\n", len(r.ConfDrift))
	}
	for _, m := range r.CannotMatch {
		fmt.Fprintf(w, "cannot match: %s\n", m)
	}
	verdict := "NOT REPRODUCED"
	if r.Reproduced {
		verdict = "REPRODUCED"
	}
	fmt.Fprintf(w, "%s: %s\n", verdict, r.Reason)
}
