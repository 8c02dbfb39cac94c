package reconcile

import (
	"context"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestUpRepairsTheProjectNetwork: a network removed or a container
// disconnected behind devenv's back is repaired by the next up, which
// recreates the containers on the project's network.
func TestUpRepairsTheProjectNetwork(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(t *testing.T, f *enginetest.Fake)
		noStart bool
		want    map[string]string
	}{
		{"untouched", func(*testing.T, *enginetest.Fake) {}, false,
			map[string]string{"db": Unchanged, "app": Unchanged}},
		{"network removed while stopped", func(t *testing.T, f *enginetest.Fake) {
			ctx := context.Background()
			for _, c := range []string{"p-db", "p-app"} {
				must(t, f.Stop(ctx, c, 0))
			}
			must(t, f.Remove(ctx, engine.Networks, "p", false))
		}, false, map[string]string{"db": Recreated, "app": Recreated}},
		{"running container disconnected", func(t *testing.T, f *enginetest.Fake) {
			must(t, f.Disconnect("p-app", "p"))
		}, false, map[string]string{"db": Unchanged, "app": Recreated}},
		{"network removed, --no-start", func(t *testing.T, f *enginetest.Fake) {
			ctx := context.Background()
			must(t, f.Disconnect("p-db", "p"))
			must(t, f.Disconnect("p-app", "p"))
			must(t, f.Remove(ctx, engine.Networks, "p", false))
		}, true, map[string]string{"db": Recreated, "app": Recreated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			ctx := context.Background()
			if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
				t.Fatal(err)
			}
			tt.tamper(t, f)
			res, err := r.Up(ctx, testPlan(), UpOptions{NoStart: tt.noStart})
			if err != nil {
				t.Fatalf("second up: %v", err)
			}
			if a := actionsOf(res.Changes); a["db"] != tt.want["db"] || a["app"] != tt.want["app"] {
				t.Fatalf("second up: %v, want %v", a, tt.want)
			}
			nets, _ := f.List(ctx, engine.Networks, nil)
			if len(nets) != 1 {
				t.Fatalf("networks after up: %v", nets)
			}
			for _, c := range []string{"p-db", "p-app"} {
				st, err := f.Inspect(ctx, c)
				if err != nil || st.NetworkIDs["p"] != nets[0].ID {
					t.Errorf("%s on networks %v, want p (%s)", c, st.NetworkIDs, nets[0].ID)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
