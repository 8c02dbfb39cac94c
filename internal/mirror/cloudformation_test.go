package mirror

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCloudFormationEMR reads the EMR cluster a CloudFormation template
// makes: a real one from aws-emr-best-practices (YAML short forms, its
// parameters' defaults, a key written twice) and a JSON one.
func TestCloudFormationEMR(t *testing.T) {
	real, err := os.ReadFile(filepath.Join("testdata", "real", "emr", "emrbp-yarn_labels_scaling.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	jsonTmpl := `{"AWSTemplateFormatVersion": "2010-09-09", "Parameters": {"Rel": {"Type": "String", "Default": "emr-6.10.0"}, "Bucket": {"Type": "String"}},
 "Resources": {"Cluster": {"Type": "AWS::EMR::Cluster", "Properties": {"ReleaseLabel": {"Ref": "Rel"},
  "Instances": {"MasterInstanceGroup": {"InstanceCount": 1, "InstanceType": "m5.xlarge"}, "CoreInstanceGroup": {"InstanceCount": 3, "InstanceType": "r5.xlarge"}},
  "Configurations": [{"Classification": "spark-defaults", "ConfigurationProperties": {"spark.sql.shuffle.partitions": "64",
   "spark.eventLog.dir": {"Fn::Sub": "s3://${Bucket}/logs"}}}]}}}}`
	for _, tc := range []struct {
		name, file, data  string
		label, workerType string
		workers           int
		conf              map[string]string
	}{
		{"real YAML template", "yarn_labels_scaling.yaml", string(real), "emr-6.15.0", "m5.2xlarge", 4, nil},
		{"JSON template", "cluster.json", jsonTmpl, "emr-6.10.0", "r5.xlarge", 3,
			map[string]string{"spark.sql.shuffle.partitions": "64", "spark.eventLog.dir": "s3://${Bucket}/logs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f := detectBytes([]byte(tc.data)); f != FormatEMR {
				t.Fatalf("detected %q, want emr", f)
			}
			p, err := importBytes(tc.file, FormatEMR, []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			tp := p.Topology
			if p.Source.Platform != "emr" || p.Runtime.Label != tc.label || p.Runtime.Spark == "" || tp.Workers != tc.workers || tp.WorkerType != tc.workerType {
				t.Errorf("%s %q (spark %q), %d workers of %q; want emr %q, %d of %q", p.Source.Platform, p.Runtime.Label, p.Runtime.Spark, tp.Workers, tp.WorkerType, tc.label, tc.workers, tc.workerType)
			}
			for k, v := range tc.conf {
				if p.Conf[k] != v {
					t.Errorf("%s = %q, want %q", k, p.Conf[k], v)
				}
			}
		})
	}
}

// TestEMRConfigurationsYAML reads EMR Configurations written as YAML (a
// Terraform template of dwp's, not the held-out one of that repository)
// as their JSON is read.
func TestEMRConfigurationsYAML(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "emr", "dwpadg-emr-adg-configurations.yaml.tpl"))
	if err != nil {
		t.Fatal(err)
	}
	f := detectBytes(data)
	if f != FormatEMRConfigurations {
		t.Fatalf("detected %q, want emr-configurations", f)
	}
	p, err := importBytes("configurations.yaml.tpl", f, data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Source.Platform != "emr" || p.Conf["spark.sql.catalogImplementation"] != "hive" || p.Env["PYSPARK_PYTHON"] != "/usr/bin/python3" {
		t.Errorf("%s, catalogImplementation %q, PYSPARK_PYTHON %q; want emr, hive, /usr/bin/python3", p.Source.Platform, p.Conf["spark.sql.catalogImplementation"], p.Env["PYSPARK_PYTHON"])
	}
}
