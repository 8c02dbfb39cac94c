package export

import (
	"testing"
)

func TestComposeGolden(t *testing.T) {
	pl, lf := locked(t)
	got, err := Compose(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "compose.locked.golden.yaml", portable(got))

	got, err = Compose(unlocked(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "compose.unlocked.golden.yaml", portable(got))
}
