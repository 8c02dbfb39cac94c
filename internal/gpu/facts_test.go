package gpu

import (
	"reflect"
	"testing"
)

func TestArchitecture(t *testing.T) {
	tests := []struct {
		major, minor int
		want         string
	}{
		{6, 1, "pascal"}, {7, 0, "volta"}, {7, 5, "turing"}, {8, 0, "ampere"}, {8, 6, "ampere"},
		{8, 9, "ada"}, {9, 0, "hopper"}, {10, 0, "blackwell"}, {12, 0, "blackwell"}, {5, 2, ""},
	}
	for _, tt := range tests {
		if got := Architecture(tt.major, tt.minor); got != tt.want {
			t.Errorf("Architecture(%d, %d) = %q, want %q", tt.major, tt.minor, got, tt.want)
		}
	}
}

func TestThrottleReasons(t *testing.T) {
	tests := []struct {
		mask uint64
		want []string
	}{
		{0, nil},
		{0x1, []string{"gpu_idle"}},
		{0x44, []string{"sw_power_cap", "hw_thermal_slowdown"}},
		{0x1000, []string{"0x1000"}},
	}
	for _, tt := range tests {
		if got := ThrottleReasons(tt.mask); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ThrottleReasons(%#x) = %v, want %v", tt.mask, got, tt.want)
		}
	}
}

func TestSmallConversions(t *testing.T) {
	if got := cudaVersion(12080); got != "12.8" {
		t.Errorf("cudaVersion(12080) = %q", got)
	}
	if got := cudaVersion(0); got != "" {
		t.Errorf("cudaVersion(0) = %q", got)
	}
	if got := normalizeBusID("00000000:1A:00.0"); got != "0000:1a:00.0" {
		t.Errorf("normalizeBusID = %q", got)
	}
	if got := cString([]int8{'a', 'b', 0, 'c'}); got != "ab" {
		t.Errorf("cString = %q", got)
	}
	if got := topologyLevelName(40); got != "NODE" {
		t.Errorf("topologyLevelName(40) = %q", got)
	}
}
