package images

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestComposeBuildTaggedAsCompose: a compose build's image also carries
// the names Compose gives it (image:, build.tags), on the build that makes
// it and on an up that finds it built (a name another image took
// meanwhile is the build's again).
func TestComposeBuildTaggedAsCompose(t *testing.T) {
	in := composeInput(t)
	in.Tags = []string{"example/app:1.0", "example/app:latest"}
	eng := enginetest.New()
	for _, round := range []string{"built", "found built"} {
		res, err := Build(t.Context(), eng, in, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range in.Tags {
			if ok, err := eng.ImageExists(t.Context(), name); err != nil || !ok {
				t.Errorf("%s: no image %s beside %s (%v)", round, name, res.Tag, err)
			}
		}
		if err := eng.RemoveImage(t.Context(), in.Tags[0]); err != nil {
			t.Fatal(err)
		}
	}
}
