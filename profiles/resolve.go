package profiles

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

var builtinNames = []string{SparkRapids, Rapids, Triton, Image}

// Resolve turns what a service asks for into explicit versions, a base image,
// host requirements and the artifacts to fetch. Unset versions resolve to the
// newest compatible combination and partial ones ("3.5", "25.06", "12") to
// the newest matching patch. custom holds the project's own profiles by name.
// Resolve is pure: the same inputs always give the same result. Impossible
// requests fail with a *ResolveError.
func (c *Catalog) Resolve(req Request, custom map[string]*Custom) (Resolved, error) {
	name := req.Profile
	req, cp, err := applyCustom(req, custom)
	if err != nil {
		return Resolved{}, err
	}
	if err := checkArch(req.Arch); err != nil {
		return Resolved{}, err
	}
	var r Resolved
	switch req.Profile {
	case SparkRapids:
		if req.Prefer != nil {
			r, err = c.resolvePreferred(req)
		} else {
			r, err = c.resolveSparkRapids(req)
		}
	case Rapids:
		r, err = c.resolveRapids(req)
	case Triton:
		r, err = c.resolveTriton(req)
	case Image:
		r, err = resolveImage(req)
	}
	if err != nil {
		return Resolved{}, err
	}
	if cp != nil {
		err = overlayCustom(&r, cp, or(cp.Name, name))
	}
	return r, err
}

// applyCustom swaps a custom profile for the built-in it extends, filling the
// request's unset fields from the profile's defaults (the request wins).
func applyCustom(req Request, custom map[string]*Custom) (Request, *Custom, error) {
	if slices.Contains(builtinNames, req.Profile) {
		return req, nil, nil
	}
	cp := custom[req.Profile]
	if cp == nil {
		return req, nil, unknownProfile(req.Profile, custom)
	}
	if !slices.Contains(builtinNames, cp.Extends) {
		return req, nil, resolveErr("profile",
			fmt.Sprintf("custom profile %q extends %q, which is not a built-in profile", req.Profile, cp.Extends),
			"set extends: to %s", orList(builtinNames))
	}
	d := cp.Defaults
	out := Request{Profile: cp.Extends, Arch: or(req.Arch, d.Arch),
		Spark: or(req.Spark, d.Spark), Rapids: or(req.Rapids, d.Rapids), Scala: or(req.Scala, d.Scala),
		Java: or(req.Java, d.Java), Python: or(req.Python, d.Python), CUDA: or(req.CUDA, d.CUDA),
		Release: or(req.Release, d.Release), Prefer: req.Prefer}
	return out, cp, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func unknownProfile(name string, custom map[string]*Custom) error {
	choices := slices.Clone(builtinNames)
	names := make([]string, 0, len(custom))
	for n := range custom {
		names = append(names, n)
	}
	sort.Strings(names)
	choices = append(choices, names...)
	if name == "" {
		return resolveErr("profile", "no profile given", "set profile: to %s", orList(choices))
	}
	return resolveErr("profile", fmt.Sprintf("unknown profile %q", name),
		"use %s, or define it under profiles:", orList(choices))
}

// overlayCustom applies a custom profile's additions to a built-in result.
func overlayCustom(r *Resolved, cp *Custom, name string) error {
	r.Custom = name
	if cp.BaseImage != "" {
		if r.BaseImage != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("base image: %s from custom profile %s replaces %s; host requirements still assume the built-in base", cp.BaseImage, name, r.BaseImage))
		}
		r.BaseImage = cp.BaseImage
	}
	r.Apt = append(r.Apt, cp.Apt...)
	r.Pip = append(r.Pip, cp.Pip...)
	r.CACerts = append(r.CACerts, cp.CACerts...)
	r.Env = mergeMap(r.Env, cp.Env)
	r.Conf = mergeMap(r.Conf, cp.Conf)
	var bad []string
	for _, j := range cp.Jars {
		a, err := MavenJar(j)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		r.Artifacts = append(r.Artifacts, a)
	}
	if len(bad) > 0 {
		return resolveErr("jars", fmt.Sprintf("custom profile %s: %s", name, strings.Join(bad, "; ")),
			"write each jar as group:artifact:version[:classifier]")
	}
	return nil
}

func mergeMap(dst, src map[string]string) map[string]string {
	if len(src) == 0 {
		return dst
	}
	out := maps.Clone(dst)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, src)
	return out
}

func checkArch(arch string) error {
	switch arch {
	case "", "amd64", "arm64":
		return nil
	}
	return resolveErr("arch", fmt.Sprintf("unknown architecture %q", arch), "use amd64 or arm64")
}

// archOf returns the architecture a request means ("" is amd64).
func archOf(req Request) string { return or(req.Arch, "amd64") }

// notApplicable rejects request fields a profile does not use.
func notApplicable(profile string, fields map[string]string) error {
	var set []string
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if fields[name] != "" {
			set = append(set, name)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return resolveErr(set[0], fmt.Sprintf("profile %s does not use %s", profile, strings.Join(set, ", ")),
		"remove %s from this service", strings.Join(set, ", "))
}

// resolveImage handles the image profile: the caller supplies the base image
// from the service, and nothing is pinned here.
func resolveImage(req Request) (Resolved, error) {
	err := notApplicable(Image, map[string]string{"spark": req.Spark, "rapids": req.Rapids, "scala": req.Scala,
		"java": req.Java, "python": req.Python, "cuda": req.CUDA, "release": req.Release})
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Profile: Image}, nil
}
