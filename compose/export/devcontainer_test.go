package export

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
)

func TestDevcontainerGolden(t *testing.T) {
	pl, _ := locked(t)
	tests := []struct {
		name, service, golden string
	}{
		{"several services use the compose file", "", "devcontainer.compose.golden.json"},
		{"spark-rapids runs as devenv", "spark", "devcontainer.spark.golden.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Devcontainer(pl, tt.service)
			if err != nil {
				t.Fatal(err)
			}
			checkDevcontainer(t, got)
			golden(t, tt.golden, portable(got))
		})
	}
}

func TestDevcontainerSingleImage(t *testing.T) {
	p, dir := singleProject(t)
	got, _ := devcontainerFor(t, p, testHost)
	checkDevcontainer(t, got)
	golden(t, "devcontainer.single.golden.json", []byte(strings.ReplaceAll(string(got), dir, "$PROJECT")))
}

func TestDevcontainerUnknownService(t *testing.T) {
	pl, _ := locked(t)
	_, err := Devcontainer(pl, "nope")
	if err == nil || !strings.Contains(err.Error(), "spark") {
		t.Fatalf("error = %v; want it to list the services", err)
	}
}

// checkDevcontainer parses data as JSON and checks every key against the
// reference's property list and types (testdata/devcontainer-keys.txt).
func checkDevcontainer(t *testing.T, data []byte) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	allowed := readFieldList(t, "devcontainer-keys.txt")
	for _, p := range checkFields("", doc, allowed) {
		t.Error(p)
	}
}

// readFieldList reads "path type|type" lines.
func readFieldList(t *testing.T, name string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, types, _ := strings.Cut(line, " ")
		out[path] = strings.Split(strings.TrimSpace(types), "|")
	}
	return out
}

// checkFields checks that each key at path exists in allowed with a
// matching JSON type, and descends into objects the list describes further.
func checkFields(prefix string, obj map[string]any, allowed map[string][]string) []string {
	var problems []string
	for k, v := range obj {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		types, ok := allowed[path]
		if !ok {
			types, ok = allowed[prefix+".*"]
		}
		if !ok {
			problems = append(problems, "key "+path+" is not in the field list")
			continue
		}
		if !typeIn(jsonType(v), types) {
			problems = append(problems, "key "+path+" is a JSON "+jsonType(v)+", the field list says "+strings.Join(types, "|"))
		}
		if m, isObj := v.(map[string]any); isObj && describes(allowed, path) {
			problems = append(problems, checkFields(path, m, allowed)...)
		}
	}
	sort.Strings(problems)
	return problems
}

func describes(allowed map[string][]string, path string) bool {
	for k := range allowed {
		if strings.HasPrefix(k, path+".") {
			return true
		}
	}
	return false
}

func typeIn(got string, types []string) bool {
	for _, ty := range types {
		if ty == got || (ty == "integer" && got == "number") {
			return true
		}
	}
	return false
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case int, int64:
		return "integer"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return "unknown"
}

// TestDevcontainerOptionalGPU: gpu: optional is hostRequirements.gpu
// "optional" without --gpus in runArgs, whether or not the plan gave the
// service a GPU; gpu: required keeps --gpus.
func TestDevcontainerOptionalGPU(t *testing.T) {
	tests := []struct {
		name     string
		gpu      string
		host     plan.Host
		wantGPUs bool
		wantReq  any
	}{
		{"optional, planned with a GPU", "optional", testHost, false, "optional"},
		{"optional, planned on the CPU", "optional", fileHost, false, "optional"},
		{"required", "required", fileHost, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := singleProject(t)
			p.Service("notebook").GPU = tt.gpu
			_, d := devcontainerFor(t, p, tt.host)
			if has := strings.Contains(strings.Join(d.RunArgs, " "), "--gpus"); has != tt.wantGPUs {
				t.Errorf("runArgs = %q; --gpus present = %v, want %v", d.RunArgs, has, tt.wantGPUs)
			}
			if d.HostRequirements == nil || d.HostRequirements.GPU != tt.wantReq {
				t.Errorf("hostRequirements = %+v, want gpu %v", d.HostRequirements, tt.wantReq)
			}
		})
	}
}

// TestDevcontainerSingleSparkUsesCompose: a project of one spark-rapids
// service points the editor at the compose export, which carries
// spark-defaults.conf, instead of running the image with a bind mount of
// .devenv/generated, whose host copy only the host user can read.
func TestDevcontainerSingleSparkUsesCompose(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "devenv.yaml")
	text := "name: solo\nservices:\n  spark:\n    profile: spark-rapids\n    spark: \"3.5.1\"\n    gpus: 1\n    ports: [\"4040:4040\"]\n"
	p, err := spec.Parse(file, []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	got, d := devcontainerFor(t, p, fileHost)
	if d.DockerComposeFile != "../"+ComposeFileName || d.Service != "spark" || d.Image != "" {
		t.Errorf("devcontainer.json for one spark service: compose file %q, service %q, image %q; want the compose form", d.DockerComposeFile, d.Service, d.Image)
	}
	if strings.Contains(string(got), ".devenv/") {
		t.Errorf("devcontainer.json refers to .devenv:\n%s", got)
	}
	pl, err := PlanUnlocked(p, fileHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	data := composeOf(t, pl, nil)
	if !strings.Contains(string(data), "target: "+plan.ConfDir+"/spark-defaults.conf") || strings.Contains(string(data), "source: ./.devenv") {
		t.Errorf("the compose file it starts does not carry spark-defaults.conf:\n%s", data)
	}
}

// singleProject parses testdata/single/devenv.yaml; dir is its absolute
// directory.
func singleProject(t *testing.T) (p *spec.Project, dir string) {
	t.Helper()
	dir, _ = filepath.Abs(filepath.Join("testdata", "single"))
	return locktest.Project(t, dir), dir
}

// devcontainerFor plans p unlocked on host and exports its
// devcontainer.json, as written and decoded.
func devcontainerFor(t *testing.T, p *spec.Project, host plan.Host) ([]byte, devcontainer) {
	t.Helper()
	pl, err := PlanUnlocked(p, host, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Devcontainer(pl, "")
	if err != nil {
		t.Fatal(err)
	}
	var d devcontainer
	if err := json.Unmarshal(got, &d); err != nil {
		t.Fatal(err)
	}
	return got, d
}
