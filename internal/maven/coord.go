// Package maven resolves Maven coordinates with their transitive
// dependencies the way Maven 3 does, by reading POMs from a repository
// (Maven Central through devenv.yaml's mirrors.maven): parent POMs,
// properties, dependencyManagement and imported BOMs (the effective POM,
// built with deps.dev/util/maven), then scopes, optional dependencies,
// exclusions and nearest-wins mediation over the dependency graph (here).
// The result is the list of jars Spark's --packages would have fetched at
// run time, each with its URL, so the lock can pin them by checksum.
package maven

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Coord is one artifact: group:artifact:version, with a classifier and a
// type when they are not the plain jar.
type Coord struct {
	Group, Artifact, Version string
	Classifier               string
	Type                     string // "" or "jar"; "pom", "test-jar", "bundle"...
}

// ParseCoord reads "group:artifact:version" or
// "group:artifact:version:classifier" (spark-submit --packages and
// devenv.yaml jars: use the first; Ivy and sbt write the second), and
// Maven's long form "group:artifact:type:classifier:version".
func ParseCoord(s string) (Coord, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	var c Coord
	switch len(parts) {
	case 3:
		c = Coord{Group: parts[0], Artifact: parts[1], Version: parts[2]}
	case 4:
		c = Coord{Group: parts[0], Artifact: parts[1], Version: parts[2], Classifier: parts[3]}
	case 5:
		c = Coord{Group: parts[0], Artifact: parts[1], Type: parts[2], Classifier: parts[3], Version: parts[4]}
	default:
		return Coord{}, fmt.Errorf("maven coordinates %q: want group:artifact:version[:classifier], e.g. io.delta:delta-spark_2.12:3.2.0", s)
	}
	names := []string{"group", "artifact", "version", "classifier", "type"}
	for i, v := range []string{c.Group, c.Artifact, c.Version, c.Classifier, c.Type} {
		if i == 2 && isRange(v) && validRange(v) {
			continue
		}
		if (i < 3 || v != "") && !validPart(v) {
			return Coord{}, fmt.Errorf("maven coordinates %q: %s %q must be non-empty letters, digits, '.', '_' or '-'", s, names[i], v)
		}
	}
	return c, nil
}

func validPart(p string) bool {
	if p == "" || p == "." || p == ".." {
		return false
	}
	for _, r := range p {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

// validRange accepts Maven's range syntax: "[1.0,2.0)", "(,1.5]", "[1.2]".
func validRange(v string) bool {
	last := v[len(v)-1]
	if last != ']' && last != ')' {
		return false
	}
	for _, p := range strings.Split(strings.Trim(v, "[]()"), ",") {
		if p != "" && !validPart(p) {
			return false
		}
	}
	return true
}

// String is group:artifact:version[:classifier].
func (c Coord) String() string {
	s := c.Group + ":" + c.Artifact + ":" + c.Version
	if c.Classifier != "" {
		s += ":" + c.Classifier
	}
	return s
}

// key identifies an artifact regardless of version, as Maven's mediation
// does: group, artifact, type and classifier.
func (c Coord) key() string {
	return c.Group + ":" + c.Artifact + ":" + c.ext() + ":" + c.classifier()
}

// ext is the file extension of the artifact's type.
func (c Coord) ext() string {
	switch c.Type {
	case "", "jar", "bundle", "test-jar", "maven-plugin", "ejb":
		return "jar"
	}
	return c.Type
}

func (c Coord) classifier() string {
	if c.Type == "test-jar" && c.Classifier == "" {
		return "tests"
	}
	return c.Classifier
}

// File is the artifact's file name in the repository.
func (c Coord) File() string {
	f := c.Artifact + "-" + c.Version
	if cl := c.classifier(); cl != "" {
		f += "-" + cl
	}
	return f + "." + c.ext()
}

// dir is the artifact's version directory under the repository root.
func (c Coord) dir() string {
	return strings.ReplaceAll(c.Group, ".", "/") + "/" + c.Artifact + "/" + c.Version
}

// URL is the artifact's file under the repository base.
func (c Coord) URL(base string) string {
	return strings.TrimRight(base, "/") + "/" + c.dir() + "/" + c.File()
}

// POMURL is the artifact's POM under the repository base.
func (c Coord) POMURL(base string) string {
	return strings.TrimRight(base, "/") + "/" + c.dir() + "/" + c.Artifact + "-" + c.Version + ".pom"
}

// FromURL reads coordinates from a jar's URL in a Maven repository layout
// (".../maven2/io/delta/delta-spark_2.12/3.2.0/delta-spark_2.12-3.2.0.jar"),
// as prod's spark.jars lists them; ok is false for any other URL.
func FromURL(u string) (Coord, bool) {
	i := strings.Index(u, "://")
	if i < 0 || !strings.HasSuffix(u, ".jar") || !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return Coord{}, false // file: and local: jars are files on prod's machines
	}
	parts := strings.Split(u[i+3:], "/")
	if len(parts) < 5 {
		return Coord{}, false
	}
	n := len(parts)
	file, ver, art := parts[n-1], parts[n-2], parts[n-3]
	prefix := art + "-" + ver
	if !strings.HasPrefix(file, prefix) {
		return Coord{}, false
	}
	rest := strings.TrimSuffix(strings.TrimPrefix(file, prefix), ".jar")
	c := Coord{Artifact: art, Version: ver, Classifier: strings.TrimPrefix(rest, "-")}
	if rest != "" && !strings.HasPrefix(rest, "-") {
		return Coord{}, false
	}
	// The group is the path between the repository root and the artifact:
	// find the root by the usual names, else give up.
	for j := 1; j < n-3; j++ {
		switch parts[j] {
		case "maven2", "maven", "m2":
			c.Group = strings.Join(parts[j+1:n-3], ".")
		case "repository", "artifactory": // Nexus and Artifactory: /repository/<name>/...
			if j+2 < n-3 {
				c.Group = strings.Join(parts[j+2:n-3], ".")
			}
		}
		if c.Group != "" {
			break
		}
	}
	if c.Group == "" {
		return Coord{}, false
	}
	if _, err := ParseCoord(c.String()); err != nil {
		return Coord{}, false
	}
	return c, true
}

var (
	scalaSuffixRe = lazy.Regexp(`_(2\.1[0-9]|3)$`)
	sparkLineRe   = lazy.Regexp(`spark(?:-runtime)?-?([2-4]\.\d+)(?:[-_]|$)`)
)

// ScalaLine is the Scala binary version an artifact is built for, from its
// _2.12 / _2.13 suffix, or "".
func (c Coord) ScalaLine() string {
	if m := scalaSuffixRe().FindStringSubmatch(c.Artifact); m != nil {
		return m[1]
	}
	return ""
}

// SparkLine is the Spark major.minor an artifact is built for when its
// name says so (iceberg-spark-runtime-3.5_2.12, hudi-spark3.4-bundle_2.12),
// or "".
func (c Coord) SparkLine() string {
	name := scalaSuffixRe().ReplaceAllString(c.Artifact, "")
	if m := sparkLineRe().FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}
