package lock

import (
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

func TestJupyterLabPinned(t *testing.T) {
	off := false
	spark := profiles.Resolved{Profile: profiles.SparkRapids, Python: "3.10"}
	py38 := profiles.Resolved{Profile: profiles.SparkRapids, Python: "3.8"}
	locked := &Service{Versions: Versions{Python: "3.10", JupyterLab: "4.3.0"}}
	tests := []struct {
		name string
		svc  spec.Service
		res  profiles.Resolved
		old  *Service
		want string
	}{
		{"first lock picks the newest for the Python", spec.Service{}, spark, nil, profiles.JupyterLabVersion(spark)},
		{"a locked release is kept", spec.Service{}, spark, locked, "4.3.0"},
		{"a new Python picks again", spec.Service{}, py38, locked, profiles.JupyterLabVersion(py38)},
		{"jupyter off pins nothing", spec.Service{Jupyter: &off}, spark, nil, ""},
		{"other profiles pin nothing", spec.Service{}, profiles.Resolved{Profile: profiles.Triton}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JupyterLab(&tt.svc, tt.res, tt.old); got != tt.want {
				t.Errorf("jupyterLab = %q, want %q", got, tt.want)
			}
		})
	}
}
