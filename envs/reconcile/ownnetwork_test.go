package reconcile

import (
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestComposeServiceOffTheProjectNetworkIsUnchanged: a compose service
// that the file puts only on a network of its own is not on the project
// network, so a second up leaves its container as it is (the network
// checked is the one the rendered service is on).
func TestComposeServiceOffTheProjectNetworkIsUnchanged(t *testing.T) {
	pl := testPlan()
	db := types.ServiceConfig{Name: "db"}
	db.Image = "postgres@sha256:1"
	db.Networks = map[string]*types.ServiceNetworkConfig{"backend": nil}
	plantest.AsCompose(pl.Service("db"), &compose.Config{Service: db,
		Networks: types.Networks{"backend": {Name: "p_backend"}}})
	f := enginetest.New()
	f.AddNetwork("p_backend", nil) // the fake executor makes no compose networks
	r := newRunner(t, f)
	if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := r.Up(t.Context(), pl, UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := actionsOf(res.Changes); got["db"] != Unchanged || got["app"] != Unchanged {
		t.Errorf("second up = %+v; want db and app unchanged", res.Changes)
	}
}
