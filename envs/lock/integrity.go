package lock

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/distribution/reference"
)

// IntegrityError says the lock contradicts itself or holds what devenv
// never writes (an artifact from a plain http host, a file name with a
// path, hashes that do not add up): it was edited by hand or damaged.
type IntegrityError struct {
	Problems []string
	// Services are those whose entries are at fault; empty when the
	// lock as a whole is.
	Services map[string]bool `json:"-"`
}

func (e *IntegrityError) Error() string {
	return "devenv.lock is not consistent: " + strings.Join(e.Problems, "; ") +
		"; do not edit it by hand: run `devenv lock` to write those entries again"
}

// Verify checks the lock's own consistency without the network: artifact
// URLs are https (or under a configured mirror), artifact file names are
// plain names, base images are valid references, and every stored hash
// agrees with what it summarises. Digest and checksum formats are checked
// by Parse already.
func Verify(f *File, m sources.Mirrors) error {
	var problems []string
	damaged := map[string]bool{}
	for _, s := range f.Services {
		if p := verifyService(s, m); len(p) > 0 {
			problems = append(problems, p...)
			damaged[s.Name] = true
		}
	}
	if allHashed(f) {
		var names, hashes []string
		for _, s := range f.Services {
			names, hashes = append(names, s.Name), append(hashes, s.InputHash)
		}
		if summaryHash(f.Project, names, hashes) != f.InputHash && len(damaged) == 0 {
			problems = append(problems, "input_hash does not match the services' input hashes")
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return &IntegrityError{Problems: problems, Services: damaged}
}

// allHashed reports whether every service records its inputs: locks
// written before inputs were recorded summarise differently, and are
// stale (Check says so), not damaged.
func allHashed(f *File) bool {
	for _, s := range f.Services {
		if s.Inputs == nil || s.InputHash == "" {
			return false
		}
	}
	return true
}

func verifyService(s Service, m sources.Mirrors) []string {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("service %s: ", s.Name)+fmt.Sprintf(format, args...))
	}
	if s.Base != nil {
		if _, err := reference.ParseNormalizedNamed(s.Base.Ref); err != nil {
			add("base %q is not an image reference", s.Base.Ref)
		}
	}
	if s.Inputs != nil && s.Inputs.hash() != s.InputHash {
		add("input_hash does not match its inputs")
	}
	out = append(out, buildBaseProblems(s)...)
	for _, a := range s.Artifacts {
		if !plainFileName(a.File) {
			add("artifact %q has file %q; a file name has no directory", a.Name, a.File)
		}
		if why := artifactURLProblem(a.URL, m); why != "" {
			add("artifact %q: %s", a.Name, why)
		}
	}
	return out
}

// buildBaseProblems: a compose build service's build_bases are valid
// references, one for each image of inputs.from and no other.
func buildBaseProblems(s Service) []string {
	var out []string
	var refs []string
	for _, b := range s.BuildBases {
		if _, err := reference.ParseNormalizedNamed(b.Ref); err != nil {
			out = append(out, fmt.Sprintf("service %s: build base %q is not an image reference", s.Name, b.Ref))
		}
		refs = append(refs, b.Ref)
	}
	var from []string
	if s.Inputs != nil {
		from = s.Inputs.From
	}
	if !slices.Equal(refs, from) {
		out = append(out, fmt.Sprintf("service %s: build_bases pin %s, but inputs.from is %s", s.Name, orNoneList(refs), orNoneList(from)))
	}
	return out
}

func plainFileName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00\n\r")
}

// artifactURLProblem says why u cannot be a locked artifact URL, or "".
func artifactURLProblem(u string, m sources.Mirrors) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return fmt.Sprintf("url %q is not a URL", u)
	}
	if parsed.User != nil {
		return fmt.Sprintf("url %s carries credentials; the lock never holds them", parsed.Redacted())
	}
	if parsed.Scheme == "https" {
		return ""
	}
	for _, mirror := range []string{m.Maven, m.Apache} {
		if mirror != "" && strings.HasPrefix(u, strings.TrimRight(mirror, "/")+"/") {
			return ""
		}
	}
	return fmt.Sprintf("url %q is not https and not under a configured mirror", u)
}

// projectMirrors are the mirrors a project fetches through: devenv.yaml's,
// overlaid with the DEVENV_MIRROR_* environment.
func projectMirrors(p *spec.Project) sources.Mirrors {
	return sources.FromEnv(sources.Mirrors{Registries: p.Mirrors.Registries, Maven: p.Mirrors.Maven,
		Apache: p.Mirrors.Apache, PyPI: p.Mirrors.PyPI, APT: p.Mirrors.APT}, nil)
}
