package mirror

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Dataproc workflow templates and EMR steps files (issue 33, batch 3's
// held-out misses), on real public files (testdata/read/SOURCES.md); the
// facts were read by hand from each file before devenv ran on it.
func TestReadWorkflowsAndSteps(t *testing.T) {
	t.Parallel()
	for _, tc := range []readCase{
		// gcloud dataproc workflow-templates import accepts the proto's
		// snake_case names; the template names no image version
		{"workflow snake_case", "read/batch-gcs-bq-workflow.yaml", func(t *testing.T, p *Profile, _ Local) {
			eq(t, "format", p.Source.Format, FormatDataproc)
			eq(t, "platform", p.Source.Platform, "dataproc")
			eq(t, "cloud", p.Source.Cloud, "gcp")
			eq(t, "workers", p.Topology.Workers, 3)
			eq(t, "workers provenance", p.Topology.WorkersProvenance, "dataproc:workerConfig.numInstances")
			eq(t, "spark", p.Runtime.Spark, "")
			warned(t, p, "names no softwareConfig.imageVersion")
		}},
		// aws emr add-steps --steps file://: Type Spark, Args are
		// spark-submit's options (EMR runs spark-submit with them)
		{"steps Type Spark", "read/commoncrawl-emr_steps.json", func(t *testing.T, p *Profile, _ Local) {
			eq(t, "format", p.Source.Format, FormatEMR)
			eq(t, "platform", p.Source.Platform, "emr")
			eq(t, "cloud", p.Source.Cloud, "aws")
			eq(t, "executor cores", p.Topology.ExecutorCores, 15)
			eq(t, "deploy mode", p.Conf["spark.submit.deployMode"], "cluster")
			eq(t, "spark", p.Runtime.Spark, "")
			warned(t, p, "name no release label")
		}},
		// Type CUSTOM_JAR, Jar command-runner.jar, Args spark-submit ...
		{"steps command-runner", "read/spark_emr_dev-step.json", func(t *testing.T, p *Profile, _ Local) {
			eq(t, "format", p.Source.Format, FormatEMR)
			eq(t, "platform", p.Source.Platform, "emr")
			eq(t, "deploy mode", p.Conf["spark.submit.deployMode"], "cluster")
			eq(t, "deploy mode provenance", p.ConfProvenance["spark.submit.deployMode"], "emr:steps[0] (Sample AWS EMR Spark Job) spark-submit:--deploy-mode")
		}},
		// aws emr-serverless start-job-run: --job-driver's sparkSubmit
		// (not EMR on EKS's sparkSubmitJobDriver); the application,
		// not the job, has the release label
		{"emr-serverless start-job-run", "read/dw-prototyping-emr-job2.sh", func(t *testing.T, p *Profile, _ Local) {
			eq(t, "platform", p.Source.Platform, "emr-serverless")
			eq(t, "cloud", p.Source.Cloud, "aws")
			eq(t, "executor cores", p.Topology.ExecutorCores, 4)
			eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(3072))
			eq(t, "driver cores", p.Conf["spark.driver.cores"], "1")
			eq(t, "jars", p.Conf["spark.jars"], "s3://spark-sql-test-nov23rd/mysql-connector-j-8.2.0.jar")
			warned(t, p, "get-application")
		}},
		// a CreateClusterRequest's cluster (the Python client's request;
		// dataproc-mcp writes its clusters so): the cluster is under
		// "cluster", its config as a describe's (corpus batch 4, train)
		{"clusters.create request", "corpus/train/dpmcp-test-cluster.yaml", func(t *testing.T, p *Profile, _ Local) {
			eq(t, "format", p.Source.Format, FormatDataproc)
			eq(t, "platform", p.Source.Platform, "dataproc")
			eq(t, "label", p.Runtime.Label, "2.0-debian10")
			eq(t, "spark", p.Runtime.Spark, "3.1.3")
			eq(t, "workers", p.Topology.Workers, 2)
			eq(t, "worker type", p.Topology.WorkerType, "n1-standard-2")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", tc.path)
			if _, err := os.Stat(path); err != nil {
				t.Fatal(err)
			}
			p, err := Import(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tc.facts(t, p, localFor(p))
		})
	}
}

// The --steps shorthand of aws emr add-steps and create-cluster: one word
// a step, k=v pairs split at commas outside Args=[...].
func TestEMRStepsShorthand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		word string
		want map[string]string
		args []string
	}{
		{"Type=spark,Name=SparkifyEtl,Args=[--deploy-mode,cluster,--master,yarn,s3://b/etl.py],ActionOnFailure=CONTINUE",
			map[string]string{"Type": "spark", "Name": "SparkifyEtl", "ActionOnFailure": "CONTINUE"},
			[]string{"--deploy-mode", "cluster", "--master", "yarn", "s3://b/etl.py"}},
		{"Type=CUSTOM_JAR,Name=x,Jar=command-runner.jar,Args=[spark-submit,--conf,spark.a=1]",
			map[string]string{"Type": "CUSTOM_JAR", "Name": "x", "Jar": "command-runner.jar"},
			[]string{"spark-submit", "--conf", "spark.a=1"}},
		{"Name=nobrackets", map[string]string{"Name": "nobrackets"}, nil},
	} {
		m := emrShorthandStep(tc.word)
		for k, v := range tc.want {
			eq(t, tc.word+" "+k, str(m[k]), v)
		}
		var args []string
		for _, a := range asList(m["Args"]) {
			args = append(args, str(a))
		}
		if !slices.Equal(args, tc.args) {
			t.Errorf("%s: Args %q, want %q", tc.word, args, tc.args)
		}
	}
}

// aws emr add-steps in a script (corpus file udacity-add_emr_step.sh has
// one; this is the same command with the cluster's and bucket's names
// changed): the step's spark-submit options are read, the platform is
// EMR although spark.master is yarn.
func TestEMRAddStepsScript(t *testing.T) {
	t.Parallel()
	script := "aws emr add-steps \\\n--cluster-id j-XXXX \\\n--steps Type=spark,Name=Etl,Args=[--deploy-mode,cluster,--master,yarn,--conf,spark.sql.shuffle.partitions=64,s3://b/etl.py],ActionOnFailure=CONTINUE\n"
	p, err := importBytes("add.sh", detectBytes([]byte(script)), []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	p.finish()
	eq(t, "platform", p.Source.Platform, "emr")
	eq(t, "cloud", p.Source.Cloud, "aws")
	eq(t, "partitions", p.Conf["spark.sql.shuffle.partitions"], "64")
	eq(t, "provenance", p.ConfProvenance["spark.sql.shuffle.partitions"], "emr:steps[0] (Etl) spark-submit:--conf")
	warned(t, p, "name no release label")
}

// Held-out classes of batch 4, fixed after its one check, on other real
// files of the same repositories: a SparkApplication whose hadoopConf
// holds unquoted {{ placeholders }} (a template that is no YAML until
// filled), and a YAML file that is no cluster.
func TestTemplatesAndUnknownYAML(t *testing.T) {
	t.Parallel()
	p, err := Import(filepath.Join("testdata", "read", "s3-tpcds-datagen.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "format", p.Source.Format, FormatSparkOperator)
	eq(t, "spark", p.Runtime.Spark, "2.4.1")
	eq(t, "executors", p.Topology.Executors, 1)
	eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(2000))
	warned(t, p, "{{ endpoint }}")
	kept(t, localFor(p), "spark.network.timeout", "1200")

	_, err = Import(filepath.Join("testdata", "read", "docker-compose.qdrant.yml"), Options{})
	if err == nil {
		t.Fatal("a compose file was imported")
	}
	for _, want := range []string{"a YAML mapping", "services", "version"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
}

// The fields the real files above leave out, each in the shape its API
// documents: a template's job properties, accelerators, image and
// parameters; a RunJobFlow request's release label with its Steps; an
// EMR Serverless StartJobRun request.
func TestWorkflowAndStepsFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc, format, platform, label, spark string
		confs                                     map[string]string
		gpus                                      int
		warns                                     string
	}{
		{"workflow camelCase", `jobs:
- stepId: etl
  sparkJob:
    mainJarFileUri: gs://b/app.jar
    properties: {spark.executor.cores: "8", spark.sql.shuffle.partitions: "400"}
- stepId: report
  prerequisiteStepIds: [etl]
  pysparkJob:
    mainPythonFileUri: gs://b/r.py
    properties: {spark.sql.shuffle.partitions: "64"}
placement:
  managedCluster:
    clusterName: c
    config:
      softwareConfig: {imageVersion: "2.0-debian10", properties: {"spark:spark.executor.memory": 6g}}
      workerConfig:
        numInstances: 2
        machineTypeUri: n1-standard-8
        accelerators: [{acceleratorTypeUri: nvidia-tesla-t4, acceleratorCount: 1}]
parameters:
- name: OUT
  fields: ["jobs['report'].pysparkJob.args[0]"]
`, FormatDataproc, "dataproc", "2.0-debian10", "3.1.3",
			map[string]string{"spark.executor.cores": "8", "spark.sql.shuffle.partitions": "64", "spark.executor.memory": "6g"}, 1,
			"template parameters OUT"},
		{"workflow on a cluster selector", "jobs:\n- stepId: a\n  sparkJob: {mainClass: X}\nplacement:\n  clusterSelector: {clusterLabels: {env: prod}}\n",
			FormatDataproc, "dataproc", "", "", nil, 0, "placement.clusterSelector"},
		{"RunJobFlow request", `{"Name": "x", "ReleaseLabel": "emr-6.5.0", "Applications": [{"Name": "Spark"}],
 "Instances": {"InstanceGroups": [{"InstanceRole": "CORE", "InstanceGroupType": "CORE", "InstanceType": "m5.xlarge", "InstanceCount": 2}]},
 "Steps": [{"Name": "s", "ActionOnFailure": "CONTINUE", "HadoopJarStep": {"Jar": "command-runner.jar",
   "Args": ["spark-submit", "--num-executors", "4", "s3://b/a.py"]}},
  {"Name": "copy", "HadoopJarStep": {"Jar": "command-runner.jar", "Args": ["s3-dist-cp", "--src", "s3://a"]}}]}`,
			FormatEMR, "emr", "emr-6.5.0", "3.1.2", map[string]string{"spark.executor.instances": "4"}, 0, "runs s3-dist-cp, not spark-submit"},
		{"EMR Serverless request", `{"applicationId": "00f", "executionRoleArn": "arn:aws:iam::1:role/r",
 "jobDriver": {"sparkSubmit": {"entryPoint": "s3://b/a.py", "sparkSubmitParameters": "--conf spark.executor.cores=2"}}}`,
			FormatEMR, "emr-serverless", "", "", map[string]string{"spark.executor.cores": "2"}, 0, "get-application"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eq(t, "detected", detectBytes([]byte(tc.doc)), tc.format)
			p, err := importBytes("f", tc.format, []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "platform", p.Source.Platform, tc.platform)
			eq(t, "label", p.Runtime.Label, tc.label)
			eq(t, "spark", p.Runtime.Spark, tc.spark)
			eq(t, "gpus per node", p.GPU.PerNode, tc.gpus)
			for k, v := range tc.confs {
				eq(t, k, p.Conf[k], v)
			}
			warned(t, p, tc.warns)
		})
	}
}
