package spec

import (
	"fmt"
	"strings"

	"github.com/distribution/reference"
	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/lazy"
	"github.com/devenv-dev/devenv/internal/pipreq"
	"github.com/devenv-dev/devenv/internal/redact"
)

// maxServiceName is the longest host name label (RFC 1123); a service's
// name is its container's host name and network alias.
const maxServiceName = 63

// serviceNameProblem says why name cannot be a service name, or "".
func serviceNameProblem(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case len(name) > maxServiceName:
		return fmt.Sprintf("it is %d characters long, more than %d", len(name), maxServiceName)
	case !serviceNameRE().MatchString(name):
		return "it may hold only letters, digits, '_', '.' and '-', and must start with a letter or digit"
	case strings.Contains(name, ".."):
		return "it holds '..'"
	case !isAlnum(name[len(name)-1]):
		return fmt.Sprintf("it ends with %q", name[len(name)-1:])
	}
	if _, err := reference.ParseNormalizedNamed("devenv/project-" + strings.ToLower(name)); err != nil {
		return "its image devenv/<project>-" + strings.ToLower(name) + " is not a name Docker takes (at most one '.' or two '_' in a row between letters and digits)"
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var (
	notNameChar  = lazy.Regexp(`[^a-zA-Z0-9_.-]+`)
	separatorRun = lazy.Regexp(`[_.-]{2,}`)
)

// suggestName turns name into one that serviceNameProblem accepts.
func suggestName(name string) string {
	s := notNameChar().ReplaceAllString(name, "-")
	s = separatorRun().ReplaceAllString(s, "-")
	s = strings.TrimLeft(s, "_.-")
	if len(s) > maxServiceName {
		s = s[:maxServiceName]
	}
	s = strings.TrimRight(s, "_.-")
	if s == "" {
		return "app"
	}
	return s
}

// imageRef reports whether v (at n, under key) is an image reference the
// engine can pull, "repo[:tag][@sha256:...]".
func (d *decoder) imageRef(n *yaml.Node, key, v string) bool {
	_, err := reference.ParseNormalizedNamed(v)
	if err != nil {
		d.errAt(n, `write [registry/]repository[:tag][@sha256:<64 hex digits>] in lower case, e.g. "postgres:16" or "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04"`,
			"%s %q is not an image reference (%v)", key, v, err)
		return false
	}
	return true
}

// aptNameRE is a Debian package name, optionally with :arch and =version.
var aptNameRE = lazy.Regexp(`^[a-z0-9][a-z0-9+.\-]*(:[a-z0-9]+)?(=[A-Za-z0-9.+~:\-]+)?$`)

// aptList reads apt: package names; options and shell are refused.
func (d *decoder) aptList(f field) []string {
	items, nodes := d.strList(f, "apt")
	var out []string
	for i, s := range items {
		if !aptNameRE().MatchString(s) {
			d.errAt(nodes[i], `write one Debian package a line, e.g. "curl" or "curl=7.81.0-1"; options are not accepted`, "apt package %q is not a Debian package name", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

// pipStartRE is how a PEP 508 requirement starts: a project name.
var pipStartRE = lazy.Regexp(`^[A-Za-z0-9]`)

// pipList reads pip: requirement specifiers. An option (--index-url,
// --extra-index-url, -r, -e, --trusted-host, ...) is refused wherever it
// appears: the package index is mirrors.pypi's to choose.
func (d *decoder) pipList(f field) []string {
	items, nodes := d.strList(f, "pip")
	var out []string
	for i, s := range items {
		switch {
		case !pipStartRE().MatchString(s):
			d.errAt(nodes[i], pipHint(s), "pip entry %q is not a requirement: it must start with a package name", s)
		case strings.Contains(s, " -") || strings.Contains(s, "\t-"):
			d.errAt(nodes[i], pipHint(s), "pip entry %q carries a pip option", s)
		case strings.ContainsAny(s, "\n\r"):
			d.errAt(nodes[i], "write one requirement an item", "pip entry %q spans lines", s)
		case pipreq.Problem(s) != "":
			d.errAt(nodes[i], pipHint(s), "pip entry %q %s", redact.URLs(s), pipreq.Problem(s))
		default:
			out = append(out, s)
		}
	}
	return out
}

func pipHint(s string) string {
	if strings.Contains(s, "index-url") || strings.Contains(s, "trusted-host") || strings.Contains(s, "find-links") {
		return "set the package index with mirrors.pypi (or DEVENV_MIRROR_PYPI), not in pip:"
	}
	return `write requirement specifiers such as "pandas" or "pandas>=2.2,<3"`
}
