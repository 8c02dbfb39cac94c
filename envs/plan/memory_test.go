package plan

import "testing"

func TestMemoryBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"512", 512},
		{"64m", 64 << 20},
		{"8g", 8 << 30},
		{"8GB", 8 << 30},
		{"1.5g", 3 << 29},
		{"2k", 2 << 10},
		{"1t", 1 << 40},
	}
	for _, tt := range tests {
		if got := memoryBytes(tt.in); got != tt.want {
			t.Errorf("memoryBytes(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
