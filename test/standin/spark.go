package standin

import (
	"fmt"
	"strings"
)

// sparkDist names one Spark binary distribution stand-in.
type sparkDist struct {
	Version string // "3.5.6"
	Scala   string // "2.12" or "2.13"
}

// sparkMajor is the major version of a Spark version ("3" of "3.5.6").
func sparkMajor(version string) string {
	major, _, _ := strings.Cut(version, ".")
	return major
}

// sparkScalaSupported says whether Apache publishes a distribution of this
// Spark version for this Scala: 3.x for 2.12 and (as -scala2.13) 2.13,
// 4.x for 2.13 only.
func sparkScalaSupported(version, scala string) bool {
	switch sparkMajor(version) {
	case "3":
		return scala == "2.12" || scala == "2.13"
	case "4":
		return scala == "2.13"
	}
	return false
}

// Base is the distribution's name without extension, which is also its top
// directory: spark-3.5.6-bin-hadoop3, spark-3.2.4-bin-hadoop3.2 or spark-3.5.6-bin-hadoop3-scala2.13
// (Spark 3 builds for Scala 2.13 carry the suffix; Spark 4 is 2.13 only and
// does not).
func (d sparkDist) Base() string {
	base := "spark-" + d.Version + "-bin-hadoop3"
	if strings.HasPrefix(d.Version, "3.2.") {
		base += ".2" // the Apache archive names 3.2.x builds -bin-hadoop3.2
	}
	if sparkMajor(d.Version) == "3" && d.Scala == "2.13" {
		base += "-scala2.13"
	}
	return base
}

// Path is where the Apache archive keeps it, relative to /dist.
func (d sparkDist) Path() string {
	return "spark/spark-" + d.Version + "/" + d.Base() + ".tgz"
}

// py4jVersion is the py4j that Spark bundles under python/lib.
func py4jVersion(spark string) string {
	switch {
	case sparkMajor(spark) == "4":
		return "0.10.9.9"
	case strings.HasPrefix(spark, "3.3."):
		return "0.10.9.5"
	}
	return "0.10.9.7"
}

// scalaFull is the Scala patch release printed by spark-submit --version.
func scalaFull(scala string) string {
	if scala == "2.13" {
		return "2.13.8"
	}
	return "2.12.18"
}

// entries lists the distribution's files: just enough for image builds and
// `devenv verify` to find what they look for.
func (d sparkDist) entries() ([]entry, error) {
	top := d.Base() + "/"
	py4j := py4jVersion(d.Version)
	py4jZip, err := zipFile([]entry{
		{Name: "py4j/__init__.py", Body: "# devenv test stand-in for py4j " + py4j + "\n"},
		{Name: "py4j/version.py", Body: "__version__ = '" + py4j + "'\n"},
	})
	if err != nil {
		return nil, err
	}
	coreJar, err := jar("Spark Project Core (devenv stand-in)", d.Version)
	if err != nil {
		return nil, err
	}
	return []entry{
		{Name: top, Mode: 0o755},
		{Name: top + "RELEASE", Mode: 0o644, Body: fmt.Sprintf("Spark %s (git revision 0000000) built for Hadoop 3.3.4\ndevenv test stand-in, not Apache Spark\n", d.Version)},
		{Name: top + "bin/", Mode: 0o755},
		{Name: top + "bin/spark-submit", Mode: 0o755, Body: d.sparkSubmit()},
		{Name: top + "bin/spark-shell", Mode: 0o755, Body: d.echoScript("spark-shell")},
		{Name: top + "bin/pyspark", Mode: 0o755, Body: d.echoScript("pyspark")},
		{Name: top + "sbin/", Mode: 0o755},
		{Name: top + "sbin/start-master.sh", Mode: 0o755, Body: d.echoScript("start-master.sh")},
		{Name: top + "sbin/start-worker.sh", Mode: 0o755, Body: d.echoScript("start-worker.sh")},
		{Name: top + "python/", Mode: 0o755},
		{Name: top + "python/pyspark/", Mode: 0o755},
		{Name: top + "python/pyspark/__init__.py", Mode: 0o644, Body: "# devenv test stand-in for PySpark " + d.Version + "\nfrom pyspark.version import __version__\n"},
		{Name: top + "python/pyspark/version.py", Mode: 0o644, Body: "__version__: str = \"" + d.Version + "\"\n"},
		{Name: top + "python/lib/", Mode: 0o755},
		{Name: top + "python/lib/py4j-" + py4j + "-src.zip", Mode: 0o644, Body: string(py4jZip)},
		{Name: top + "jars/", Mode: 0o755},
		{Name: top + "jars/spark-core_" + d.Scala + "-" + d.Version + ".jar", Mode: 0o644, Body: string(coreJar)},
	}, nil
}

// sparkSubmit prints its arguments one per line and, when
// DEVENV_STANDIN_PLAN names a file, that file; --version prints a banner on
// stderr as the real one does.
func (d sparkDist) sparkSubmit() string {
	return `#!/bin/sh
# devenv test stand-in for Apache Spark ` + d.Version + ` (Scala ` + d.Scala + `): not the real spark-submit.
if [ "$1" = "--version" ]; then
  echo "Welcome to Spark version ` + d.Version + ` (devenv stand-in)" >&2
  echo "Using Scala version ` + scalaFull(d.Scala) + `" >&2
  exit 0
fi
echo "spark-submit stand-in ` + d.Version + ` scala ` + d.Scala + `"
for a in "$@"; do
  printf 'arg: %s\n' "$a"
done
if [ -n "$DEVENV_STANDIN_PLAN" ]; then
  if [ ! -f "$DEVENV_STANDIN_PLAN" ]; then
    echo "spark-submit stand-in: DEVENV_STANDIN_PLAN=$DEVENV_STANDIN_PLAN is not a file" >&2
    exit 1
  fi
  cat "$DEVENV_STANDIN_PLAN"
fi
`
}

// echoScript prints its name and arguments and succeeds.
func (d sparkDist) echoScript(name string) string {
	return `#!/bin/sh
# devenv test stand-in for Apache Spark ` + d.Version + `: not the real ` + name + `.
echo "` + name + ` stand-in ` + d.Version + ` scala ` + d.Scala + `"
for a in "$@"; do
  printf 'arg: %s\n' "$a"
done
`
}

// tgz is the distribution's bytes.
func (d sparkDist) tgz() ([]byte, error) {
	entries, err := d.entries()
	if err != nil {
		return nil, errorf("generating %s: %v", d.Path(), err)
	}
	return tgz(entries)
}
