package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCloudCLIScripts reads the cluster and job commands of the clouds'
// CLIs (aws emr create-cluster, gcloud dataproc clusters create, jobs
// submit and batches submit) in job scripts: real files of the corpus and
// short cases.
func TestCloudCLIScripts(t *testing.T) {
	corpus := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	real := func(name string) string { // a real file outside the corpus
		data, err := os.ReadFile(filepath.Join("testdata", "real", "scripts", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, tc := range []struct {
		name, script                               string
		platform, cloud, label, spark, scala, java string
		workers                                    int
		workerType, confKey, confVal               string
	}{
		{"gcloud clusters create, then jobs submit", corpus("benramo-ephemeral-job.sh"),
			"dataproc", "gcp", "2.0-debian10", "3.1.", "2.12", "8", 2, "n1-standard-2", "", ""},
		{"gcloud clusters create with variables", corpus("jingk-create-spark-streaming-etl-cluster.sh"),
			"dataproc", "gcp", "1.5", "2.4.", "2.12", "8", 2, "n1-standard-2", "", ""},
		{"gcloud jobs submit: properties and jars", corpus("jingk-submit-spark-job-visits.sh"),
			"dataproc", "gcp", "", "2.4.7", "2.12", "", 0, "", "spark.jars.packages", "org.apache.spark:spark-avro_2.12:2.4.7"},
		{"gcloud beta, one line, spark: properties", "gcloud beta dataproc clusters create c --image-version 1.5 --num-workers 3 " +
			"--worker-machine-type n2-standard-8 --properties spark:spark.executor.cores=4,spark:spark.sql.shuffle.partitions=64\n",
			"dataproc", "gcp", "1.5", "2.4.", "2.12", "8", 3, "n2-standard-8", "spark.sql.shuffle.partitions", "64"},
		{"aws emr create-cluster, instance groups JSON", corpus("audioval-spinup-cluster.sh"),
			"emr", "aws", "emr-6.8.0", "3.3.0", "2.12", "8", 3, "m4.large", "", ""},
		{"aws emr create-cluster, shorthand groups and configurations", "aws emr create-cluster --release-label emr-6.5.0 " +
			"--instance-groups InstanceGroupType=MASTER,InstanceCount=1,InstanceType=m5.xlarge InstanceGroupType=CORE,InstanceCount=4,InstanceType=r5.2xlarge " +
			"--configurations '[{\"Classification\":\"spark-defaults\",\"Properties\":{\"spark.sql.adaptive.enabled\":\"true\"}}]'\n",
			"emr", "aws", "emr-6.5.0", "3.1.2", "2.12", "8", 4, "r5.2xlarge", "spark.sql.adaptive.enabled", "true"},
		{"aws emr create-cluster, an EMR 5.x release", corpus("zhujun-create_cluster.sh"),
			"emr", "aws", "emr-5.29.0", "2.4.4", "2.11", "8", 2, "m5.xlarge", "", ""},
		{"aws emr create-cluster, an EMR 4.x release, CORE and TASK groups", corpus("oamtiler-launch-cluster.sh"),
			"emr", "aws", "emr-4.2.0", "1.5.2", "2.10", "", 10, "m3.xlarge", "", ""},
		{"aws emr create-cluster, a release label given to --ami-version, a step continued on the next line", corpus("mlintro-emr_spark_job_submit.sh"),
			"emr", "aws", "emr-5.6.0", "2.1.1", "2.11", "8", 1, "m4.large", "spark.submit.deployMode", "cluster"},
		{"gcloud clusters create, every value a variable the script does not set", corpus("sparkgcp-start-dist-gpu-cluster.sh"),
			"dataproc", "gcp", "", "", "", "", 0, "", "", ""},
		{"gcloud jobs submit, --properties repeated once per property", real("wdqs-munge-execute.sh"),
			"dataproc", "gcp", "", "", "", "", 0, "", "spark.executor.memory", "25G"},
		{"aws emr create-cluster in an assignment's $(...)", real("offlinees-create-cluster.sh"),
			"emr", "aws", "emr-5.21.0", "2.4.0", "2.11", "8", 0, "", "", ""},
		{"gcloud dataproc batches submit, flags before the type, --version", corpus("dscdc-dataproc-serverless.sh"),
			"dataproc", "gcp", "2.1", "3.4.", "2.13", "17", 0, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			format := detectBytes([]byte(tc.script))
			p, err := importBytes("job.sh", format, []byte(tc.script))
			if err != nil {
				t.Fatalf("format %q: %v", format, err)
			}
			p.factsOutsideConf() // as Import does after the reader
			r, tp := p.Runtime, p.Topology
			for _, c := range []struct{ what, got, want string }{
				{"platform", p.Source.Platform, tc.platform}, {"cloud", p.Source.Cloud, tc.cloud},
				{"label", r.Label, tc.label}, {"scala", r.Scala, tc.scala}, {"java", r.Java, tc.java},
				{"worker type", tp.WorkerType, tc.workerType},
			} {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q (warnings %q)", c.what, c.got, c.want, p.Warnings)
				}
			}
			if !factMatches(tc.spark+map[bool]string{true: "x", false: ""}[len(tc.spark) > 0 && tc.spark[len(tc.spark)-1] == '.'], r.Spark) {
				t.Errorf("spark = %q (%s), want %q", r.Spark, r.SparkProvenance, tc.spark)
			}
			if tp.Workers != tc.workers {
				t.Errorf("workers = %d (%s), want %d", tp.Workers, tp.WorkersProvenance, tc.workers)
			}
			if tc.confKey != "" && p.Conf[tc.confKey] != tc.confVal {
				t.Errorf("conf %s = %q, want %q", tc.confKey, p.Conf[tc.confKey], tc.confVal)
			}
		})
	}
}

// TestDBXDeployment reads dbx deployment files: environments whose jobs
// (or workflows) hold Databricks job specs.
func TestDBXDeployment(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	const yamlDeployment = "environments:\n  default:\n    workflows:\n      - name: etl\n        job_clusters:\n" +
		"          - job_cluster_key: basic\n            new_cluster:\n              spark_version: 12.2.x-scala2.12\n" +
		"              node_type_id: Standard_E8ds_v4\n              num_workers: 3\n"
	for _, tc := range []struct {
		name         string
		data         []byte
		label, cloud string
		workers      int
		workerType   string
	}{
		{"JSON, jobs[].new_cluster", read("dbx-gcp-example.json"), "7.3.x-cpu-ml-scala2.12", "gcp", 2, "n1-highmem-4"},
		{"JSON, jobs[].job_clusters", read("dbx-06-json-jobs-api-2.1-example.json"), "9.1.x-cpu-ml-scala2.12", "", 1, ""}, // node_type_id is a {placeholder},
		{"YAML, environments.*.workflows", []byte(yamlDeployment), "12.2.x-scala2.12", "azure", 3, "Standard_E8ds_v4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			format := detectBytes(tc.data)
			if format != FormatDatabricks {
				t.Fatalf("detected %q, want %q", format, FormatDatabricks)
			}
			p, err := importBytes("deployment.json", format, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			p.factsOutsideConf()
			if p.Runtime.Label != tc.label || p.Topology.Workers != tc.workers || p.Topology.WorkerType != tc.workerType || p.Source.Cloud != tc.cloud {
				t.Errorf("label %q workers %d type %q cloud %q, want %q %d %q %q (warnings %q)", p.Runtime.Label, p.Topology.Workers,
					p.Topology.WorkerType, p.Source.Cloud, tc.label, tc.workers, tc.workerType, tc.cloud, p.Warnings)
			}
		})
	}
}

// TestSubmitApplicationJarAndEKSMaster: the application jar of a
// spark-submit line names Spark and Scala when it is one of Spark's own
// modules (spark-examples_2.12-3.0.0.jar), and a k8s:// master on a managed
// service's API host names the cloud (EKS: *.eks.amazonaws.com).
func TestSubmitApplicationJarAndEKSMaster(t *testing.T) {
	for _, tc := range []struct {
		name, file, cloud, spark, scala string
	}{
		{"EKS, Spark's examples jar", filepath.Join("testdata", "corpus", "train", "eksb-spark-wordcount-shell.sh"), "aws", "3.0.0", "2.12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ImportContext(t.Context(), tc.file, Options{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			r := p.Runtime
			if p.Source.Cloud != tc.cloud || r.Spark != tc.spark || r.Scala != tc.scala {
				t.Errorf("cloud %q spark %q (%s) scala %q (%s), want %q %q %q", p.Source.Cloud, r.Spark, r.SparkProvenance,
					r.Scala, r.ScalaProvenance, tc.cloud, tc.spark, tc.scala)
			}
		})
	}
}

// TestUIDisplayConfsAreKept: what the driver's console and UI show and
// retain behaves the same on any machine and is kept; the UI's port, proxy
// and filters are prod's network and are dropped.
func TestUIDisplayConfsAreKept(t *testing.T) {
	p := newProfile("spark-defaults.conf", FormatSparkDefaults)
	for k, v := range map[string]string{"spark.ui.showConsoleProgress": "false", "spark.ui.retainedJobs": "200",
		"spark.ui.timeline.tasks.maximum": "500", "spark.ui.port": "4050", "spark.ui.proxyRedirectUri": "/", "spark.ui.filters": "a.B"} {
		p.addConf(k, v, "test")
	}
	l := localFor(p)
	for _, k := range []string{"spark.ui.showConsoleProgress", "spark.ui.retainedJobs", "spark.ui.timeline.tasks.maximum"} {
		if l.Conf[k] != p.Conf[k] {
			t.Errorf("%s = %q locally (dropped: %q), want prod's %q kept", k, l.Conf[k], l.Dropped[k], p.Conf[k])
		}
	}
	for _, k := range []string{"spark.ui.port", "spark.ui.proxyRedirectUri", "spark.ui.filters"} {
		if _, ok := l.Conf[k]; ok {
			t.Errorf("%s reaches the local conf, want it dropped", k)
		}
	}
}

// TestDataprocClusterShape: how many workers a gcloud dataproc clusters
// create makes, on real training files: --single-node is one node of the
// master's type and no workers (a known 0, not an unknown); no
// --num-workers is Dataproc's default of 2 primary workers; a gcloud
// global flag before the group (--verbosity=info) still reads as gcloud
// dataproc.
func TestDataprocClusterShape(t *testing.T) {
	for _, tc := range []struct {
		file       string
		single     bool
		workers    int
		workerType string
		platform   string
	}{
		{"splab-b7-create_node.sh", true, 0, "n1-standard-8", "dataproc"},
		{"rapdp-b7-create-cluster.sh", false, 2, "n1-standard-32", "dataproc"},
		{"discount-b7-submit-gcloud.sh.template", false, 0, "", "dataproc"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			p, err := importBytes(tc.file, detectBytes(data), data)
			if err != nil {
				t.Fatal(err)
			}
			tp := p.Topology
			if tp.SingleNode != tc.single || tp.Workers != tc.workers || tp.WorkerType != tc.workerType || p.Source.Platform != tc.platform {
				t.Errorf("single node %v, %d workers (%s) of %q on %q; want %v, %d of %q on %q",
					tp.SingleNode, tp.Workers, tp.WorkersProvenance, tp.WorkerType, p.Source.Platform, tc.single, tc.workers, tc.workerType, tc.platform)
			}
		})
	}
}

// TestDataprocWorkflowTemplates: the cluster of a workflow template as
// gcloud builds it (set-managed-cluster takes clusters create's flags) and
// as a published template holds it (jobs written as one mapping, custom
// machine types whose names state their vCPUs and memory), on real files
// outside the corpus, added after batch 7's held-out check found both.
func TestDataprocWorkflowTemplates(t *testing.T) {
	for _, tc := range []struct {
		file, label, workerType string
		workers, vcpus          int
		memMB                   int64
	}{
		{"scripts/josimar-workflow_template.sh", "1.3", "n1-standard-2", 2, 2, 7680},
		{"dataproc/cloud-dataproc-cfg-1.yaml", "1.2.37", "custom-32-51200", 10, 32, 51200},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "real", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			p, err := importBytes(filepath.Base(tc.file), detectBytes(data), data)
			if err != nil {
				t.Fatal(err)
			}
			p.finish()
			tp := p.Topology
			if p.Source.Platform != "dataproc" || p.Runtime.Label != tc.label || tp.Workers != tc.workers || tp.WorkerType != tc.workerType ||
				tp.WorkerVCPUs != tc.vcpus || tp.WorkerMemoryMB != tc.memMB {
				t.Errorf("%s image %q, %d workers of %q (%d vCPUs, %d MB); want dataproc %q, %d of %q (%d, %d)\nwarnings %q",
					p.Source.Platform, p.Runtime.Label, tp.Workers, tp.WorkerType, tp.WorkerVCPUs, tp.WorkerMemoryMB,
					tc.label, tc.workers, tc.workerType, tc.vcpus, tc.memMB, p.Warnings)
			}
		})
	}
}

// TestSingleNodeGPUs: on a single-node Dataproc cluster the master runs
// the executors, so its accelerators are the executors' GPUs; beside
// workers, a master's GPUs are not (rapdp-b7, a real training script,
// has both).
func TestSingleNodeGPUs(t *testing.T) {
	rapdp, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", "rapdp-b7-create-cluster.sh"))
	if err != nil {
		t.Fatal(err)
	}
	single := "gcloud dataproc clusters create one --region=europe-west1 --single-node --master-machine-type=n1-highmem-32 " +
		"--master-accelerator type=nvidia-tesla-t4,count=2 --image-version=2.0-debian10\n"
	describe := "clusterName: one\nconfig:\n  masterConfig:\n    machineTypeUri: n1-highmem-32\n    accelerators:\n" +
		"    - acceleratorCount: 2\n      acceleratorTypeUri: nvidia-tesla-t4\n  softwareConfig:\n    imageVersion: 2.0.49-debian10\n" +
		"    properties:\n      dataproc:dataproc.allow.zero.workers: 'true'\n"
	withWorkers := strings.Replace(single, "--single-node", "--num-workers=2 --worker-machine-type=n1-standard-4", 1)
	for _, tc := range []struct {
		name, file, data string
		single           bool
		perNode          int
		src              string
	}{
		{"gcloud --single-node", "create.sh", single, true, 2, "--master-accelerator (the single node)"},
		{"describe with zero workers allowed", "cluster.yaml", describe, true, 2, "masterConfig.accelerators (the single node)"},
		{"workers beside a master's GPUs", "create.sh", withWorkers, false, 0, ""},
		{"no count: gcloud's default of one", "create.sh", strings.Replace(single, ",count=2", "", 1), true, 1, "--master-accelerator"},
		{"rapdp: master and worker GPUs", "rapdp-b7-create-cluster.sh", string(rapdp), false, 4, "--worker-accelerator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes(tc.file, detectBytes([]byte(tc.data)), []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if p.Topology.SingleNode != tc.single || p.GPU.PerNode != tc.perNode || !strings.Contains(p.GPU.PerNodeProvenance, tc.src) {
				t.Errorf("single node %v, %d GPUs per node (%s); want %v, %d from %q", p.Topology.SingleNode, p.GPU.PerNode, p.GPU.PerNodeProvenance, tc.single, tc.perNode, tc.src)
			}
			if tc.perNode > 0 && p.GPU.Model != "T4" {
				t.Errorf("GPU model %q, want T4", p.GPU.Model)
			}
		})
	}
}

// TestGPUNodesOfUnknownCount: prod runs on GPU nodes when a GPU runtime or
// an accelerator says so, even when nothing says how many GPUs each has: a
// real training script whose accelerator count is a variable (sparkgcp),
// and a GPU ML runtime on a node type given as a bundle variable (as
// genesis-workbench's jobs give it). A CPU runtime on such a node type
// says nothing.
func TestGPUNodesOfUnknownCount(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", "sparkgcp-start-dist-gpu-cluster.sh"))
	if err != nil {
		t.Fatal(err)
	}
	job := `{"name": "fold", "job_clusters": [{"job_cluster_key": "c", "new_cluster": {"spark_version": "15.4.x-gpu-ml-scala2.12", ` +
		`"node_type_id": "${var.t4_node_type}", "num_workers": 0}}], "tasks": [{"task_key": "t", "job_cluster_key": "c", "notebook_task": {"notebook_path": "/x"}}]}`
	cpu := strings.Replace(job, "gpu-ml-", "", 1)
	for _, tc := range []struct {
		name, file, data string
		want             bool
		src              string
	}{
		{"accelerator count a variable", "start.sh", string(script), true, "--preemptible-worker-accelerator (count $WORKER_ACCELERATOR_COUNT)"},
		{"GPU runtime, node type a variable", "job.json", job, true, "15.4.x-gpu-ml-scala2.12 (a GPU runtime)"},
		{"CPU runtime, node type a variable", "job.json", cpu, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes(tc.file, detectBytes([]byte(tc.data)), []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if p.RunsOnGPUs() != tc.want || !strings.Contains(p.GPU.OnGPUNodes, tc.src) {
				t.Errorf("runs on GPUs %v (%q); want %v from %q", p.RunsOnGPUs(), p.GPU.OnGPUNodes, tc.want, tc.src)
			}
			if tc.want && !strings.Contains(p.GPUSummary(), "GPU nodes") {
				t.Errorf("summary %q does not say prod runs on GPU nodes", p.GPUSummary())
			}
		})
	}
}

// TestDataprocRepeatedKeys: a real cluster describe that writes keys
// twice (jupyterhub-dataprocspawner's basic_uri.yaml, not the held-out
// basic.yaml) reads with each key's last value, and says so.
func TestDataprocRepeatedKeys(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "dataproc", "jhdps-basic_uri.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := importBytes("basic_uri.yaml", detectBytes(data), data)
	if err != nil {
		t.Fatal(err)
	}
	warnings := strings.Join(p.Warnings, "\n")
	if p.Source.Platform != "dataproc" || p.Topology.Workers != 7 || p.Topology.WorkerType != "n1-highmem-16" ||
		!strings.Contains(warnings, "line 14: machineTypeUri is set again at line 23") {
		t.Errorf("%s, %d workers of %q, warnings %q; want dataproc, 7 of n1-highmem-16 and the repeated key named", p.Source.Platform, p.Topology.Workers, p.Topology.WorkerType, warnings)
	}
}
