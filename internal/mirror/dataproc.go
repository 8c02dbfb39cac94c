package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
	"go.yaml.in/yaml/v3"
)

// importDataproc reads `gcloud dataproc clusters describe` output (YAML or
// JSON), for clusters on GCE or on GKE.
func importDataproc(path string, data []byte) (*Profile, error) {
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		return nil, fmt.Errorf("mirror: %s: %w; fix the YAML or export it again with gcloud dataproc clusters describe --format yaml", path, err)
	}
	repeated := dropDuplicateKeys(&node) // a key written twice: its last value, as YAML readers of 1.1 (gcloud's among them) take it
	if len(node.Content) == 0 {
		return nil, fmt.Errorf("mirror: %s: a Dataproc cluster description is a YAML or JSON object", path)
	}
	doc := node.Content[0]
	var v any
	if err := doc.Decode(&v); err != nil {
		return nil, fmt.Errorf("mirror: %s: %w; fix the YAML or export it again with gcloud dataproc clusters describe --format yaml", path, err)
	}
	p, err := importDataprocTree(path, doc, v)
	if p != nil {
		for _, n := range repeated {
			p.warn(n)
		}
	}
	return p, err
}

// importDataprocTree reads a decoded Dataproc document (doc, as v).
func importDataprocTree(path string, doc *yaml.Node, v any) (*Profile, error) {
	root := asMap(v)
	if root == nil {
		return nil, fmt.Errorf("mirror: %s: a Dataproc cluster description is a YAML or JSON object", path)
	}
	if c := createClusterRequest(root); c != nil {
		root = c
	}
	if isDataprocWorkflow(root) {
		p := newProfile(path, FormatDataproc)
		readDataprocWorkflow(p, root)
		return p, nil
	}
	if isDataprocBatch(root) {
		p := newProfile(path, FormatDataproc)
		readDataprocBatch(p, root)
		return p, nil
	}
	if k := dataprocJobKind(root); k != "" {
		p := newProfile(path, FormatDataproc)
		readDataprocJob(p, root, k)
		return p, nil
	}
	if err := checkNodeTypes(path, doc, dataprocDescribe{}, false, "fix the value or export it again with gcloud dataproc clusters describe --format yaml"); err != nil {
		return nil, err
	}
	p := newProfile(path, FormatDataproc)
	p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	if vc := asMap(root["virtualClusterConfig"]); vc != nil {
		p.Source.Platform = "dataproc-gke"
		ks := asMap(dig(vc, "kubernetesClusterConfig", "kubernetesSoftwareConfig"))
		readDataprocProperties(p, asMap(ks["properties"]))
		if sv := str(dig(ks, "componentVersion", "SPARK")); sv != "" {
			p.applyDataprocGKE(sv)
		}
		return p, nil
	}
	readDataprocClusterConfig(p, asMap(root["config"]))
	return p, nil
}

// createClusterRequest is the cluster of a clusters.create request
// ({projectId, region, cluster: {clusterName, config}}, as the client
// libraries take it), or nil.
func createClusterRequest(m map[string]any) map[string]any {
	c := asMap(m["cluster"])
	cfg := asMap(c["config"])
	if cfg["softwareConfig"] == nil && cfg["gceClusterConfig"] == nil && cfg["workerConfig"] == nil {
		return nil
	}
	return c
}

// readDataprocClusterConfig reads a cluster's config (of a describe, or of
// a workflow template's managed cluster): properties, nodes, RAPIDS
// metadata, initialization actions, image version.
func readDataprocClusterConfig(p *Profile, cfg map[string]any) {
	sw := asMap(cfg["softwareConfig"])
	readDataprocProperties(p, asMap(sw["properties"]))
	readDataprocNodes(p, cfg)
	if wc := asMap(cfg["workerConfig"]); num(wc["numInstances"]) == 0 && str(asMap(sw["properties"])["dataproc:dataproc.allow.zero.workers"]) == "true" {
		// a single-node cluster (what --single-node sets): the master runs the executors, on its GPUs
		p.setSingleNode(p.Topology.DriverType, "dataproc:softwareConfig.properties dataproc:dataproc.allow.zero.workers (single node)")
		readDataprocAccelerators(p, asMap(cfg["masterConfig"]), "dataproc:masterConfig.accelerators (the single node)")
	}
	md := stringMap(dig(cfg, "gceClusterConfig", "metadata"))
	if rv := md["spark-rapids-version"]; rv != "" {
		p.GPU.Rapids, p.GPU.RapidsProvenance = rv, "dataproc:gceClusterConfig.metadata.spark-rapids-version"
	}
	setStr(&p.GPU.CUDA, &p.GPU.CUDAProvenance, md["cuda-version"], "dataproc:gceClusterConfig.metadata.cuda-version", false)
	if strings.EqualFold(md["rapids-runtime"], "SPARK") {
		p.GPU.RapidsEnabled = true
	}
	for _, ia := range asList(cfg["initializationActions"]) {
		f := str(asMap(ia)["executableFile"])
		if strings.Contains(f, "spark-rapids") {
			p.GPU.RapidsEnabled = true
		}
		p.warn(fmt.Sprintf("initialization action %s is not run locally; what it adds to spark-defaults.conf shows only in an event log", f))
	}
	if iv := str(sw["imageVersion"]); iv != "" {
		p.applyDataprocImage(iv)
	}
}

// readDataprocProperties splits prefixed properties: spark: -> confs,
// spark-env: -> env, others dropped with the file they belong to.
func readDataprocProperties(p *Profile, props map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v := str(props[k])
		prefix, key, ok := strings.Cut(k, ":")
		switch {
		case !ok:
			p.drop(k, v, "property without a file prefix (expected prefix:key)")
		case prefix == "spark":
			p.addConf(key, v, "dataproc:properties spark:")
		case prefix == "spark-env":
			p.addEnv(key, v)
		default:
			p.drop(k, v, "not a Spark conf ("+prefix+" properties); kept only on the cluster")
		}
	}
}

func readDataprocNodes(p *Profile, cfg map[string]any) {
	if mc := asMap(cfg["masterConfig"]); mc != nil {
		p.Topology.DriverType = lastSegment(str(mc["machineTypeUri"]))
	}
	wc := asMap(cfg["workerConfig"])
	if wc == nil {
		return
	}
	setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(wc["numInstances"]), "dataproc:workerConfig.numInstances", false)
	if sc := asMap(cfg["secondaryWorkerConfig"]); sc != nil && num(sc["numInstances"]) > 0 {
		p.Topology.Workers += num(sc["numInstances"])
		p.Topology.WorkersProvenance = "dataproc:workerConfig+secondaryWorkerConfig"
	}
	p.Topology.WorkerType = lastSegment(str(wc["machineTypeUri"]))
	readDataprocAccelerators(p, wc, "dataproc:workerConfig.accelerators")
}

// readDataprocAccelerators reads a node group's GPUs per node and model.
func readDataprocAccelerators(p *Profile, group map[string]any, src string) {
	for _, a := range asList(group["accelerators"]) {
		am := asMap(a)
		setInt(&p.GPU.PerNode, &p.GPU.PerNodeProvenance, num(am["acceleratorCount"]), src, false)
		p.GPU.AcceleratorType = lastSegment(str(am["acceleratorTypeUri"]))
		setStr(&p.GPU.Model, &p.GPU.ModelProvenance, gpuModel(p.GPU.AcceleratorType), src, false)
	}
}

// gpuModel turns "nvidia-tesla-t4" or "nvidia-l4" into "T4" or "L4".
func gpuModel(acc string) string {
	acc = strings.TrimPrefix(strings.TrimPrefix(acc, "nvidia-"), "tesla-")
	return strings.ToUpper(acc)
}

var dataprocImageRe = lazy.Regexp(`^(\d+)\.(\d+)(?:\.(\d+))?(?:-(\w+))?`)

// applyDataprocImage maps an image version such as "2.0.50-ubuntu18".
func (p *Profile) applyDataprocImage(iv string) {
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, iv, "dataproc:softwareConfig.imageVersion", false)
	m := dataprocImageRe().FindStringSubmatch(iv)
	if m == nil {
		p.warn(fmt.Sprintf("Dataproc image version %q is not of the form major.minor[.sub][-os]; versions unknown", iv))
		return
	}
	r, ok := lookupRuntime("dataproc", m[1]+"."+m[2])
	if !ok {
		p.warn(fmt.Sprintf("Dataproc image %s.%s is not in devenv's table; set spark:, java: in devenv.yaml", m[1], m[2]))
		return
	}
	p.applyRuntime("dataproc", r)
}

// applyDataprocGKE maps a GKE Spark engine version such as "3.1-dataproc-14".
func (p *Profile) applyDataprocGKE(sv string) {
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, sv, "dataproc:componentVersion.SPARK", false)
	minor, _, _ := strings.Cut(sv, "-")
	r, ok := lookupRuntime("dataproc", "gke-"+minor)
	if !ok {
		p.warn(fmt.Sprintf("Dataproc on GKE Spark engine %s is not in devenv's table; set spark: in devenv.yaml", sv))
		return
	}
	p.applyRuntime("dataproc", r)
}
