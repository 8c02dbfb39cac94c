package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestExportsKeepSecretsOutAndGPUOptional runs the devcontainer and k8s
// exports of a locked spark-rapids project that reads an env_file, may run
// without a GPU (gpu: optional) and sizes its executors in devenv.yaml:
// no value of the env_file lands in any written file; the devcontainer
// starts the compose export (which carries spark-defaults.conf), leaves
// the GPU to hostRequirements.gpu "optional", and the compose file passes
// the env_file and reserves no GPU; the SparkApplication keeps the user's
// sizes and does not call a local build tag pinned.
func TestExportsKeepSecretsOutAndGPUOptional(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, `services:
  spark:
    profile: spark-rapids
    spark: "`+sparkVersion+`"
    rapids: "`+rapidsVersion+`"
    java: "17"
    gpus: 1
    gpu: optional
    env_file: secrets.env
    conf: {spark.executor.memory: "24g", spark.executor.cores: "4"}
`, map[string]string{"secrets.env": "AWS_SECRET_ACCESS_KEY=canary-aws-secret\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "export", "devcontainer")
	w.must(t, dir, "export", "k8s", "-o", "k8s")

	dcText := readFile(t, filepath.Join(dir, ".devcontainer", "devcontainer.json"))
	var dc struct {
		DockerComposeFile string   `json:"dockerComposeFile"`
		RunArgs           []string `json:"runArgs"`
		HostRequirements  struct {
			GPU any `json:"gpu"`
		} `json:"hostRequirements"`
	}
	if err := json.Unmarshal([]byte(dcText), &dc); err != nil {
		t.Fatalf("devcontainer.json is not JSON: %v\n%s", err, dcText)
	}
	if dc.DockerComposeFile != "../compose.devenv.yaml" || len(dc.RunArgs) != 0 || dc.HostRequirements.GPU != "optional" {
		t.Errorf("devcontainer.json: compose file %q, runArgs %q, hostRequirements.gpu %v; want the compose export, no runArgs, \"optional\"",
			dc.DockerComposeFile, dc.RunArgs, dc.HostRequirements.GPU)
	}
	composeText := readFile(t, filepath.Join(dir, "compose.devenv.yaml"))
	var cf struct {
		Services map[string]struct {
			EnvFile []string       `yaml:"env_file"`
			Deploy  map[string]any `yaml:"deploy"`
			Configs []struct{ Target string }
		}
	}
	if err := yaml.Unmarshal([]byte(composeText), &cf); err != nil {
		t.Fatalf("compose.devenv.yaml is not YAML: %v\n%s", err, composeText)
	}
	spark := cf.Services["spark"]
	if strings.Join(spark.EnvFile, " ") != "./secrets.env" || spark.Deploy != nil || len(spark.Configs) != 1 || spark.Configs[0].Target != "/opt/devenv/conf/spark-defaults.conf" {
		t.Errorf("compose spark: env_file %v, deploy %v, configs %+v; want ./secrets.env, no GPU reservation, spark-defaults.conf carried", spark.EnvFile, spark.Deploy, spark.Configs)
	}

	k8sText := readFile(t, filepath.Join(dir, "k8s", "spark.yaml"))
	var app struct {
		Spec struct {
			Executor struct {
				Cores  int    `yaml:"cores"`
				Memory string `yaml:"memory"`
			} `yaml:"executor"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal([]byte(k8sText[strings.Index(k8sText, "apiVersion:"):]), &app); err != nil {
		t.Fatalf("spark.yaml is not YAML: %v\n%s", err, k8sText)
	}
	if app.Spec.Executor.Memory != "24g" || app.Spec.Executor.Cores != 4 {
		t.Errorf("executor %+v, want devenv.yaml's 24g and 4 cores", app.Spec.Executor)
	}
	if strings.Contains(k8sText, "pinned by digest") || !strings.Contains(k8sText, "is a local tag") {
		t.Errorf("spark.yaml calls the local build tag pinned, or does not say it is local:\n%s", k8sText)
	}
	for name, text := range map[string]string{"devcontainer.json": dcText, "compose.devenv.yaml": composeText, "k8s/spark.yaml": k8sText} {
		if strings.Contains(text, "canary-aws-secret") {
			t.Errorf("%s holds a value of secrets.env:\n%s", name, text)
		}
	}
}
