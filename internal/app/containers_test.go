package app

import (
	"strings"
	"testing"
)

func TestLineWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string // split anywhere
		want   []string
	}{
		{"whole lines", []string{"a\nb\n"}, []string{"a\n", "b\n"}},
		{"a line split over writes", []string{"a\nb", "c\n"}, []string{"a\n", "bc\n"}},
		{"a last line without a newline gets one", []string{"partial"}, []string{"partial\n"}},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			w := &lineWriter{emit: func(l []byte) { got = append(got, string(l)) }}
			for _, s := range tt.writes {
				if _, err := w.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			w.flush()
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
