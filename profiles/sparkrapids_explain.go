package profiles

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// This file turns "no candidate left" into errors that name why and the
// nearest valid choices. Each explain function gets the candidates as they
// were before the step that emptied them.

func (c *Catalog) accelVersions() []string {
	var out []string
	for _, r := range c.file.SparkRapids.Releases {
		out = append(out, r.Version)
	}
	return out
}

func (c *Catalog) explainRapids(req Request, _ []combo) error {
	all := c.accelVersions()
	return resolveErr("rapids",
		fmt.Sprintf("RAPIDS Accelerator %s is not in devenv's catalog (it knows %s to %s)", req.Rapids, all[0], all[len(all)-1]),
		"closest releases: %s", strings.Join(neighbours(all, req.Rapids), ", "))
}

func (c *Catalog) explainSpark(req Request, cs []combo) error {
	var known []string
	for _, l := range c.file.Spark.Lines {
		known = append(known, l.Releases...)
	}
	if !anyPrefix(known, req.Spark) {
		return resolveErr("spark", fmt.Sprintf("Spark %s is not a release devenv knows", req.Spark),
			"known Spark versions: %s", c.compactSpark(known))
	}
	rel := relLabel(req, cs)
	supported := c.compactSpark(sparkOf(cs))
	var supporters []*acceleratorRel
	for i := range c.file.SparkRapids.Releases {
		r := &c.file.SparkRapids.Releases[i]
		if r.supportsSpark(req.Spark) {
			supporters = append(supporters, r)
		}
	}
	oldest, newest := cs[len(cs)-1].rel.Version, cs[0].rel.Version
	want := c.newestKnown(req.Spark)
	switch {
	case len(supporters) > 0 && compareVersions(supporters[len(supporters)-1].Version, oldest) < 0:
		last := supporters[len(supporters)-1].Version
		verb := "does not support Spark " + req.Spark
		if !anyPrefix(sparkOf(cs), majorMinor(want)) {
			verb = "dropped Spark " + majorMinor(want)
		}
		return resolveErr("spark", fmt.Sprintf("RAPIDS Accelerator %s %s; it supports Spark %s", rel, verb, supported),
			"use rapids: %s, the last release that supports Spark %s, or one of those Spark versions", last, req.Spark)
	case len(supporters) > 0 && compareVersions(supporters[0].Version, newest) > 0:
		first := supporters[0].Version
		return resolveErr("spark", fmt.Sprintf("RAPIDS Accelerator %s predates support for Spark %s; it supports Spark %s", rel, req.Spark, supported),
			"use rapids: %s, the first release that supports Spark %s, or one of those Spark versions", first, req.Spark)
	}
	return resolveErr("spark", fmt.Sprintf("RAPIDS Accelerator %s does not support Spark %s; it supports Spark %s", rel, req.Spark, supported),
		"choose one of those Spark versions")
}

func (c *Catalog) explainScala(req Request, cs []combo) error {
	if !slices.Contains(knownScala, req.Scala) {
		return resolveErr("scala", fmt.Sprintf("Scala %s has no RAPIDS Accelerator jars", req.Scala),
			"use scala: %s", orList(knownScala))
	}
	sparks := sparkOf(cs)
	spark := "Spark " + or(req.Spark, c.compactSpark(sparks))
	switch {
	case allLine(sparks, func(v string) bool { return major(v) != "3" }):
		return resolveErr("scala", fmt.Sprintf("%s is built for Scala 2.13 only: Spark 4 dropped Scala %s", spark, req.Scala),
			"set scala: 2.13, or choose a Spark 3.x version for Scala %s", req.Scala)
	case allLine(sparks, func(v string) bool { return majorMinor(v) == "3.2" }):
		return resolveErr("scala", fmt.Sprintf("RAPIDS Accelerator Scala %s jars never include Spark 3.2.x (asked: %s)", req.Scala, spark),
			"set scala: 2.12, or choose Spark 3.3.0 or later for Scala %s", req.Scala)
	}
	var scalas []string
	for _, s := range knownScala {
		if len(filter(cs, func(x combo) bool { return x.scala == s })) > 0 {
			scalas = append(scalas, s)
		}
	}
	return resolveErr("scala", fmt.Sprintf("RAPIDS Accelerator %s has no Scala %s jar for %s", relLabel(req, cs), req.Scala, spark),
		"use scala: %s", orList(scalas))
}

func (c *Catalog) explainJava(req Request, cs []combo) error {
	want, err := strconv.Atoi(req.Java)
	if err != nil {
		return resolveErr("java", fmt.Sprintf("Java %q is not a Java major version", req.Java), "write it like 17")
	}
	var allowed []int
	var lines []string
	for _, x := range cs {
		for _, j := range c.javas(x) {
			if !slices.Contains(allowed, j) {
				allowed = append(allowed, j)
			}
		}
		if l := majorMinor(x.spark); !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	sort.Ints(allowed)
	sort.Strings(lines)
	spark := "Spark " + or(req.Spark, strings.Join(lines, ", "))
	hint := "set java: " + strconv.Itoa(closestInt(allowed, want))
	var others []string
	for _, l := range c.file.Spark.Lines {
		if slices.Contains(l.Java, want) && !slices.Contains(lines, l.Line) {
			others = append(others, l.Line)
		}
	}
	if len(others) > 0 {
		hint += fmt.Sprintf(", or choose Spark %s to keep Java %d", orList(others), want)
	}
	return resolveErr("java", fmt.Sprintf("%s runs on Java %s, not Java %d", spark, orList(intsToStrings(allowed)), want), "%s", hint)
}

func (c *Catalog) explainJar(req Request, cs []combo) error {
	arch, want := archOf(req), major(req.CUDA)
	newest := cs[0].rel
	what := "CUDA " + want + " jar for " + arch
	if want == "" {
		what = "jar for " + arch
	}
	msg := fmt.Sprintf("RAPIDS Accelerator %s has no %s (its jars: %s)", relLabel(req, cs), what, newest.jarList())
	var alt []string
	if want != "" {
		for m := range newest.jars(arch) {
			alt = append(alt, "cuda: "+m)
		}
		sort.Strings(alt)
	}
	var has []string
	for _, r := range c.file.SparkRapids.Releases {
		if _, ok := r.jarFor(want, arch); ok {
			has = append(has, r.Version)
		}
	}
	if s := rangeHint(has, newest.Version); s != "" {
		alt = append(alt, "rapids: "+s)
	}
	if len(alt) == 0 {
		return resolveErr("cuda", msg, "no RAPIDS Accelerator release in devenv's catalog has one")
	}
	return resolveErr("cuda", msg, "use %s", orList(alt))
}

// rangeHint says which of the given releases to move to: "X or later" when
// all are newer than current, "X or earlier" when all are older.
func rangeHint(has []string, current string) string {
	if len(has) == 0 {
		return ""
	}
	first, last := has[0], has[len(has)-1]
	switch {
	case compareVersions(first, current) > 0:
		return first + " or later"
	case compareVersions(last, current) < 0:
		return last + " or earlier"
	}
	return strings.Join(has, ", ")
}

func (r *acceleratorRel) jarList() string {
	parts := []string{r.DefaultClassifier + " (default)"}
	return strings.Join(append(parts, r.Classifiers...), ", ")
}

func (r *acceleratorRel) supportsSpark(prefix string) bool {
	for _, vs := range r.sparkVersions {
		if anyPrefix(vs, prefix) {
			return true
		}
	}
	return false
}

// relLabel names the candidate releases: one version, or the asked prefix
// with the patch releases it matched.
func relLabel(req Request, cs []combo) string {
	first, last := cs[len(cs)-1].rel.Version, cs[0].rel.Version
	if first == last {
		return first
	}
	if req.Rapids != "" {
		return fmt.Sprintf("%s (%s to %s)", req.Rapids, first, last)
	}
	return fmt.Sprintf("%s to %s", first, last)
}

func sparkOf(cs []combo) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range cs {
		if !seen[x.spark] {
			seen[x.spark] = true
			out = append(out, x.spark)
		}
	}
	sort.Slice(out, func(i, j int) bool { return compareVersions(out[i], out[j]) < 0 })
	return out
}

// compactSpark writes sorted Spark versions as runs per line: "3.3.0-3.3.4, 3.5.0".
func (c *Catalog) compactSpark(vs []string) string {
	var parts []string
	for i := 0; i < len(vs); {
		line := c.sparkByVer[vs[i]]
		j := i
		for j+1 < len(vs) && c.sparkByVer[vs[j+1]] == line && nextInLine(line, vs[j]) == vs[j+1] {
			j++
		}
		if i == j {
			parts = append(parts, vs[i])
		} else {
			parts = append(parts, vs[i]+"-"+vs[j])
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func nextInLine(l *sparkLine, v string) string {
	if l == nil {
		return ""
	}
	for i, r := range l.Releases {
		if r == v && i+1 < len(l.Releases) {
			return l.Releases[i+1]
		}
	}
	return ""
}

// newestKnown is the newest known Spark release matching a prefix.
func (c *Catalog) newestKnown(prefix string) string {
	best := ""
	for v := range c.sparkByVer {
		if matchesPrefix(v, prefix) && compareVersions(v, best) > 0 {
			best = v
		}
	}
	return best
}

func anyPrefix(vs []string, prefix string) bool {
	for _, v := range vs {
		if matchesPrefix(v, prefix) {
			return true
		}
	}
	return false
}

func allLine(vs []string, pred func(string) bool) bool {
	for _, v := range vs {
		if !pred(v) {
			return false
		}
	}
	return len(vs) > 0
}

// closestInt is the smallest allowed value at or above want, else the largest.
func closestInt(allowed []int, want int) int {
	if len(allowed) == 0 {
		return want
	}
	for _, a := range allowed {
		if a >= want {
			return a
		}
	}
	return allowed[len(allowed)-1]
}

func intsToStrings(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Itoa(x)
	}
	return out
}
