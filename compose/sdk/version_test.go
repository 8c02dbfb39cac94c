package sdk

import "testing"

func TestVersionCore(t *testing.T) {
	tests := []struct{ in, want string }{
		{"v5.6.0", "5.6.0"},
		{"v5.6.1-0.20260101000000-0123456789ab", "5.6.1"},
		{"v5.7.0-rc.1+incompatible", "5.7.0"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := versionCore(tt.in); got != tt.want {
			t.Errorf("versionCore(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
