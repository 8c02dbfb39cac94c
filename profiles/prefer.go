package profiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Prefer is a production stack's versions (a service's `mirror:`): a
// spark-rapids request takes them exactly where it leaves a version open
// and the catalog builds them together, else the nearest combination the
// catalog has. Resolved.Deviations lists every preferred version it could
// not keep, and why.
type Prefer struct {
	Spark, Scala, Java, Python, Rapids string
}

// Deviation is one preferred (prod) version the local stack does not have.
type Deviation struct {
	Field string `json:"field"` // spark | scala | java | python | rapids
	Prod  string `json:"prod"`
	Local string `json:"local"`
	Why   string `json:"why"`
	// Major: Spark's major.minor or Scala changed, which changes behaviour
	// enough that mirror asks the user to accept it.
	Major bool `json:"major,omitempty"`
}

func (d Deviation) String() string {
	return fmt.Sprintf("%s: prod %s -> local %s (%s)", d.Field, d.Prod, d.Local, d.Why)
}

// cost ranks a candidate against prod, most important first: the Spark
// line, Scala, the Spark patch, Java, the RAPIDS release.
type cost [5]int

func (a cost) less(b cost) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// preferred narrows req to the combination nearest to req.Prefer among those
// devenv.yaml's own versions allow; what devenv.yaml sets is never changed.
// A request nothing satisfies is returned as it is, for Resolve to explain.
func (c *Catalog) preferred(req Request) Request {
	p := *req.Prefer
	var best combo
	bestJava, found := 0, false
	var bestCost cost
	for _, x := range c.hardCandidates(req) {
		for _, j := range c.javas(x) {
			if req.Java != "" && strconv.Itoa(j) != req.Java {
				continue
			}
			k := c.costOf(p, x, j)
			if !found || k.less(bestCost) {
				best, bestJava, bestCost, found = x, j, k, true
			}
		}
	}
	if !found {
		return req
	}
	if p.Spark != "" || p.Scala != "" {
		fill(&req.Spark, best.spark)
		fill(&req.Scala, best.scala)
	}
	if p.Java != "" {
		fill(&req.Java, strconv.Itoa(bestJava))
	}
	if p.Rapids != "" {
		fill(&req.Rapids, best.rel.Version)
	}
	return req
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// hardCandidates are the combinations devenv.yaml's own versions allow.
func (c *Catalog) hardCandidates(req Request) []combo {
	cs := c.combos()
	for _, st := range sparkRapidsSteps {
		if st.set(req) {
			cs = filter(cs, func(x combo) bool { return st.keep(c, req, x) })
		}
	}
	return cs
}

func (c *Catalog) costOf(p Prefer, x combo, java int) cost {
	var k cost
	if p.Spark != "" {
		k[0] = c.lineDistance(majorMinor(p.Spark), majorMinor(x.spark))
		if k[0] == 0 {
			k[2] = abs(part(mustParse(x.spark), 2) - part(mustParse(p.Spark), 2))
		} else {
			k[2] = -part(mustParse(x.spark), 2) // another line: its newest patch
		}
	}
	if p.Scala != "" && p.Scala != x.scala {
		k[1] = 1
	}
	if j, err := strconv.Atoi(p.Java); err == nil {
		k[3] = abs(j - java)
	}
	if p.Rapids != "" {
		k[4] = c.releaseDistance(rapidsRelease(p.Rapids), x.rel.Version)
	}
	return k
}

func mustParse(v string) version {
	out, _ := parseVersion(v)
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// lineDistance is 0 on the same Spark line, else 1 plus the number of the
// catalog's lines strictly between them.
func (c *Catalog) lineDistance(a, b string) int {
	if a == b {
		return 0
	}
	return stepsApart(a, b, c.file.Spark.Lines, func(l sparkLine) string { return l.Line })
}

// releaseDistance counts the catalog's RAPIDS Accelerator releases between
// prod's and a candidate (0: the same release).
func (c *Catalog) releaseDistance(prod, rel string) int {
	if matchesPrefix(rel, prod) {
		return 0
	}
	return stepsApart(prod, rel, c.file.SparkRapids.Releases, func(r acceleratorRel) string { return r.Version })
}

// stepsApart is 1 plus the number of items whose version lies strictly
// between a and b.
func stepsApart[T any](a, b string, items []T, version func(T) string) int {
	lo, hi := a, b
	if compareVersions(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	n := 1
	for _, it := range items {
		if v := version(it); compareVersions(v, lo) > 0 && compareVersions(v, hi) < 0 {
			n++
		}
	}
	return n
}

// rapidsRelease drops a snapshot or vendor suffix: "22.04.0-SNAPSHOT" is 22.04.0.
func rapidsRelease(v string) string {
	if i := strings.IndexAny(v, "-+"); i > 0 {
		return v[:i]
	}
	return v
}

// preferredPython is prod's Python when it names a minor version ("3.10";
// "3" says nothing a base image could match).
func preferredPython(p Prefer) string {
	if strings.Count(p.Python, ".") == 0 {
		return ""
	}
	return majorMinor(p.Python)
}

// pythonsByDistance lists the Pythons of the base images, nearest to want first.
func (c *Catalog) pythonsByDistance(want string) []string {
	var all []string
	for _, u := range c.file.Ubuntu {
		all = append(all, u.Python...)
	}
	minor := func(v string) int { return part(mustParse(v), 1) }
	slices.SortStableFunc(all, func(a, b string) int {
		da, db := abs(minor(a)-minor(want)), abs(minor(b)-minor(want))
		if da != db {
			return da - db
		}
		return compareVersions(b, a) // a tie: the newer
	})
	return all
}

// resolvePreferred resolves a spark-rapids request with Prefer: the nearest
// versions, prod's Python or the nearest the base images offer, and the
// deviations from prod.
func (c *Catalog) resolvePreferred(req Request) (Resolved, error) {
	user := req
	req = c.preferred(req)
	if py := preferredPython(*req.Prefer); py != "" && req.Python == "" {
		for _, try := range c.pythonsByDistance(py) {
			withPython := req
			withPython.Python = try
			if r, err := c.resolveSparkRapids(withPython); err == nil {
				r.Deviations = c.deviations(user, r)
				return r, nil
			}
		}
	}
	r, err := c.resolveSparkRapids(req)
	if err != nil {
		return Resolved{}, err
	}
	r.Deviations = c.deviations(user, r)
	return r, nil
}

// deviations compares the resolution with prod's versions.
func (c *Catalog) deviations(user Request, r Resolved) []Deviation {
	p := *user.Prefer
	var out []Deviation
	add := func(field, prod, local string, same bool, why func() string) {
		if prod == "" || same {
			return
		}
		w := why()
		if pinned := userValue(user, field); pinned != "" {
			w = fmt.Sprintf("devenv.yaml pins %s %s", field, pinned)
		}
		major := field == "scala" || field == "spark" && majorMinor(prod) != majorMinor(local)
		out = append(out, Deviation{Field: field, Prod: prod, Local: local, Why: w, Major: major})
	}
	add("spark", p.Spark, r.Spark, p.Spark == r.Spark, func() string { return c.whySpark(p, user) })
	add("scala", p.Scala, r.Scala, p.Scala == r.Scala, func() string { return c.whyScala(r) })
	add("java", p.Java, r.Java, p.Java == r.Java, func() string {
		return fmt.Sprintf("Spark %s with RAPIDS Accelerator %s runs on Java %s", r.Spark, r.Rapids, orList(intsToStrings(c.javasOf(r))))
	})
	add("rapids", p.Rapids, r.Rapids, matchesPrefix(r.Rapids, rapidsRelease(p.Rapids)) && !strings.Contains(p.Rapids, "-"), func() string { return c.whyRapids(p, r) })
	py := preferredPython(p)
	add("python", py, r.Python, py == "" || matchesPrefix(r.Python, py), func() string {
		return fmt.Sprintf("the spark-rapids base images offer Python %s", orList(c.pythonsByDistance(py)))
	})
	return out
}

func userValue(req Request, field string) string {
	switch field {
	case "spark":
		return req.Spark
	case "scala":
		return req.Scala
	case "java":
		return req.Java
	case "python":
		return req.Python
	case "rapids":
		return req.Rapids
	}
	return ""
}

// javasOf are the JDKs the resolved combination allows.
func (c *Catalog) javasOf(r Resolved) []int {
	for _, x := range c.combos() {
		if x.rel.Version == r.Rapids && x.spark == r.Spark && x.scala == r.Scala {
			return c.javas(x)
		}
	}
	return nil
}

func (c *Catalog) whySpark(p Prefer, user Request) string {
	line := majorMinor(p.Spark)
	lines := map[string]bool{}
	exact := false
	for _, x := range c.combos() {
		lines[majorMinor(x.spark)] = true
		exact = exact || x.spark == p.Spark
	}
	switch {
	case !lines[line]:
		first, last := c.sparkLineRange(lines)
		return fmt.Sprintf("no RAPIDS Accelerator release in devenv's catalog supports Spark %s (they cover Spark %s to %s)", line, first, last)
	case !exact:
		return fmt.Sprintf("no RAPIDS Accelerator release in devenv's catalog supports Spark %s; the nearest release of the %s line", p.Spark, line)
	case p.Scala != "":
		return fmt.Sprintf("no RAPIDS Accelerator release builds Spark %s for Scala %s with the rest of the stack", p.Spark, p.Scala)
	}
	return fmt.Sprintf("Spark %s cannot be built with the rest of the stack", p.Spark)
}

func (c *Catalog) sparkLineRange(lines map[string]bool) (string, string) {
	var ls []string
	for l := range lines {
		ls = append(ls, l)
	}
	slices.SortFunc(ls, compareVersions)
	if len(ls) == 0 {
		return "?", "?"
	}
	return ls[0], ls[len(ls)-1]
}

func (c *Catalog) whyScala(r Resolved) string {
	var scalas []string
	for _, x := range c.combos() {
		if x.spark == r.Spark && !slices.Contains(scalas, x.scala) {
			scalas = append(scalas, x.scala)
		}
	}
	slices.Sort(scalas)
	return fmt.Sprintf("RAPIDS Accelerator jars for Spark %s are built for Scala %s", r.Spark, orList(scalas))
}

func (c *Catalog) whyRapids(p Prefer, r Resolved) string {
	rels := c.file.SparkRapids.Releases
	want := rapidsRelease(p.Rapids)
	if strings.Contains(p.Rapids, "-") && strings.Contains(strings.ToUpper(p.Rapids), "SNAPSHOT") {
		return fmt.Sprintf("%s is a snapshot build, which is not published; the nearest release", p.Rapids)
	}
	known := false
	for _, rel := range rels {
		known = known || matchesPrefix(rel.Version, want)
	}
	if !known {
		return fmt.Sprintf("RAPIDS Accelerator %s is not in devenv's catalog (releases %s to %s)", p.Rapids, rels[0].Version, rels[len(rels)-1].Version)
	}
	return fmt.Sprintf("RAPIDS Accelerator %s does not support Spark %s with Scala %s", p.Rapids, r.Spark, r.Scala)
}
