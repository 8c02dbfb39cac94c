package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestMirrorBakesProdPackagesWithTheirDependencies mirrors a prod job
// script whose --packages come from a variable: devenv lock resolves them
// through the stand-in Maven mirror (POMs modelled on Maven Central's),
// pins every jar of the tree, up bakes them into the image's
// /opt/spark/jars, and the generated spark-defaults asks Ivy for nothing.
func TestMirrorBakesProdPackagesWithTheirDependencies(t *testing.T) {
	t.Parallel()
	w := newWorld(t, standin.WithPOMs(filepath.Join("..", "internal", "maven", "testdata", "repo")))
	script := "#!/bin/bash\n# nightly\nDELTA=3.2.0\nspark-submit --master yarn \\\n  --packages io.delta:delta-spark_2.12:${DELTA} \\\n" +
		"  --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \\\n  job.py\n"
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    spark: \""+sparkVersion+"\"\n    rapids: \""+rapidsVersion+"\"\n    jupyter: false\n    gpu: optional\n",
		map[string]string{"prod/job.sh": script})
	w.must(t, dir, "mirror", "prod/job.sh")
	lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"delta-spark_2.12-3.2.0.jar", "delta-storage-3.2.0.jar", "antlr4-runtime-4.9.3.jar"}
	var files []string
	for _, a := range lf.Service("spark").Artifacts {
		if strings.HasPrefix(a.Name, "jar:") {
			files = append(files, a.File)
		}
	}
	if strings.Join(files, ",") != strings.Join(want, ",") {
		t.Fatalf("locked jars %v, want %v", files, want)
	}
	w.must(t, dir, "up", "--wait", "spark")
	r := w.must(t, dir, "exec", "-T", "spark", "--", "sh", "-c", "ls /opt/spark/jars; echo ---; cat /opt/devenv/conf/spark-defaults.conf")
	jars, conf, _ := strings.Cut(r.Stdout, "---")
	for _, f := range want {
		if !strings.Contains(jars, f) {
			t.Errorf("%s is not in the image's /opt/spark/jars:\n%s", f, jars)
		}
	}
	if strings.Contains(conf, "spark.jars.packages") {
		t.Errorf("the generated spark-defaults still asks Ivy for packages:\n%s", conf)
	}
	if !strings.Contains(conf, "spark.sql.extensions") {
		t.Errorf("prod's portable conf did not reach spark-defaults:\n%s", conf)
	}
}
