package reconcile

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// hookedPlan is testPlan with the app's standalone worker, and db a
// compose service with a pre_stop hook and a stop_grace_period.
func hookedPlan() *plan.Plan {
	pl := testPlan()
	w := svc("app-worker-1", "app@sha256:2", "app")
	w.Replica = "app"
	pl.Services = append(pl.Services, w)
	grace := types.Duration(3 * time.Second)
	db := types.ServiceConfig{Name: "db", PreStop: []types.ServiceHook{{Command: types.ShellCommand{"pg_ctl", "stop"}}}}
	db.Image, db.StopGracePeriod = "postgres@sha256:1", &grace
	pl.Service("db").Compose = &plan.ComposeKeys{Config: &compose.Config{Service: db}}
	return pl
}

// TestStopThroughCompose: with the project's plan, the verbs that stop
// containers hand them to the executor's StopProject (which runs pre_stop
// hooks and the grace period); what Compose would not find is stopped by
// devenv's own calls, and a dry run or a foreign container sharing the
// Compose project's name keeps Compose out of it.
func TestStopThroughCompose(t *testing.T) {
	tests := []struct {
		name        string
		plan        func() *plan.Plan
		foreign     bool // a container of Compose project p that devenv did not label
		verb        func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error)
		wantStop    string // services given to StopProject (sorted), "" when not called
		wantTimeout time.Duration
		wantCalls   string // devenv's own Stop/Start/Remove calls, and the fake's from StopProject
		wantHook    bool
		wantState   string
	}{
		{"stop runs hooks, dependents first", hookedPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"db", "app"}, Plan: pl})
			},
			"app,app-worker-1,db", 0, "Stop p-app-worker-1, Stop p-app, Stop p-db", true,
			"p-db=exited p-app=exited p-app-worker-1=exited q-db=running"},
		{"-t replaces the grace period", hookedPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"app"}, Timeout: 5 * time.Second, Plan: pl})
			},
			"app,app-worker-1", 5 * time.Second, "Stop p-app-worker-1, Stop p-app", false,
			"p-db=running p-app=exited p-app-worker-1=exited q-db=running"},
		{"a service the plan no longer has is stopped by devenv", testPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Plan: pl})
			},
			"app,db", 0, "Stop p-app, Stop p-db, Stop p-app-worker-1", false,
			"p-db=exited p-app=exited p-app-worker-1=exited q-db=running"},
		{"down stops through Compose, then removes", hookedPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl})
			},
			"app,app-worker-1,db", 0, "Stop p-app-worker-1, Stop p-app, Stop p-db, Remove p-app, Remove p-app-worker-1, Remove p-db, Remove network p", true,
			"q-db=running"},
		{"down SERVICE (rm --stop) too", hookedPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Services: []string{"db"}, Plan: pl})
			},
			"db", 0, "Stop p-db, Remove p-db", true,
			"p-app=running p-app-worker-1=running q-db=running"},
		{"a dry run changes nothing", hookedPlan, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl, DryRun: true})
			},
			"", 0, "", false, "p-db=running p-app=running p-app-worker-1=running q-db=running"},
		{"a foreign container of the Compose project keeps Compose out", hookedPlan, true,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: pl})
			},
			"", 0, "Stop p-db", false, "p-db=exited p-app=running p-app-worker-1=running q-db=running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, r := upThree(t)
			if tt.foreign {
				if _, err := f.Create(t.Context(), engine.ContainerSpec{Name: "theirs", Image: "postgres@sha256:1", Labels: map[string]string{
					labels.ComposeProject: "p", labels.ComposeService: "db", labels.ComposeOneoff: "False", labels.ComposeConfigHash: "x"}}); err != nil {
					t.Fatal(err)
				}
			}
			byID := names(t, f)
			nets, _ := f.List(t.Context(), engine.Networks, plan.Labels("p", ""))
			for _, n := range nets {
				byID[n.ID] = "network " + n.Name
			}
			from := len(f.Calls())
			if _, err := tt.verb(t.Context(), r, tt.plan()); err != nil {
				t.Fatal(err)
			}
			var stops []engine.ProjectStop
			hook := false
			for _, c := range f.Calls()[from:] {
				switch c.Method {
				case "StopProject":
					stops = append(stops, c.Arg.(engine.ProjectStop))
				case "Exec":
					hook = hook || slices.Equal(c.Arg.(engine.ExecOptions).Cmd, []string{"pg_ctl", "stop"})
				}
			}
			gotStop := ""
			if len(stops) > 1 {
				t.Fatalf("StopProject called %d times", len(stops))
			}
			if len(stops) == 1 {
				gotStop = strings.Join(slices.Sorted(slices.Values(stops[0].Services)), ",")
				if got := stops[0].Timeout; (got == nil) != (tt.wantTimeout == 0) || got != nil && *got != tt.wantTimeout {
					t.Errorf("timeout %v, want %v", got, tt.wantTimeout)
				}
			}
			if gotStop != tt.wantStop {
				t.Errorf("StopProject for %q, want %q", gotStop, tt.wantStop)
			}
			if hook != tt.wantHook {
				t.Errorf("pre_stop hook run: %v, want %v", hook, tt.wantHook)
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

// A failing pre_stop hook fails the stop, naming it, as Compose's does.
func TestStopHookFailure(t *testing.T) {
	f, r := upThree(t)
	f.ExecFunc = func(engine.ExecOptions) (int, string) { return 3, "" }
	_, err := r.Stop(t.Context(), Selection{Project: "p", Services: []string{"db"}, Plan: hookedPlan()})
	if err == nil || !strings.Contains(err.Error(), "pre_stop hook of p-db exited with code 3") {
		t.Fatalf("err = %v", err)
	}
}
