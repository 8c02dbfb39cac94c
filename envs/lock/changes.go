package lock

import (
	"fmt"
	"maps"
	"slices"
)

// Changes says, one line each, how next differs from prev in what it pins:
// services added or removed, versions ("service spark: java 17 -> 11"),
// base images and their digests, artifacts. A nil prev is a first lock:
// every service is new.
func Changes(prev, next *File) []string {
	var out []string
	old := map[string]*Service{}
	if prev != nil {
		for i := range prev.Services {
			old[prev.Services[i].Name] = &prev.Services[i]
		}
	}
	for i := range next.Services {
		n := &next.Services[i]
		o := old[n.Name]
		delete(old, n.Name)
		if o == nil {
			out = append(out, fmt.Sprintf("service %s: added (%s)", n.Name, n.Profile))
			continue
		}
		out = append(out, serviceDiff(o, n)...)
	}
	for _, name := range slices.Sorted(maps.Keys(old)) {
		out = append(out, fmt.Sprintf("service %s: removed", name))
	}
	return out
}

func serviceDiff(o, n *Service) []string {
	var out []string
	say := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("service %s: ", n.Name)+fmt.Sprintf(format, args...))
	}
	if o.Profile != n.Profile {
		say("profile %s -> %s", orNoneVer(o.Profile), orNoneVer(n.Profile))
	}
	ov, nv := versionList(o.Versions), versionList(n.Versions)
	for i := range ov {
		if ov[i][1] != nv[i][1] {
			say("%s %s -> %s", ov[i][0], orNoneVer(ov[i][1]), orNoneVer(nv[i][1]))
		}
	}
	switch ob, nb := o.Base, n.Base; {
	case ob == nil && nb != nil:
		say("base %s", nb.Pinned())
	case ob != nil && nb == nil:
		say("base %s dropped", ob.Ref)
	case ob != nil && ob.Ref != nb.Ref:
		say("base %s -> %s", ob.Ref, nb.Ref)
	case ob != nil && ob.Digest != nb.Digest:
		say("base %s digest %s -> %s", nb.Ref, short(ob.Digest), short(nb.Digest))
	}
	out = append(out, buildBaseDiff(n.Name, o.BuildBases, n.BuildBases)...)
	out = append(out, artifactDiff(n.Name, o.Artifacts, n.Artifacts)...)
	return out
}

// buildBaseDiff says which images a compose build service builds FROM
// were added, dropped or pinned again.
func buildBaseDiff(service string, was, now []Image) []string {
	return keyedDiff(was, now, func(b Image) string { return b.Ref },
		func(b Image) string { return fmt.Sprintf("service %s: builds FROM %s", service, b.Pinned()) },
		func(o, b Image) string {
			if o.Digest != b.Digest {
				return fmt.Sprintf("service %s: build base %s digest %s -> %s", service, b.Ref, short(o.Digest), short(b.Digest))
			}
			return ""
		},
		func(b Image) string { return fmt.Sprintf("service %s: no longer builds FROM %s", service, b.Ref) })
}

// keyedDiff pairs the entries of was and now by key: in now's order, a
// line from added for each entry was lacks and one from changed (none
// when it says "") for each both hold, then, in was's order, a line from
// dropped for each entry now lacks.
func keyedDiff[T any](was, now []T, key func(T) string, added func(T) string, changed func(was, now T) string, dropped func(T) string) []string {
	var out []string
	old := map[string]T{}
	for _, e := range was {
		old[key(e)] = e
	}
	for _, e := range now {
		o, ok := old[key(e)]
		delete(old, key(e))
		if !ok {
			out = append(out, added(e))
		} else if line := changed(o, e); line != "" {
			out = append(out, line)
		}
	}
	for _, e := range was {
		if _, gone := old[key(e)]; gone {
			out = append(out, dropped(e))
		}
	}
	return out
}

func versionList(v Versions) [][2]string {
	return [][2]string{{"spark", v.Spark}, {"scala", v.Scala}, {"scala_full", v.ScalaFull}, {"java", v.Java},
		{"python", v.Python}, {"rapids", v.Rapids}, {"cuda", v.CUDA}, {"release", v.Release},
		{"jar_classifier", v.JarClassifier}, {"jupyterlab", v.JupyterLab}}
}

func artifactDiff(service string, was, now []Artifact) []string {
	return keyedDiff(was, now, func(a Artifact) string { return a.Name },
		func(a Artifact) string {
			return fmt.Sprintf("service %s: artifact %s added (%s)", service, a.Name, a.File)
		},
		func(o, a Artifact) string {
			switch {
			case o.File != a.File || o.URL != a.URL:
				return fmt.Sprintf("service %s: artifact %s %s -> %s", service, a.Name, o.File, a.File)
			case o.SHA256 != a.SHA256:
				return fmt.Sprintf("service %s: artifact %s sha256 %s -> %s", service, a.Name, short(o.SHA256), short(a.SHA256))
			}
			return ""
		},
		func(a Artifact) string { return fmt.Sprintf("service %s: artifact %s removed", service, a.Name) })
}

func orNoneVer(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func short(d string) string {
	const n = 12
	if len(d) > len("sha256:")+n && d[:7] == "sha256:" {
		return d[:7+n]
	}
	if len(d) > n {
		return d[:n]
	}
	return d
}
