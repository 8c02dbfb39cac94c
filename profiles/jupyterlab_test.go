package profiles

import "testing"

// TestJupyterLabVersion reads the expected releases from the list itself,
// so adding a JupyterLab release changes no test.
func TestJupyterLabVersion(t *testing.T) {
	newest := jupyterLabReleases[0].version
	forPython := func(py string) string { // the newest whose floor py meets
		for _, r := range jupyterLabReleases {
			if compareVersions(py, r.minPython) >= 0 {
				return r.version
			}
		}
		return ""
	}
	oldest := jupyterLabReleases[len(jupyterLabReleases)-1]
	tests := []struct {
		name string
		res  Resolved
		want string
	}{
		{"explicit modern python", Resolved{Python: "3.12"}, newest},
		{"explicit python 3.9", Resolved{Python: "3.9"}, forPython("3.9")},
		{"explicit python 3.8", Resolved{Python: "3.8"}, oldest.version},
		{"ubuntu 22.04 base default", Resolved{BaseImage: "nvcr.io/nvidia/cuda:12.9.2-runtime-ubuntu22.04"}, forPython("3.10")},
		{"ubuntu 20.04 base default", Resolved{BaseImage: "nvcr.io/nvidia/cuda:11.8.0-runtime-ubuntu20.04"}, forPython("3.8")},
		{"unknown base", Resolved{BaseImage: "example.com/base:latest"}, newest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JupyterLabVersion(tt.res); got != tt.want {
				t.Errorf("JupyterLabVersion = %q, want %q", got, tt.want)
			}
		})
	}
	if oldest.minPython != "3.8" || forPython("3.9") == oldest.version || forPython("3.9") == newest {
		t.Errorf("the list no longer separates Python 3.8, 3.9 and 3.10+: %+v", jupyterLabReleases)
	}
}
