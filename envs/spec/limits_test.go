package spec

import (
	"math"
	"testing"
)

func TestMemoryBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"16g", 16 << 30, false}, {"512m", 512 << 20, false}, {"1.5g", 3 << 29, false}, {"6M", 6 << 20, false},
		{"1048576", 1 << 20, false}, {"2kb", 2048, false}, {"100b", 100, false}, {"8191t", 8191 << 40, false},
		{"8388607t", 8388607 << 40, false}, {"8388608t", 0, true}, {"9223372036854775807", math.MaxInt64, false},
		{"9223372036854775808", 0, true}, {"lots", 0, true}, {"1e9", 0, true},
	}
	for _, tt := range tests {
		got, err := MemoryBytes(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("MemoryBytes(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}
