package labels

import "testing"

func TestProjectFilter(t *testing.T) {
	if got, want := ProjectFilter("fraud"), "dev.devenv.project=fraud"; got != want {
		t.Errorf("ProjectFilter = %q, want %q", got, want)
	}
}
