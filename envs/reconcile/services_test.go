package reconcile

import (
	"context"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// upThree brings up db, app (depends on db) with its standalone worker,
// and a container of another project, and forgets the calls that took.
func upThree(t *testing.T) (*enginetest.Fake, *Runner) {
	t.Helper()
	f := enginetest.New()
	r := newRunner(t, f)
	w := svc("app-worker-1", "app@sha256:2", "app")
	w.Replica = "app"
	pl := testPlan()
	pl.Services = append(pl.Services, w)
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	other := &Runner{Eng: f, Out: r.Out, StateDir: r.StateDir}
	if _, err := other.Up(t.Context(), &plan.Plan{Project: "q", Network: "q", Services: []*plan.Service{svc2("q", "db")}}, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	return f, r
}

// names maps container IDs to names.
func names(t *testing.T, f *enginetest.Fake) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{"p", "q"} {
		objs, err := f.List(t.Context(), engine.Containers, plan.Labels(p, ""))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			out[o.ID] = o.Name
		}
	}
	return out
}

func svc2(project, name string) *plan.Service {
	return plantest.Service(project, name, "postgres@sha256:1", "h-"+name)
}

func states(t *testing.T, f *enginetest.Fake) string {
	t.Helper()
	var out []string
	for _, p := range []string{"p", "q"} {
		objs, err := f.List(t.Context(), engine.Containers, plan.Labels(p, ""))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			out = append(out, o.Name+"="+o.State)
		}
	}
	return strings.Join(out, " ")
}

func calls(f *enginetest.Fake, from int, byID map[string]string) string {
	var out []string
	for _, c := range f.Calls()[from:] {
		if c.Method == "Stop" || c.Method == "Start" || c.Method == "Remove" {
			out = append(out, c.Method+" "+byID[c.Arg.(string)])
		}
	}
	return strings.Join(out, ", ")
}

func TestPerServiceVerbs(t *testing.T) {
	const allUp = "p-db=running p-app=running p-app-worker-1=running q-db=running"
	tests := []struct {
		name      string
		before    []string // containers stopped before the verb
		verb      func(ctx context.Context, r *Runner) ([]Change, error)
		wantCalls string
		wantState string
		wantErr   string
	}{
		{"stop one service takes its workers, not its dependencies",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Stop(ctx0, Selection{Project: "p", Services: []string{"app"}})
			},
			"Stop p-app-worker-1, Stop p-app", "p-db=running p-app=exited p-app-worker-1=exited q-db=running", ""},
		{"stop everything: dependents first, other projects untouched",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Stop(ctx0, Selection{Project: "p", Services: []string{"db", "app"}})
			},
			"Stop p-app-worker-1, Stop p-app, Stop p-db", "p-db=exited p-app=exited p-app-worker-1=exited q-db=running", ""},
		{"start starts only what is stopped, dependencies first",
			[]string{"p-db", "p-app"}, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Start(ctx0, Selection{Project: "p", Services: []string{"db", "app"}})
			},
			"Start p-db, Start p-app", allUp, ""},
		{"restart stops and starts",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Restart(ctx0, Selection{Project: "p", Services: []string{"db"}})
			},
			"Stop p-db, Start p-db", allUp, ""},
		{"rm leaves running containers",
			[]string{"p-db"}, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Rm(ctx0, Selection{Project: "p"}, false)
			},
			"Remove p-db", "p-app=running p-app-worker-1=running q-db=running", ""},
		{"rm --stop removes running ones too",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Rm(ctx0, Selection{Project: "p", Services: []string{"app"}}, true)
			},
			"Stop p-app-worker-1, Remove p-app-worker-1, Stop p-app, Remove p-app", "p-db=running q-db=running", ""},
		{"down SERVICE removes only that service",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Down(ctx0, "p", DownOptions{Services: []string{"db"}})
			},
			"Stop p-db, Remove p-db", "p-app=running p-app-worker-1=running q-db=running", ""},
		{"dry runs change nothing",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Down(ctx0, "p", DownOptions{DryRun: true, Volumes: true, Images: true})
			},
			"", allUp, ""},
		{"start never creates",
			nil, func(ctx0 context.Context, r *Runner) ([]Change, error) {
				return r.Start(ctx0, Selection{Project: "q", Services: []string{"app"}})
			},
			"", allUp, "no container for app: devenv up app creates it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, r := upThree(t)
			for _, id := range tt.before {
				if err := f.Stop(t.Context(), id, 0); err != nil {
					t.Fatal(err)
				}
			}
			byID, from := names(t, f), len(f.Calls())
			_, err := tt.verb(t.Context(), r)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := calls(f, from, byID); got != tt.wantCalls {
				t.Errorf("calls: %s\nwant:  %s", got, tt.wantCalls)
			}
			if got := states(t, f); got != tt.wantState {
				t.Errorf("containers: %s\nwant:       %s", got, tt.wantState)
			}
		})
	}
}

func TestUpDryRunChangesNothing(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	pl := testPlan()
	summary := func(res *UpResult) string {
		var out []string
		for _, c := range res.Changes {
			out = append(out, strings.TrimSpace(c.Service+" "+c.Action+" "+c.Detail))
		}
		return strings.Join(out, "; ")
	}
	res, err := r.Up(t.Context(), pl, UpOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "db pulled postgres@sha256:1; app pulled app@sha256:2; created network p; created volume p_cache; db created container p-db; app created container p-app"
	if got := summary(res); got != want {
		t.Errorf("from nothing:\n got %s\nwant %s", got, want)
	}
	for _, c := range f.Calls() {
		switch c.Method {
		case "ImageExists", "List", "Inspect": // reads only: Inspect is up's check of the names it creates
		default:
			t.Errorf("a dry run called %s", c.Method)
		}
	}
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	pl.Services[1].ConfigHash = "changed" // as a plan of a changed service has it
	pl.Services[1].Container.Labels[labels.ConfigHash] = "changed"
	if err := f.Stop(t.Context(), "p-db", 0); err != nil {
		t.Fatal(err)
	}
	res, err = r.Up(t.Context(), pl, UpOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(res), "db started container p-db; app recreated container p-app"; got != want {
		t.Errorf("after up:\n got %s\nwant %s", got, want)
	}
}
