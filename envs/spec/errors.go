package spec

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// Error is one problem in devenv.yaml (or in a file it names), with where it
// is and, when there is one, what to do about it.
type Error struct {
	File string // shown relative to the project directory, e.g. "devenv.yaml"
	Pos  Pos    // zero when the problem is about the whole file
	Msg  string
	Hint string
}

// Error formats the problem as "file:line:col: msg" plus an indented hint.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Pos.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Pos.Line, e.Pos.Col)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString("\n\thint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// IsInvalid reports whether err says that devenv.yaml (or a file it names) is
// invalid, so that the CLI can exit with status 2.
func IsInvalid(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return true
	}
	var m *multierror.Error
	if errors.As(err, &m) {
		for _, item := range m.Errors {
			if errors.As(item, &e) {
				return true
			}
		}
	}
	return false
}

// Errors returns the *Error items of err (a *multierror.Error or a single
// *Error), in order, or nil.
func Errors(err error) []*Error {
	var m *multierror.Error
	if errors.As(err, &m) {
		var out []*Error
		for _, item := range m.Errors {
			var e *Error
			if errors.As(item, &e) {
				out = append(out, e)
			}
		}
		return out
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// joinErrors sorts problems by file (the main file first) and position and
// joins them into one *multierror.Error whose text lists one per line.
func joinErrors(main string, errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.File != b.File {
			if a.File == main || b.File == main {
				return a.File == main
			}
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
	m := &multierror.Error{ErrorFormat: formatErrors}
	for _, e := range errs {
		m.Errors = append(m.Errors, e)
	}
	return m
}

func formatErrors(errs []error) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	noun := "problems"
	if len(errs) == 1 {
		noun = "problem"
	}
	return fmt.Sprintf("%d %s:\n%s", len(errs), noun, strings.Join(lines, "\n"))
}

// suggest returns the candidate closest to word by edit distance, or "" when
// none is close enough to be a likely typo.
func suggest(word string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(2, len(word)/3)
	if bestDist < 0 || bestDist > limit || bestDist >= len(word) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
