//go:build k8s && linux

// The exports against a real Kubernetes API server (test/k8s): built with
// -tags k8s by `make e2e-k8s`, not by make test, as the rig's cold build
// takes about 20 minutes.

package e2e

import (
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/test/k8s"
	"github.com/devenv-dev/devenv/test/standin"
)

// sparkOperatorCRD is the Spark Operator's SparkApplication CRD, verbatim
// from its repository (testdata/spark-operator/SOURCES.md).
const sparkOperatorCRD = "testdata/spark-operator/sparkoperator.k8s.io_sparkapplications.yaml"

// exportProjects are projects whose `devenv export k8s` output the API
// server must accept whole.
var exportProjects = []struct {
	name, prefix, yaml string
	files              map[string]string
}{
	{name: "spark-rapids", prefix: "e2e", yaml: `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    gpus: 1
    env_file: secrets.env
    conf: {spark.executor.memory: "24g", spark.executor.cores: "4", spark.sql.adaptive.enabled: "true"}
`, files: map[string]string{"secrets.env": "AWS_SECRET_ACCESS_KEY=canary-aws-secret\n"}},
	{name: "spark-rapids scala with gpu optional", prefix: "e2e", yaml: `services:
  batch:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    jupyter: false
    gpu: optional
`},
	{name: "triton", prefix: "e2e", yaml: `services:
  serve:
    profile: triton
    release: "25.01"
    gpus: 1
`},
	// a project name may start with a digit; a Service name may not
	{name: "triton project named from a digit", prefix: "7lives", yaml: `services:
  serve:
    profile: triton
    release: "25.01"
`},
	// a project name of about 60 characters: with "-serve", too long for a Service name
	{name: "triton with a long project name", prefix: "e2e-a-long-project-name-for-the-shared-gpu-cluster", yaml: `services:
  serve:
    profile: triton
    release: "25.01"
`},
	// a service name may hold upper case, '_' and '.'; a container name may not
	{name: "triton service named Model_Serve.v2", prefix: "e2e", yaml: `services:
  Model_Serve.v2:
    profile: triton
    release: "25.01"
`},
	// longer than a label value may be (63): the dev.devenv.project label
	{name: "spark-rapids with a project name of 70 characters", prefix: "e2e-a-longer-project-name-for-the-shared-gpu-cluster-of-the-", yaml: `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
`},
}

// TestK8sExportAcceptedByAPIServer locks real projects, exports them with
// `devenv export k8s`, and applies every written file with
// `kubectl apply --dry-run=server --validate=strict` to a real
// kube-apiserver holding the Spark Operator's CRD: each object the files
// hold must be accepted, by name. Then manifests broken on purpose must be
// refused, naming the field: the check can fail.
func TestK8sExportAcceptedByAPIServer(t *testing.T) {
	c := k8s.Start(t)
	if err := c.InstallCRD(t.Context(), sparkOperatorCRD, "sparkapplications.sparkoperator.k8s.io"); err != nil {
		t.Fatal(err)
	}
	w := newWorld(t)
	exported := map[string]string{}
	for _, p := range exportProjects {
		t.Run(p.name, func(t *testing.T) {
			dir := exportK8s(t, w, p.prefix, p.yaml, p.files)
			files, _ := filepath.Glob(filepath.Join(dir, "k8s", "*.yaml"))
			if len(files) == 0 {
				t.Fatalf("devenv export k8s wrote no manifest in %s/k8s", dir)
			}
			for _, f := range files {
				text := readFile(t, f)
				if strings.Contains(text, "canary-aws-secret") {
					t.Errorf("%s holds a value of secrets.env", filepath.Base(f))
				}
				applyAccepted(t, c, f, objectNames(t, text))
				exported[filepath.Base(f)] = text
			}
		})
	}
	t.Run("broken on purpose is refused", func(t *testing.T) {
		refusesBroken(t, c, exported)
	})
}

// exportK8s writes a project named from prefix, locks it and runs
// `devenv export k8s -o k8s`; it returns the project's directory.
func exportK8s(t *testing.T, w *world, prefix, spec string, files map[string]string) string {
	t.Helper()
	name := uniqueName(prefix)
	all := map[string]string{"devenv.yaml": "name: " + name + "\n" + spec + w.mirrors()}
	for k, v := range files {
		all[k] = v
	}
	dir := standin.Project(t, all)
	w.must(t, dir, "lock")
	w.must(t, dir, "export", "k8s", "-o", "k8s")
	return dir
}

// objectNames are the objects a manifest holds as kubectl -o name prints
// them: kind[.group]/name, lower-case kind.
func objectNames(t *testing.T, text string) []string {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(text))
	var names []string
	for {
		var obj struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Metadata   struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
		}
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatalf("the manifest is not YAML: %v\n%s", err, text)
		}
		kind := strings.ToLower(obj.Kind)
		if group, _, ok := strings.Cut(obj.APIVersion, "/"); ok {
			kind += "." + group
		}
		names = append(names, kind+"/"+obj.Metadata.Name)
	}
	slices.Sort(names)
	return names
}

// applyAccepted applies file with a server-side dry run and strict field
// validation, and wants exactly the objects want accepted.
func applyAccepted(t *testing.T, c *k8s.Cluster, file string, want []string) {
	t.Helper()
	out, errOut, err := c.Kubectl(t.Context(), "apply", "--dry-run=server", "--validate=strict", "-o", "name", "-f", file)
	if err != nil {
		t.Errorf("the API server refused %s: %v\n%s%s\nthe manifest:\n%s", filepath.Base(file), err, out, errOut, readFile(t, file))
		return
	}
	got := strings.Fields(out)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the API server accepted %q, want %q (stderr: %s)", filepath.Base(file), got, want, errOut)
	}
}

// brokenCases break one field of an exported manifest each; the API server
// must refuse the file and name the field.
var brokenCases = []struct {
	name, file string
	path       []string // a key path into the first object with that kind
	kind       string
	value      any
	want       string // in kubectl's error
}{
	{"unknown SparkApplication field", "spark.yaml", []string{"spec", "executor", "gpus"}, "SparkApplication", 1, `unknown field "spec.executor.gpus"`},
	{"driver cores below the CRD's minimum", "spark.yaml", []string{"spec", "driver", "cores"}, "SparkApplication", 0, "spec.driver.cores"},
	{"type outside the CRD's enum", "spark.yaml", []string{"spec", "type"}, "SparkApplication", "Go", `Unsupported value: "Go"`},
	{"Service port out of range", "serve.yaml", []string{"spec", "ports"}, "Service", []any{map[string]any{"name": "http", "port": 70000}}, "spec.ports[0].port"},
}

func refusesBroken(t *testing.T, c *k8s.Cluster, exported map[string]string) {
	for _, bc := range brokenCases {
		t.Run(bc.name, func(t *testing.T) {
			text, ok := exported[bc.file]
			if !ok {
				t.Fatalf("no exported %s to break (exported: %v)", bc.file, slices.Sorted(maps.Keys(exported)))
			}
			path := filepath.Join(t.TempDir(), bc.file)
			if err := os.WriteFile(path, breakManifest(t, text, bc.kind, bc.path, bc.value), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := c.Kubectl(t.Context(), "apply", "--dry-run=server", "--validate=strict", "-o", "name", "-f", path)
			if err == nil {
				t.Fatalf("the API server accepted a manifest with %s = %v: %s", strings.Join(bc.path, "."), bc.value, out)
			}
			if !strings.Contains(errOut, bc.want) {
				t.Errorf("the refusal does not say %q:\n%s", bc.want, errOut)
			}
		})
	}
}

// breakManifest sets path to value in the first object of kind in text.
func breakManifest(t *testing.T, text, kind string, path []string, value any) []byte {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs []map[string]any
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			break
		}
		docs = append(docs, doc)
	}
	i := slices.IndexFunc(docs, func(d map[string]any) bool { return d["kind"] == kind })
	if i < 0 {
		t.Fatalf("no %s in the manifest:\n%s", kind, text)
	}
	m := docs[i]
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			t.Fatalf("the %s has no object at %s", kind, k)
		}
		m = next
	}
	m[path[len(path)-1]] = value
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	return []byte(b.String())
}
