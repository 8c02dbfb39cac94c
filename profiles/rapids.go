package profiles

import (
	"fmt"
	"strings"
)

// resolveRapids picks a RAPIDS container release, CUDA and Python: the
// newest release that has the CUDA and Python asked for, then the newest
// matching CUDA and Python in it.
func (c *Catalog) resolveRapids(req Request) (Resolved, error) {
	if err := notApplicable(Rapids, map[string]string{"spark": req.Spark, "scala": req.Scala, "java": req.Java}); err != nil {
		return Resolved{}, err
	}
	rel, field := req.Release, "release"
	if req.Rapids != "" {
		if rel != "" && rel != req.Rapids {
			return Resolved{}, resolveErr("rapids", fmt.Sprintf("rapids %s and release %s disagree", req.Rapids, rel), "set only one of them")
		}
		rel, field = req.Rapids, "rapids"
	}
	cands, err := c.rapidsCandidates(rel, field)
	if err != nil {
		return Resolved{}, err
	}
	for i := len(cands) - 1; i >= 0; i-- {
		r := cands[i]
		cuda, python := c.newestRunnable(r.CUDA, req.CUDA, req), newestMatching(r.Python, req.Python)
		if cuda != "" && python != "" {
			return c.buildRapids(req, rel, r, cuda, python), nil
		}
	}
	if req.Driver != "" {
		return withoutDriver(req, c.resolveRapids)
	}
	return Resolved{}, c.explainRapidsRelease(req, cands)
}

func (c *Catalog) rapidsCandidates(rel, field string) ([]*rapidsRel, error) {
	var out []*rapidsRel
	var known []string
	for i := range c.file.Rapids.Releases {
		r := &c.file.Rapids.Releases[i]
		known = append(known, r.Release)
		if matchesPrefix(r.Release, rel) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, resolveErr(field, fmt.Sprintf("RAPIDS release %s is not in devenv's catalog (it knows %s to %s)", rel, known[0], known[len(known)-1]),
			"closest releases: %s", strings.Join(closestReleases(known, rel), ", "))
	}
	return out, nil
}

// newestAnyRapids is the newest CUDA of any RAPIDS release matching the
// request, whatever driver it needs.
func (c *Catalog) newestAnyRapids(req Request) string {
	rel := or(req.Rapids, req.Release)
	best := ""
	for _, r := range c.file.Rapids.Releases {
		if !matchesPrefix(r.Release, rel) || newestMatching(r.Python, req.Python) == "" {
			continue
		}
		if v := newestMatching(r.CUDA, req.CUDA); v != "" && (best == "" || compareVersions(v, best) > 0) {
			best = v
		}
	}
	return best
}

// newestMatching is the newest of the sorted versions matching a prefix.
func newestMatching(sorted []string, prefix string) string {
	for i := len(sorted) - 1; i >= 0; i-- {
		if matchesPrefix(sorted[i], prefix) {
			return sorted[i]
		}
	}
	return ""
}

// explainRapidsRelease says which of CUDA or Python the candidate releases lack.
func (c *Catalog) explainRapidsRelease(req Request, cands []*rapidsRel) error {
	r := cands[len(cands)-1]
	field, want, have, pick := "cuda", req.CUDA, r.CUDA, func(x *rapidsRel) []string { return x.CUDA }
	what := "CUDA"
	if newestMatching(r.CUDA, req.CUDA) != "" {
		field, want, have, pick, what = "python", req.Python, r.Python, func(x *rapidsRel) []string { return x.Python }, "Python"
	}
	var with []string
	for _, x := range c.file.Rapids.Releases {
		if newestMatching(pick(&x), want) != "" {
			with = append(with, x.Release)
		}
	}
	hint := fmt.Sprintf("use %s: %s", field, orList(have))
	if s := rangeHint(with, r.Release); s != "" {
		hint += fmt.Sprintf(", or release %s for %s %s", s, what, want)
	}
	return resolveErr(field, fmt.Sprintf("RAPIDS %s images offer %s %s, not %s", r.Release, what, orList(have), want), "%s", hint)
}

func (c *Catalog) buildRapids(req Request, asked string, r *rapidsRel, cuda, python string) Resolved {
	tag := r.cudaTag(cuda)
	out := Resolved{Profile: Rapids, Release: r.Release, CUDA: cuda, Python: python,
		BaseImage: expand(c.file.Images.Rapids, map[string]string{"release": r.Release, "cuda": tag, "python": python})}
	out.Requires.CUDA = majorMinor(cuda)
	var note string
	out.Requires.MinDriver, note = c.requiredDriver(req, cuda)
	out.Notes = append(out.Notes, note)
	runs := ""
	if req.Driver != "" {
		runs = " that the driver runs"
	}
	if asked != r.Release {
		out.Notes = append(out.Notes, fmt.Sprintf("release: newest RAPIDS release%s with CUDA %s and Python %s%s is %s", matching(asked), or(req.CUDA, "any"), or(req.Python, "any"), runs, r.Release))
	}
	if req.CUDA != cuda {
		out.Notes = append(out.Notes, fmt.Sprintf("cuda: newest in RAPIDS %s%s%s is %s (tag part cuda%s)", r.Release, matching(req.CUDA), runs, cuda, tag))
	}
	if req.Python != python {
		out.Notes = append(out.Notes, fmt.Sprintf("python: newest in RAPIDS %s%s is %s", r.Release, matching(req.Python), python))
	}
	if req.Driver != "" {
		out.Notes = append(out.Notes, c.driverNote(req, cuda, c.newestAnyRapids(req)))
	}
	return out
}

// matching renders ` matching "x"` for a partial ask, nothing for none.
func matching(q string) string {
	if q == "" {
		return ""
	}
	return fmt.Sprintf(" matching %q", q)
}

// cudaTag is how the release's image tags spell a CUDA version: "12.9" or "12".
func (r *rapidsRel) cudaTag(cuda string) string {
	rule := r.TagCUDA
	if by, ok := r.TagCUDAByMajor[major(cuda)]; ok {
		rule = by
	}
	if rule == "major" {
		return major(cuda)
	}
	return majorMinor(cuda)
}
