package remote

import (
	"path"
	"strings"
)

// JobTouched is the first of changed (project-relative, slash-separated
// paths a sync sent or removed) that a job with command cmd uses, and
// whether there is one. A job uses every /workspace path its command names
// (spark-submit's job file, --py-files, --files, a script path inside an
// sh -c string; a folder covers what is under it) and, for a Python job
// file, the .py files beside it and below (the modules it imports).
func JobTouched(cmd []string, changed []string) (string, bool) {
	named := workspacePaths(cmd)
	var pyDirs []string
	for _, n := range named {
		if strings.HasSuffix(n, ".py") {
			pyDirs = append(pyDirs, path.Dir(n))
		}
	}
	for _, c := range changed {
		c = path.Clean(strings.TrimPrefix(c, "./"))
		for _, n := range named {
			if c == n || strings.HasPrefix(c, n+"/") {
				return c, true
			}
		}
		if strings.HasSuffix(c, ".py") {
			for _, d := range pyDirs {
				if d == "." || strings.HasPrefix(c, d+"/") {
					return c, true
				}
			}
		}
	}
	return "", false
}

// workspacePaths are the project-relative paths of the /workspace paths in
// cmd's words (and in the words of its arguments, for sh -c strings and
// --opt=/workspace/x), commas splitting lists such as --py-files a,b.
func workspacePaths(cmd []string) []string {
	var out []string
	for _, arg := range cmd {
		for _, word := range strings.FieldsFunc(arg, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == ',' || r == '=' || r == ';' || r == '\'' || r == '"' || r == '&' || r == '|'
		}) {
			if rel, ok := strings.CutPrefix(path.Clean(word), Workspace+"/"); ok && rel != "" {
				out = append(out, rel)
			}
		}
	}
	return out
}
