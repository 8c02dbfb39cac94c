package profiles

import (
	"fmt"
	"strings"
)

// resolveTriton picks a Triton Inference Server -py3 release: the newest one
// matching the release, CUDA and Python asked for.
func (c *Catalog) resolveTriton(req Request) (Resolved, error) {
	err := notApplicable(Triton, map[string]string{"spark": req.Spark, "rapids": req.Rapids, "scala": req.Scala, "java": req.Java})
	if err != nil {
		return Resolved{}, err
	}
	rels := c.file.Triton.Releases
	var known []string
	var cands []*tritonRel
	for i := range rels {
		known = append(known, rels[i].Release)
		if matchesPrefix(rels[i].Release, req.Release) {
			cands = append(cands, &rels[i])
		}
	}
	if len(cands) == 0 {
		return Resolved{}, resolveErr("release",
			fmt.Sprintf("Triton release %s is not in devenv's catalog (it knows %s)", req.Release, strings.Join(known, ", ")),
			"closest: %s", orList(closestReleases(known, req.Release)))
	}
	for i := len(cands) - 1; i >= 0; i-- {
		r := cands[i]
		if matchesPrefix(r.Toolkit, req.CUDA) && matchesPrefix(r.Python, req.Python) && c.runsOn(r.Toolkit, req) {
			return c.buildTriton(req, r, cands), nil
		}
	}
	if req.Driver != "" {
		return withoutDriver(req, c.resolveTriton)
	}
	return Resolved{}, c.explainTriton(req, cands)
}

func (c *Catalog) explainTriton(req Request, cands []*tritonRel) error {
	r := cands[len(cands)-1]
	field, label, want, have := "cuda", "CUDA", req.CUDA, r.Toolkit
	if matchesPrefix(r.Toolkit, req.CUDA) {
		field, label, want, have = "python", "Python", req.Python, r.Python
	}
	var with []string
	for i := range c.file.Triton.Releases {
		x := &c.file.Triton.Releases[i]
		if field == "cuda" && matchesPrefix(x.Toolkit, want) || field == "python" && matchesPrefix(x.Python, want) {
			with = append(with, x.Release)
		}
	}
	hint := fmt.Sprintf("use %s: %s", field, have)
	if s := rangeHint(with, r.Release); s != "" {
		hint += fmt.Sprintf(", or release %s for %s %s", s, label, want)
	}
	return resolveErr(field, fmt.Sprintf("Triton %s has %s %s, not %s", r.Release, label, have, want), "%s", hint)
}

func (c *Catalog) buildTriton(req Request, r *tritonRel, cands []*tritonRel) Resolved {
	t := c.toolkit[r.Toolkit]
	out := Resolved{Profile: Triton, Release: r.Release, CUDA: r.Toolkit, Python: r.Python,
		BaseImage: expand(c.file.Images.Triton, map[string]string{"release": r.Release}),
		Requires:  Requirements{MinDriver: c.floorDriver(r.Toolkit, req.DataCenter), CUDA: majorMinor(r.Toolkit), MinComputeCapability: r.MinComputeCapability}}
	if req.Release != r.Release {
		runs := ""
		if req.Driver != "" {
			runs = " that the driver runs"
		}
		out.Notes = append(out.Notes, fmt.Sprintf("release: newest Triton release%s%s is %s", matching(req.Release), runs, r.Release))
	}
	if req.DataCenter {
		_, note := c.requiredDriver(req, r.Toolkit)
		out.Notes = append(out.Notes, note+fmt.Sprintf("; Triton %s release notes: %s", r.Release, or(docDriver(r.DocMinDriver), "no driver floor stated")))
	} else if r.DocMinDriver == "" {
		out.Notes = append(out.Notes, fmt.Sprintf("driver: Triton %s release notes state no driver floor; devenv requires %s, what its CUDA %s needs (CUDA toolkit release notes)",
			r.Release, t.MinDriver, r.CUDA))
	} else if major(t.MinDriver) != r.DocMinDriver {
		out.Notes = append(out.Notes, fmt.Sprintf("driver: Triton %s release notes say %s or later, but its CUDA %s needs %s (CUDA toolkit release notes); devenv requires %s",
			r.Release, r.DocMinDriver, r.CUDA, t.MinDriver, t.MinDriver))
	}
	if req.Driver != "" {
		out.Notes = append(out.Notes, c.tritonDriverNote(req, r, cands))
	}
	if r.Unsure || t.Unsure {
		out.Notes = append(out.Notes, fmt.Sprintf("catalog: Triton %s data is marked unsure; check its release notes (rel-%s)", r.Release, strings.ReplaceAll(r.Release, ".", "-")))
	}
	return out
}

// tritonDriverNote says which driver rule chose the release, and the newer
// release matching the request that it passed over.
func (c *Catalog) tritonDriverNote(req Request, r *tritonRel, cands []*tritonRel) string {
	for i := len(cands) - 1; i >= 0; i-- {
		x := cands[i]
		if x == r {
			break
		}
		if matchesPrefix(x.Toolkit, req.CUDA) && matchesPrefix(x.Python, req.Python) {
			return fmt.Sprintf(DriverRuleNote+"chose Triton %s (CUDA %s) for %s by %s; the newer %s needs driver %s",
				r.Release, r.Toolkit, req.DriverRule, RuleName(req.DataCenter), x.Release, c.floorDriver(x.Toolkit, req.DataCenter))
		}
	}
	return fmt.Sprintf(DriverRuleNote+"Triton %s (CUDA %s) runs on %s by %s", r.Release, r.Toolkit, req.DriverRule, RuleName(req.DataCenter))
}

// docDriver renders a Triton release note's driver floor.
func docDriver(d string) string {
	if d == "" {
		return ""
	}
	return "R" + d + " or later (older long-term branches on data-center GPUs through forward compatibility)"
}
