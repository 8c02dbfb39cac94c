// Package pipreq is devenv's one rule for what a requirement may say:
// entries of a custom profile's pip: and the lines of a service's
// requirements file. The image build installs from the configured index
// (mirrors.pypi) only, so nothing in them may point pip elsewhere: no
// index or find-links options (-i, --index-url, --extra-index-url, -f,
// --find-links, --trusted-host, --no-index), no options that pull in other
// files or sources (-r, -c, -e), no URLs (https://, git+ssh://, file:), no
// file paths or archive names (./x.whl, dist/x.tar.gz, x.whl), no direct
// references (name @ url), and no ${VAR} that would be filled from the
// build's environment. What pip's requirements format allows beyond
// specifiers (comments, continuation lines, --hash, --pre, binary choices)
// stays allowed.
package pipreq

import (
	"fmt"
	"strings"
)

// allowedOptions may appear in a requirements file: they choose among the
// index's files, never where files come from.
var allowedOptions = map[string]bool{
	"--hash": true, "--pre": true, "--prefer-binary": true, "--only-binary": true,
	"--no-binary": true, "--require-hashes": true,
}

// archiveSuffixes are names pip takes as local files.
var archiveSuffixes = []string{".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip", ".tar"}

// Problem says why one requirement (a pip: entry, or one logical line of a
// requirements file, comments removed) is refused, or "" when it is fine.
func Problem(req string) string {
	s := strings.TrimSpace(req)
	if s == "" {
		return ""
	}
	if strings.Contains(s, "${") {
		return "uses ${...}, which pip fills from the build's environment"
	}
	words := strings.Fields(s)
	if !strings.HasPrefix(words[0], "-") {
		if p := specifier(words[0], s); p != "" {
			return p
		}
		words = words[1:]
	}
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			continue
		}
		name, _, _ := strings.Cut(w, "=")
		if !allowedOptions[name] {
			return fmt.Sprintf("carries the pip option %s, which can point the build at another index, file or source", optionName(name))
		}
	}
	return ""
}

// optionName is an option as people know it ("-i" rather than "-ihttps://...").
func optionName(w string) string {
	if len(w) > 2 && w[1] != '-' {
		return w[:2]
	}
	return w
}

// specifier checks the requirement itself (its first word, and the whole
// line for a direct reference).
func specifier(first, line string) string {
	spec, _, _ := strings.Cut(line, ";") // environment markers may say anything
	switch {
	case strings.Contains(spec, "://") || hasScheme(first):
		return "is a URL; install from the package index (mirrors.pypi), by name and version"
	case strings.Contains(spec, "@"):
		return "is a direct reference (name @ URL or path); install from the package index by name and version"
	case strings.ContainsAny(first, `/\`) || strings.HasPrefix(first, ".") || strings.HasPrefix(first, "~"):
		return "is a file path; install from the package index by name and version"
	}
	lower := strings.ToLower(first)
	for _, suf := range archiveSuffixes {
		if strings.HasSuffix(lower, suf) {
			return "names an archive file, which pip installs from disk; install from the package index by name and version"
		}
	}
	return ""
}

// hasScheme reports "file:x", "git+https:x" and the like.
func hasScheme(w string) bool {
	i := strings.IndexByte(w, ':')
	if i <= 0 {
		return false
	}
	for _, c := range w[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// Line is one logical line of a requirements file.
type Line struct {
	N    int    // where it starts, 1-based
	Text string // continuation lines joined, comment removed
}

// Lines splits a requirements file as pip does: a trailing backslash joins
// the next line, and a '#' at the start or after whitespace starts a
// comment.
func Lines(data string) []Line {
	var out []Line
	var cur strings.Builder
	start := 0
	for i, raw := range strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n") {
		if cur.Len() == 0 {
			start = i + 1
		}
		line := stripComment(raw)
		if strings.HasSuffix(line, `\`) {
			cur.WriteString(strings.TrimSuffix(line, `\`))
			continue
		}
		cur.WriteString(line)
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, Line{N: start, Text: t})
		}
		cur.Reset()
	}
	if t := strings.TrimSpace(cur.String()); t != "" {
		out = append(out, Line{N: start, Text: t})
	}
	return out
}

func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// Check returns every refused line of a requirements file as
// "LINE: problem (the line)".
func Check(data string) []string {
	var out []string
	for _, l := range Lines(data) {
		if p := Problem(l.Text); p != "" {
			out = append(out, fmt.Sprintf("%d: %q %s", l.N, l.Text, p))
		}
	}
	return out
}
