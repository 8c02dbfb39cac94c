package profiles

import (
	"strconv"
	"strings"
)

// version is a dotted numeric version such as "3.5.1", "25.06.0" or
// "525.60.13". Parts beyond the ones written are absent, not zero, so that
// "3.5" can match "3.5.1" as a prefix.
type version []int

// parseVersion reads a dotted numeric version. It reports false for anything
// else (empty parts, signs, letters).
func parseVersion(s string) (version, bool) {
	if s == "" {
		return nil, false
	}
	parts := strings.Split(s, ".")
	v := make(version, len(parts))
	for i, p := range parts {
		if p == "" || strings.TrimLeft(p, "0123456789") != "" {
			return nil, false
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		v[i] = n
	}
	return v, true
}

// compareVersions orders two dotted versions numerically; missing parts count
// as zero ("470" < "470.1"; "12.9" == "12.9.0"). Unparsable input sorts as
// the empty version.
func compareVersions(a, b string) int {
	va, _ := parseVersion(a)
	vb, _ := parseVersion(b)
	for i := 0; i < len(va) || i < len(vb); i++ {
		x, y := part(va, i), part(vb, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// CompareVersions orders two dotted numeric versions (-1, 0, 1), missing
// parts counting as zero.
func CompareVersions(a, b string) int { return compareVersions(a, b) }

func part(v version, i int) int {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// matchesPrefix reports whether full starts with the dotted parts of want:
// "3.5" matches "3.5.1" but not "3.50.0"; "" matches everything.
func matchesPrefix(full, want string) bool {
	if want == "" {
		return true
	}
	return full == want || strings.HasPrefix(full, want+".")
}

// majorMinor returns the first two parts of v ("12.9.1" -> "12.9").
func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// major returns the first part of v ("12.9.1" -> "12").
func major(v string) string {
	before, _, _ := strings.Cut(v, ".")
	return before
}

// maxVersion returns the higher of two versions.
func maxVersion(a, b string) string {
	if compareVersions(a, b) >= 0 {
		return a
	}
	return b
}

// monthIndex turns a YY.MM release into a month count for distance
// comparisons; false when it is not YY.MM (a four-digit year such as
// 2025.06 is not: it would sit 166 years after 25.06).
func monthIndex(rel string) (int, bool) {
	v, ok := parseVersion(rel)
	if !ok || len(v) != 2 || v[0] > 99 || v[1] < 1 || v[1] > 12 {
		return 0, false
	}
	return v[0]*12 + v[1], true
}
