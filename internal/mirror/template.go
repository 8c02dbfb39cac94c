package mirror

import (
	"fmt"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Templates (Helm, Jinja, Ansible) write {{ name }} where a value goes; an
// unquoted one is a YAML flow mapping, so the file is no YAML until it is
// filled. devenv reads such a file with each placeholder turned into the
// shell form ${name}, which its readers already treat as a prod value not
// to copy, and says so.

var templateRe = lazy.Regexp(`\{\{-?\s*([^{}]*?)\s*-?\}\}`)

// fillTemplate returns data with its {{ placeholders }} written ${...}
// and a warning naming them, when data reads as no format and the filled
// text does; else data unchanged and "".
func fillTemplate(data []byte) ([]byte, string) {
	if !strings.Contains(string(data), "{{") || detectBytes(data) != "" {
		return data, ""
	}
	var seen []string
	filled := templateRe().ReplaceAllStringFunc(string(data), func(m string) string {
		name := strings.Join(strings.Fields(templateRe().FindStringSubmatch(m)[1]), "_")
		if len(seen) < 6 && !slices.Contains(seen, m) {
			seen = append(seen, m)
		}
		return "${" + name + "}"
	})
	if detectBytes([]byte(filled)) == "" {
		return data, ""
	}
	return []byte(filled), fmt.Sprintf("the file is a template: its placeholders %s were read unfilled (as ${...}), so values that hold one are not prod's; fill them and mirror it again for those",
		strings.Join(seen, ", "))
}
