package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"go.yaml.in/yaml/v3"
)

// leakCanaries are the values of the fixtures' env_files.
var leakCanaries = []string{"leak-canary-s3", "leak-canary-pg", "leak-canary-hf"}

func noCanary(t *testing.T, what string, data []byte) {
	t.Helper()
	noneOf(t, what, data, "a value read from an env_file", leakCanaries...)
}

// noneOf fails the test for each canary that data holds; from says where
// the canary's value came from.
func noneOf(t *testing.T, what string, data []byte, from string, canaries ...string) {
	t.Helper()
	for _, c := range canaries {
		if strings.Contains(string(data), c) {
			t.Errorf("%s holds %q, %s:\n%s", what, c, from, data)
		}
	}
}

// TestExportsReferEnvFiles: every export refers to the env_files and never
// holds a value read from one, while values devenv.yaml's env: or compose's
// environment: set over the file are still written.
func TestExportsReferEnvFiles(t *testing.T) {
	pl, lf := locked(t)
	data := composeOf(t, pl, lf)
	noCanary(t, "the compose export", data)
	doc := decodeExport(t, data)
	tests := []struct {
		service, envFile, keptKey, keptValue, droppedKey string
	}{
		{"spark", "./secrets.env", "AWS_ENDPOINT_URL", "http://minio:9000", "S3_SECRET_KEY"},
		{"triton", "./secrets.env", "NVIDIA_DRIVER_CAPABILITIES", "compute,utility", "S3_SECRET_KEY"},
		{"postgres", "./postgres.env", "POSTGRES_USER", "hive", "POSTGRES_PASSWORD"},
	}
	for _, tt := range tests {
		s := doc.Services[tt.service]
		if strings.Join(s.EnvFile, ",") != tt.envFile {
			t.Errorf("%s env_file = %v, want [%s]", tt.service, s.EnvFile, tt.envFile)
		}
		if got := s.Environment[tt.keptKey]; got != tt.keptValue {
			t.Errorf("%s environment %s = %q, want %q (set over the env_file)", tt.service, tt.keptKey, got, tt.keptValue)
		}
		if _, ok := s.Environment[tt.droppedKey]; ok {
			t.Errorf("%s environment still sets %s, which comes from the env_file", tt.service, tt.droppedKey)
		}
	}

	dc, err := Devcontainer(pl, "spark")
	if err != nil {
		t.Fatal(err)
	}
	noCanary(t, "devcontainer.json (compose form)", dc)

	pl, lf = lockedK8s(t)
	k8s, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range k8s {
		noCanary(t, "k8s "+name, m)
		if !strings.Contains(string(m), "--from-env-file=secrets.env") {
			t.Errorf("k8s %s does not say how to pass secrets.env:\n%s", name, m)
		}
	}
}

func TestDevcontainerSingleImagePassesEnvFile(t *testing.T) {
	p, _ := singleProject(t)
	got, d := devcontainerFor(t, p, testHost)
	noCanary(t, "devcontainer.json (image form)", got)
	if !strings.Contains(strings.Join(d.RunArgs, " "), "--env-file ${localWorkspaceFolder}/secrets.env") {
		t.Errorf("runArgs = %q, want --env-file ${localWorkspaceFolder}/secrets.env", d.RunArgs)
	}
	if d.ContainerEnv["TZ"] != "UTC" {
		t.Errorf("containerEnv = %v, want TZ=UTC from env: kept", d.ContainerEnv)
	}
}

// TestComposeExportKeepsVariableReferences: a compose service's
// environment written as ${VAR} is exported as ${VAR}, so docker compose
// reads .env and the shell when it runs the export; the values devenv read
// from them never land in the file.
func TestComposeExportKeepsVariableReferences(t *testing.T) {
	t.Setenv("SHELL_TOKEN", "shell-canary")
	dir, pl := planFiles(t, map[string]string{
		"devenv.yaml": "name: demo\ncompose: [compose.yaml]\nservices:\n  box:\n    profile: image\n    image: debian:12\n",
		"compose.yaml": "services:\n  db:\n    image: postgres:16\n    environment:\n" +
			"      DB_PASSWORD: ${DB_PASSWORD}\n      FROM_SHELL: \"${SHELL_TOKEN:-none}\"\n      PLAIN: literal\n",
		".env": "DB_PASSWORD=dotenv-canary\n",
	})
	data := composeOf(t, pl, nil)
	noneOf(t, "the export", data, "a value read from .env or the shell", "dotenv-canary", "shell-canary")
	doc := decodeExport(t, data)
	want := map[string]string{"DB_PASSWORD": "${DB_PASSWORD}", "FROM_SHELL": "${SHELL_TOKEN:-none}", "PLAIN": "literal"}
	for k, v := range want {
		if got := doc.Services["db"].Environment[k]; got != v {
			t.Errorf("db environment %s = %q, want %q", k, got, v)
		}
	}
	// compose reads .env and the shell at load time: the hashes are devenv's
	got, err := loadAsCompose(t, writeExport(t, dir, data))
	if err != nil {
		t.Fatalf("docker compose would not load the export: %v\n%s", err, data)
	}
	sameProject(t, got, runProject(t, pl))
}

// planFiles writes files (name: text) into a fresh directory and plans its
// devenv.yaml, unlocked, on testHost.
func planFiles(t *testing.T, files map[string]string) (string, *plan.Plan) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(files["devenv.yaml"]), dir)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := PlanUnlocked(p, testHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	return dir, pl
}

// exported is what the secrets tests read of an exported service.
type exported struct {
	EnvFile     []string          `yaml:"env_file"`
	Environment map[string]string `yaml:"environment"`
}

func decodeExport(t *testing.T, data []byte) struct{ Services map[string]exported } {
	t.Helper()
	var doc struct{ Services map[string]exported }
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the export is not YAML of services: %v\n%s", err, data)
	}
	return doc
}

// TestComposeExportKeepsBuildArgReferences: a compose service's build
// args written as ${VAR} are exported as ${VAR}, as its environment is
// (issue 29: `args: {TOKEN: "${TOKEN}"}` came out as the token).
func TestComposeExportKeepsBuildArgReferences(t *testing.T) {
	t.Setenv("TOKEN", "shell-arg-canary")
	_, pl := planFiles(t, map[string]string{
		"devenv.yaml": "name: demo\ncompose: [compose.yaml]\nservices:\n  box:\n    profile: image\n    image: debian:12\n",
		"compose.yaml": "services:\n  app:\n    build:\n      context: .\n      args:\n" +
			"        TOKEN: \"${TOKEN}\"\n        FROM_ENV: ${ENV_TOKEN:-none}\n        PLAIN: literal\n",
		"Dockerfile": "FROM debian:12\n",
		".env":       "ENV_TOKEN=dotenv-arg-canary\n",
	})
	data := composeOf(t, pl, nil)
	noneOf(t, "the export", data, "a build arg's value read from .env or the shell", "dotenv-arg-canary", "shell-arg-canary")
	var doc struct {
		Services map[string]struct {
			Build struct {
				Args map[string]string `yaml:"args"`
			} `yaml:"build"`
		}
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TOKEN": "${TOKEN}", "FROM_ENV": "${ENV_TOKEN:-none}", "PLAIN": "literal"}
	for k, v := range want {
		if got := doc.Services["app"].Build.Args[k]; got != v {
			t.Errorf("app build arg %s = %q, want %q\n%s", k, got, v, data)
		}
	}
}
