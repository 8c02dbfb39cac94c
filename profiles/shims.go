package profiles

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// ShimServiceFile lists, one provider class a line, the Spark shims a RAPIDS
// Accelerator jar carries (dist/maven-antrun/build-parallel-worlds.xml
// concatenates each shim's copy into it; ShimLoader reads it at plugin start).
const ShimServiceFile = "META-INF/services/com.nvidia.spark.rapids.SparkShimServiceProvider"

const maxShimServiceBytes = 1 << 20

var (
	shimIDRE     = regexp.MustCompile(`^spark[0-9]{3}[a-z0-9]*$`)
	apacheShimRE = regexp.MustCompile(`^spark([0-9])([0-9])([0-9])$`)
)

// JarShims is what a RAPIDS Accelerator jar says it runs on.
type JarShims struct {
	// Spark are the Apache Spark versions with a shim, sorted ("3.5.3"):
	// shim spark353 matches exactly Spark "3.5.3" (its VERSIONNAMES).
	Spark []string
	// Vendor are shims for vendor builds (spark350db143, spark321cdh),
	// which match only those vendors' version strings.
	Vendor []string
}

// ReadJarShims lists the shims a RAPIDS Accelerator jar carries: the provider
// classes its shim service file names whose class is in the jar, either in
// the shim's parallel world (spark353/com/nvidia/...) or, for a single-shim
// jar, in the conventional place. A listed provider whose class is missing
// is one ShimLoader skips, so it does not count.
func ReadJarShims(path string) (JarShims, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return JarShims{}, fmt.Errorf("%s is not a readable jar: %w", path, err)
	}
	defer func() { _ = zr.Close() }()
	classes := map[string]bool{}
	var service *zip.File
	for _, f := range zr.File {
		if f.Name == ShimServiceFile {
			service = f
		}
		if strings.HasSuffix(f.Name, "/SparkShimServiceProvider.class") {
			classes[f.Name] = true
		}
	}
	if service == nil {
		return JarShims{}, fmt.Errorf("the jar has no %s, so it names no Spark shim: it is not a RAPIDS Accelerator distribution jar", ShimServiceFile)
	}
	providers, err := readProviders(service)
	if err != nil {
		return JarShims{}, err
	}
	var out JarShims
	for _, p := range providers {
		id := shimIDOf(p)
		class := strings.ReplaceAll(p, ".", "/") + ".class"
		if !shimIDRE.MatchString(id) || !classes[id+"/"+class] && !classes[class] {
			continue
		}
		if m := apacheShimRE.FindStringSubmatch(id); m != nil {
			out.Spark = append(out.Spark, m[1]+"."+m[2]+"."+m[3])
		} else {
			out.Vendor = append(out.Vendor, id)
		}
	}
	slices.SortFunc(out.Spark, compareVersions)
	out.Spark = slices.Compact(out.Spark)
	slices.Sort(out.Vendor)
	out.Vendor = slices.Compact(out.Vendor)
	return out, nil
}

func readProviders(f *zip.File) ([]string, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ShimServiceFile, err)
	}
	defer func() { _ = rc.Close() }()
	var out []string
	sc := bufio.NewScanner(io.LimitReader(rc, maxShimServiceBytes))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", ShimServiceFile, err)
	}
	return out, nil
}

// shimIDOf is the shim id in a provider class name, its next-to-last part:
// com.nvidia.spark.rapids.shims.spark353.SparkShimServiceProvider -> spark353.
func shimIDOf(provider string) string {
	parts := strings.Split(provider, ".")
	if len(parts) < 2 {
		return ""
	}
	return parts[len(parts)-2]
}

// ShimID is the shim id of an Apache Spark version: "3.5.3" -> "spark353".
func ShimID(spark string) string { return "spark" + strings.ReplaceAll(spark, ".", "") }

// ShimProvider is the provider class a shim's line in ShimServiceFile names.
func ShimProvider(id string) string {
	return "com.nvidia.spark.rapids.shims." + id + ".SparkShimServiceProvider"
}

// AcceleratorSpark is the catalog's Spark list for one release and Scala
// binary version, oldest first (nil when it has none).
func (c *Catalog) AcceleratorSpark(version, scala string) []string {
	for i := range c.file.SparkRapids.Releases {
		if r := &c.file.SparkRapids.Releases[i]; r.Version == version {
			return slices.Clone(r.sparkVersions[scala])
		}
	}
	return nil
}

// NearestAcceleratorFor is the catalog release nearest to version (the
// newer one on a tie) that lists Spark spark for Scala scala, other than
// version itself; "" when none does.
func (c *Catalog) NearestAcceleratorFor(spark, scala, version string) string {
	best, bestDist := "", 0
	for i := range c.file.SparkRapids.Releases {
		r := &c.file.SparkRapids.Releases[i]
		if r.Version == version || !slices.Contains(r.sparkVersions[scala], spark) {
			continue
		}
		d := releaseDistance(r.Version, version)
		if best == "" || d < bestDist || d == bestDist && compareVersions(r.Version, best) > 0 {
			best, bestDist = r.Version, d
		}
	}
	return best
}

// releaseDistance counts months between two YY.MM.P releases, and patch
// releases within a month.
func releaseDistance(a, b string) int {
	va, _ := parseVersion(a)
	vb, _ := parseVersion(b)
	n := func(v version) int { return (part(v, 0)*12+part(v, 1))*100 + part(v, 2) }
	d := n(va) - n(vb)
	if d < 0 {
		d = -d
	}
	return d
}
