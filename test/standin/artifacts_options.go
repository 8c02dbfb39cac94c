package standin

import "strings"

// ArtifactOption configures Artifacts.
type ArtifactOption func(*artifactConfig)

type artifactConfig struct {
	spark        []string
	scala        []string
	rapids       []string
	classifiers  []string
	maven        []string
	poms         string
	sha512Format SHA512Format
	sparkSize    int64 // WithSizes: generated distributions of this size, served from disk
	rapidsSize   int64
	shims        map[string][]string // "version/scala" -> Spark versions with a shim
}

func defaultArtifactConfig() artifactConfig {
	return artifactConfig{
		spark:       []string{"3.5.6"},
		scala:       []string{"2.12", "2.13"},
		rapids:      []string{"25.06.0"},
		classifiers: []string{"", "cuda12"},
	}
}

// WithSpark sets the Spark versions served under /apache (default 3.5.6).
func WithSpark(versions ...string) ArtifactOption {
	return func(c *artifactConfig) { c.spark = versions }
}

// WithScala sets the Scala binary versions ("2.12", "2.13") of the Spark
// distributions and RAPIDS jars served (default both). A Spark version gets
// a distribution only for the Scala versions Apache builds it for.
func WithScala(versions ...string) ArtifactOption {
	return func(c *artifactConfig) { c.scala = versions }
}

// WithRapids sets the RAPIDS Accelerator versions served under /maven2
// (default 25.06.0).
func WithRapids(versions ...string) ArtifactOption {
	return func(c *artifactConfig) { c.rapids = versions }
}

// WithRapidsShims makes the stand-in jars of one RAPIDS Accelerator release
// and Scala version carry shims for exactly these Spark versions (default:
// the catalog's list for the release), e.g. to serve a jar without the
// locked Spark's shim.
func WithRapidsShims(version, scala string, sparks ...string) ArtifactOption {
	return func(c *artifactConfig) {
		if c.shims == nil {
			c.shims = map[string][]string{}
		}
		c.shims[version+"/"+scala] = sparks
	}
}

// WithRapidsClassifiers sets the jar classifiers served for each RAPIDS
// version; "" is the jar without a classifier (default "" and "cuda12").
func WithRapidsClassifiers(classifiers ...string) ArtifactOption {
	return func(c *artifactConfig) { c.classifiers = classifiers }
}

// WithMaven adds Maven artifacts by coordinate, "group:artifact:version" or
// "group:artifact:version:classifier"; each is served as a small valid jar
// with its .sha1.
func WithMaven(coordinates ...string) ArtifactOption {
	return func(c *artifactConfig) { c.maven = append(c.maven, coordinates...) }
}

// WithPOMs serves the POMs of a directory laid out as a Maven repository
// (internal/maven/testdata/repo) under /maven2, and a small valid jar with
// its .sha1 for each POM of a jar artifact, so devenv resolves transitive
// dependencies as it does against Maven Central.
func WithPOMs(dir string) ArtifactOption {
	return func(c *artifactConfig) { c.poms = dir }
}

// WithSHA512Format picks the layout of the Spark .sha512 files (default
// SHA512Coreutils).
func WithSHA512Format(f SHA512Format) ArtifactOption {
	return func(c *artifactConfig) { c.sha512Format = f }
}

// mavenCoord is a parsed Maven coordinate.
type mavenCoord struct {
	Group, Artifact, Version, Classifier string
}

func parseMavenCoord(s string) (mavenCoord, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts) > 4 {
		return mavenCoord{}, errorf("Maven coordinate %q: want group:artifact:version or group:artifact:version:classifier", s)
	}
	for _, p := range parts[:3] {
		if p == "" || strings.ContainsAny(p, "/\\ ") {
			return mavenCoord{}, errorf("Maven coordinate %q: group, artifact and version must be non-empty and hold no slash or space", s)
		}
	}
	c := mavenCoord{Group: parts[0], Artifact: parts[1], Version: parts[2]}
	if len(parts) == 4 {
		c.Classifier = parts[3]
	}
	return c, nil
}

// Path is the file's path in a Maven repository layout.
func (c mavenCoord) Path() string {
	name := c.Artifact + "-" + c.Version
	if c.Classifier != "" {
		name += "-" + c.Classifier
	}
	return strings.ReplaceAll(c.Group, ".", "/") + "/" + c.Artifact + "/" + c.Version + "/" + name + ".jar"
}

// SparkPath is the server path of a Spark distribution stand-in, e.g.
// "apache/spark/spark-3.5.6/spark-3.5.6-bin-hadoop3-scala2.13.tgz".
func SparkPath(version, scala string) string {
	return "apache/" + sparkDist{Version: version, Scala: scala}.Path()
}

// RapidsPath is the server path of a RAPIDS Accelerator jar stand-in, e.g.
// "maven2/com/nvidia/rapids-4-spark_2.12/25.06.0/rapids-4-spark_2.12-25.06.0-cuda12.jar".
func RapidsPath(scala, version, classifier string) string {
	return "maven2/" + rapidsCoord(scala, version, classifier).Path()
}

func rapidsCoord(scala, version, classifier string) mavenCoord {
	return mavenCoord{Group: "com.nvidia", Artifact: "rapids-4-spark_" + scala, Version: version, Classifier: classifier}
}
