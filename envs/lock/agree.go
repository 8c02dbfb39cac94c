package lock

import (
	"context"
	"errors"
	"fmt"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// CheckAgainst is Check, then whether each fresh devenv service's entry is
// what the catalog r gives for devenv.yaml's request with the lock's own
// versions: the same versions, base image and artifacts (name, canonical
// URL, file name), and JupyterLab exactly when devenv.yaml turns Jupyter
// on. Without the network: a lock edited by hand (an artifact URL or file
// swapped, a version that no longer matches its artifacts or devenv.yaml)
// is an *IntegrityError naming the field; a Jupyter toggle, which is not a
// lock input, makes it stale. Every command that reads devenv.lock goes
// through it (app.Project.Stale), and `devenv lock` writes such entries
// again.
func CheckAgainst(ctx context.Context, p *spec.Project, f *File, r Resolver) error {
	return CheckAgainstWith(ctx, p, f, r, nil)
}

// CheckAgainstWith is CheckAgainst with the project's compose files as
// files reads them: the command's one read, shared with the plan (nil:
// read now).
func CheckAgainstWith(ctx context.Context, p *spec.Project, f *File, r Resolver, files *loader.Files) error {
	if err := check(ctx, p, f, files); err != nil || r == nil {
		return err
	}
	var problems, stale []string
	damaged := map[string]bool{}
	for _, s := range p.Services {
		ls := f.Service(s.Name)
		if ls == nil {
			continue
		}
		bad, old := agreeService(p, s, ls, r)
		if len(bad) > 0 {
			damaged[s.Name] = true
		}
		problems, stale = append(problems, bad...), append(stale, old...)
	}
	if len(problems) > 0 {
		return &IntegrityError{Problems: problems, Services: damaged}
	}
	if len(stale) > 0 {
		return &StaleError{Reasons: stale}
	}
	return nil
}

// agreeService compares one locked entry with the catalog's resolution of
// the same request; it returns integrity problems and stale reasons.
func agreeService(p *spec.Project, s *spec.Service, ls *Service, r Resolver) (problems, stale []string) {
	// devenv.yaml's request with the lock's versions filling the rest: a
	// mirror: source only fills what the lock then holds, so it is not
	// read again here (an event log can be large).
	keep := withLocked(s.Request(), ls, nil)
	res, err := r.Resolve(keep, p.Profiles)
	if err != nil {
		return nil, []string{fmt.Sprintf("service %q: its locked versions no longer resolve in this devenv's catalog (%v)", s.Name, err)}
	}
	bad := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf("service %s: ", s.Name)+fmt.Sprintf(format, args...))
	}
	for _, v := range versionFields(ls.Versions, res) {
		if v.locked != v.want {
			bad("versions.%s is %s, but devenv.yaml's request with the lock's versions resolves to %s", v.name, orUnset(v.locked), orUnset(v.want))
		}
	}
	base := res.BaseImage
	if res.Profile == profiles.Image {
		base = s.Image
	}
	if got := baseRef(ls); got != base {
		bad("base.ref is %s, but the catalog's base for these versions is %s", orUnset(got), orUnset(base))
	}
	// jars are resolved with their dependencies (jars.go): checked apart
	problems = append(problems, artifactProblems(s.Name, withoutJars(ls.Artifacts), withoutJarArtifacts(res.Artifacts), projectMirrors(p))...)
	problems = append(problems, jarProblems(s, res, ls.Artifacts)...)
	if want := JupyterLab(s, res, ls); (want == "") != (ls.Versions.JupyterLab == "") {
		stale = append(stale, jupyterReason(s.Name, want != ""))
	}
	return problems, stale
}

// withLocked is req with the lock's versions filling what devenv.yaml
// leaves open, except the keys in dropped (pins removed since).
func withLocked(req profiles.Request, ls *Service, dropped map[string]bool) profiles.Request {
	if ls == nil {
		return req
	}
	keep := req
	for _, f := range []struct {
		key      string
		dst      *string
		fromLock string
	}{
		{"spark", &keep.Spark, ls.Versions.Spark}, {"rapids", &keep.Rapids, ls.Versions.Rapids},
		{"scala", &keep.Scala, ls.Versions.Scala}, {"java", &keep.Java, ls.Versions.Java},
		{"python", &keep.Python, ls.Versions.Python}, {"cuda", &keep.CUDA, ls.Versions.CUDA},
		{"release", &keep.Release, ls.Versions.Release},
	} {
		if !dropped[f.key] {
			fill(f.dst, f.fromLock)
		}
	}
	return keep
}

type versionField struct{ name, locked, want string }

func versionFields(v Versions, res profiles.Resolved) []versionField {
	return []versionField{
		{"spark", v.Spark, res.Spark}, {"scala", v.Scala, res.Scala}, {"scala_full", v.ScalaFull, res.ScalaFull},
		{"java", v.Java, res.Java}, {"python", v.Python, res.Python}, {"rapids", v.Rapids, res.Rapids},
		{"cuda", v.CUDA, res.CUDA}, {"release", v.Release, res.Release}, {"jar_classifier", v.JarClassifier, res.JarClassifier},
	}
}

func baseRef(ls *Service) string {
	if ls.Base == nil {
		return ""
	}
	return ls.Base.Ref
}

// artifactProblems compares locked artifacts with the catalog's, by name.
// A URL is the catalog's, or the catalog's through the configured mirror.
func artifactProblems(service string, locked []Artifact, want []profiles.Artifact, m sources.Mirrors) []string {
	var out []string
	bad := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("service %s: ", service)+fmt.Sprintf(format, args...))
	}
	byName := map[string]profiles.Artifact{}
	for _, a := range want {
		byName[a.Name] = a
	}
	seen := map[string]bool{}
	for i, a := range locked {
		w, ok := byName[a.Name]
		switch {
		case !ok:
			bad("artifacts[%d] %q is not an artifact of these versions (the catalog has none of that name)", i, a.Name)
		case a.URL != w.URL && a.URL != m.URL(w.URL):
			bad("artifacts[%d] (%s) url is %q, but the catalog's is %q (the lock records canonical URLs; mirrors apply when fetching)", i, a.Name, a.URL, w.URL)
		case a.File != w.File:
			bad("artifacts[%d] (%s) file is %q, but the catalog's is %q", i, a.Name, a.File, w.File)
		}
		seen[a.Name] = true
	}
	for _, w := range want {
		if !seen[w.Name] {
			bad("artifact %q of these versions is missing from the lock", w.Name)
		}
	}
	return out
}

func jupyterReason(service string, on bool) string {
	if on {
		return fmt.Sprintf("service %q: jupyter is on in devenv.yaml, but the lock installs no JupyterLab", service)
	}
	return fmt.Sprintf("service %q: jupyter is off in devenv.yaml, but the lock installs JupyterLab", service)
}

// Damaged names the services whose entries a damaged lock cannot be
// trusted for (all of them when the whole file is), so that `devenv lock`
// resolves them afresh; ok is false when err is not about a damaged lock.
func Damaged(err error) (services map[string]bool, all, ok bool) {
	var inv *InvalidError
	if errors.As(err, &inv) {
		return nil, true, true
	}
	var ie *IntegrityError
	if errors.As(err, &ie) {
		return ie.Services, len(ie.Services) == 0, true
	}
	return nil, false, false
}
