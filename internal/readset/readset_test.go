package readset

import (
	"slices"
	"sync"
	"testing"
)

func TestSetRecords(t *testing.T) {
	var nilSet *Set
	nilSet.File("/a") // a nil set records nothing and does not fail
	if in := nilSet.Inputs(); in.Files != nil {
		t.Fatalf("nil set: %v", in)
	}
	var s Set
	var wg sync.WaitGroup
	for _, p := range []string{"/p/b", "/p/a", "/p/./a", "/p/x/../b"} {
		wg.Go(func() { s.File(p) })
	}
	wg.Wait()
	s.Tree("/p/m", "/p/m/out")
	s.Context("/p/ctx/")
	s.File("")
	in := s.Inputs()
	tests := []struct {
		name      string
		got, want []string
	}{
		{"files", in.Files, []string{"/p/a", "/p/b"}},
		{"trees", in.Trees, []string{"/p/m"}},
		{"skip", in.Skip, []string{"/p/m/out"}},
		{"contexts", in.Contexts, []string{"/p/ctx"}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}
