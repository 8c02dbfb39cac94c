package mirror

import (
	"fmt"
	"strings"
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
			p.setSpark(version, src, false)
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
