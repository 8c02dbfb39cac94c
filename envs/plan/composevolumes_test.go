package plan

import (
	"slices"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
)

// TestComposeVolumesAsComposeNamesThem: a compose service's named volume is
// mounted by the name Compose gives it (<project>_<key>, or its own name:),
// and the project makes only the volumes that are not external: an external
// volume is used as it is, as Compose uses it (docker compose config of
// testdata/volumes names them so).
func TestComposeVolumesAsComposeNamesThem(t *testing.T) {
	pl := planFixture(t, "volumes")
	if want := []string{"demo_data", "my-data"}; !slices.Equal(pl.Volumes, want) {
		t.Errorf("the project makes volumes %q; want %q (external ones are not made)", pl.Volumes, want)
	}
	sources := map[string]string{}
	app := pl.Service("app")
	for _, m := range app.Container.Volumes {
		if m.Type == types.VolumeTypeVolume {
			sources[m.Target] = app.Compose.Config.Volumes[m.Source].Name
		}
	}
	for _, tt := range []struct{ target, source string }{
		{"/data", "demo_data"},
		{"/named", "my-data"},
		{"/ext", "ext"},
		{"/extnamed", "shared-cache"},
	} {
		if got := sources[tt.target]; got != tt.source {
			t.Errorf("%s is mounted from volume %q; want %q", tt.target, got, tt.source)
		}
	}
}
