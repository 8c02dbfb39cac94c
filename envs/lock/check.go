package lock

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
)

// StaleError says the lock no longer matches devenv.yaml; the CLI exits 5.
type StaleError struct {
	Reasons []string
}

func (e *StaleError) Error() string {
	return "devenv.lock is stale: " + strings.Join(e.Reasons, "; ") + "; run `devenv lock` and commit devenv.lock"
}

// Check compares the lock with the project without touching the network:
// the input hash and the set of services must match.
func Check(p *spec.Project, f *File) error {
	hash, err := InputHash(p)
	if err != nil {
		return err
	}
	var reasons []string
	if hash != f.InputHash {
		reasons = append(reasons, "devenv.yaml (or a file it names) changed since the lock was written")
	}
	want := map[string]bool{}
	for _, s := range p.Services {
		want[s.Name] = true
		ls := f.Service(s.Name)
		if ls == nil {
			reasons = append(reasons, fmt.Sprintf("service %q is not locked", s.Name))
			continue
		}
		if h, err := ServiceInputHash(p, s); err == nil && ls.InputHash != "" && h != ls.InputHash {
			reasons = append(reasons, fmt.Sprintf("service %q asks for something else now (profile, versions, image, jars or mirror)", s.Name))
		}
	}
	var extra []string
	for _, s := range f.Services {
		if !want[s.Name] && !(s.Profile == ComposeProfile && slices.Contains(p.ComposeServices, s.Name)) {
			extra = append(extra, s.Name)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		reasons = append(reasons, fmt.Sprintf("service %q is locked but no longer in devenv.yaml", n))
	}
	if f.Project != p.Name {
		reasons = append(reasons, fmt.Sprintf("project name is %q, the lock says %q", p.Name, f.Project))
	}
	if len(reasons) > 0 {
		return &StaleError{Reasons: reasons}
	}
	return nil
}
