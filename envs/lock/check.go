package lock

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/spec"
)

// StaleError says the lock no longer matches devenv.yaml; the CLI exits 5.
type StaleError struct {
	Reasons []string
}

func (e *StaleError) Error() string {
	return "devenv.lock is stale: " + strings.Join(e.Reasons, "; ") + "; run `devenv lock` and commit devenv.lock"
}

// Check compares the lock with the project without touching the network.
// Only inputs of the lock count (see Inputs): a service's profile,
// requested versions, image, jars, custom profile or mirrored production
// description, the set of services and the project name. Every change is
// named.
//
// A lock that contradicts itself is an *IntegrityError (see Verify) rather
// than stale.
func Check(ctx context.Context, p *spec.Project, f *File) error {
	return check(ctx, p, f, nil)
}

// check is Check with the compose files as files reads them (nil: now).
func check(ctx context.Context, p *spec.Project, f *File, files *loader.Files) error {
	if err := Verify(f, projectMirrors(p)); err != nil {
		return err
	}
	want, err := wantedServices(ctx, p, files)
	if err != nil {
		return err
	}
	if f.Version < 2 {
		want = withoutBuilds(want)
	}
	if summaryOf(p.Name, want) == f.InputHash {
		return nil
	}
	var reasons []string
	if f.Project != p.Name {
		reasons = append(reasons, fmt.Sprintf("project name is %q, the lock says %q", p.Name, f.Project))
	}
	names := map[string]bool{}
	for _, w := range want {
		names[w.name] = true
		reasons = append(reasons, serviceChanges(w, f.Service(w.name))...)
	}
	var extra []string
	for _, s := range f.Services {
		if !names[s.Name] {
			extra = append(extra, s.Name)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		reasons = append(reasons, fmt.Sprintf("service %q is locked but no longer in devenv.yaml or its compose files", n))
	}
	if len(reasons) == 0 {
		reasons = append(reasons, "its input_hash does not match devenv.yaml (written by an older devenv, or edited by hand)")
	}
	return &StaleError{Reasons: reasons}
}

// withoutBuilds leaves out the compose build: services, which locks of
// version 1 never held: such a lock stays fresh after an upgrade of devenv
// (their images build FROM what the Dockerfile names, as they did, and no
// container is recreated) until the next `devenv lock` pins their FROM
// images.
func withoutBuilds(want []wanted) []wanted {
	var out []wanted
	for _, w := range want {
		if w.build == nil {
			out = append(out, w)
		}
	}
	return out
}

func orNoneList(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// serviceChanges says how one wanted service differs from its lock entry.
func serviceChanges(w wanted, ls *Service) []string {
	what := "service"
	if w.compose {
		what = "compose service"
	}
	switch {
	case ls == nil && w.build != nil:
		return []string{fmt.Sprintf("%s %q is not locked: devenv.lock does not pin the images its Dockerfile %s builds FROM (%s)", what, w.name, w.build.file, orNoneList(w.inputs.From))}
	case ls == nil:
		return []string{fmt.Sprintf("%s %q is not locked", what, w.name)}
	case ls.InputHash == w.inputs.hash():
		return nil
	case ls.Inputs != nil:
		if ch := inputChanges(w.name, *ls.Inputs, w.inputs); len(ch) > 0 {
			return ch
		}
	}
	return []string{fmt.Sprintf("%s %q asks for something else now (profile, versions, image, jars, custom profile or mirror)", what, w.name)}
}
