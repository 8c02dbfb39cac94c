package mirror

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
	"go.yaml.in/yaml/v3"
)

// An AWS CloudFormation template (YAML or JSON) that makes an EMR cluster
// (a resource of Type AWS::EMR::Cluster) is read as the cluster it makes:
// its ReleaseLabel, Applications, Configurations (ConfigurationProperties)
// and Instances' groups or fleets. Ref and Sub of the template's own
// Parameters take their Default; anything else a function computes stays
// a ${...} placeholder, which the local config never keeps.

const emrClusterType = "AWS::EMR::Cluster"

// emrClusterResource is the name and Properties of the first
// AWS::EMR::Cluster resource of a template (by name), or "" and nil.
func emrClusterResource(m map[string]any) (string, map[string]any) {
	res := asMap(m["Resources"])
	for _, name := range slices.Sorted(maps.Keys(res)) {
		if r := asMap(res[name]); str(r["Type"]) == emrClusterType {
			return name, asMap(r["Properties"])
		}
	}
	return "", nil
}

// importCloudFormation reads the EMR cluster a template makes, and
// reports false when data is no such template.
func importCloudFormation(path string, data []byte) (*Profile, bool) {
	tmpl := cfnTemplate(data)
	name, props := emrClusterResource(tmpl)
	if props == nil {
		return nil, false
	}
	props = asMap(resolveCFN(props, cfnDefaults(tmpl)))
	p := newProfile(path, FormatEMR)
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	p.warn(fmt.Sprintf("read the EMR cluster of the CloudFormation resource %s (its parameters at their defaults)", name))
	readEMRCluster(p, cfnCluster(props))
	p.applyEMRRapids()
	return p, true
}

// cfnTemplate is data decoded as a CloudFormation template (YAML or JSON,
// short forms written as JSON forms, a repeated key's last value), or nil
// when it names no EMR cluster or does not decode.
func cfnTemplate(data []byte) map[string]any {
	if !bytes.Contains(data, []byte(emrClusterType)) {
		return nil
	}
	var node yaml.Node
	if yaml.Unmarshal(data, &node) != nil || len(node.Content) == 0 {
		return nil
	}
	dropDuplicateKeys(&node)
	return asMap(cfnValue(node.Content[0]))
}

// cfnValue is a YAML node as a Go value, CloudFormation's short forms
// (!Ref X, !Sub s, !GetAtt a.b, ...) written as their JSON forms ({"Ref":
// "X"}, {"Fn::Sub": s}, ...).
func cfnValue(n *yaml.Node) any {
	var v any
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = cfnValue(n.Content[i+1])
		}
		v = m
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			l = append(l, cfnValue(c))
		}
		v = l
	case yaml.AliasNode:
		return cfnValue(n.Alias)
	default:
		plain := *n
		if cfnTag(n.Tag) != "" {
			plain.Tag = "!!str"
		}
		_ = plain.Decode(&v)
	}
	if fn := cfnTag(n.Tag); fn != "" {
		if fn != "Ref" && fn != "Condition" {
			fn = "Fn::" + fn
		}
		return map[string]any{fn: v}
	}
	return v
}

// cfnTag is the function of a short-form tag (!Ref: Ref), or "" for
// YAML's own tags (!!str, !!map) and none.
func cfnTag(tag string) string {
	if strings.HasPrefix(tag, "!!") {
		return ""
	}
	return strings.TrimPrefix(tag, "!")
}

// cfnDefaults are the Default of each of the template's Parameters.
func cfnDefaults(tmpl map[string]any) map[string]any {
	out := map[string]any{}
	for name, p := range asMap(tmpl["Parameters"]) {
		if d, ok := asMap(p)["Default"]; ok {
			out[name] = d
		}
	}
	return out
}

var cfnSubRe = lazy.Regexp(`\$\{([A-Za-z0-9_:.]+)\}`)

// resolveCFN replaces Ref and Sub of the parameters with their defaults;
// any other function, and a reference without a default, becomes a
// ${...} placeholder.
func resolveCFN(v any, params map[string]any) any {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 1 {
			for fn, arg := range t {
				switch {
				case fn == "Ref":
					if d, ok := params[str(arg)]; ok {
						return d
					}
					return "${" + str(arg) + "}"
				case fn == "Fn::Sub":
					return cfnSubRe().ReplaceAllStringFunc(str(arg), func(ref string) string {
						if d, ok := params[ref[2:len(ref)-1]]; ok {
							return str(d)
						}
						return ref
					})
				case strings.HasPrefix(fn, "Fn::"):
					return "${" + fn + "}"
				}
			}
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = resolveCFN(e, params)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = resolveCFN(e, params)
		}
		return out
	}
	return v
}

// cfnCluster is the Properties of an AWS::EMR::Cluster in the shape of
// aws emr describe-cluster's Cluster, which readEMRCluster reads.
func cfnCluster(props map[string]any) map[string]any {
	inst := asMap(props["Instances"])
	var groups, fleets []any
	group := func(kind string, g map[string]any) {
		if g != nil {
			groups = append(groups, map[string]any{"InstanceGroupType": kind, "InstanceType": g["InstanceType"],
				"RequestedInstanceCount": g["InstanceCount"], "Configurations": cfnConfigurations(g["Configurations"])})
		}
	}
	group("MASTER", asMap(inst["MasterInstanceGroup"]))
	group("CORE", asMap(inst["CoreInstanceGroup"]))
	for _, g := range asList(inst["TaskInstanceGroups"]) {
		group("TASK", asMap(g))
	}
	for kind, key := range map[string]string{"CORE": "CoreInstanceFleet", "MASTER": "MasterInstanceFleet"} {
		if f := asMap(inst[key]); f != nil {
			fleets = append(fleets, map[string]any{"InstanceFleetType": kind, "TargetOnDemandCapacity": f["TargetOnDemandCapacity"], "TargetSpotCapacity": f["TargetSpotCapacity"]})
		}
	}
	return map[string]any{"ReleaseLabel": props["ReleaseLabel"], "Applications": props["Applications"],
		"Configurations": cfnConfigurations(props["Configurations"]), "InstanceGroups": groups, "InstanceFleets": fleets}
}

// cfnConfigurations are CloudFormation's Configurations (Classification,
// ConfigurationProperties, Configurations) as EMR's (Properties).
func cfnConfigurations(v any) []any {
	var out []any
	for _, c := range asList(v) {
		m := asMap(c)
		out = append(out, map[string]any{"Classification": m["Classification"], "Properties": m["ConfigurationProperties"],
			"Configurations": cfnConfigurations(m["Configurations"])})
	}
	return out
}

// isCloudFormationEMR reports whether data is a template that makes an
// EMR cluster (for the format's detection).
func isCloudFormationEMR(data []byte) bool {
	_, props := emrClusterResource(cfnTemplate(data))
	return props != nil
}
