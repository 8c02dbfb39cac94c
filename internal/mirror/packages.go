package mirror

import (
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/maven"
)

// Package is a Maven artifact prod's Spark fetched at run time (Ivy, for
// --packages and spark.jars.packages) or loaded by Maven coordinates or a
// Maven repository URL in spark.jars; devenv lock resolves it with its
// dependencies and pins every jar.
type Package struct {
	Coords string `json:"coords"` // group:artifact:version[:classifier]
	From   string `json:"from"`   // the conf or field that named it
}

// packageKeys name Maven coordinates (comma-separated).
var packageKeys = []string{"spark.jars.packages"}

// collectPackages fills Packages and PackageExcludes from the confs.
func (p *Profile) collectPackages() {
	seen := map[string]bool{}
	add := func(coords, from string) {
		if c, err := maven.ParseCoord(coords); err == nil && !seen[c.String()] {
			seen[c.String()] = true
			p.Packages = append(p.Packages, Package{Coords: c.String(), From: from})
		}
	}
	for _, k := range packageKeys {
		for _, c := range strings.Split(p.Conf[k], ",") {
			if c = strings.TrimSpace(c); c != "" {
				add(c, "conf:"+k)
			}
		}
	}
	for _, entry := range strings.Split(p.Conf["spark.jars"], ",") {
		entry = strings.TrimSpace(entry)
		if c, ok := maven.FromURL(entry); ok {
			add(c.String(), "conf:spark.jars (Maven repository URL)")
		} else if strings.Count(entry, ":") >= 2 && !strings.Contains(entry, "/") {
			add(entry, "conf:spark.jars (Maven coordinates)")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.libraries)) {
		add(k, p.libraries[k])
	}
	for _, e := range strings.Split(p.Conf["spark.jars.excludes"], ",") {
		if e = strings.TrimSpace(e); e != "" {
			p.PackageExcludes = append(p.PackageExcludes, e)
		}
	}
}
