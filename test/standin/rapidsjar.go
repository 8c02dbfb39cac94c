package standin

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/profiles"
)

// RapidsJar is a RAPIDS Accelerator jar stand-in with the released jar's
// "parallel worlds" layout (NVIDIA/spark-rapids dist/README.md, the
// ShimLoader header comment, dist/maven-antrun/build-parallel-worlds.xml):
// the conventional SQLPlugin class at the top, classes shared by every shim
// under spark-shared/, one directory per shim (spark353/) holding that shim's
// classes and its SparkShimServiceProvider, and META-INF/services listing
// every shim's provider class. sparks are the Apache Spark versions it
// carries shims for ("3.5.3" -> spark353); vendor adds vendor shims
// ("spark350db143").
func RapidsJar(title, version string, sparks []string, vendor ...string) ([]byte, error) {
	ids := make([]string, 0, len(sparks)+len(vendor))
	for _, s := range sparks {
		ids = append(ids, profiles.ShimID(s))
	}
	ids = append(ids, vendor...)
	var services strings.Builder
	entries := []entry{
		{Name: "com/nvidia/spark/SQLPlugin.class", Body: "stand-in class\n"},
		{Name: "spark-shared/com/nvidia/spark/rapids/CastExprMeta.class", Body: "stand-in class\n"},
		{Name: "rapids4spark-version-info.properties", Body: "version=" + version + "\nnote=devenv test stand-in\n"},
	}
	for _, id := range ids {
		provider := profiles.ShimProvider(id)
		services.WriteString(provider + "\n")
		entries = append(entries,
			entry{Name: id + "/" + strings.ReplaceAll(provider, ".", "/") + ".class", Body: "stand-in class\n"},
			entry{Name: id + "/org/apache/spark/sql/rapids/GpuUnaryMinus.class", Body: "stand-in class\n"})
	}
	entries = append(entries, entry{Name: profiles.ShimServiceFile, Body: services.String()})
	return jar(title, version, entries...)
}

// rapidsShims are the Spark versions a stand-in jar of a RAPIDS Accelerator
// release carries shims for: WithRapidsShims' list, else the catalog's list
// for the release and Scala, else the Spark versions served.
func (cfg artifactConfig) rapidsShims(version, scala string) []string {
	if s, ok := cfg.shims[version+"/"+scala]; ok {
		return s
	}
	if s := profiles.Builtin().AcceleratorSpark(version, scala); len(s) > 0 {
		return s
	}
	return cfg.spark
}

var rapidsURLRE = regexp.MustCompile(`/rapids-4-spark_(2\.1[23])/([0-9]+\.[0-9]+\.[0-9]+)/[^/]+\.jar$`)

// RapidsJarFor is, for fake fetchers, the file a download of a RAPIDS
// Accelerator jar URL would leave: a stand-in with the real layout and the
// catalog's shims for that release and Scala, written once under the
// system temp directory (content-addressed, so runs share it). Other URLs
// give "".
func RapidsJarFor(url string) (string, error) {
	m := rapidsURLRE.FindStringSubmatch(url)
	if m == nil {
		return "", nil
	}
	data, err := RapidsJar("com.nvidia:rapids-4-spark_"+m[1]+" (devenv stand-in)", m[2], profiles.Builtin().AcceleratorSpark(m[2], m[1]))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	// One directory per user: the files are written 0600, and a directory
	// that root made first is not another user's to write in.
	dir := filepath.Join(os.TempDir(), "devenv-standin-jars-"+strconv.Itoa(os.Getuid()))
	p := filepath.Join(dir, hex.EncodeToString(sum[:])+".jar")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, "*.tmp")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone after the rename; this removes a failed write
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return p, os.Rename(tmp.Name(), p)
}
