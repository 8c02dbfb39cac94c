package profiles

import "testing"

func TestJupyterLabVersion(t *testing.T) {
	tests := []struct {
		name string
		res  Resolved
		want string
	}{
		{"explicit modern python", Resolved{Python: "3.11"}, "4.4.9"},
		{"explicit python 3.8", Resolved{Python: "3.8"}, "4.2.5"},
		{"ubuntu 22.04 base default", Resolved{BaseImage: "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04"}, "4.4.9"},
		{"ubuntu 20.04 base default", Resolved{BaseImage: "nvcr.io/nvidia/cuda:11.8.0-runtime-ubuntu20.04"}, "4.2.5"},
		{"unknown base", Resolved{BaseImage: "example.com/base:latest"}, "4.4.9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JupyterLabVersion(tt.res); got != tt.want {
				t.Errorf("JupyterLabVersion = %q, want %q", got, tt.want)
			}
		})
	}
}
