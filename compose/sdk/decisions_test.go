package sdk

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
)

// TestDecisions: what a run decided for each container, read from event
// sequences the SDK reported on Docker 20.10 (testdata/events): created
// and started, recreated beside one left running, and a service the SDK
// said nothing of (a stop: no decision of up's), left as it was.
func TestDecisions(t *testing.T) {
	proj := &types.Project{Name: "demo", Services: types.Services{
		"db":  {Name: "db", ContainerName: "demo-db"},
		"app": {Name: "app", ContainerName: "demo-app"},
	}}
	for _, c := range []struct {
		file string
		want engine.Decisions
	}{
		{"up", engine.Decisions{"db": engine.DecidedCreated, "app": engine.DecidedCreated}},
		{"recreate", engine.Decisions{"db": engine.DecidedUnchanged, "app": engine.DecidedRecreated}},
		{"stop", engine.Decisions{"db": engine.DecidedUnchanged, "app": engine.DecidedUnchanged}},
		{"error", engine.Decisions{"db": engine.DecidedCreated, "app": engine.DecidedCreated}},
	} {
		t.Run(c.file, func(t *testing.T) {
			d := NewDecisionLog(proj)
			ev := &events{}
			ev.record(d)
			ev.On(readRecorded(t, filepath.Join("testdata", "events", c.file+".sdk.json"))...)
			if got := d.Result(); !maps.Equal(got, c.want) {
				t.Errorf("decisions %v, want %v", got, c.want)
			}
		})
	}
}

// TestDecisionsDefaultNames: a service without container_name is read
// under Compose's own name for it, <project>-<service>-1; containers of
// other projects are not read.
func TestDecisionsDefaultNames(t *testing.T) {
	d := NewDecisionLog(&types.Project{Name: "p", Services: types.Services{"web": {Name: "web"}}})
	recorded := readRecorded(t, filepath.Join("testdata", "events", "recreate.sdk.json"))
	for i := range recorded {
		if recorded[i].ID == "Container demo-app" {
			recorded[i].ID = "Container p-web-1"
		}
	}
	d.On(recorded...)
	if got, want := d.Result(), (engine.Decisions{"web": engine.DecidedRecreated}); !maps.Equal(got, want) {
		t.Errorf("decisions %v, want %v", got, want)
	}
}

// TestDecisionsOfOrphans: an orphan's container (Add) is in the result
// only when the SDK decided about it (removed with --remove-orphans).
func TestDecisionsOfOrphans(t *testing.T) {
	proj := &types.Project{Name: "demo", Services: types.Services{"db": {Name: "db", ContainerName: "demo-db"}}}
	for _, c := range []struct {
		name string
		ev   []api.Resource
		want engine.Decisions
	}{
		{"ignored", []api.Resource{{ID: "Container demo-db", Text: "Running"}}, engine.Decisions{"db": engine.DecidedUnchanged}},
		{"removed", []api.Resource{{ID: "Container demo-db", Text: "Running"}, {ID: "Container demo-old", Text: "Removing"}, {ID: "Container demo-old", Text: "Removed"}},
			engine.Decisions{"db": engine.DecidedUnchanged, "old": engine.DecidedRemoved}},
	} {
		d := NewDecisionLog(proj)
		d.Add("demo-old", "old")
		d.On(c.ev...)
		if got := d.Result(); !maps.Equal(got, c.want) {
			t.Errorf("%s: decisions %v, want %v", c.name, got, c.want)
		}
	}
}
