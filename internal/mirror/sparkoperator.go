package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/devenv-dev/devenv/internal/lazy"
	"io"
	"maps"
	pathpkg "path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// sparkOperatorKinds are the Spark Operator kinds devenv reads.
// SparkCluster is the Apache Spark K8s Operator's (apacheoperator.go).
var sparkOperatorKinds = []string{"SparkApplication", "ScheduledSparkApplication", "SparkConnect", "SparkCluster"}

// sparkOperatorKind names the supported kind of a decoded document, or "".
func sparkOperatorKind(m map[string]any) string {
	for _, k := range sparkOperatorKinds {
		if strings.EqualFold(str(m["kind"]), k) {
			return k
		}
	}
	return ""
}

// importSparkOperator reads a Spark Operator document (v1beta2 and the
// 2.x API): a SparkApplication, a ScheduledSparkApplication through its
// spec.template, or a SparkConnect (v1alpha1) through its server and
// executor specs. In a multi-document file (ConfigMaps, Secrets, pod
// templates around it) the first such document is used.
func importSparkOperator(path string, data []byte) (*Profile, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var found []string
	for {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("mirror: %s: no Spark Operator application in it%s; devenv reads kind %s",
				path, foundKinds(found), strings.Join(sparkOperatorKinds, ", "))
		}
		var v any
		var dups []string
		if err == nil {
			dups = dropDuplicateKeys(&node)
			err = node.Decode(&v)
		}
		if err != nil {
			return nil, fmt.Errorf("mirror: %s: %w; fix the YAML", path, err)
		}
		m := asMap(v)
		kind := sparkOperatorKind(m)
		if isApacheOperator(m) {
			kind = "" // another schema (apacheoperator.go)
		}
		if err := checkSparkOperatorTypes(path, &node, kind); err != nil {
			return nil, err
		}
		p, err := readSparkOperatorDoc(path, m)
		if p != nil {
			for _, d := range dups {
				p.warn(d)
			}
		}
		if p != nil || err != nil {
			return p, err
		}
		if k := str(m["kind"]); k != "" {
			found = append(found, kindOf(m))
		}
	}
}

// readSparkOperatorDoc reads one document of a supported kind (nil, nil
// for another kind).
func readSparkOperatorDoc(path string, m map[string]any) (*Profile, error) {
	kind := sparkOperatorKind(m)
	if kind == "SparkApplication" || kind == "SparkCluster" {
		if isApacheOperator(m) {
			return readApacheOperator(path, m), nil
		}
	}
	if kind == "SparkApplication" && isStackable(m) {
		return readStackable(path, m), nil
	}
	switch kind {
	case "SparkApplication":
		return readSparkApplication(path, m, asMap(m["spec"]), "spark-operator:spec."), nil
	case "ScheduledSparkApplication":
		spec := asMap(asMap(m["spec"])["template"])
		if spec == nil {
			return nil, fmt.Errorf("mirror: %s: ScheduledSparkApplication %s has no spec.template (the SparkApplication spec it runs)", path, str(asMap(m["metadata"])["name"]))
		}
		p := readSparkApplication(path, m, spec, "spark-operator:spec.template.")
		if s := str(asMap(m["spec"])["schedule"]); s != "" {
			p.warn(fmt.Sprintf("a ScheduledSparkApplication (schedule %q): the local mirror runs its template once, when you run it", s))
		}
		return p, nil
	case "SparkConnect":
		return readSparkConnect(path, m), nil
	}
	return nil, nil
}

// kindOf is "kind X (apiVersion)".
func kindOf(m map[string]any) string {
	k := "kind " + str(m["kind"])
	if api := str(m["apiVersion"]); api != "" {
		k += " (" + api + ")"
	}
	return k
}

func foundKinds(found []string) string {
	if len(found) == 0 {
		return ""
	}
	return ": found " + strings.Join(found, ", ")
}

// readSparkApplication reads a SparkApplication spec; at names where it
// sits ("spark-operator:spec." or "spark-operator:spec.template.").
func readSparkApplication(path string, m, spec map[string]any, at string) *Profile {
	p := newProfile(path, FormatSparkOperator)
	p.Source.Platform = "kubernetes"
	if api := str(m["apiVersion"]); api != "" && !strings.HasSuffix(api, "/v1beta2") {
		p.warn(fmt.Sprintf("apiVersion %s: devenv reads sparkoperator.k8s.io/v1beta2; fields may differ", api))
	}
	if sv := str(spec["sparkVersion"]); sv != "" {
		p.setSpark(sv, at+"sparkVersion (declared)", false)
	}
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, str(spec["image"]), at+"image", false)
	setStr(&p.Runtime.Python, &p.Runtime.PythonProvenance, str(spec["pythonVersion"]), at+"pythonVersion", false)
	readSparkAppConfs(p, spec, at)
	readMainApplication(p, spec, "arguments", at)
	readSparkPod(p, "driver", asMap(spec["driver"]), at)
	readSparkPod(p, "executor", asMap(spec["executor"]), at)
	for _, role := range []string{"executor", "driver"} { // spec.nodeSelector: both roles
		p.setPodType(role, selectedInstanceType(asMap(spec["nodeSelector"])))
	}
	if j, ok := findRapidsJar(str(spec["image"])); ok {
		p.setRapidsJar(j, at+"image")
	}
	return p
}

// readSparkAppConfs reads sparkConf, hadoopConf, deps and dynamicAllocation,
// which SparkApplication and SparkConnect share.
func readSparkAppConfs(p *Profile, spec map[string]any, at string) {
	conf := asMap(spec["sparkConf"])
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		p.addConf(k, str(conf[k]), strings.TrimSuffix(at, ".")+".sparkConf")
	}
	hconf := asMap(spec["hadoopConf"])
	for _, k := range slices.Sorted(maps.Keys(hconf)) {
		p.addConf("spark.hadoop."+k, str(hconf[k]), strings.TrimSuffix(at, ".")+".hadoopConf")
	}
	readSparkAppDeps(p, asMap(spec["deps"]), at)
	readSparkAppDynamic(p, asMap(spec["dynamicAllocation"]), at)
}

// readSparkConnect reads a SparkConnect (sparkoperator.k8s.io/v1alpha1):
// the Connect server is the driver; its image is spec.image or the
// server pod template's container.
func readSparkConnect(path string, m map[string]any) *Profile {
	const at = "spark-operator:spec."
	p := newProfile(path, FormatSparkOperator)
	p.Source.Platform = "kubernetes"
	spec := asMap(m["spec"])
	if api := str(m["apiVersion"]); api != "" && !strings.HasSuffix(api, "/v1alpha1") {
		p.warn(fmt.Sprintf("apiVersion %s: devenv reads SparkConnect of sparkoperator.k8s.io/v1alpha1; fields may differ", api))
	}
	if sv := str(spec["sparkVersion"]); sv != "" {
		p.setSpark(sv, at+"sparkVersion (declared)", false)
	}
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, str(spec["image"]), at+"image", false)
	if img, where := podTemplateImage(asMap(spec["server"])); img != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, img, at+"server."+where, false)
	}
	if img, where := podTemplateImage(asMap(spec["executor"])); img != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, img, at+"executor."+where, false)
	}
	readSparkAppConfs(p, spec, at)
	server := asMap(spec["server"])
	readSparkPod(p, "driver", server, at+"server.")
	readSparkPod(p, "executor", asMap(spec["executor"]), at)
	return p
}

// podTemplateImage is the image of a pod spec's first container
// (template.spec.containers[0].image), and where it was.
func podTemplateImage(pod map[string]any) (image, where string) {
	for i, c := range asList(dig(pod, "template", "spec", "containers")) {
		if img := str(asMap(c)["image"]); img != "" {
			return img, fmt.Sprintf("template.spec.containers[%d].image", i)
		}
	}
	return "", ""
}

func readSparkAppDeps(p *Profile, deps map[string]any, at string) {
	join := func(key string) string {
		var parts []string
		for _, x := range asList(deps[key]) {
			parts = append(parts, str(x))
		}
		return strings.Join(parts, ",")
	}
	if j := join("jars"); j != "" {
		p.addConf("spark.jars", j, at+"deps.jars")
	}
	if j := join("packages"); j != "" {
		p.addConf("spark.jars.packages", j, at+"deps.packages")
	}
}

// readSparkAppDynamic maps spec.dynamicAllocation onto Spark's confs.
func readSparkAppDynamic(p *Profile, da map[string]any, at string) {
	src := at + "dynamicAllocation"
	for field, key := range map[string]string{"enabled": "enabled", "initialExecutors": "initialExecutors",
		"minExecutors": "minExecutors", "maxExecutors": "maxExecutors", "shuffleTrackingTimeout": "shuffleTracking.timeout"} {
		if v := str(da[field]); v != "" {
			p.addConf("spark.dynamicAllocation."+key, v, src+"."+field)
		}
	}
}

// readSparkPod maps spec.driver / spec.executor onto Spark confs.
// readMainApplication notes a SparkApplication's application file and its
// arguments (under argsKey: Kubeflow's arguments, Stackable's args) for
// cloudFromStorage, and reads an application jar's name.
func readMainApplication(p *Profile, spec map[string]any, argsKey, at string) {
	main := str(spec["mainApplicationFile"])
	p.files = append(p.files, main)
	for _, a := range asList(spec[argsKey]) {
		p.files = append(p.files, str(a))
	}
	if strings.HasSuffix(main, ".jar") {
		p.jarNameFacts(pathpkg.Base(main), at+"mainApplicationFile ("+pathpkg.Base(main)+")")
	}
}

// podSparkLabelRe is a pod label version: that can be a Spark release on
// Kubernetes (2.3 and later); an application's own 1.0.0 is not one.
var podSparkLabelRe = lazy.Regexp(`^[234]\.\d+\.\d+$`)

func readSparkPod(p *Profile, role string, pod map[string]any, at string) {
	if pod == nil {
		return
	}
	src := at + role
	if role == "driver" && strings.HasSuffix(at, "server.") {
		src = strings.TrimSuffix(at, ".")
	}
	set := func(field, key string) {
		if v := str(pod[field]); v != "" {
			p.addConf(key, v, src+"."+field)
		}
	}
	set("cores", "spark."+role+".cores")
	set("memory", "spark."+role+".memory")
	set("memoryOverhead", "spark."+role+".memoryOverhead")
	if role == "executor" {
		set("instances", "spark.executor.instances")
	}
	p.typeFromPodSelector(role, pod)
	if v := str(asMap(pod["labels"])["version"]); podSparkLabelRe().MatchString(v) {
		p.podSparkLabel = append(p.podSparkLabel, [2]string{v, src + ".labels.version"})
	}
	if gpu := asMap(pod["gpu"]); gpu != nil && num(gpu["quantity"]) > 0 {
		p.addConf("spark."+role+".resource.gpu.amount", str(gpu["quantity"]), src+".gpu.quantity")
	}
	for _, e := range asList(pod["env"]) {
		em := asMap(e)
		if name := str(em["name"]); name != "" && em["value"] != nil {
			p.addEnv(name, str(em["value"]))
		}
	}
	for _, c := range asList(dig(pod, "template", "spec", "containers")) {
		for _, e := range asList(asMap(c)["env"]) {
			em := asMap(e)
			if name := str(em["name"]); name != "" && em["value"] != nil {
				p.addEnv(name, str(em["value"]))
			}
		}
	}
	envVars := asMap(pod["envVars"])
	for _, k := range slices.Sorted(maps.Keys(envVars)) {
		p.addEnv(k, str(envVars[k]))
	}
}

// checkSparkOperatorTypes refuses a value of the wrong type in an
// application document (see checkTypes); other kinds are not checked.
func checkSparkOperatorTypes(path string, doc *yaml.Node, kind string) error {
	var shape any
	switch kind {
	case "SparkApplication":
		shape = sparkApplication{}
	case "ScheduledSparkApplication":
		shape = scheduledSparkApplication{}
	default:
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return checkNodeTypes(path, doc.Content[0], shape, false, "fix the value as the SparkApplication schema has it")
}
