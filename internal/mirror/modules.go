package mirror

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// HPC job scripts (Slurm, PBS) load their software with Environment
// Modules or Lmod: `module load spark/3.5 python/3.12` (also `module add`,
// `ml`). The versions a script loads are the ones its spark-submit runs.

// moduleFacts maps a module's name to the version fact it sets.
var moduleFacts = map[string]string{
	"spark": "spark", "apache-spark": "spark", "pyspark": "spark",
	"python": "python", "python3": "python", "java": "java", "jdk": "java", "openjdk": "java", "scala": "scala",
}

// moduleLoads returns the name/version words of a module load line, or
// nil when the line loads no module.
func moduleLoads(words []string) []string {
	switch {
	case len(words) > 2 && words[0] == "module" && (words[1] == "load" || words[1] == "add"):
		return words[2:]
	case len(words) > 1 && words[0] == "ml" && !strings.HasPrefix(words[1], "-"):
		if words[1] == "load" {
			return words[2:]
		}
		return words[1:]
	}
	return nil
}

// readModules records the versions of the modules a script loads.
func (p *Profile) readModules(loads []moduleLoad) {
	for _, l := range loads {
		name, version, ok := strings.Cut(l.module, "/")
		fact := moduleFacts[strings.ToLower(name)]
		if !ok || fact == "" || version == "" || strings.Contains(version, "$") {
			continue
		}
		src := fmt.Sprintf("script line %d: module load %s", l.line, l.module)
		if fact == "spark" {
			p.setSpark(sparkModuleVersion(version), src, false)
			p.moduleBuildFacts(version, src)
			continue
		}
		p.setFact(fact, moduleVersion(fact, version), src, rankDeclared)
	}
}

// moduleVersion is a module's version as the fact writes it: Java's
// major (openjdk/17.0.2: 17), the others as the module names them
// (python/3.12: 3.12, its build suffixes dropped: 3.10.4-gcc: 3.10.4).
func moduleVersion(fact, v string) string {
	v, _, _ = strings.Cut(v, "-")
	if fact == "java" {
		v = strings.TrimPrefix(v, "1.")
		v, _, _ = strings.Cut(v, ".")
	}
	return v
}

// moduleLoad is one module a script loads, and its line.
type moduleLoad struct {
	module string
	line   int
}

// moduleBuildRe finds what an EasyBuild module's version says it was built
// with: Spark/2.4.0-Hadoop-2.7-Java-1.8, Spark/3.5.1-foss-2022b-Scala-2.13.
var moduleBuildRe = lazy.Regexp(`(?i)-(java|scala)-(\d+(?:\.\d+)?)`)

// moduleBuildFacts records the Java and Scala a Spark module's version
// names.
func (p *Profile) moduleBuildFacts(version, src string) {
	if strings.Contains(version, "-Hadoop-") && !strings.Contains(strings.ToLower(version), "-scala-") {
		p.prebuiltScala(sparkModuleVersion(version), version, src) // a build of Apache's pre-built package
	}
	for _, m := range moduleBuildRe().FindAllStringSubmatch(version, -1) {
		if strings.EqualFold(m[1], "java") {
			p.setFact("java", moduleVersion("java", m[2]), src, rankDeclared)
		} else if strings.HasPrefix(m[2], "2.") {
			p.setFact("scala", m[2], src, rankDeclared)
		}
	}
}

// sparkModuleVersion is a Spark module's version without its build's
// tags (2.4.0-Hadoop-2.7-Java-1.8: 2.4.0), which are no vendor build of
// Spark.
func sparkModuleVersion(v string) string {
	if m := moduleReleaseRe().FindString(v); m != "" {
		return m
	}
	return v
}

var moduleReleaseRe = lazy.Regexp(`^\d+\.\d+(?:\.\d+)?`)
