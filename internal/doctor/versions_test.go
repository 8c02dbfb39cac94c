package doctor

import "testing"

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"570.133.07", "570.26", 1}, // numeric, not lexical: 133 > 26
		{"525.60.13", "525.60.13", 0},
		{"520.61.05", "525.60.13", -1},
		{"12.9", "12.10", -1},
		{"580", "580.0.0", 0},
		{"", "450.80.02", -1},
		{"abc", "1", -1}, // malformed compares low, never panics
	}
	for _, tt := range tests {
		if got := compareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMajorMinorAndMax(t *testing.T) {
	if got := majorMinor("12.9.1"); got != "12.9" {
		t.Errorf("majorMinor(12.9.1) = %q", got)
	}
	if got := majorMinor("13"); got != "13.0" {
		t.Errorf("majorMinor(13) = %q", got)
	}
	if got := maxVersion("470", "450.80.02"); got != "470" {
		t.Errorf("maxVersion = %q, want 470", got)
	}
	if got := maxVersion("", "525.60.13"); got != "525.60.13" {
		t.Errorf("maxVersion with empty = %q", got)
	}
}

func TestIsDataCenter(t *testing.T) {
	tests := map[string]bool{
		"NVIDIA H100 80GB HBM3":              true,
		"NVIDIA A100-SXM4-80GB":              true,
		"Tesla T4":                           true,
		"NVIDIA L4":                          true,
		"NVIDIA GeForce RTX 4070 Laptop GPU": false,
		"NVIDIA RTX 6000 Ada Generation":     false,
		"NVIDIA RTX A2000":                   false,
	}
	for name, want := range tests {
		if got := isDataCenter(name); got != want {
			t.Errorf("isDataCenter(%q) = %v, want %v", name, got, want)
		}
	}
}
