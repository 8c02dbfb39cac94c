package profiles

import (
	"fmt"
	"strings"
)

// ResolveError says why a request cannot be resolved. Field is the request
// field at fault ("spark", "rapids", "scala", "java", "python", "cuda",
// "release", "arch", "profile", "jars") so the caller can point at the
// devenv.yaml line that set it; Msg says what is wrong and Hint names the
// nearest valid choices.
type ResolveError struct {
	Field string
	Msg   string
	Hint  string
}

// Error renders "field: msg; hint".
func (e *ResolveError) Error() string {
	if e.Hint == "" {
		return e.Field + ": " + e.Msg
	}
	return e.Field + ": " + e.Msg + "; " + e.Hint
}

func resolveErr(field, msg, hint string, args ...any) *ResolveError {
	return &ResolveError{Field: field, Msg: msg, Hint: fmt.Sprintf(hint, args...)}
}

// orList joins choices as "a, b or c".
func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// closestReleases returns the known YY.MM releases nearest to want by month
// (both neighbours on a tie), for "did you mean" hints.
func closestReleases(known []string, want string) []string {
	w, ok := monthIndex(want)
	if !ok {
		if len(known) == 0 {
			return nil
		}
		return []string{known[len(known)-1]}
	}
	best := -1
	var out []string
	for _, k := range known {
		m, _ := monthIndex(k)
		d := m - w
		if d < 0 {
			d = -d
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{k}
		case d == best:
			out = append(out, k)
		}
	}
	return out
}

// neighbours returns the newest version below want and the oldest above it,
// for "did you mean" hints on dotted versions.
func neighbours(known []string, want string) []string {
	var below, above string
	for _, k := range known {
		if compareVersions(k, want) < 0 {
			below = k
		} else if above == "" {
			above = k
		}
	}
	var out []string
	for _, v := range []string{below, above} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
