package mirror

import (
	"fmt"
	"go.yaml.in/yaml/v3"
	"maps"
	"slices"
	"strings"
)

// importEMR reads `aws emr describe-cluster` output or a Configurations
// JSON (a list of classifications, or an object holding one).
func importEMR(path, format string, data []byte) (*Profile, error) {
	if format == FormatEMR {
		if p, ok := importCloudFormation(path, data); ok {
			return p, nil
		}
	}
	v, err := decodeJSON(data)
	if y := yamlTree(data); err != nil && y != nil {
		v, err = y, nil // the same shapes written as YAML (a Terraform template of Configurations)
	}
	if err != nil {
		return nil, fmt.Errorf("mirror: %s:%w; fix the JSON or export it again with the aws CLI", path, err)
	}
	if format == FormatEMR && emrSteps(v) != nil {
		p := newProfile(path, format)
		readEMRSteps(p, v)
		return p, nil
	}
	if m := startJobRunBody(asMap(v)); format == FormatEMR && m != nil {
		p := newProfile(path, format)
		readStartJobRunRequest(p, m)
		return p, nil
	}
	if err := checkEMRTypes(path, format, v, data); err != nil {
		return nil, err
	}
	p := newProfile(path, format)
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	if format == FormatEMRConfigurations {
		configs := asList(v)
		if configs == nil {
			configs = asList(ciGet(asMap(v), "configurations"))
		}
		if configs == nil {
			return nil, fmt.Errorf("mirror: %s: an EMR Configurations file is a JSON list of {Classification, Properties}", path)
		}
		readEMRConfigurations(p, configs, "")
		p.applyEMRRapids()
		return p, nil
	}
	c := asMap(asMap(v)["Cluster"])
	if c == nil {
		return nil, fmt.Errorf("mirror: %s: expected a top-level \"Cluster\" object as printed by aws emr describe-cluster", path)
	}
	readEMRCluster(p, c)
	p.applyEMRRapids()
	return p, nil
}

func readEMRCluster(p *Profile, c map[string]any) {
	label := str(c["ReleaseLabel"])
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, "emr:ReleaseLabel", false)
	for _, a := range asList(c["Applications"]) {
		am := asMap(a)
		if strings.EqualFold(str(am["Name"]), "Spark") {
			p.setSpark(str(am["Version"]), "emr:Applications", false)
		}
	}
	readEMRConfigurations(p, asList(c["Configurations"]), "")
	for _, g := range asList(c["InstanceGroups"]) {
		gm := asMap(g)
		switch strings.ToUpper(str(gm["InstanceGroupType"])) {
		case "MASTER":
			p.Topology.DriverType = str(gm["InstanceType"])
		case "CORE", "TASK":
			n := num(gm["RequestedInstanceCount"])
			if n == 0 {
				n = num(gm["RunningInstanceCount"])
			}
			p.Topology.Workers += n
			p.Topology.WorkersProvenance = "emr:InstanceGroups"
			if p.Topology.WorkerType == "" {
				p.Topology.WorkerType = str(gm["InstanceType"])
			}
		}
		readEMRConfigurations(p, asList(gm["Configurations"]), "InstanceGroups."+str(gm["InstanceGroupType"])+".")
	}
	for _, fl := range asList(c["InstanceFleets"]) {
		fm := asMap(fl)
		if strings.EqualFold(str(fm["InstanceFleetType"]), "MASTER") {
			continue
		}
		p.Topology.Workers += num(fm["TargetOnDemandCapacity"]) + num(fm["TargetSpotCapacity"])
		p.Topology.WorkersProvenance = "emr:InstanceFleets (capacity units)"
		p.warn("instance fleets count capacity units, not nodes; the worker count is approximate")
	}
	if label != "" {
		p.applyEMRLabel(label)
	}
}

// applyEMRLabel maps a release label to versions.
func (p *Profile) applyEMRLabel(label string) {
	key, java := emrReleaseKey(label)
	r, ok := lookupRuntime("emr", key)
	if !ok {
		p.warn(fmt.Sprintf("EMR release %s is not in devenv's table; set spark:, java: in devenv.yaml", label))
		return
	}
	if java != "" {
		r.Java = java
	}
	p.applyRuntime("emr", r)
}

// applyEMRRapids sets the RAPIDS version EMR bundles when enableSparkRapids
// is on and nothing more direct named a version.
func (p *Profile) applyEMRRapids() {
	if !p.GPU.RapidsEnabled || p.GPU.Rapids != "" || p.Runtime.Label == "" {
		return
	}
	r, ok := lookupRuntime("emr", p.Runtime.Label)
	if !ok || r.Rapids == "" {
		p.warn(fmt.Sprintf("enableSparkRapids is on but the RAPIDS version bundled with %s is not in devenv's table; set rapids: in devenv.yaml", p.Runtime.Label))
		return
	}
	p.GPU.Rapids, p.GPU.RapidsProvenance = r.Rapids, "table:emr-runtime "+r.Key+" (enableSparkRapids)"
}

// readEMRConfigurations walks classifications (keys case-insensitive).
func readEMRConfigurations(p *Profile, configs []any, where string) {
	for _, item := range configs {
		m := asMap(item)
		class := strings.ToLower(str(ciGet(m, "classification")))
		props := asMap(ciGet(m, "properties"))
		src := "emr:" + where + class
		switch class {
		case "spark-defaults":
			for _, k := range slices.Sorted(maps.Keys(props)) {
				p.addConf(k, str(props[k]), src)
			}
		case "spark-env":
			readEMRSparkEnv(p, m, src)
			continue
		case "spark":
			readEMRSparkSwitches(p, props)
		case "":
			p.warn("an EMR configuration without Classification was skipped")
		default:
			for _, k := range slices.Sorted(maps.Keys(props)) {
				p.drop(class+":"+k, str(props[k]), "not a Spark conf ("+class+" classification); kept only on the cluster")
			}
		}
		if class != "spark-env" {
			readEMRConfigurations(p, asList(ciGet(m, "configurations")), where+class+".")
		}
	}
}

// readEMRSparkEnv reads spark-env's export classification into the
// environment, and the Java version from its JAVA_HOME.
func readEMRSparkEnv(p *Profile, m map[string]any, src string) {
	for _, sub := range asList(ciGet(m, "configurations")) {
		sm := asMap(sub)
		if strings.EqualFold(str(ciGet(sm, "classification")), "export") {
			exp := asMap(ciGet(sm, "properties"))
			for _, k := range slices.Sorted(maps.Keys(exp)) {
				p.addEnv(k, str(exp[k]))
			}
		}
	}
	if jh := p.Env["JAVA_HOME"]; jh != "" {
		p.javaFromHome(jh, src+".export.JAVA_HOME")
	}
}

// readEMRSparkSwitches reads the "spark" classification: EMR-level switches,
// of which enableSparkRapids turns the RAPIDS Accelerator on.
func readEMRSparkSwitches(p *Profile, props map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v := str(props[k])
		if strings.EqualFold(k, "enableSparkRapids") && strings.EqualFold(v, "true") {
			p.GPU.RapidsEnabled = true
		}
		p.drop("spark:"+k, v, "EMR-level switch, applied by EMR at install time")
	}
}

// javaFromHome reads a Java major version from a JAVA_HOME path such as
// /usr/lib/jvm/java-17-amazon-corretto.x86_64.
func (p *Profile) javaFromHome(home, src string) {
	for _, major := range []string{"21", "17", "11", "1.8", "8"} {
		if strings.Contains(home, "java-"+major) || strings.Contains(home, "jdk"+major) || strings.Contains(home, "jdk-"+major) {
			if major == "1.8" {
				major = "8"
			}
			setStr(&p.Runtime.Java, &p.Runtime.JavaProvenance, major, src, true)
			return
		}
	}
}

// checkEMRTypes refuses a value of the wrong type (see checkTypes).
// yamlTree is data decoded as one YAML mapping or list (repeated keys
// kept once, as detection reads them), or nil.
func yamlTree(data []byte) any {
	var node yaml.Node
	if yaml.Unmarshal(data, &node) != nil || len(node.Content) == 0 {
		return nil
	}
	dropDuplicateKeys(&node)
	var v any
	if node.Content[0].Decode(&v) != nil {
		return nil
	}
	if asMap(v) == nil && asList(v) == nil {
		return nil
	}
	return v
}

func checkEMRTypes(path, format string, v any, data []byte) error {
	const hint = "fix the value or export it again with the aws CLI"
	var shape any = emrDescribe{}
	if format == FormatEMRConfigurations {
		shape = emrConfigurations{}
		if asList(v) != nil {
			shape = []emrConfiguration{}
		}
	}
	return checkTypes(path, data, shape, true, hint)
}
