package export

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestKubernetesGolden(t *testing.T) {
	pl, lf := lockedK8s(t)
	files, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "spark.yaml triton.yaml" {
		t.Fatalf("files = %v; want one for the spark-rapids and one for the triton service", names)
	}
	for _, n := range names {
		golden(t, "k8s/"+n, files[n])
	}
}

// TestKubernetesCarriesConfInline: the manifests refer to no file of the
// project's .devenv (no hostPath, no generated directory): a
// SparkApplication carries the generated conf as its own sparkConf, less
// what only fits this machine, as the compose export carries it as
// configs: content.
func TestKubernetesCarriesConfInline(t *testing.T) {
	pl, lf := lockedK8s(t)
	files, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	for n, data := range files {
		for _, bad := range []string{".devenv/", "hostPath", "SPARK_CONF_DIR"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s mentions %s:\n%s", n, bad, data)
			}
		}
	}
	if !strings.Contains(string(files["spark.yaml"]), "spark.sql.adaptive.enabled: \"true\"") {
		t.Errorf("spark.yaml lacks devenv.yaml's conf: as sparkConf:\n%s", files["spark.yaml"])
	}
}

// TestSparkApplicationFields checks every key of the SparkApplication
// against the CRD's Go types (testdata/sparkapplication-fields.txt): the
// key must exist at that path with that JSON type.
func TestSparkApplicationFields(t *testing.T) {
	pl, lf := lockedK8s(t)
	files, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	allowed := readFieldList(t, "sparkapplication-fields.txt")
	doc := decodeYAML(t, files["spark.yaml"])
	for _, p := range checkFields("", doc, allowed) {
		t.Error(p)
	}
	spec := doc["spec"].(map[string]any)
	exec := spec["executor"].(map[string]any)
	conf := spec["sparkConf"].(map[string]any)
	checks := []struct {
		what      string
		got, want any
	}{
		{"mode", spec["mode"], "cluster"},
		{"type", spec["type"], "Python"},
		{"image by digest", strings.Contains(spec["image"].(string), "devenv/demo-spark:"), true},
		{"executor gpu", exec["gpu"], map[string]any{"name": "nvidia.com/gpu", "quantity": 1}},
		{"executor instances", exec["instances"], 1},
		{"spark.master dropped", conf["spark.master"], nil},
		{"discovery script", conf["spark.executor.resource.gpu.discoveryScript"], "/opt/sparkRapidsPlugin/getGpusResources.sh"},
		{"plugin kept", conf["spark.plugins"], "com.nvidia.spark.SQLPlugin"},
	}
	for _, c := range checks {
		if !same(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.what, c.got, c.want)
		}
	}
}

// TestFieldCheckCatchesMistakes proves the field check can fail: a key the
// CRD does not have and a key of the wrong JSON type are both reported.
func TestFieldCheckCatchesMistakes(t *testing.T) {
	allowed := readFieldList(t, "sparkapplication-fields.txt")
	doc := decodeYAML(t, []byte("spec:\n  executor:\n    gpus: 1\n    cores: \"2\"\n"))
	problems := checkFields("", doc, allowed)
	if len(problems) != 2 {
		t.Fatalf("problems = %q; want the unknown gpus and the string cores", problems)
	}
}

func TestTritonManifests(t *testing.T) {
	pl, lf := lockedK8s(t)
	files, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	text := string(files["triton.yaml"])
	for _, want := range []string{"kind: Deployment", "kind: Service", "nvidia.com/gpu: 1", "path: /v2/health/live",
		"path: /v2/health/ready", "containerPort: 8000", "containerPort: 8001", "containerPort: 8002"} {
		if !strings.Contains(text, want) {
			t.Errorf("triton.yaml lacks %q", want)
		}
	}
}

func decodeYAML(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, data)
	}
	return doc
}

// TestSparkApplicationKeepsUserConf: sizes and confs devenv.yaml sets are
// written as set; only what devenv tuned to this machine is left out or
// marked as this machine's.
func TestSparkApplicationKeepsUserConf(t *testing.T) {
	p := loadProject(t)
	p.Service("spark").Conf = map[string]string{"spark.executor.memory": "24g", "spark.executor.cores": "4",
		"spark.executor.instances": "3", "spark.driver.memory": "6g", "spark.sql.shuffle.partitions": "400"}
	lf := fakeLock(t, p)
	files, err := Kubernetes(makePlan(t, p, lf), lf)
	if err != nil {
		t.Fatal(err)
	}
	text := string(files["spark.yaml"])
	spec := decodeYAML(t, files["spark.yaml"])["spec"].(map[string]any)
	exec := spec["executor"].(map[string]any)
	driver := spec["driver"].(map[string]any)
	conf := spec["sparkConf"].(map[string]any)
	checks := []struct {
		what      string
		got, want any
	}{
		{"executor memory", exec["memory"], "24g"},
		{"executor cores", exec["cores"], 4},
		{"executor instances", exec["instances"], 3},
		{"driver memory", driver["memory"], "6g"},
		{"user's shuffle partitions", conf["spark.sql.shuffle.partitions"], "400"},
		{"machine-tuned pinned pool", conf["spark.rapids.memory.pinnedPool.size"], nil},
	}
	for _, c := range checks {
		if !same(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.what, c.got, c.want)
		}
	}
	if !strings.Contains(text, "Sized for this machine") || !strings.Contains(text, "spark.driver.cores=") || strings.Contains(text, "spark.executor.memory=") {
		t.Errorf("the header must list the sizes taken from this machine (driver cores) and only those:\n%s", text)
	}
}

// TestKubernetesImageNote: only an image pulled by digest is called pinned.
func TestKubernetesImageNote(t *testing.T) {
	pl, lf := lockedK8s(t)
	files, err := Kubernetes(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if strings.Contains(string(data), "pinned by digest from devenv.lock") {
			t.Errorf("%s runs a local build tag but says it is pinned by digest:\n%s", name, data)
		}
		if !strings.Contains(string(data), "is a local tag") {
			t.Errorf("%s does not say its image is a local tag", name)
		}
	}
}

// dns1035 is what the API server takes as a Service's name (and what the
// export's names are used for): lower-case letters, digits and '-',
// starting with a letter, ending with a letter or digit, at most 63 long.
var dns1035 = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

// TestK8sNameIsADNS1035Label: a project name may start with a digit and
// be of any length, and a service's may hold '_' and '.', but the Service
// the triton export writes, and the app.kubernetes.io/name label its pods
// carry, take only DNS-1035 labels of at most 63 characters (a real
// kube-apiserver refused "7lives-serve": test/k8s_export_test.go). Names
// that were valid stay as they were; long ones stay distinct.
func TestK8sNameIsADNS1035Label(t *testing.T) {
	long := strings.Repeat("gpu-forecast-", 5)
	cases := []struct{ project, service, want string }{
		{"demo", "triton", "demo-triton"},
		{"my_proj", "Serve.v2", "my-proj-serve-v2"},
		{"7lives", "serve", ""},
		{"2024", "9", ""},
		{long + "a", "serve", ""},
		{long + "b", "serve", ""},
	}
	seen := map[string]string{}
	for _, c := range cases {
		got := k8sName(c.project, c.service)
		if !dns1035.MatchString(got) || len(got) > 63 {
			t.Errorf("k8sName(%q, %q) = %q (%d characters): not a DNS-1035 label of at most 63", c.project, c.service, got, len(got))
		}
		if c.want != "" && got != c.want {
			t.Errorf("k8sName(%q, %q) = %q, want %q as before", c.project, c.service, got, c.want)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("k8sName gives %q for both %s and %s/%s", got, other, c.project, c.service)
		}
		seen[got] = c.project + "/" + c.service
	}
}

// labelValue is what the API server takes as a label value.
var labelValue = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)

// TestK8sLabelValuesFit: a project name may be longer than the 63
// characters of a label value (the real API server refused the
// SparkApplication of a 70-character project: test/k8s_export_test.go);
// every label and selector value the export writes fits, and a short
// project keeps its name as the dev.devenv.project value.
func TestK8sLabelValuesFit(t *testing.T) {
	for _, project := range []string{"demo", strings.Repeat("a-long-project-", 5) + "x"} {
		pl, lf := lockedK8s(t)
		for i, v := range pl.Volumes { // named after the project, as a plan of that name names them
			pl.Volumes[i] = project + strings.TrimPrefix(v, pl.Project)
		}
		pl.Project = project
		files, err := Kubernetes(pl, lf)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range files {
			dec := yaml.NewDecoder(strings.NewReader(string(data)))
			for {
				var doc map[string]any
				if dec.Decode(&doc) != nil {
					break
				}
				for _, v := range labelValues(doc) {
					if len(v) > 63 || !labelValue.MatchString(v) {
						t.Errorf("project %q: %s holds the label value %q (%d characters), which Kubernetes refuses", project, name, v, len(v))
					}
				}
			}
			if project == "demo" && !strings.Contains(string(data), "dev.devenv.project: demo\n") {
				t.Errorf("%s does not label the objects dev.devenv.project: demo:\n%s", name, data)
			}
			if said := strings.Contains(string(data), "# The label dev.devenv.project is "+fitK8s(project)+": "); said != (project != "demo") {
				t.Errorf("project %q: %s says the label was shortened: %v, want %v", project, name, said, project != "demo")
			}
		}
	}
}

// labelValues are the values of every labels: and matchLabels: map in v.
func labelValues(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if m, ok := e.(map[string]any); ok && (k == "labels" || k == "matchLabels" || k == "selector") {
				for _, lv := range m {
					if s, ok := lv.(string); ok {
						out = append(out, s)
					}
				}
			}
			out = append(out, labelValues(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, labelValues(e)...)
		}
	}
	return out
}

// dns1123 is what the API server takes as a container's name.
var dns1123 = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// TestTritonContainerNameIsADNS1123Label: a devenv service name may hold
// upper case, '_' and '.'; the Deployment's container name may not (the
// real API server refused "Model_Serve.v2": test/k8s_export_test.go).
func TestTritonContainerNameIsADNS1123Label(t *testing.T) {
	for _, c := range []struct{ service, want string }{
		{"triton", "triton"},
		{"Model_Serve.v2", "model-serve-v2"},
	} {
		pl, lf := lockedK8s(t)
		for _, s := range pl.Services {
			if s.Name == "triton" {
				s.Name = c.service
			}
		}
		files, err := Kubernetes(pl, lf)
		if err != nil {
			t.Fatal(err)
		}
		var dep struct {
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct{ Name string } `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := yaml.NewDecoder(strings.NewReader(string(files[c.service+".yaml"]))).Decode(&dep); err != nil {
			t.Fatalf("%s.yaml: %v", c.service, err)
		}
		cs := dep.Spec.Template.Spec.Containers
		if len(cs) != 1 || cs[0].Name != c.want || !dns1123.MatchString(cs[0].Name) {
			t.Errorf("service %q: containers %+v, want one named %q", c.service, cs, c.want)
		}
	}
}
