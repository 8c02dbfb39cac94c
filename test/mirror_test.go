package e2e

import (
	"github.com/devenv-dev/devenv/profiles"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/test/standin"
)

func prodFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "prod", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMirrorMakesTheServiceUseProd mirrors a real Databricks cluster spec
// (DBR 11.3: Spark 3.3.0, Scala 2.12, Java 8) into a project: devenv.yaml
// records the source, the lock pins prod's versions (RAPIDS: the newest
// that supports them), and diff reports no behaviour drift until the user
// sets a behaviour conf prod does not have.
func TestMirrorMakesTheServiceUseProd(t *testing.T) {
	t.Parallel()
	w := newWorld(t, standin.WithSpark("3.3.0"), standin.WithRapids(newestRapidsFor(profiles.Request{Spark: "3.3.0", Scala: "2.12", Java: "8"})))
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids   # keep this comment\n    jupyter: false\n    gpu: optional\n",
		map[string]string{"prod/cluster.json": prodFile(t, "databricks-azure-cpu-00.json")})
	r := w.must(t, dir, "mirror", "prod/cluster.json")
	yaml := readFile(t, filepath.Join(dir, "devenv.yaml"))
	if !strings.Contains(yaml, "mirror: prod/cluster.json") || !strings.Contains(yaml, "# keep this comment") {
		t.Fatalf("devenv.yaml after mirror:\n%s", yaml)
	}
	lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	v := lf.Service("spark").Versions
	if v.Spark != "3.3.0" || v.Scala != "2.12" || v.Java != "8" || v.Rapids == "" {
		t.Fatalf("locked %+v, want prod's Spark 3.3.0, Scala 2.12, Java 8 (stdout %s)", v, r.Stdout)
	}
	w.must(t, dir, "lock", "--check")
	if r := w.run(t, dir, "diff", "--json"); r.Code != 0 || !strings.Contains(r.Stdout, `"drifted": false`) {
		t.Fatalf("diff right after mirror: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	writeFile(t, dir, "devenv.yaml", strings.Replace(yaml, "jupyter: false", "jupyter: false\n    conf: {spark.sql.ansi.enabled: \"true\"}", 1))
	if r := w.run(t, dir, "diff"); r.Code != 5 || !strings.Contains(r.Stdout, "spark.sql.ansi.enabled") {
		t.Fatalf("diff with a behaviour conf prod lacks: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestMirrorNeverCopiesSecrets prints a real cluster spec whose spark_conf
// holds {{secrets/...}} references: they are listed as redacted, and no
// secret value appears in the profile; a source outside the project is
// refused without touching devenv.yaml.
func TestMirrorNeverCopiesSecrets(t *testing.T) {
	t.Parallel()
	dir := standin.Project(t, map[string]string{
		"devenv.yaml":   "services:\n  spark: {profile: spark-rapids}\n",
		"prod/aws.json": prodFile(t, "databricks-aws-cpu-00.json"),
	})
	r := standin.Run(t, dir, nil, "mirror", "prod/aws.json", "--print", "--json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stdout, "{{secrets/") {
		t.Fatalf("a secret reference leaked into the profile:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "spark.hadoop.fs.s3a.secret.key") {
		t.Errorf("the secret key is not listed as redacted:\n%s", r.Stdout)
	}
	outside := filepath.Join(t.TempDir(), "prod.json")
	if err := os.WriteFile(outside, []byte(prodFile(t, "databricks-azure-cpu-00.json")), 0o644); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, filepath.Join(dir, "devenv.yaml"))
	if r := standin.Run(t, dir, nil, "mirror", outside); r.Code != 2 || !strings.Contains(r.Stderr, "outside the project") {
		t.Fatalf("outside source: exit %d %s", r.Code, r.Stderr)
	}
	if readFile(t, filepath.Join(dir, "devenv.yaml")) != before {
		t.Fatal("a refused mirror changed devenv.yaml")
	}
}
