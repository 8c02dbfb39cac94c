package reconcile

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// watchedPlan is testPlan with db a compose service whose develop.watch
// syncs ./conf and rebuilds on a change of ./Dockerfile.
func watchedPlan() *plan.Plan {
	pl := testPlan()
	db := types.ServiceConfig{Name: "db", Develop: &types.DevelopConfig{Watch: []types.Trigger{
		{Path: "/src/conf", Action: types.WatchActionSync, Target: "/etc/db"},
		{Path: "/src/Dockerfile", Action: types.WatchActionRebuild},
	}}}
	db.Image, db.Build = "postgres@sha256:1", &types.BuildConfig{Context: "/src"}
	plantest.AsCompose(pl.Service("db"), &compose.Config{Service: db})
	return pl
}

// TestWatchHandsTheRenderedProjectToTheExecutor: Watch gives the
// executor's WatchProject the project as up renders it (devenv's labels,
// the develop rules and build: as the compose file has them) and the
// compose services with rules, and passes devenv's rebuild through; a
// plan without rules, a foreign container of the Compose project and the
// executor's own failure are errors.
func TestWatchHandsTheRenderedProjectToTheExecutor(t *testing.T) {
	tests := []struct {
		name     string
		plan     func() *plan.Plan
		foreign  bool
		fail     error
		wantErr  string // "" for none
		wantCall bool
	}{
		{"the rendered project and its watched services", watchedPlan, false, nil, "", true},
		{"no develop.watch rules", testPlan, false, nil, ErrNoDevelopWatch.Error(), false},
		{"a foreign container of the Compose project", watchedPlan, true, nil, "not labelled for devenv's project p", false},
		{"the executor's failure", watchedPlan, false, errors.New("initial sync: no space left"), "no space left", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			if tt.foreign {
				f.AddImage("postgres@sha256:1", nil)
				if _, err := f.Create(t.Context(), engine.ContainerSpec{Name: "theirs", Image: "postgres@sha256:1", Labels: map[string]string{
					labels.ComposeProject: "p", labels.ComposeService: "db", labels.ComposeOneoff: "False", labels.ComposeConfigHash: "x"}}); err != nil {
					t.Fatal(err)
				}
			}
			var rebuilt []string
			f.WatchFunc = func(ctx context.Context, w engine.ProjectWatch) error {
				if err := w.Rebuild(ctx, []string{"db"}); err != nil {
					return err
				}
				return tt.fail
			}
			err := r.Watch(t.Context(), tt.plan(), func(_ context.Context, svcs []string) error {
				rebuilt = append(rebuilt, svcs...)
				return nil
			})
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Watch: %v, want %q", err, tt.wantErr)
			}
			var watches []engine.ProjectWatch
			for _, c := range f.Calls() {
				if c.Method == "WatchProject" {
					watches = append(watches, c.Arg.(engine.ProjectWatch))
				}
			}
			if len(watches) != map[bool]int{true: 1}[tt.wantCall] {
				t.Fatalf("WatchProject called %d times, want it %v", len(watches), tt.wantCall)
			}
			if !tt.wantCall {
				return
			}
			w := watches[0]
			if !slices.Equal(w.Services, []string{"db"}) || !slices.Equal(rebuilt, []string{"db"}) {
				t.Errorf("watched %v and rebuilt %v, want db both", w.Services, rebuilt)
			}
			db := w.Project.Services["db"]
			if w.Project.Name != "p" || db.Develop == nil || len(db.Develop.Watch) != 2 || db.Build == nil || db.Build.Context != "/src" {
				t.Errorf("the project handed over: %s, db's develop %+v, build %+v", w.Project.Name, db.Develop, db.Build)
			}
			if got := db.CustomLabels[labels.Dir]; got != filepath.Dir(r.StateDir) {
				t.Errorf("db's %s label is %q, want the project directory as up renders it", labels.Dir, got)
			}
		})
	}
}

// TestDevelopWatched: only compose services with rules are watched.
func TestDevelopWatched(t *testing.T) {
	pl := watchedPlan()
	empty := types.ServiceConfig{Name: "app", Develop: &types.DevelopConfig{}}
	plantest.AsCompose(pl.Service("app"), &compose.Config{Service: empty})
	if got := DevelopWatched(pl); !slices.Equal(got, []string{"db"}) {
		t.Errorf("watched %v, want db (app's develop has no rules)", got)
	}
	if got := DevelopWatched(testPlan()); got != nil {
		t.Errorf("a plan without compose services watches %v", got)
	}
}
