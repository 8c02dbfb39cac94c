package mirror

import (
	"context"
	"fmt"
	"github.com/devenv-dev/devenv/internal/safefile"
	"os"
	"strconv"
	"strings"
)

// Format names accepted by Options.Format.
const (
	FormatDatabricks        = "databricks"         // clusters get/create JSON, jobs JSON with new_cluster
	FormatEMR               = "emr"                // aws emr describe-cluster JSON, EMR steps (add-steps --steps file, RunJobFlow), EMR on EKS / Serverless StartJobRun JSON
	FormatEMRConfigurations = "emr-configurations" // EMR Configurations JSON
	FormatDataproc          = "dataproc"           // gcloud dataproc clusters describe (YAML/JSON), GCE or GKE; clusters.create requests, jobs, batches, workflow templates
	FormatSparkOperator     = "spark-operator"     // SparkApplication v1beta2 YAML
	FormatSparkDefaults     = "spark-defaults"     // spark-defaults.conf
	FormatSparkSubmit       = "spark-submit"       // a spark-submit command line in a file
	FormatEventLog          = "eventlog"           // Spark event log: file (plain or compressed) or eventlog_v2_* directory
	FormatToolsCluster      = "tools-cluster"      // spark-rapids-tools worker_info / target-cluster / onprem YAML
)

// Formats lists every supported format, for messages and --help.
var Formats = []string{FormatDatabricks, FormatEMR, FormatEMRConfigurations, FormatDataproc,
	FormatSparkOperator, FormatSparkDefaults, FormatSparkSubmit, FormatEventLog, FormatToolsCluster}

// Options tune Import.
type Options struct {
	Format string // "" detects the format from the content
	Full   bool   // event logs: scan the whole log for executor and GPU facts
	// MaxWindowMB is the largest zstd window an event log may need (0:
	// DefaultMaxWindowMB, or DEVENV_MAX_WINDOW_MB when set).
	MaxWindowMB int

	ctx context.Context // set by ImportContext: event log reads stop when it is done
}

// maxDescriptionSize bounds cluster descriptions and conf files read whole.
const maxDescriptionSize = 64 << 20

// Import reads a production description at path and returns its profile.
func Import(path string, opts Options) (*Profile, error) {
	return ImportContext(context.Background(), path, opts)
}

// ImportContext is Import that stops reading an event log once ctx is done
// (Ctrl-C), with ctx's error.
func ImportContext(ctx context.Context, path string, opts Options) (*Profile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		_, err := safefile.Open(path) // refused without opening: says what it is
		return nil, fmt.Errorf("mirror: %w", err)
	}
	opts.ctx = ctx
	format := opts.Format
	if opts.MaxWindowMB == 0 {
		opts.MaxWindowMB, _ = strconv.Atoi(os.Getenv("DEVENV_MAX_WINDOW_MB"))
	}
	if format != "" && !knownFormat(format) {
		return nil, fmt.Errorf("mirror: unknown format %q: use one of %s", format, strings.Join(Formats, ", "))
	}
	if st.IsDir() || format == FormatEventLog {
		return importEventLog(path, opts)
	}
	if format == "" {
		if format, err = sniffFile(path); err != nil {
			return nil, err
		}
		if format == FormatEventLog {
			return importEventLog(path, opts)
		}
	}
	if st.Size() > maxDescriptionSize {
		return nil, fmt.Errorf("mirror: %s is %d MB, too large for a %s description (limit %d MB); is it an event log? then pass --format eventlog",
			path, st.Size()>>20, format, maxDescriptionSize>>20)
	}
	data, err := safefile.ReadFile(path, maxDescriptionSize)
	if err != nil {
		return nil, fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	data, template := fillTemplate(data)
	p, err := importBytes(path, format, data)
	if err != nil {
		return nil, err
	}
	if template != "" {
		p.warn(template)
	}
	p.deriveFromConf()
	p.finish()
	return p, nil
}

func knownFormat(f string) bool {
	for _, k := range Formats {
		if k == f {
			return true
		}
	}
	return false
}

// importBytes parses a whole-file format.
func importBytes(path, format string, data []byte) (*Profile, error) {
	switch format {
	case FormatDatabricks:
		return importDatabricks(path, data)
	case FormatEMR, FormatEMRConfigurations:
		return importEMR(path, format, data)
	case FormatDataproc:
		return importDataproc(path, data)
	case FormatSparkOperator:
		return importSparkOperator(path, data)
	case FormatSparkDefaults:
		return importSparkDefaults(path, data)
	case FormatSparkSubmit:
		return importSparkSubmit(path, data)
	case FormatToolsCluster:
		return importToolsCluster(path, data)
	}
	return nil, fmt.Errorf("mirror: format %q cannot be read from bytes", format)
}

// unsupported is the error for content no importer recognizes.
func unsupported(path, why string) error {
	return fmt.Errorf("mirror: %s: %s; supported: Databricks cluster/job JSON, EMR describe-cluster, Configurations or steps JSON, a CloudFormation AWS::EMR::Cluster, "+
		"Dataproc clusters, batches, jobs and workflow templates YAML/JSON, Spark Operator YAML (SparkApplication, ScheduledSparkApplication, SparkConnect; the Apache operator's SparkApplication and SparkCluster; Stackable's SparkApplication), spark-defaults.conf, a spark-submit command line, "+
		"Spark event logs (plain, zstd, lz4, snappy, gzip, or an eventlog_v2_* directory), spark-rapids-tools worker/target cluster YAML; "+
		"force one with --format (%s)", path, why, strings.Join(Formats, ", "))
}
