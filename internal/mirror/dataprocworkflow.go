package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A Dataproc workflow template (gcloud dataproc workflow-templates
// describe / export, or the file of import and instantiate-from-file):
// placement.managedCluster.config is a cluster's config (image version,
// properties, nodes, accelerators), jobs[] are Dataproc jobs (sparkJob,
// pysparkJob ... with plain Spark properties), each with a stepId. A
// template that runs on an existing cluster names it by labels
// (placement.clusterSelector) and holds no image. gcloud accepts the
// proto's snake_case names as well as the camelCase ones.

// isDataprocWorkflow reports whether m is a workflow template.
func isDataprocWorkflow(m map[string]any) bool {
	m = asMap(camelKeys(m))
	pl := asMap(m["placement"])
	return workflowJobs(m) != nil && (asMap(pl["managedCluster"]) != nil || asMap(pl["clusterSelector"]) != nil)
}

// workflowJobs are a template's jobs: the list the proto has, or one job
// written as a mapping (a stepId and a job kind, as some published
// templates hold it).
func workflowJobs(m map[string]any) []any {
	if l := asList(m["jobs"]); l != nil {
		return l
	}
	j := asMap(m["jobs"])
	if j == nil {
		return nil
	}
	for _, kind := range dataprocJobKinds {
		if j[kind] != nil {
			return []any{j}
		}
	}
	return nil
}

// readDataprocWorkflow reads a workflow template into p.
func readDataprocWorkflow(p *Profile, root map[string]any) {
	root = asMap(camelKeys(root))
	p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	pl := asMap(root["placement"])
	if mc := asMap(pl["managedCluster"]); mc != nil {
		cfg := asMap(mc["config"])
		readDataprocClusterConfig(p, cfg)
		if str(dig(cfg, "softwareConfig", "imageVersion")) == "" {
			p.warn("the template's managed cluster names no softwareConfig.imageVersion: Dataproc then uses its default image, which changes over time; set spark:, java: and python: in devenv.yaml")
		}
	} else {
		p.warn("the template runs on an existing cluster chosen by placement.clusterSelector labels: mirror that cluster's describe, or set spark:, java: and python: in devenv.yaml")
	}
	if asList(root["jobs"]) == nil {
		p.warn("jobs is one job written as a mapping, not a list: read as that job (gcloud's import wants a list)")
	}
	for i, j := range workflowJobs(root) {
		readWorkflowJob(p, i, asMap(j))
	}
	var params []string
	for _, prm := range asList(root["parameters"]) {
		params = append(params, str(asMap(prm)["name"]))
	}
	if len(params) > 0 {
		p.warn(fmt.Sprintf("template parameters %s replace fields when it is instantiated; the values the template holds were read", strings.Join(params, ", ")))
	}
}

// readWorkflowJob reads one ordered job: its Spark properties and jars.
func readWorkflowJob(p *Profile, i int, job map[string]any) {
	step := str(job["stepId"])
	if step == "" {
		step = fmt.Sprint(i)
	}
	for _, kind := range dataprocJobKinds {
		w := asMap(job[kind])
		if w == nil {
			continue
		}
		src := "dataproc:jobs[" + step + "]." + kind
		props := asMap(w["properties"])
		for _, k := range slices.Sorted(maps.Keys(props)) {
			v := str(props[k])
			if old, ok := p.Conf[k]; ok && old != v {
				p.warn(fmt.Sprintf("%s sets %s=%s where an earlier job set %s; the later job's value is kept", src, k, v, old))
			}
			p.addConf(k, v, src+".properties")
		}
		jars := append([]any{w["mainJarFileUri"]}, asList(w["jarFileUris"])...)
		for _, j := range jars {
			if f := lastSegment(str(j)); strings.HasSuffix(f, ".jar") {
				p.jarNameFacts(f, src+" ("+f+")")
			}
		}
		return
	}
	p.warn(fmt.Sprintf("workflow job %s is not a Spark job; skipped", step))
}

// keepKeys are maps whose keys are data (property names, labels,
// metadata), not field names: camelKeys leaves them as written.
var keepKeys = map[string]bool{"properties": true, "metadata": true, "labels": true, "userLabels": true,
	"clusterLabels": true, "componentVersion": true}

// camelKeys turns a decoded proto message's snake_case field names into
// the camelCase ones (managed_cluster -> managedCluster), as gcloud reads
// either; the keys of data maps (keepKeys) stay.
func camelKeys(v any) any {
	if m := asMap(v); m != nil {
		out := make(map[string]any, len(m))
		for k, x := range m {
			ck := snakeToCamel(k)
			if keepKeys[ck] {
				out[ck] = x
				continue
			}
			out[ck] = camelKeys(x)
		}
		return out
	}
	if l, ok := v.([]any); ok {
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = camelKeys(x)
		}
		return out
	}
	return v
}

func snakeToCamel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
