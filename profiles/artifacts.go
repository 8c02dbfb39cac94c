package profiles

import (
	"fmt"
	"path"
	"strings"
)

// AcceleratorArtifact names the RAPIDS Accelerator jar among a resolution's
// artifacts.
const AcceleratorArtifact = "rapids-jar"

const (
	mavenCentral  = "https://repo1.maven.org/maven2"
	apacheArchive = "https://archive.apache.org/dist/spark"
)

// MavenJar turns Maven coordinates "group:artifact:version[:classifier]" into
// the jar's Maven Central artifact, checked against the published .sha1.
func MavenJar(coords string) (Artifact, error) {
	parts := strings.Split(coords, ":")
	if len(parts) < 3 || len(parts) > 4 {
		return Artifact{}, fmt.Errorf("maven coordinates %q: want group:artifact:version[:classifier], e.g. org.postgresql:postgresql:42.7.4", coords)
	}
	for i, p := range parts {
		if !validCoordPart(p) {
			what := []string{"group", "artifact", "version", "classifier"}[i]
			return Artifact{}, fmt.Errorf("maven coordinates %q: %s %q must be non-empty letters, digits, '.', '_' or '-'", coords, what, p)
		}
	}
	group, artifact, ver := parts[0], parts[1], parts[2]
	file := artifact + "-" + ver
	name := "jar:" + group + ":" + artifact + ":" + ver
	if len(parts) == 4 {
		file += "-" + parts[3]
		name += ":" + parts[3]
	}
	file += ".jar"
	url := strings.Join([]string{mavenCentral, strings.ReplaceAll(group, ".", "/"), artifact, ver, file}, "/")
	return Artifact{Name: name, URL: url, ChecksumURL: url + ".sha1", ChecksumAlgo: "sha1", File: file}, nil
}

func validCoordPart(p string) bool {
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

// sparkDist is the Apache Spark binary distribution from the Apache archive.
// Spark 4.x builds are Scala 2.13 and carry no -scala2.13 suffix.
func sparkDist(spark, scala, dist string) Artifact {
	file := "spark-" + spark + "-bin-" + dist
	if scala == "2.13" && major(spark) == "3" {
		file += "-scala2.13"
	}
	file += ".tgz"
	url := apacheArchive + "/spark-" + spark + "/" + file
	return Artifact{Name: "spark", URL: url, ChecksumURL: url + ".sha512", ChecksumAlgo: "sha512", File: path.Base(url)}
}

// acceleratorJar is the RAPIDS Accelerator jar in repo (Maven Central, or
// where NVIDIA published a release instead); classifier is empty for the
// release's default (x86_64) jar.
func acceleratorJar(repo, group, scala, ver, classifier string) Artifact {
	artifact := "rapids-4-spark_" + scala
	file := artifact + "-" + ver
	if classifier != "" {
		file += "-" + classifier
	}
	file += ".jar"
	url := strings.Join([]string{or(repo, mavenCentral), strings.ReplaceAll(group, ".", "/"), artifact, ver, file}, "/")
	return Artifact{Name: AcceleratorArtifact, URL: url, ChecksumURL: url + ".sha1", ChecksumAlgo: "sha1", File: file}
}
