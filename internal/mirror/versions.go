package mirror

import (
	"fmt"
	"path"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

var sparkVersionRe = lazy.Regexp(`^(\d+)\.(\d+)(?:\.(\d+))?(.*)$`)

// normalizeSpark maps a Spark build string to the nearest Apache release.
// It returns the release, and a warning when the build was a vendor or
// snapshot build ("3.3.0-amzn-0", "3.1.1.119", "3.1.0-SNAPSHOT").
func normalizeSpark(build string) (release, warning string) {
	build = strings.TrimSpace(build)
	m := sparkVersionRe().FindStringSubmatch(build)
	if m == nil {
		return "", fmt.Sprintf("Spark version %q is not a version number; set spark: in devenv.yaml", build)
	}
	patch := m[3]
	if patch == "" {
		patch = "0"
	}
	release = m[1] + "." + m[2] + "." + patch
	if m[4] != "" {
		warning = fmt.Sprintf("Spark %s is a vendor or snapshot build; using the nearest Apache release %s (vendor patches are not reproduced)", build, release)
	}
	return release, warning
}

// setSpark records a Spark build string a file declares (or, with
// reported, that the running application reported: an event log's
// environment), normalized, with a warning for vendor builds.
func (p *Profile) setSpark(build, src string, reported bool) {
	r := rankDeclared
	if reported {
		r = rankReported
	}
	p.setSparkRanked(build, src, r)
}

// inferSpark records a Spark release inferred from a name (an image, a
// jar, Maven coordinates, a shim class).
func (p *Profile) inferSpark(build, src string) { p.setSparkRanked(build, src, rankInferred) }

func (p *Profile) setSparkRanked(build, src string, r factRank) {
	if build == "" {
		return
	}
	rel, warn := normalizeSpark(build)
	if rel == "" {
		p.warn(warn)
		return
	}
	if p.refineSparkLine(build, rel, src, r) {
		return
	}
	if !p.setFact("spark", rel, src, r) || p.Runtime.SparkProvenance != src {
		return
	}
	if warn != "" {
		p.warn(warn)
	}
	p.Runtime.SparkBuild = ""
	if rel != build && !sparkLine(build) {
		p.Runtime.SparkBuild = build
	}
	p.sparkIsLine = sparkLine(build)
}

// sparkLine reports whether a Spark version names a line of releases
// ("3.2", as a SparkApplication's sparkVersion may) rather than one.
func sparkLine(build string) bool {
	m := sparkVersionRe().FindStringSubmatch(strings.TrimSpace(build))
	return m != nil && m[3] == "" && m[4] == ""
}

// refineSparkLine: a Spark line ("3.2") and a release of it (3.2.1, from
// an image tag or a jar) agree, and the release says more: the fact is
// the release, at the rank of the stronger source, both named. It reports
// whether it decided the fact.
func (p *Profile) refineSparkLine(build, rel, src string, r factRank) bool {
	cur, curProv := p.Runtime.Spark, p.Runtime.SparkProvenance
	if cur == "" || cur == rel || !sameMinor(cur, rel) {
		return false
	}
	rank := max(r, p.rankOf("spark"))
	switch {
	case sparkLine(build) && !p.sparkIsLine: // the line, after a release of it
		p.recordFact("spark", cur, curProv+"; "+src+" names its line "+build, rank)
	case p.sparkIsLine && !sparkLine(build): // a release of the line named before
		p.recordFact("spark", rel, curProv+" (line "+minorOf(cur)+"; the release "+rel+" from "+src+")", rank)
		p.sparkIsLine = false
	default:
		return false
	}
	return true
}

func sameMinor(a, b string) bool { return minorOf(a) == minorOf(b) }

// minorOf is a version's major.minor ("3.2.1" -> "3.2").
func minorOf(v string) string {
	m := sparkVersionRe().FindStringSubmatch(v)
	if m == nil {
		return v
	}
	return m[1] + "." + m[2]
}

var scalaRe = lazy.Regexp(`(\d+)\.(\d+)(?:\.(\d+))?`)

// parseScala reads "version 2.12.15" or "2.12" into binary and full versions.
func parseScala(s string) (binary, full string) {
	m := scalaRe().FindStringSubmatch(s)
	if m == nil {
		return "", ""
	}
	binary = m[1] + "." + m[2]
	if m[3] != "" {
		full = m[0]
	}
	return binary, full
}

var javaRe = lazy.Regexp(`^\s*(\d+)(?:\.(\d+))?[0-9._+a-zA-Z-]*`)

// parseJava reads "1.8.0_282 (Private Build)" or "11.0.20.1 (Eclipse
// Adoptium)" into the major version, the full version and the vendor.
func parseJava(s string) (major, full, vendor string) {
	m := javaRe().FindStringSubmatch(s)
	if m == nil {
		return "", "", ""
	}
	full = strings.TrimSpace(m[0])
	major = m[1]
	if major == "1" && m[2] != "" {
		major = m[2]
	}
	if i, j := strings.Index(s, "("), strings.LastIndex(s, ")"); i >= 0 && j > i {
		vendor = strings.TrimSpace(s[i+1 : j])
	}
	return major, full, vendor
}

// rapidsJar is a RAPIDS Accelerator jar found by name.
type rapidsJar struct {
	File, Scala, Version, Classifier string
}

var rapidsJarRe = lazy.Regexp(`rapids-4-spark_(2\.1[0-9])-(\d+\.\d+\.\d+(?:-SNAPSHOT)?)(?:-(amzn-\d+(?:\.\d+)?))?(?:-(cuda\d+(?:-arm64)?))?\.jar`)

// findRapidsJar finds a RAPIDS Accelerator jar name in a path list.
func findRapidsJar(s string) (rapidsJar, bool) {
	if !strings.Contains(s, "rapids-4-spark_") {
		return rapidsJar{}, false
	}
	m := rapidsJarRe().FindStringSubmatchIndex(s)
	if m == nil {
		return rapidsJar{}, false
	}
	g := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	return rapidsJar{File: path.Base(g(0)), Scala: g(1), Version: g(2), Classifier: g(4)}, true
}
