package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// hookedPlan is testPlan with the app's standalone worker, and db a
// compose service with a pre_stop and a post_start hook and a
// stop_grace_period.
func hookedPlan() *plan.Plan {
	pl := testPlan()
	w := svc("app-worker-1", "app@sha256:2", "app")
	w.Replica = "app"
	pl.Services = append(pl.Services, w)
	grace := types.Duration(3 * time.Second)
	db := types.ServiceConfig{Name: "db",
		PreStop:   []types.ServiceHook{{Command: types.ShellCommand{"pg_ctl", "stop"}}},
		PostStart: []types.ServiceHook{{Command: types.ShellCommand{"pg_isready"}}}}
	db.Image, db.StopGracePeriod = "postgres@sha256:1", &grace
	plantest.AsCompose(pl.Service("db"), &compose.Config{Service: db})
	return pl
}

// composeObjectsPlan is hookedPlan with db's compose file declaring a
// network and a volume of its own (Compose would make and remove them).
func composeObjectsPlan() *plan.Plan {
	pl := hookedPlan()
	c := pl.Service("db").Compose.Config
	c.Networks = types.Networks{"backend": {Name: "p_backend"}}
	c.Volumes = types.Volumes{"data": {Name: "p_data"}}
	return pl
}

// anyOrder starts a wantCalls whose calls may come in any order.
const anyOrder = "any order: "

func seconds(n int) *time.Duration {
	d := time.Duration(n) * time.Second
	return &d
}

// TestLifecycleThroughCompose: with the project's plan, stop, start,
// restart, rm and down hand the containers Compose lists to the
// executor (Compose's stop, start, rm and down: pre_stop and post_start
// hooks, the grace period unless -t, where -t 0 is zero seconds); what
// Compose would not find (a service the plan no longer has) is left to
// devenv's own calls, and a dry run or a foreign container sharing the
// Compose project's name keeps Compose out of it. Networks stay devenv's.
func TestLifecycleThroughCompose(t *testing.T) {
	tests := []struct {
		name      string
		plan      func() *plan.Plan
		before    []string // containers stopped first
		foreign   bool     // a container of Compose project p that devenv did not label
		verb      func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error)
		wantExec  string // the executor's calls
		wantCalls string // devenv's own Stop/Start/Remove calls, and the fake executor's
		wantHooks string // the hooks run, in order
		wantState string
	}{
		{"stop runs hooks, dependents first", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"db", "app"}, Plan: pl})
			},
			"stop app,app-worker-1,db", "Stop p-app-worker-1, Stop p-app, Stop p-db", "pg_ctl stop",
			"p-db=exited p-app=exited p-app-worker-1=exited q-db=running"},
		{"-t replaces the grace period", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"app"}, Timeout: seconds(5), Plan: pl})
			},
			"stop app,app-worker-1 -t 5s", "Stop p-app-worker-1, Stop p-app", "",
			"p-db=running p-app=exited p-app-worker-1=exited q-db=running"},
		{"-t 0 is zero seconds, not the grace period", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"db"}, Timeout: seconds(0), Plan: pl})
			},
			"stop db -t 0s", "Stop p-db", "pg_ctl stop",
			"p-db=exited p-app=running p-app-worker-1=running q-db=running"},
		{"a service the plan no longer has is stopped by devenv", testPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Plan: pl})
			},
			"stop app,db", "Stop p-app, Stop p-db, Stop p-app-worker-1", "",
			"p-db=exited p-app=exited p-app-worker-1=exited q-db=running"},
		{"a foreign container of the Compose project keeps Compose out", hookedPlan, nil, true,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Stop(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: pl})
			},
			"", "Stop p-db", "", "p-db=exited p-app=running p-app-worker-1=running q-db=running theirs=created"},
		{"start starts what is stopped, dependencies first, and runs post_start", hookedPlan, []string{"p-db", "p-app"}, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Start(ctx, Selection{Project: "p", Services: []string{"db", "app"}, Plan: pl})
			},
			"start db,app", "Start p-db, Start p-app", "pg_isready",
			"p-db=running p-app=running p-app-worker-1=running q-db=running"},
		{"start of a service the plan no longer has is devenv's", testPlan, []string{"p-db", "p-app-worker-1"}, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Start(ctx, Selection{Project: "p", Plan: pl})
			},
			"start db", "Start p-db, Start p-app-worker-1", "",
			"p-db=running p-app=running p-app-worker-1=running q-db=running"},
		{"start with a foreign container is devenv's", hookedPlan, []string{"p-db"}, true,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Start(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: pl})
			},
			"", "Start p-db", "", "p-db=running p-app=running p-app-worker-1=running q-db=running theirs=created"},
		{"restart stops and starts through Compose", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Restart(ctx, Selection{Project: "p", Services: []string{"db"}, Timeout: seconds(0), Plan: pl})
			},
			"stop db -t 0s; start db", "Stop p-db, Start p-db", "pg_ctl stop, pg_isready",
			"p-db=running p-app=running p-app-worker-1=running q-db=running"},
		{"rm removes the stopped containers, leaves the running", hookedPlan, []string{"p-db"}, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Rm(ctx, Selection{Project: "p", Plan: pl}, false)
			},
			"rm db", "Remove p-db", "", "p-app=running p-app-worker-1=running q-db=running"},
		{"rm --stop stops (hooks) and removes", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Rm(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: pl}, true)
			},
			"rm db --stop", "Stop p-db, Remove p-db", "pg_ctl stop", "p-app=running p-app-worker-1=running q-db=running"},
		{"rm of a service the plan no longer has is devenv's", testPlan, []string{"p-app-worker-1", "p-app"}, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Rm(ctx, Selection{Project: "p", Services: []string{"app"}, Plan: pl}, false)
			},
			"rm app", "Remove p-app, Remove p-app-worker-1", "", "p-db=running q-db=running"},
		{"down SERVICE is rm --stop, with -t", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				r.StopTimeout = seconds(0)
				return r.Down(ctx, "p", DownOptions{Services: []string{"db"}, Plan: pl})
			},
			"rm db --stop -t 0s", "Stop p-db, Remove p-db", "pg_ctl stop", "p-app=running p-app-worker-1=running q-db=running"},
		{"down is Compose's down with orphans; devenv removes the network", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl})
			},
			"down --remove-orphans", "Stop p-app-worker-1, Remove p-app-worker-1, Stop p-app, Remove p-app, Stop p-db, Remove p-db, Remove network p",
			"pg_ctl stop", "q-db=running"},
		{"down -t 0 --volumes", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				r.StopTimeout = seconds(0)
				return r.Down(ctx, "p", DownOptions{Plan: pl, Volumes: true})
			},
			"down --remove-orphans -v -t 0s", "Stop p-app-worker-1, Remove p-app-worker-1, Stop p-app, Remove p-app, Stop p-db, Remove p-db, Remove network p, Remove volume p_cache",
			"pg_ctl stop", "q-db=running"},
		{"down leaves a compose file's networks and volumes to devenv", composeObjectsPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl})
			},
			"down --remove-orphans", "Stop p-app-worker-1, Remove p-app-worker-1, Stop p-app, Remove p-app, Stop p-db, Remove p-db, Remove network p",
			"pg_ctl stop", "q-db=running"},
		{"down takes the orphans of a plan without them", testPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl})
			},
			"down --remove-orphans", "Stop p-app, Remove p-app, Stop p-db, Remove p-db, Stop p-app-worker-1, Remove p-app-worker-1, Remove network p",
			"", "q-db=running"},
		{"down with a foreign container is devenv's and leaves it", hookedPlan, nil, true,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl})
			},
			"", anyOrder + "Remove network p, Remove p-app, Remove p-app-worker-1, Remove p-db, Stop p-app, Stop p-app-worker-1, Stop p-db",
			"", "q-db=running theirs=created"},
		{"a dry run changes nothing", hookedPlan, nil, false,
			func(ctx context.Context, r *Runner, pl *plan.Plan) ([]Change, error) {
				return r.Down(ctx, "p", DownOptions{Plan: pl, DryRun: true})
			},
			"", "", "", "p-db=running p-app=running p-app-worker-1=running q-db=running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, r := upThree(t)
			for _, id := range tt.before {
				must(t, f.Stop(t.Context(), id, 0))
			}
			foreign := ""
			if tt.foreign {
				id, err := f.Create(t.Context(), engine.ContainerSpec{Name: "theirs", Image: "postgres@sha256:1", Labels: map[string]string{
					labels.ComposeProject: "p", labels.ComposeService: "db", labels.ComposeOneoff: "False", labels.ComposeConfigHash: "x"}})
				must(t, err)
				foreign = id
			}
			byID := names(t, f)
			nets, _ := f.List(t.Context(), engine.Networks, plan.Labels("p", ""))
			for _, n := range nets {
				byID[n.ID] = "network " + n.Name
			}
			vols, _ := f.List(t.Context(), engine.Volumes, plan.Labels("p", ""))
			for _, v := range vols {
				byID[v.ID] = "volume " + v.Name
			}
			from := len(f.Calls())
			if _, err := tt.verb(t.Context(), r, tt.plan()); err != nil {
				t.Fatal(err)
			}
			if got := executorCalls(f, from); got != tt.wantExec {
				t.Errorf("executor: %q, want %q", got, tt.wantExec)
			}
			if got := hooksRun(f, from); got != tt.wantHooks {
				t.Errorf("hooks run: %q, want %q", got, tt.wantHooks)
			}
			got := calls(f, from, byID)
			if want, ok := strings.CutPrefix(tt.wantCalls, anyOrder); ok { // devenv's own down runs side by side
				got = strings.Join(slices.Sorted(slices.Values(strings.Split(got, ", "))), ", ")
				tt.wantCalls = want
			}
			if got != tt.wantCalls {
				t.Errorf("calls: %s\nwant:  %s", got, tt.wantCalls)
			}
			got = states(t, f)
			if foreign != "" {
				st, err := f.Inspect(t.Context(), foreign)
				must(t, err)
				got += " theirs=" + st.Status
			}
			if got != tt.wantState {
				t.Errorf("containers: %s\nwant:       %s", got, tt.wantState)
			}
		})
	}
}

// executorCalls summarises the executor's calls since from, as the
// Compose commands they stand for.
func executorCalls(f *enginetest.Fake, from int) string {
	timeout := func(d *time.Duration) string {
		if d == nil {
			return ""
		}
		return fmt.Sprintf(" -t %s", *d)
	}
	var out []string
	for _, c := range f.Calls()[from:] {
		switch a := c.Arg.(type) {
		case engine.ProjectStop:
			out = append(out, "stop "+strings.Join(slices.Sorted(slices.Values(a.Services)), ",")+timeout(a.Timeout))
		case engine.ProjectStart:
			out = append(out, "start "+strings.Join(a.Services, ","))
		case engine.ProjectRemove:
			s := "rm " + strings.Join(a.Services, ",")
			if a.Stop {
				s += " --stop"
			}
			out = append(out, s+timeout(a.Timeout))
		case engine.ProjectDown:
			s := "down"
			if a.RemoveOrphans {
				s += " --remove-orphans"
			}
			if a.Volumes {
				s += " -v"
			}
			out = append(out, s+timeout(a.Timeout))
		}
	}
	return strings.Join(out, "; ")
}

func hooksRun(f *enginetest.Fake, from int) string {
	var out []string
	for _, c := range f.Calls()[from:] {
		if c.Method == "Exec" {
			out = append(out, strings.Join(c.Arg.(engine.ExecOptions).Cmd, " "))
		}
	}
	return strings.Join(out, ", ")
}

// A failing hook fails the verb, naming it, as Compose's does.
func TestHookFailure(t *testing.T) {
	for _, tt := range []struct {
		name string
		verb func(ctx context.Context, r *Runner) error
		want string
	}{
		{"pre_stop", func(ctx context.Context, r *Runner) error {
			_, err := r.Stop(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: hookedPlan()})
			return err
		}, "pre_stop hook of p-db exited with code 3"},
		{"post_start", func(ctx context.Context, r *Runner) error {
			_, err := r.Restart(ctx, Selection{Project: "p", Services: []string{"db"}, Plan: hookedPlan()})
			return err
		}, "post_start hook of p-db exited with code 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, r := upThree(t)
			f.ExecFunc = func(o engine.ExecOptions) (int, string) {
				if tt.name == "post_start" && o.Cmd[0] != "pg_isready" {
					return 0, ""
				}
				return 3, ""
			}
			if err := tt.verb(t.Context(), r); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
