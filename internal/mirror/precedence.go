package mirror

import (
	"fmt"
	"strings"
)

// The one precedence order for version facts, applied by every reader:
// a fact the file declares (a SparkApplication's sparkVersion, Databricks'
// spark_version, EMR's ReleaseLabel and Applications, the event log's
// environment, a JAVA_HOME) beats one inferred from a name (an image,
// a jar, Maven coordinates, a shim class), which beats a platform default
// (a runtime table's Java or Python for a release). Two sources of the
// same rank: the first read stays. A disagreement between a declared
// and an inferred fact, or two inferred ones, is kept in Conflicts with
// both sources and warned.

// factRank is a source's place in the precedence order.
type factRank int

const (
	rankNone factRank = iota
	rankDefault
	rankInferred
	rankDeclared
	rankReported // what the running application reported (an event log's environment)
)

func (r factRank) String() string {
	switch r {
	case rankDefault:
		return "platform default"
	case rankInferred:
		return "inferred from a name"
	case rankDeclared:
		return "declared"
	case rankReported:
		return "reported by the application"
	}
	return "unknown"
}

// factSlot is where one version fact lives in a profile.
func (p *Profile) factSlot(fact string) (value, prov *string) {
	switch fact {
	case "spark":
		return &p.Runtime.Spark, &p.Runtime.SparkProvenance
	case "scala":
		return &p.Runtime.Scala, &p.Runtime.ScalaProvenance
	case "java":
		return &p.Runtime.Java, &p.Runtime.JavaProvenance
	case "python":
		return &p.Runtime.Python, &p.Runtime.PythonProvenance
	}
	panic("mirror: unknown fact " + fact)
}

// rankOf is the rank of the source that set fact: the one recorded by
// setFact when it still holds, else read from the provenance (a runtime
// table's Spark and Scala follow from a declared label; its Java and
// Python are the platform's defaults; anything else a reader set
// directly is what the file states).
func (p *Profile) rankOf(fact string) factRank {
	v, prov := p.factSlot(fact)
	if *v == "" {
		return rankNone
	}
	if r, ok := p.ranks[fact]; ok && r.prov == *prov {
		return r.rank
	}
	if fromTable(*prov) && (fact == "java" || fact == "python") {
		return rankDefault
	}
	return rankDeclared
}

type rankedProv struct {
	prov string
	rank factRank
}

// setFact sets a version fact by the precedence order and reports whether
// v is now the fact's value. A value equal to the current one only
// upgrades its source when the new source ranks higher.
func (p *Profile) setFact(fact, v, src string, r factRank) bool {
	if v == "" {
		return false
	}
	dst, prov := p.factSlot(fact)
	cur := p.rankOf(fact)
	record := func() { p.recordFact(fact, v, src, r) }
	switch {
	case *dst == "":
		record()
		return true
	case fact == "spark" && isLineOf(*dst, v): // a line ("3.1", a Delta's or a Spark Package's) and its release
		p.recordFact(fact, v, src+"; "+*prov, max(r, cur))
		return true
	case fact == "spark" && isLineOf(v, *dst):
		return true // the release already known is of that line
	case sameVersion(*dst, v):
		if r > cur {
			record()
		}
		return true
	case r > cur:
		p.conflict(fact, v, src, r, *dst, *prov, cur)
		record()
		return true
	default:
		p.conflict(fact, *dst, *prov, cur, v, src, r)
		return false
	}
}

// recordFact sets fact to v from src of rank r, whatever it held.
func (p *Profile) recordFact(fact, v, src string, r factRank) {
	dst, prov := p.factSlot(fact)
	*dst, *prov = v, src
	if p.ranks == nil {
		p.ranks = map[string]rankedProv{}
	}
	p.ranks[fact] = rankedProv{prov: src, rank: r}
}

// isLineOf reports whether line is a bare major.minor ("3.1") and v a
// release of it ("3.1.3").
func isLineOf(line, v string) bool {
	return strings.Count(line, ".") == 1 && strings.HasPrefix(v, line+".")
}

// sameVersion: "3.5" and "3.5.0", "1.8" and "8" are one version.
func sameVersion(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimPrefix(strings.TrimSpace(s), "1.")
		return strings.TrimSuffix(s, ".0")
	}
	return a == b || norm(a) == norm(b)
}

// conflict records a disagreement between two sources when both are more
// than a platform default (a default that a file overrides is no
// conflict: overriding it is what the file's setting is for).
func (p *Profile) conflict(fact, kept, keptSrc string, keptRank factRank, other, otherSrc string, otherRank factRank) {
	if keptRank < rankInferred || otherRank < rankInferred {
		return
	}
	for _, c := range p.Conflicts {
		if c.Fact == fact && c.Other == other && c.OtherSource == otherSrc {
			return
		}
	}
	p.Conflicts = append(p.Conflicts, Conflict{Fact: fact, Value: kept, Source: keptSrc, Other: other, OtherSource: otherSrc})
	p.warn(fmt.Sprintf("%s: %s says %s (%s), %s says %s (%s); using %s, the %s one",
		fact, keptSrc, kept, keptRank, otherSrc, other, otherRank, kept, keptRank))
}
