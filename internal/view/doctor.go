package view

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/doctor"
)

// Doctor is `devenv doctor`: a line a check, its fix unless it passed, and
// the counts.
func Doctor(w io.Writer, r doctor.Report) {
	counts := map[string]int{}
	for _, ch := range r.Checks {
		counts[ch.Status]++
		fmt.Fprintf(w, "%s %s: %s\n", strings.ToUpper(ch.Status), ch.Title, ch.Message)
		if ch.Fix != "" && ch.Status != doctor.Pass {
			fmt.Fprintf(w, "  fix: %s\n", ch.Fix)
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d warnings, %d failed, %d skipped\n",
		counts[doctor.Pass], counts[doctor.Warn], counts[doctor.Fail], counts[doctor.Skip])
}
