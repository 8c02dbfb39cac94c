package doctor

import (
	"bufio"
	"regexp"
	"strings"
)

// Finding is a well-known failure recognised in a service's logs.
type Finding struct {
	ID      string `json:"id"`
	Line    int    `json:"line"`  // 1-based line of the first match
	Match   string `json:"match"` // that line, trimmed (and cut to 300 characters)
	Meaning string `json:"meaning"`
	Fix     string `json:"fix"`
}

// signature is one failure pattern with what it means and what to do.
type signature struct {
	id      string
	re      func() *regexp.Regexp
	meaning string
	fix     string
}

// maxMatch bounds Finding.Match so a huge log line stays readable.
const maxMatch = 300

// Diagnose scans logs for well-known GPU, Spark RAPIDS and Triton failure
// signatures and returns one Finding per signature (its first match), in
// the order the matches appear.
func Diagnose(logs string) []Finding {
	var out []Finding
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(logs))
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for _, s := range signatures {
			if seen[s.id] || !s.re().MatchString(line) {
				continue
			}
			seen[s.id] = true
			out = append(out, Finding{ID: s.id, Line: n, Match: cut(strings.TrimSpace(line)), Meaning: s.meaning, Fix: s.fix})
		}
	}
	return out
}

func cut(s string) string {
	if len(s) <= maxMatch {
		return s
	}
	return s[:maxMatch] + "..."
}
