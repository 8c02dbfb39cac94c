package profiles

import (
	"fmt"
	"slices"
	"strconv"
)

// combo is one (RAPIDS Accelerator release, Spark, Scala) the catalog allows.
type combo struct {
	rel   *acceleratorRel
	spark string
	scala string
}

// combos lists every combination, newest release first. Callers must not
// modify the returned slice.
func (c *Catalog) combos() []combo { return c.allCombos }

func (c *Catalog) buildCombos() []combo {
	rels := c.file.SparkRapids.Releases
	var out []combo
	for i := len(rels) - 1; i >= 0; i-- {
		r := &rels[i]
		for _, scala := range knownScala {
			for _, s := range r.sparkVersions[scala] {
				out = append(out, combo{r, s, scala})
			}
		}
	}
	return out
}

func filter(cs []combo, keep func(combo) bool) []combo {
	var out []combo
	for _, x := range cs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// sparkRapidsStep narrows the candidates by one request field, or explains
// (from the candidates before it) why nothing is left.
type sparkRapidsStep struct {
	set     func(Request) bool
	keep    func(*Catalog, Request, combo) bool
	explain func(*Catalog, Request, []combo) error
}

var sparkRapidsSteps = []sparkRapidsStep{
	{func(r Request) bool { return r.Rapids != "" }, keepRapids, (*Catalog).explainRapids},
	{func(r Request) bool { return r.Spark != "" }, keepSpark, (*Catalog).explainSpark},
	{func(r Request) bool { return r.Scala != "" }, keepScala, (*Catalog).explainScala},
	{func(r Request) bool { return r.Java != "" }, keepJava, (*Catalog).explainJava},
	{func(r Request) bool { return true }, keepJar, (*Catalog).explainJar},
}

func keepRapids(_ *Catalog, req Request, x combo) bool {
	return matchesPrefix(x.rel.Version, req.Rapids)
}
func keepSpark(_ *Catalog, req Request, x combo) bool { return matchesPrefix(x.spark, req.Spark) }
func keepScala(_ *Catalog, req Request, x combo) bool { return x.scala == req.Scala }

func keepJava(c *Catalog, req Request, x combo) bool {
	j, err := strconv.Atoi(req.Java)
	return err == nil && slices.Contains(c.javas(x), j)
}

func keepJar(_ *Catalog, req Request, x combo) bool {
	_, ok := x.rel.jarFor(cudaMajorOf(req.CUDA), archOf(req))
	return ok
}

func cudaMajorOf(cuda string) string { return major(cuda) }

// javas are the JDKs both the Spark line and the accelerator release allow.
func (c *Catalog) javas(x combo) []int {
	line := c.sparkByVer[x.spark]
	var out []int
	for _, j := range x.rel.JDK["spark"+major(x.spark)] {
		if slices.Contains(line.Java, j) {
			out = append(out, j)
		}
	}
	return out
}

// jarFor picks the jar classifier for a CUDA major ("" = the release's
// default, else the newest with a jar) and architecture.
func (r *acceleratorRel) jarFor(cudaMajor, arch string) (string, bool) {
	avail := r.jars(arch)
	if cudaMajor == "" {
		def := knownClassifiers[r.DefaultClassifier].cuda
		if cl, ok := avail[def]; ok {
			return cl, true
		}
		best := ""
		for m := range avail {
			if compareVersions(m, best) > 0 {
				best = m
			}
		}
		cl, ok := avail[best]
		return cl, ok
	}
	cl, ok := avail[cudaMajor]
	return cl, ok
}

// jars maps CUDA major -> classifier for one architecture.
func (r *acceleratorRel) jars(arch string) map[string]string {
	if m, ok := r.jarsByArch[arch]; ok {
		return m
	}
	return r.buildJars(arch)
}

// indexJars precomputes jars for the architectures the catalog knows, so
// resolution, which asks for every candidate combination, allocates nothing.
func (r *acceleratorRel) indexJars() {
	r.jarsByArch = map[string]map[string]string{}
	for _, k := range knownClassifiers {
		if _, ok := r.jarsByArch[k.arch]; !ok {
			r.jarsByArch[k.arch] = r.buildJars(k.arch)
		}
	}
}

func (r *acceleratorRel) buildJars(arch string) map[string]string {
	out := map[string]string{}
	for _, cl := range append([]string{r.DefaultClassifier}, r.Classifiers...) {
		if k := knownClassifiers[cl]; k.arch == arch {
			out[k.cuda] = cl
		}
	}
	return out
}

func (c *Catalog) resolveSparkRapids(req Request) (Resolved, error) {
	if err := notApplicable(SparkRapids, map[string]string{"release": req.Release}); err != nil {
		return Resolved{}, err
	}
	if err := c.checkSparkRapidsSyntax(req); err != nil {
		return Resolved{}, err
	}
	cs := c.combos()
	for _, st := range sparkRapidsSteps {
		if !st.set(req) {
			continue
		}
		next := filter(cs, func(x combo) bool { return st.keep(c, req, x) })
		if len(next) == 0 {
			return Resolved{}, st.explain(c, req, cs)
		}
		cs = next
	}
	if req.Driver == "" {
		return c.buildSparkRapids(req, pickCombo(req, cs))
	}
	runs := filter(cs, func(x combo) bool { return c.comboRunsOn(req, x) })
	if len(runs) == 0 {
		return withoutDriver(req, c.resolveSparkRapids)
	}
	r, err := c.buildSparkRapids(req, pickCombo(req, runs))
	if err == nil {
		r.Notes = append(r.Notes, c.sparkRapidsDriverNote(req, r, pickCombo(req, cs)))
	}
	return r, err
}

// comboRunsOn reports whether the jar a combination resolves to runs on the
// request's driver.
func (c *Catalog) comboRunsOn(req Request, x combo) bool {
	cl, ok := x.rel.jarFor(cudaMajorOf(req.CUDA), archOf(req))
	return ok && compareVersions(c.jarDriver(x.rel, cl), req.Driver) <= 0
}

// sparkRapidsDriverNote says which driver rule chose the release, and the
// newer release matching the request that it passed over.
func (c *Catalog) sparkRapidsDriverNote(req Request, r Resolved, newest combo) string {
	if newest.rel.Version != r.Rapids {
		cl, _ := newest.rel.jarFor(cudaMajorOf(req.CUDA), archOf(req))
		return fmt.Sprintf(DriverRuleNote+"chose RAPIDS Accelerator %s (%s jar) for %s; the newer %s (%s jar) needs driver %s",
			r.Rapids, r.JarClassifier, req.DriverRule, newest.rel.Version, cl, c.jarDriver(newest.rel, cl))
	}
	return fmt.Sprintf(DriverRuleNote+"RAPIDS Accelerator %s (%s jar) runs on %s", r.Rapids, r.JarClassifier, req.DriverRule)
}

// checkSparkRapidsSyntax rejects values that are not versions at all.
func (c *Catalog) checkSparkRapidsSyntax(req Request) error {
	for _, f := range []struct{ name, val, example string }{
		{"rapids", req.Rapids, "26.06.0 or 26.06"}, {"spark", req.Spark, "3.5.8 or 3.5"},
		{"scala", req.Scala, "2.12 or 2.13"}, {"java", req.Java, "17"}, {"python", req.Python, "3.10"},
		{"cuda", req.CUDA, "12, 12.9 or 12.9.1"},
	} {
		if f.val == "" {
			continue
		}
		if _, ok := parseVersion(f.val); !ok {
			return resolveErr(f.name, fmt.Sprintf("%q is not a version", f.val), "write it like %s", f.example)
		}
	}
	return nil
}

// pickCombo chooses among the candidates (newest release first): the newest
// release, then Scala 2.12 unless the Spark asked for defaults to 2.13, then
// the newest Spark.
func pickCombo(req Request, cs []combo) combo {
	newest := cs[0].rel
	best := combo{}
	bestRank := -1
	for _, x := range cs {
		if x.rel != newest {
			break
		}
		rank := 0
		if x.scala == defaultScalaFor(req, x.spark) {
			rank = 1
		}
		if rank > bestRank || rank == bestRank && compareVersions(x.spark, best.spark) > 0 {
			best, bestRank = x, rank
		}
	}
	return best
}

// defaultScalaFor is 2.13 where the user asked for Spark 4.x, else 2.12.
func defaultScalaFor(req Request, spark string) string {
	if req.Spark != "" && major(spark) != "3" {
		return "2.13"
	}
	return "2.12"
}
