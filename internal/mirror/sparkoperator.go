package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	pathpkg "path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// importSparkOperator reads a Spark Operator SparkApplication (v1beta2);
// in a multi-document file the first SparkApplication is used.
func importSparkOperator(path string, data []byte) (*Profile, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("mirror: %s: no document with kind: SparkApplication", path)
		}
		if err != nil {
			return nil, fmt.Errorf("mirror: %s: %w; fix the YAML", path, err)
		}
		m := asMap(v)
		if strings.EqualFold(str(m["kind"]), "SparkApplication") {
			return readSparkApplication(path, m), nil
		}
	}
}

func readSparkApplication(path string, m map[string]any) *Profile {
	p := newProfile(path, FormatSparkOperator)
	p.Source.Platform = "kubernetes"
	if api := str(m["apiVersion"]); api != "" && !strings.HasSuffix(api, "/v1beta2") {
		p.warn(fmt.Sprintf("apiVersion %s: devenv reads sparkoperator.k8s.io/v1beta2; fields may differ", api))
	}
	spec := asMap(m["spec"])
	if sv := str(spec["sparkVersion"]); sv != "" {
		p.setSpark(sv, "spark-operator:spec.sparkVersion (declared)", false)
		p.warn("spec.sparkVersion is a declaration; the image " + str(spec["image"]) + " decides what really runs")
	}
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, str(spec["image"]), "spark-operator:spec.image", false)
	setStr(&p.Runtime.Python, &p.Runtime.PythonProvenance, str(spec["pythonVersion"]), "spark-operator:spec.pythonVersion", false)
	conf := asMap(spec["sparkConf"])
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		p.addConf(k, str(conf[k]), "spark-operator:spec.sparkConf")
	}
	hconf := asMap(spec["hadoopConf"])
	for _, k := range slices.Sorted(maps.Keys(hconf)) {
		p.addConf("spark.hadoop."+k, str(hconf[k]), "spark-operator:spec.hadoopConf")
	}
	readSparkAppDeps(p, asMap(spec["deps"]))
	readSparkAppDynamic(p, asMap(spec["dynamicAllocation"]))
	if f := str(spec["mainApplicationFile"]); strings.HasSuffix(f, ".jar") {
		p.jarNameFacts(pathpkg.Base(f), "spark-operator:spec.mainApplicationFile ("+pathpkg.Base(f)+")")
	}
	readSparkPod(p, "driver", asMap(spec["driver"]))
	readSparkPod(p, "executor", asMap(spec["executor"]))
	if j, ok := findRapidsJar(str(spec["image"])); ok {
		p.setRapidsJar(j, "spark-operator:spec.image")
	}
	return p
}

func readSparkAppDeps(p *Profile, deps map[string]any) {
	join := func(key string) string {
		var parts []string
		for _, x := range asList(deps[key]) {
			parts = append(parts, str(x))
		}
		return strings.Join(parts, ",")
	}
	if j := join("jars"); j != "" {
		p.addConf("spark.jars", j, "spark-operator:spec.deps.jars")
	}
	if j := join("packages"); j != "" {
		p.addConf("spark.jars.packages", j, "spark-operator:spec.deps.packages")
	}
}

// readSparkAppDynamic maps spec.dynamicAllocation onto Spark's confs.
func readSparkAppDynamic(p *Profile, da map[string]any) {
	src := "spark-operator:spec.dynamicAllocation"
	for field, key := range map[string]string{"enabled": "enabled", "initialExecutors": "initialExecutors",
		"minExecutors": "minExecutors", "maxExecutors": "maxExecutors", "shuffleTrackingTimeout": "shuffleTracking.timeout"} {
		if v := str(da[field]); v != "" {
			p.addConf("spark.dynamicAllocation."+key, v, src+"."+field)
		}
	}
}

// readSparkPod maps spec.driver / spec.executor onto Spark confs.
func readSparkPod(p *Profile, role string, pod map[string]any) {
	if pod == nil {
		return
	}
	src := "spark-operator:spec." + role
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
	if gpu := asMap(pod["gpu"]); gpu != nil && num(gpu["quantity"]) > 0 {
		p.addConf("spark."+role+".resource.gpu.amount", str(gpu["quantity"]), src+".gpu.quantity")
	}
	for _, e := range asList(pod["env"]) {
		em := asMap(e)
		if name := str(em["name"]); name != "" && em["value"] != nil {
			p.addEnv(name, str(em["value"]))
		}
	}
	envVars := asMap(pod["envVars"])
	for _, k := range slices.Sorted(maps.Keys(envVars)) {
		p.addEnv(k, str(envVars[k]))
	}
}
