package mirror

import (
	"fmt"
	"strings"
)

// The class rule: a prod conf that names a class (a plugin, a shuffle
// manager, a serializer, SQL extensions, a catalog, a listener) reaches
// the local spark-defaults only when the local image has that class: the
// Spark distribution's own, the RAPIDS Accelerator jar's (its shuffle
// manager is rewritten to the local Spark's shim), or a jar of the
// packages devenv locks and bakes (prod's --packages, spark.jars.packages,
// Maven libraries). Any other class would stop Spark at start-up with
// ClassNotFoundException, so it is dropped with the reason; in a list
// (spark.plugins, spark.sql.extensions) only the missing classes go.

// classListKeys hold comma-separated class names.
var classListKeys = map[string]bool{
	"spark.plugins": true, "spark.sql.extensions": true, "spark.kryo.registrator": true,
	"spark.sql.queryExecutionListeners": true, "spark.sql.streaming.streamingQueryListeners": true,
}

// classKeys hold one class name.
var classKeys = map[string]bool{
	"spark.shuffle.manager": true, "spark.serializer": true, "spark.sql.cache.serializer": true,
	"spark.sql.sources.commitProtocolClass": true, "spark.sql.parquet.output.committer.class": true,
}

// namesClasses reports whether key's value is a class name (or a list).
func namesClasses(key string) bool {
	if classListKeys[key] || classKeys[key] {
		return true
	}
	// spark.sql.catalog.NAME is a catalog's class; its options are not
	if name, ok := strings.CutPrefix(key, "spark.sql.catalog."); ok {
		return !strings.Contains(name, ".") || strings.HasSuffix(key, ".catalog-impl") || strings.HasSuffix(key, ".io-impl")
	}
	return false
}

// classSource is a family of classes and what ships it.
type classSource struct {
	prefix string // class name prefix
	what   string // who ships it
	// groups: Maven groups (and artifact prefixes, "group:artifact-") whose
	// locked jars provide it; none: the local image never has it
	groups []string
}

// thirdParty are classes outside the Spark distribution, including those
// that live in Spark's own package but ship in other jars. The first
// match decides.
var thirdParty = []classSource{
	{"org.apache.spark.shuffle.sort.ColumnarShuffleManager", "Gluten (a native engine devenv's image does not have)", nil},
	{"org.apache.spark.shuffle.gluten.", "Gluten (a native engine devenv's image does not have)", nil},
	{"org.apache.gluten.", "Gluten (a native engine devenv's image does not have)", nil},
	{"io.glutenproject.", "Gluten (a native engine devenv's image does not have)", nil},
	{"com.intel.oap.", "Gazelle/Gluten (a native engine devenv's image does not have)", nil},
	{"org.apache.spark.sql.delta.", "Delta Lake", []string{"io.delta:delta-"}},
	{"io.delta.", "Delta Lake", []string{"io.delta:delta-"}},
	// Iceberg's cloud modules are jars apart from its Spark runtime:
	// S3FileIO and the Glue catalog ship in iceberg-aws (or its bundle)
	{"org.apache.iceberg.aws.", "Apache Iceberg's AWS module", []string{"org.apache.iceberg:iceberg-aws"}},
	{"org.apache.iceberg.gcp.", "Apache Iceberg's GCP module", []string{"org.apache.iceberg:iceberg-gcp"}},
	{"org.apache.iceberg.azure.", "Apache Iceberg's Azure module", []string{"org.apache.iceberg:iceberg-azure"}},
	{"org.apache.iceberg.", "Apache Iceberg", []string{"org.apache.iceberg:iceberg-"}},
	{"org.apache.spark.sql.hudi.", "Apache Hudi", []string{"org.apache.hudi:hudi-"}},
	{"org.apache.hudi.", "Apache Hudi", []string{"org.apache.hudi:hudi-"}},
	// a remote shuffle service's manager needs the service's masters and
	// workers, which the local stack does not run: its client jar alone
	// (a package devenv locks) would fail at the first shuffle
	{"org.apache.spark.shuffle.celeborn.", "Apache Celeborn's client, which needs a Celeborn cluster the local stack does not run", nil},
	{"org.apache.spark.shuffle.RssShuffleManager", "Apache Uniffle's client, which needs a Uniffle cluster the local stack does not run", nil},
	{"org.apache.uniffle.", "Apache Uniffle's client, which needs a Uniffle cluster the local stack does not run", nil},
	{"org.apache.celeborn.", "Apache Celeborn", []string{"org.apache.celeborn:"}},
	{"org.apache.comet.", "DataFusion Comet", []string{"org.apache.datafusion:comet-"}},
	{"org.apache.spark.CometPlugin", "DataFusion Comet", []string{"org.apache.datafusion:comet-"}},
	{"org.apache.spark.sql.comet.", "DataFusion Comet", []string{"org.apache.datafusion:comet-"}},
	{"org.apache.spark.sql.kafka010.", "Spark's Kafka connector", []string{"org.apache.spark:spark-sql-kafka-"}},
	{"org.apache.spark.sql.avro.", "Spark's Avro module", []string{"org.apache.spark:spark-avro_"}},
}

// localClass says whether the local image has class cls, and if not why.
func (p *Profile) localClass(cls string) (bool, string) {
	cls = strings.TrimSpace(cls)
	for _, src := range thirdParty {
		if !strings.HasPrefix(cls, src.prefix) {
			continue
		}
		if p.lockedFrom(src.groups) {
			return true, ""
		}
		if src.groups == nil && strings.Contains(src.what, "needs a") {
			return false, fmt.Sprintf("names %s, %s: the local Spark shuffles with its own sort shuffle", cls, src.what)
		}
		if src.groups == nil {
			return false, fmt.Sprintf("names %s, a class of %s: Spark would stop at start-up with ClassNotFoundException", cls, src.what)
		}
		return false, fmt.Sprintf("names %s, a class of %s, whose jar prod does not name as a package devenv could lock (add it to devenv.yaml jars: if the job needs it)", cls, src.what)
	}
	switch {
	case strings.HasPrefix(cls, "com.nvidia.spark."):
		return true, "" // the RAPIDS Accelerator jar (the shuffle manager's shim is rewritten)
	case strings.HasPrefix(cls, "org.apache.spark."), !strings.Contains(cls, "."):
		return true, "" // the Spark distribution, or a short name ("sort", "kryo")
	case strings.HasPrefix(cls, "com.databricks.") || strings.HasPrefix(cls, "databricks."):
		return false, "names " + cls + ", a class that exists only on Databricks"
	}
	group := cls
	if i := strings.LastIndex(cls, "."); i > 0 {
		group = cls[:i]
	}
	for _, pk := range p.Packages {
		if g, _, _ := strings.Cut(pk.Coords, ":"); g != "" && (strings.HasPrefix(group, g) || strings.HasPrefix(g, group)) {
			return true, ""
		}
	}
	return false, "names " + cls + ", which is neither Spark's, the RAPIDS Accelerator's nor in a package devenv locks from prod (add its jar to devenv.yaml jars: if the job needs it)"
}

// lockedFrom reports whether a package devenv locks from prod matches one
// of groups ("group:artifact-prefix" or "group:").
func (p *Profile) lockedFrom(groups []string) bool {
	for _, pk := range p.Packages {
		for _, g := range groups {
			if strings.HasPrefix(pk.Coords, g) {
				return true
			}
		}
	}
	return false
}

// localClasses splits the classes key names into those the local image
// has (kept, comma-joined as prod wrote them) and the reasons for the
// others. ok is false when the key names no class.
func (p *Profile) localClasses(key, value string) (kept string, missing []string, ok bool) {
	if key == "spark.sql.sources.default" {
		return p.localSource(value)
	}
	if !namesClasses(key) {
		return value, nil, false
	}
	if !classListKeys[key] {
		if has, why := p.localClass(value); !has {
			return "", []string{why}, true
		}
		return value, nil, true
	}
	var keep []string
	for _, c := range strings.Split(value, ",") {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if has, why := p.localClass(c); has {
			keep = append(keep, strings.TrimSpace(c))
		} else {
			missing = append(missing, why)
		}
	}
	return strings.Join(keep, ","), missing, true
}

// sourceFormats are the short names of data sources outside the Spark
// distribution that spark.sql.sources.default takes, each by the class of
// the jar that registers the name.
var sourceFormats = map[string]string{
	"delta":   "org.apache.spark.sql.delta.sources.DeltaDataSource",
	"iceberg": "org.apache.iceberg.spark.source.IcebergSource",
	"hudi":    "org.apache.hudi.Spark3DefaultSource",
	"avro":    "org.apache.spark.sql.avro.AvroFileFormat",
}

// localSource is localClasses for the default data source: a format whose
// jar the local image lacks would fail every read and write that names no
// format, so it goes with the reason.
func (p *Profile) localSource(format string) (kept string, missing []string, ok bool) {
	cls, known := sourceFormats[strings.ToLower(strings.TrimSpace(format))]
	if !known {
		return format, nil, false
	}
	if has, why := p.localClass(cls); !has {
		return "", []string{"the default data source " + format + " " + why}, true
	}
	return format, nil, true
}

const databricksOnlyReason = "Databricks-only setting: read by the Databricks runtime, not by open-source Delta Lake"
