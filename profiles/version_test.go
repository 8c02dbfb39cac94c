package profiles

import "testing"

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"470", "450.80.02", 1}, {"525", "525.60.13", -1}, {"12.9", "12.9.0", 0},
		{"3.5.10", "3.5.9", 1}, {"25.06.0", "25.10.0", -1}, {"570.26", "570.124.06", -1},
	}
	for _, tc := range cases {
		if got := compareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compare(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestMatchesPrefix(t *testing.T) {
	cases := []struct {
		full, want string
		ok         bool
	}{
		{"3.5.1", "3.5", true}, {"3.50.0", "3.5", false}, {"3.5.1", "", true},
		{"25.06.0", "25.06", true}, {"12.9.1", "12", true}, {"3.5.1", "3.5.1", true}, {"3.5.1", "3.5.10", false},
	}
	for _, tc := range cases {
		if got := matchesPrefix(tc.full, tc.want); got != tc.ok {
			t.Errorf("matchesPrefix(%s, %s) = %v", tc.full, tc.want, got)
		}
	}
}

func TestParseVersionRejects(t *testing.T) {
	for _, s := range []string{"", "3.", ".5", "3.x", "-1", "v3", "3..5", "+3"} {
		if _, ok := parseVersion(s); ok {
			t.Errorf("parseVersion(%q) accepted", s)
		}
	}
}
