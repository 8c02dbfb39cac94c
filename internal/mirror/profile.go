// Package mirror imports descriptions of production Spark clusters (Databricks,
// EMR, Dataproc, Spark Operator, spark-defaults.conf, spark-submit command lines
// and Spark event logs) into one normalized Profile, makes that profile fit the
// local host (Localize) and reports what still differs (Diff).
//
// Every fact in a Profile carries its provenance in a sibling field, so a user
// can tell a version read from an event log from one looked up in a table.
// Secrets are never stored: their keys are listed in Redacted only.
package mirror

import (
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/redact"
)

// Profile is one production cluster (or one job run), normalized.
type Profile struct {
	Source   Source   `json:"source"`
	Runtime  Runtime  `json:"runtime"`
	GPU      GPU      `json:"gpu"`
	Topology Topology `json:"topology"`
	// Conf holds Spark confs (key -> value), secrets excluded.
	Conf map[string]string `json:"conf"`
	// ConfProvenance says where each Conf key came from.
	ConfProvenance map[string]string `json:"conf_provenance"`
	// Env holds environment variables set for Spark (spark_env_vars, spark-env).
	Env map[string]string `json:"env,omitempty"`
	// Dropped holds keys the importer read but did not keep, with the reason.
	Dropped map[string]string `json:"dropped"`
	// Redacted lists keys whose values were secrets; the values are not kept.
	Redacted []string `json:"redacted"`
	Warnings []string `json:"warnings"`
	// Conflicts are facts two sources disagree on: the value kept (by the
	// precedence order: declared, then inferred from a name, then a
	// platform default) and the other, each with its source.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Portability is what of Conf reaches the local Spark and why not
	// (the rule Localize applies), filled when the import finishes.
	Portability *Portability `json:"portability,omitempty"`
	// ResourceProfiles are the resource profiles an event log reports,
	// each with how many executors ran under it; Used marks the one the
	// executor shape was read from.
	ResourceProfiles []ResourceProfile `json:"resource_profiles,omitempty"`
	// Packages are the Maven artifacts prod fetched or loaded by
	// coordinates (--packages, spark.jars.packages, Maven URLs in
	// spark.jars, Databricks maven libraries); PackageExcludes are
	// spark.jars.excludes ("group:artifact").
	Packages        []Package `json:"packages,omitempty"`
	PackageExcludes []string  `json:"package_excludes,omitempty"`
	// libraries are Maven coordinates named outside the confs (Databricks
	// job libraries), with where, for collectPackages.
	libraries map[string]string
	// files are the job's own paths outside the confs (the application
	// and its arguments), for cloudFromStorage.
	files []string
	// podSparkLabel are the version labels of a SparkApplication's pods,
	// with where: sparkFromPodLabels reads them last.
	podSparkLabel [][2]string
	// sparkIsLine: Runtime.Spark came from a line ("3.2" made 3.2.0), which
	// a release of it named elsewhere refines (refineSparkLine).
	sparkIsLine bool
	// ranks remember the precedence rank of the source that set each
	// version fact (precedence.go).
	ranks map[string]rankedProv
	// Failures is what went wrong in prod (event logs read whole: failed
	// jobs, stages and tasks, executors lost, operators left on the CPU).
	Failures []Failure `json:"failures,omitempty"`
}

// Conflict is a fact two sources disagree on.
type Conflict struct {
	Fact        string `json:"fact"` // spark | scala | java | python
	Value       string `json:"value"`
	Source      string `json:"source"`
	Other       string `json:"other"`
	OtherSource string `json:"other_source"`
}

// Source says what was imported.
type Source struct {
	Path     string `json:"path"`
	Format   string `json:"format"`
	Platform string `json:"platform,omitempty"` // databricks | emr | dataproc | dataproc-gke | kubernetes | yarn | standalone | local
	Cloud    string `json:"cloud,omitempty"`    // aws | azure | gcp
}

// Runtime holds the software versions. Empty means unknown.
type Runtime struct {
	Label            string `json:"label,omitempty"` // platform label verbatim: "13.3.x-gpu-ml-scala2.12", "emr-6.8.0"
	LabelProvenance  string `json:"label_provenance,omitempty"`
	Spark            string `json:"spark,omitempty"` // nearest Apache release, "3.3.0"
	SparkProvenance  string `json:"spark_provenance,omitempty"`
	SparkBuild       string `json:"spark_build,omitempty"` // vendor build string when it differs, "3.3.0-amzn-0"
	Scala            string `json:"scala,omitempty"`       // binary version "2.12"
	ScalaFull        string `json:"scala_full,omitempty"`  // "2.12.15"
	ScalaProvenance  string `json:"scala_provenance,omitempty"`
	Java             string `json:"java,omitempty"`      // major "8", "11", "17"
	JavaFull         string `json:"java_full,omitempty"` // "1.8.0_382"
	JavaVendor       string `json:"java_vendor,omitempty"`
	JavaProvenance   string `json:"java_provenance,omitempty"`
	Python           string `json:"python,omitempty"` // "3.10" or "3"
	PythonProvenance string `json:"python_provenance,omitempty"`
	Engine           string `json:"engine,omitempty"` // standard | photon
}

// GPU holds what is known about GPUs and the RAPIDS Accelerator.
type GPU struct {
	Rapids                 string  `json:"rapids,omitempty"` // RAPIDS Accelerator version, "24.10.0"
	RapidsProvenance       string  `json:"rapids_provenance,omitempty"`
	RapidsEnabled          bool    `json:"rapids_enabled"`
	RapidsJar              string  `json:"rapids_jar,omitempty"`
	Cudf                   string  `json:"cudf,omitempty"`
	CUDA                   string  `json:"cuda,omitempty"`
	CUDAProvenance         string  `json:"cuda_provenance,omitempty"`
	Model                  string  `json:"model,omitempty"` // T4, A10G, ...
	ModelProvenance        string  `json:"model_provenance,omitempty"`
	PerNode                int     `json:"per_node,omitempty"`
	PerNodeProvenance      string  `json:"per_node_provenance,omitempty"`
	ExecutorGPUs           float64 `json:"executor_gpus,omitempty"`
	ExecutorGPUsProvenance string  `json:"executor_gpus_provenance,omitempty"`
	TaskGPU                float64 `json:"task_gpu,omitempty"`
	TaskGPUProvenance      string  `json:"task_gpu_provenance,omitempty"`
	MemoryMB               int64   `json:"memory_mb,omitempty"`        // per GPU, from the instance catalog
	AcceleratorType        string  `json:"accelerator_type,omitempty"` // GCP accelerator type, "nvidia-tesla-t4"
	// OnGPUNodes says what states that prod runs on GPU nodes without
	// saying how many GPUs each has (a GPU runtime, whose node type may be
	// a variable; an accelerator whose count is one); "" when nothing does.
	OnGPUNodes string `json:"on_gpu_nodes,omitempty"`
}

// Topology holds the cluster's shape.
type Topology struct {
	Workers           int    `json:"workers,omitempty"`
	WorkersMax        int    `json:"workers_max,omitempty"` // autoscaling upper bound
	WorkersProvenance string `json:"workers_provenance,omitempty"`
	// SingleNode: the cluster is one node that runs the driver and the
	// executors (no workers: Dataproc --single-node, a Databricks
	// num_workers 0); WorkerType is that node's type.
	SingleNode                 bool   `json:"single_node,omitempty"`
	WorkerType                 string `json:"worker_type,omitempty"`
	DriverType                 string `json:"driver_type,omitempty"`
	WorkerVCPUs                int    `json:"worker_vcpus,omitempty"`     // from the instance catalog
	WorkerMemoryMB             int64  `json:"worker_memory_mb,omitempty"` // from the instance catalog
	WorkerHardwareProvenance   string `json:"worker_hardware_provenance,omitempty"`
	Executors                  int    `json:"executors,omitempty"`
	ExecutorsProvenance        string `json:"executors_provenance,omitempty"`
	ExecutorCores              int    `json:"executor_cores,omitempty"`
	ExecutorCoresProvenance    string `json:"executor_cores_provenance,omitempty"`
	ExecutorMemoryMB           int64  `json:"executor_memory_mb,omitempty"`
	ExecutorMemoryMBProvenance string `json:"executor_memory_mb_provenance,omitempty"`
	Hosts                      int    `json:"hosts,omitempty"` // distinct executor hosts seen in an event log
}

func newProfile(path, format string) *Profile {
	return &Profile{
		Source:         Source{Path: path, Format: format},
		Conf:           map[string]string{},
		ConfProvenance: map[string]string{},
		Dropped:        map[string]string{},
		Redacted:       []string{},
		Warnings:       []string{},
	}
}

// warnf records a warning once.
func (p *Profile) warn(msg string) {
	msg = redact.String(msg) // warnings quote values
	for _, w := range p.Warnings {
		if w == msg {
			return
		}
	}
	p.Warnings = append(p.Warnings, msg)
}

// setStr sets *dst and *prov to v and src when v is not empty and either *dst
// is empty or override is true.
func setStr(dst, prov *string, v, src string, override bool) {
	if v == "" || (*dst != "" && !override) {
		return
	}
	*dst, *prov = v, src
}

func setInt(dst *int, prov *string, v int, src string, override bool) {
	if v <= 0 || (*dst != 0 && !override) {
		return
	}
	*dst, *prov = v, src
}

// setSingleNode records a cluster of one node of type nodeType (when
// known), which src states.
func (p *Profile) setSingleNode(nodeType, src string) {
	p.Topology.Workers, p.Topology.WorkersMax, p.Topology.WorkersProvenance, p.Topology.SingleNode = 0, 0, src, true
	if nodeType != "" && !strings.Contains(nodeType, "$") {
		p.Topology.WorkerType = nodeType
	}
}

func setFloat(dst *float64, prov *string, v float64, src string, override bool) {
	if v <= 0 || (*dst != 0 && !override) {
		return
	}
	*dst, *prov = v, src
}

// finish sorts lists so output is deterministic.
func (p *Profile) finish() {
	sort.Strings(p.Redacted)
	p.Redacted = dedupSorted(p.Redacted)
	p.applyCatalog()
	p.collectPackages()
	pt := p.Portable()
	for _, w := range pt.placeholderWarnings() {
		p.warn(w)
	}
	p.Portability = &pt
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
