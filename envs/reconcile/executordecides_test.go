package reconcile

import (
	"context"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// goesFurther is an executor whose own reconcile recreates a container
// devenv found stopped and up to date (as Compose does when the
// container's volumes or network parent changed), in its dry run and in
// its run alike.
type goesFurther struct {
	*enginetest.Fake
	service string
	dryRuns int
}

func (g *goesFurther) RunProject(ctx context.Context, run engine.ProjectRun) (engine.Decisions, error) {
	if run.DryRun {
		g.dryRuns++
	}
	for _, s := range run.Project.Services {
		if s.Name == g.service && !run.DryRun {
			run.Forced = append(run.Forced, s.Name)
		}
	}
	d, err := g.Fake.RunProject(ctx, run)
	if err == nil {
		if _, ok := d[g.service]; ok {
			d[g.service] = engine.DecidedRecreated
		}
	}
	return d, err
}

// TestExecutorDecisionIsReported: up --dry-run asks the executor's own
// dry run about the run up hands it, and up reports what the executor
// did, so where the executor goes further than devenv's decision (a
// stopped container recreated), both say so, and say that it was the
// executor's decision; a project with nothing to change asks it nothing.
func TestExecutorDecisionIsReported(t *testing.T) {
	f := enginetest.New()
	x := &goesFurther{Fake: f, service: "app"}
	r := newRunner(t, f)
	r.Exec = x
	pl := testPlan()
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Up(t.Context(), pl, UpOptions{DryRun: true}); err != nil || x.dryRuns != 0 {
		t.Fatalf("a dry run with nothing to change: %v, %d dry runs of the executor, want 0", err, x.dryRuns)
	}
	app, err := f.Inspect(t.Context(), "p-app")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Stop(t.Context(), app.ID, 0); err != nil {
		t.Fatal(err)
	}
	for _, dry := range []bool{true, false} {
		res, err := r.Up(t.Context(), pl, UpOptions{DryRun: dry})
		if err != nil {
			t.Fatalf("dry run %v: %v", dry, err)
		}
		got := byService(res.Changes)
		if c := got["app"]; c.Action != Recreated || !strings.Contains(c.Detail, "Compose's decision: devenv found it stopped and up to date") {
			t.Errorf("dry run %v: app %+v, want recreated as the executor's decision", dry, c)
		}
		if c := got["db"]; c.Action != Unchanged {
			t.Errorf("dry run %v: db %+v, want unchanged", dry, c)
		}
	}
	if x.dryRuns != 1 {
		t.Errorf("%d dry runs of the executor, want 1 (up --dry-run's)", x.dryRuns)
	}
}

func byService(ch []Change) map[string]Change {
	out := map[string]Change{}
	for _, c := range ch {
		if c.Action != Pulled && c.Action != Built && c.Service != "" {
			out[c.Service] = c
		}
	}
	return out
}
