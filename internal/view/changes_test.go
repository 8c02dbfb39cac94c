package view

import (
	"bytes"
	"testing"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/app"
)

func TestUpIsASummaryOrForADryRunTheChanges(t *testing.T) {
	changes := []reconcile.Change{{Service: "spark", Action: reconcile.Created}, {Service: "db", Action: reconcile.Unchanged}}
	var b bytes.Buffer
	Up(&b, &app.Result{Project: "demo", Changes: changes})
	b.WriteString("---\n")
	Up(&b, &app.Result{Project: "demo", Changes: changes[:1], DryRun: true})
	want := "demo is up: 1 created, 1 unchanged\n---\n" +
		"dry run: demo would change as follows (nothing was changed)\n  spark        would be created \n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
