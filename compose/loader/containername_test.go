package loader

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
)

// TestContainerNameUnique: services that run together and set the same
// container_name are refused as Compose refuses them (compose-go's
// CheckContainerNameUnicity, which `docker compose config` and `up` run),
// each at its file:line, exit 2; services that never run together (one
// profile each, one enabled) may share a name, as under Compose. The
// lock's every-profile selection is not a run and is not checked.
func TestContainerNameUnique(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "container-name"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(dir, "compose.yaml")}
	tests := []struct {
		name     string
		env      string // COMPOSE_PROFILES
		profiles []string
		want     []string // each a line of the error; none: loads
	}{
		{"one profile enabled", "gpu", nil, nil},
		{"no profile enabled", "", nil, nil},
		{"every profile", "*", nil, []string{
			`compose.yaml:5:5: service "cpu": container name "worker" is already in use by service arm (compose.yaml:13:5)`,
			`compose.yaml:9:5: service "gpu": container name "worker" is already in use by service arm (compose.yaml:13:5)`,
		}},
		{"two profiles", "cpu,gpu", nil, []string{
			`compose.yaml:9:5: service "gpu": container name "worker" is already in use by service cpu (compose.yaml:5:5)`,
		}},
		{"the lock's selection of every service", "", []string{"*"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("COMPOSE_PROFILES", tt.env)
			_, err := Load(t.Context(), files, dir, "demo", tt.profiles)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded; want the shared container_name refused")
			}
			if code := exitcode.Of(err); code != exitcode.Usage {
				t.Errorf("exit code %d, want %d", code, exitcode.Usage)
			}
			var n int
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant the line %q", err, w)
				}
				n++
			}
			if got := strings.Count(err.Error(), "is already in use"); got != n {
				t.Errorf("error names %d conflicts, want %d:\n%v", got, n, err)
			}
		})
	}
}
